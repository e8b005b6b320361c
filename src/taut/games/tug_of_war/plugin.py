"""The Tug of War plugin: what the shared layers need from this game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taut.core.game import Game, State
from taut.core.plugin import GamePlugin
from taut.games.tug_of_war.model import BONUS
from taut.games.tug_of_war.render import describe, plain, render, styled
from taut.games.tug_of_war.rules import TugOfWar
from taut.games.tug_of_war.state import TugState

if TYPE_CHECKING:
    from taut.core.observation import Observer
    from taut.core.presentation import OptionPresentation
    from taut.core.presenter import Presenter
    from taut.core.record_part import RecordPart
    from taut.core.tutorial import Tutorial

#: Rounds assumed by the nominal ``max_game_length`` (the rules set no limit on rounds).
NOMINAL_ROUNDS = 1_000

#: Legal moves listed by ``help`` at most.
HELP_LIMIT = 60


def _tug(state: State) -> TugState:
    assert isinstance(state, TugState)
    return state


def _goal(game: TugOfWar) -> str:
    rules = game.end_rules
    if rules.end == "target":
        if rules.out == "stop":
            return (
                f"at the end of a round +{rules.target} wins; when somebody reaches "
                f"-{rules.target} the highest score wins"
            )
        return f"at the end of a round +{rules.target} wins and -{rules.target} is out"
    if rules.end == "rounds":
        return f"the highest score after {rules.rounds} rounds wins"
    return f"the most round points after {rules.rounds} rounds win"


#: How to read the table, said before play and by ``help``.
READING = (
    "Each row of the table is a seat: its score, the tiles in its hand and its train. In a "
    "train {5|6} is the starter, dealt face up; (3) is an open end, where a tile with a 3 "
    "can be laid; = 9 is the sum of the train's two open ends. A play scores that sum as it "
    "is once the tile is laid: for you on your own train, against the owner on anyone else's."
)
#: How to type a play, said before play and by ``help``.
TYPING = (
    "Type a play as tile@train.end: 3-5@1.0 lays 3-5 on end 0 of P1's train, the 3 against "
    "the open 3 (either half first is fine); just 3-5, or 3-5@1, is enough when the tile "
    "fits only one place (on the table, or on train 1). Draws and passes are made for you "
    "when forced."
)


def _bonus_how(game: TugOfWar) -> str:
    if game.split_bonus:
        return (
            "When you win a round, type for each opponent how many of the leftover points they "
            "lose; the rest is yours."
        )
    return (
        "When you win a round, type keep to add the leftover points to your score, or give to "
        "take them all from your opponent's (with two players they are never split)."
    )


class TugOfWarPlugin(GamePlugin):
    """Tug of War: dominoes where playing on your own train scores and on another's takes
    away."""

    game_class = TugOfWar
    summary = (
        "Dominoes for 2 to 8 players: a tile laid on your own train scores its open ends, "
        "one laid on another's train takes them from its owner."
    )
    verb = "plays"
    draw_by_agreement = False
    seat_range = (2, 8)
    # The page draws the table from its facts (:meth:`table`): a move costs no drawing here.
    table_drawing = "table.js"
    position_help = (
        'an object with every field --json prints, e.g. {"phase": "turn", "current": 0, '
        '"trains": [{"starter": [3, 5], "end0": [], "end1": [[5, 1]]}, ...], '
        '"hands": [[[2, 4], ...], ...], "hand_sizes": [...], "boneyard": [[0, 0], ...], '
        '"boneyard_size": 14, "scores": [...], ...}'
    )

    def rules_text(self) -> str:
        """The rules in short, with the options that change play."""
        return (
            "Tug of War is played with dominoes: a double-six set for two or three players, "
            "double-nine for four to six and double-twelve for seven or eight (option set). "
            "Each round every player gets one tile face up, the starter of their own train, and "
            "a hand of seven (option hand); the rest is the boneyard. The highest number on a "
            "starter begins (the other half breaks a tie); play goes round in seat order.\n\n"
            "On your turn lay a tile from your hand on an open end of any train, matching "
            "numbers (a double leaves its number open). On your own train you score the sum of "
            "its two open ends after the play; on another player's train that player loses it, "
            "so scores go below zero too. If nothing fits you draw one tile and must play it if "
            "it fits; with an empty boneyard you pass.\n\n"
            "The round ends when somebody lays their last tile, or when nobody can play: the "
            "fewest pips in hand then win it (a tie on pips: no bonus). The winner hands out "
            "the pips left in the other hands. With three or more players any split will do, "
            "part added to their own score, parts taken from opponents; with two players it "
            "all goes one way, added to their own score or taken whole from the opponent's.\n\n"
            "The game ends as the options say: at a target score (end=target, the default: at "
            "the end of a round +50 wins and -50 is out; with out=stop the first player out "
            "ends the game and the highest score wins), after a number of rounds (end=rounds: "
            "the highest score wins) or on round points (end=round-points: a point a round for "
            "the best result). A tie for the win is played off in extra rounds."
        )

    def seat_title(self, game: Game, seat: int) -> str:
        """``P0 (train 0)``: trains are numbered by seat."""
        return f"{game.info.seats[seat]} (train {seat})"

    # -- presentation ---------------------------------------------------------------------

    def render(self, state: State, markup: bool = False) -> str:
        """The table as the state's viewer may see it: trains, scores, hand sizes and the
        viewer's own hand (every hand for a full state); coloured with ``markup``."""
        return render(_tug(state), styled if markup else plain)

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """The table as dominoes: trains, score sheet, boneyard, ``seat``'s hand; a play is
        a hand tile then an open end (``{tile}@{end}``), other moves are buttons; laid out for
        a desktop's screen."""
        from taut.games.tug_of_war.svg import board_svg

        return board_svg(_tug(view), seat, legal)

    def svg_narrow(self, view: State, seat: int | None, legal: Sequence[str]) -> str | None:
        """The same table laid out a phone's width: the score sheet over the round's facts,
        trains, hands and buttons wrapping onto more rows."""
        from taut.games.tug_of_war.svg import board_svg_narrow

        return board_svg_narrow(_tug(view), seat, legal)

    def static_files(self) -> dict[str, Path]:
        """The page's drawing of the table from :meth:`table`'s data."""
        return {"table.js": Path(__file__).parent / "table.js"}

    def table(self, view: State, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
        """The table's facts as :mod:`.table_data` gives them: the page draws both layouts
        from them (``table_drawing``), exactly as :meth:`svg` and :meth:`svg_narrow` do."""
        from taut.games.tug_of_war.table_data import table_data

        return table_data(_tug(view), seat, legal)

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """One public line on the node (a deal shows only once complete; a draw never names
        the tile)."""
        if not joint:
            return []  # no move (the game has no agreed end to tell)
        line = describe(_tug(before), joint, _tug(after))
        return [] if line is None else [line]

    def describe_move(self, state: State, seat: int, action_text: str) -> str:
        """A move as the narration says it (``P0 plays 3-5 on end 1 of own train: P0 +8``)."""
        from taut.games.tug_of_war.render import move_words

        try:
            action = state.string_to_action(seat, action_text)
        except ValueError:
            return action_text
        return move_words(_tug(state), seat, action)

    def option_presentation(self, game_class: type[Game]) -> OptionPresentation:
        """Plain labels, groups, conditions and presets for the new-game form."""
        from taut.games.tug_of_war.presentation import presentation

        return presentation()

    def legend(self, game: Game) -> list[str]:
        """The goal, how to read the table and how to type a move."""
        assert isinstance(game, TugOfWar)
        return [
            f"{game.title} with a {game.dominoes.title()} set, hands of {game.hand_size}: "
            f"{_goal(game)}.",
            READING,
            f"{TYPING} {_bonus_how(game)} Type help for the legal moves, quit to stop.",
        ]

    def move_help(self, state: State, seat: int) -> str | None:
        """How to read the table and write a move here, and the legal moves."""
        tug = _tug(state)
        legal = list(tug.legal_actions(seat))
        shown = " ".join(tug.action_to_string(seat, a) for a in legal[:HELP_LIMIT])
        if len(legal) > HELP_LIMIT:
            shown += f" ... and {len(legal) - HELP_LIMIT} more"
        bonus = tug.bonus
        if tug.phase == BONUS and bonus is not None and bonus.target is not None:
            left, target = bonus.remaining, bonus.target
            if tug.game.split_bonus:
                how = (
                    f"You won the round: type how many of the {left} points left "
                    f"{tug.seat_name(target)} loses, as a number (e.g. {left}) or "
                    f"-points@seat (-{left}@{target}); what nobody loses is yours."
                )
            else:
                how = (
                    f"You won the round: type keep to add all {left} points to your score, or "
                    f"give to take all {left} from {tug.seat_name(target)} (-{left}@{target}); "
                    "with two players the leftover is not split."
                )
        else:
            how = f"{READING}\n{TYPING}"
        return f"{how}\nLegal: {shown}"

    def presenter(self, game: Game) -> Presenter:
        """Moves as lines, a score sheet after every round, the table at each human turn."""
        from taut.games.tug_of_war.presenter import TugPresenter

        return TugPresenter(self, game)

    # -- records, statistics, adapters ----------------------------------------------------

    def record_part(self, game: Game) -> RecordPart | None:
        """The rounds as dealt and played, the final scores and the winner."""
        from taut.games.tug_of_war.record import TugRecordPart

        return TugRecordPart(game)

    def seat_stats(self, state: State) -> dict[str, Sequence[float]]:
        """Each seat's final score."""
        return {"final score": list(_tug(state).scores)}

    def game_stats(self, state: State) -> dict[str, float]:
        """The rounds played (tie-break rounds included)."""
        tug = _tug(state)
        return {"rounds": tug.round if tug.is_terminal() else tug.round - 1}

    def lead(self, state: State) -> Sequence[float]:
        """Who is ahead: the scores (with ``end=round-points``, round points first)."""
        tug = _tug(state)
        if tug.game.end_rules.end == "round-points":
            # A round point outranks any score gap (scores only break ties).
            return [1e6 * p + s for p, s in zip(tug.points, tug.scores, strict=True)]
        return [float(s) for s in tug.scores]

    def observer(self) -> Observer:
        """Phase, scores, own hand, trains and the bonus (see :mod:`.observation`)."""
        from taut.games.tug_of_war.observation import TugOfWarObserver

        return TugOfWarObserver()

    def max_game_length(self, game: Game) -> int:
        """A nominal bound: :data:`NOMINAL_ROUNDS` rounds of the longest possible round."""
        assert isinstance(game, TugOfWar)
        tiles, n = game.dominoes.size, game.num_players
        # One round: at most a play per tile, a draw and a pass after it per boneyard tile,
        # fewer than n passes in a row between plays with the boneyard empty, and the
        # bonus steps (one per opponent and the keep step).
        per_round = tiles + 2 * tiles + n * (tiles + 1) + n
        return per_round * NOMINAL_ROUNDS

    def tutorial(self) -> Tutorial:
        """A short scripted game that teaches the rules one at a time
        (:mod:`taut.games.tug_of_war.tutorial`)."""
        from taut.games.tug_of_war.tutorial import TUTORIAL

        return TUTORIAL


plugin = TugOfWarPlugin()
