"""The Push-Pull plugin: what the shared layers need from this game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taut.core.game import Game, State
from taut.core.plugin import GamePlugin, Policy, Values
from taut.games.push_pull.rules import PushPull, PushPullState

if TYPE_CHECKING:
    import click

    from taut.core.observation import Observer
    from taut.core.one_turn import OneTurnGames
    from taut.core.presentation import OptionPresentation
    from taut.core.tutorial import Tutorial


@cache
def _teams_games(mirrored: bool) -> OneTurnGames:
    """The two-teams one-turn games (N+W against S+E when ``mirrored``), built once per
    process."""
    from taut.games.push_pull.solve.teams_games import TeamsOneTurnGames

    return TeamsOneTurnGames(mirrored)


#: Moves in words, by layout, seat, notation and the pieces on the board (their words
#: depend on nothing else), at most :data:`WORDS_KEPT`.
_WORDS: dict[tuple[object, int, str, int], str] = {}
WORDS_KEPT = 65536
#: The words of every listed move, by layout, seat, pieces on the board and the moves
#: listed, at most :data:`LISTS_KEPT`.
_LISTS: dict[tuple[object, int, int, tuple[str, ...]], list[str]] = {}
LISTS_KEPT = 4096


def _pp(state: State) -> PushPullState:
    assert isinstance(state, PushPullState)
    return state


class PushPullPlugin(GamePlugin):
    """Push-Pull: every seat secretly pushes or pulls each piece toward the sides."""

    game_class = PushPull
    summary = (
        "Two to four players secretly push, pull or pass each of three pieces at once; a piece "
        "that leaves the board scores for that side, and two pieces (or the last one) win."
    )
    verb = "plays"
    # The page draws the board from its facts (:meth:`table`): a move costs no drawing here.
    table_drawing = "table.js"
    draw_by_agreement = False
    seat_range = (2, 4)

    position_help = (
        '{"turn": 4, "pieces": {"L": 1, "M": "W", "S": 3}, "scored_on": {"M": 2}}: each piece '
        "on a strip square 0..4 (duel) or [row, col] (the 5x5 board), or the side or team "
        "corner it left by; scored_on is the turn it left (default: turn)"
    )

    def rules_text(self) -> str:
        """The duel, the four-sided variants, teams, shifts and how arrows add up."""
        from taut.games.push_pull.guide import rules_text

        return rules_text()

    def seat_title(self, game: Game, seat: int) -> str:
        """``W (West; blue)``, ``N (North, team N+E; vermillion)``, ``NE (North and East;
        vermillion)``: the sides, the team and the seat's colour on the board."""
        from taut.games.push_pull.guide import seat_title

        assert isinstance(game, PushPull)
        return seat_title(game.layout, seat)

    def render(self, state: State, markup: bool = False) -> str:
        """The diagram: the strip or the 5x5 board with the pieces, and who scored what;
        with ``markup``, pieces and each side's player (or team) in their colours."""
        from taut.games.push_pull.diagram import render

        return render(_pp(state), markup)

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """The strip or the board with its pieces and who scored what; a seat with moves
        gets a panel of pull / push / pass (and shift) buttons for each piece (and side),
        composed into the canonical notation."""
        from taut.games.push_pull.svg import board_svg

        return board_svg(_pp(view), seat, legal)

    def static_files(self) -> dict[str, Path]:
        """The page's drawing of the board from :meth:`table`'s data."""
        return {"table.js": Path(__file__).parent / "table.js"}

    def table(self, view: State, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
        """The board's facts as :mod:`.table_data` gives them: the page draws the picture
        from them (``table_drawing``), exactly as :meth:`svg` does."""
        from taut.games.push_pull.table_data import table_data

        return table_data(_pp(view), seat, legal)

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """The revealed arrows, how each piece moved and why, and new scores."""
        from taut.games.push_pull.narrate import describe_turn

        return describe_turn(_pp(before), joint, _pp(after))

    def describe_move(self, state: State, seat: int, action_text: str) -> str:
        """A choice piece by piece, as the narration tells a reveal (``L: N pulls; ...``).
        The words depend on the layout, the seat, the move and which pieces are on the
        board only: said once for all positions alike (a frame lists every move in words)."""
        from taut.games.push_pull.narrate import move_words

        pp = _pp(state)
        key = (pp.game.layout, seat, action_text, pp.mask)
        said = _WORDS.get(key)
        if said is None:
            try:
                action = state.string_to_action(seat, action_text)
            except ValueError:
                said = action_text
            else:
                said = move_words(pp, seat, action)
            if len(_WORDS) >= WORDS_KEPT:
                _WORDS.clear()  # a new game's layouts and moves: said again as they come
            _WORDS[key] = said
        return said

    def describe_moves(self, state: State, seat: int, legal: Sequence[str]) -> list[str]:
        """Every move of ``legal`` in words, found at once for the layout, seat and pieces on
        the board (a frame lists each position's moves for each seat)."""
        pp = _pp(state)
        key = (pp.game.layout, seat, pp.mask, tuple(legal))
        said = _LISTS.get(key)
        if said is None:
            if len(_LISTS) >= LISTS_KEPT:
                _LISTS.clear()
            said = _LISTS[key] = [self.describe_move(state, seat, m) for m in legal]
        return list(said)

    def option_presentation(self, game_class: type[Game]) -> OptionPresentation:
        """Plain labels, groups, conditions and presets for the new-game form."""
        from taut.games.push_pull.presentation import presentation

        return presentation()

    def legend(self, game: Game) -> list[str]:
        """The variant, the goal, how to enter a choice for every piece, and with shifts
        what left and right mean for each side."""
        from taut.games.push_pull.guide import legend

        assert isinstance(game, PushPull)
        return legend(game)

    def move_help(self, state: State, seat: int) -> str | None:
        """The pieces on the board, the choices and examples (listing every legal move
        would print up to 15,625 of them for a two-teams player); with shifts, what left
        and right mean for the seat's sides."""
        from taut.games.push_pull.guide import move_help

        return move_help(_pp(state), seat)

    def status(self, state: State) -> str | None:
        """Who has scored which pieces (``Scored: West L, East -``)."""
        from taut.games.push_pull.diagram import scored_line

        return scored_line(_pp(state))

    def observer(self) -> Observer:
        """Each piece's square or exit, the scores and the turn."""
        from taut.games.push_pull.observation import PushPullObserver

        return PushPullObserver()

    def state_key(self, state: State) -> str:
        """The pieces' locations in the order L, M, S (``"2,W,3"``; ``"2:2"`` for row 2,
        column 2 on the board), then ``turn T`` when the game has a turn limit, then the
        outcome once it is over."""
        pp = _pp(state)
        game = pp.game
        parts = []
        for loc in pp.locs:
            where = game.location_to_json(loc)
            parts.append(f"{where[0]}:{where[1]}" if isinstance(where, list) else str(where))
        key = ",".join(parts)
        if game.max_turns is not None:
            key += f" turn {pp.turn}"
        if pp.is_terminal():
            key += f" ({pp.describe_outcome()})"
        return key

    def exact_policy(self, game: Game) -> Policy | None:
        """The duel's solved optimal mixes (``variant=duel``); None for the other variants."""
        if not isinstance(game, PushPull) or game.variant != "duel":
            return None
        from taut.games.push_pull.solve.duel_policy import duel_policy

        return duel_policy

    def start_value(self, game: Game) -> Sequence[float] | None:
        """The duel's solved value of the start for West and East; 0 for both teams of
        two-teams (half a turn of the board maps the start to itself and swaps the teams, so
        neither can expect more than the other); None for the other variants."""
        if isinstance(game, PushPull) and game.variant == "two-teams":
            return tuple(0.0 for _ in game.info.seats)
        if not isinstance(game, PushPull) or game.variant != "duel":
            return None
        from taut.games.push_pull.solve.duel_newton import cached_solution
        from taut.games.push_pull.solve.duel_positions import duel_position_key

        state = _pp(game.new_initial_state())
        value = cached_solution().value(duel_position_key(state))
        return (value, 0.0 - value)  # never -0.0

    def exact_values(self, game: Game) -> Values | None:
        """The duel's solved values (``variant=duel``); None for the other variants."""
        if not isinstance(game, PushPull) or game.variant != "duel":
            return None
        from taut.games.push_pull.solve.duel_policy import duel_values

        return duel_values

    def one_turn_games(self, game: Game) -> OneTurnGames | None:
        """Two-teams without shifts (either arrangement of the teams): every position's
        matrix game over the values solved exactly after a score and near-exactly before;
        None otherwise."""
        if not isinstance(game, PushPull):
            return None
        lay = game.layout
        if lay.variant != "two-teams" or lay.shifts:
            return None
        return _teams_games(lay.teams == "NW-SE")

    def commands(self) -> dict[str, list[click.Command]]:
        """``taut solve push-pull``, ``taut analyse exploitability`` and
        ``taut analyse random-reply``."""
        from taut.games.push_pull.commands import (
            exploitability_command,
            random_reply_command,
            solve_command,
        )

        return {"solve": [solve_command], "analyse": [exploitability_command, random_reply_command]}

    def tutorial(self) -> Tutorial:
        """A short scripted game that teaches the rules one at a time
        (:mod:`taut.games.push_pull.tutorial`)."""
        from taut.games.push_pull.tutorial import TUTORIAL

        return TUTORIAL


plugin = PushPullPlugin()
