"""The Pulling Strings plugin: what the shared layers need from this game."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taut.core.game import Game, State
from taut.core.observation import Observer
from taut.core.plugin import CameraSigning, GamePlugin
from taut.core.presenter import Presenter
from taut.games.pulling_strings.board import CENTER
from taut.games.pulling_strings.learning import LearningState
from taut.games.pulling_strings.narrate import describe_turn, move_words
from taut.games.pulling_strings.rules import O, PullingStrings, PullingStringsState, X
from taut.learn.tileset import TileSet

if TYPE_CHECKING:
    import click

    from taut.core.presentation import OptionPresentation
    from taut.core.tutorial import Tutorial


def _ps(state: State) -> PullingStringsState:
    assert isinstance(state, PullingStringsState)
    return state


def _ordinal(n: int) -> str:
    """``2nd``, ``3rd``, ``11th``..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


#: The rules in short, in the words of :meth:`PullingStringsPlugin.rules_text`.
RULES = """\
Two players, X and O (Eks and Oh in the 2003 edition, Squares and Circles in the published \
one), share a 5x5 grid of strings; each of the 20 string ends carries a letter. Each player \
has four home intersections, marked X and O (the published board: squares and circles). \
Five disks start stacked on the centre.

Every turn both players secretly choose an unbroken end, then reveal. A stack on one pulled \
string slides one intersection toward the pulled end (a stack against that edge stays). A \
stack on both pulled strings splits: an odd stack first gains a disk, then half goes toward \
each end, and a half that would leave the board stays where it was. Stacks that meet \
combine. When both choose the same end, the stacks on its string move and that end breaks \
for the rest of the game (option break=string breaks both ends of the string).

The first player with at least five disks on their own homes, and more than the other, \
wins; equal counts of five or more play on. The game is drawn when every end through every \
stack is broken (nothing can move again), when both agree (type draw to offer), at the turn \
limit (option max_turns, none by default) and, under option repeat=N, when the same \
position (stacks and broken ends) occurs for the N-th time. Without repeat a position may \
come back any number of times.

Option edition=published places 20 of 26 letter tiles at random (option seed); \
corner=keep leaves an odd corner stack pulled off both edges as it is, where the default \
splits it in place and so adds a disk.

The published edition's tiles have a second face: option tiles=asl (letters and their ASL \
handshapes, the default), tiles=roman (numbers and Roman numerals) or tiles=kana (hiragana \
and katakana). Under option learning=strict a player pulls a string by giving the other \
face of its tile, and a wrong answer pulls nothing; under learning=slip a wrong answer \
pulls the string whose tile it belongs to, if that tile is on an unbroken end. Option \
mistakes=P makes computer players answer wrongly P of the time."""


def _learning_legend(game: PullingStrings) -> list[str]:
    """How a learning game is played, in two sentences (nothing when learning is off)."""
    tiles = game.tileset
    if game.learning == "off" or tiles is None:
        return []
    rule = (
        "a wrong answer pulls nothing"
        if game.learning == "strict"
        else "a wrong answer pulls the string whose tile it belongs to, if that tile is on "
        "an unbroken end"
    )
    return [
        f"Learning game ({tiles.title}): to pull a string, give the {tiles.other_kind} of "
        f"its {tiles.board_kind}; {rule}. Both faces are shown after every turn."
    ]


#: The words of pulls already said: for each set of end letters, seat titles, tile set (its
#: other spellings name ends too) and seat, the words of each end's name. They depend on
#: nothing else, so games alike (every classic game, a rematch of a published one) share
#: them.
_WORDS: dict[tuple[object, tuple[str, ...], str | None, int], dict[str, str]] = {}
#: Sets of words kept before all are forgotten (a busy server's games each need two).
_WORDS_KEPT = 4_096


def _words_of(game: PullingStrings, seat: int) -> dict[str, str]:
    """The words said so far of ``seat``'s pulls in games with ``game``'s letters and titles
    (filled as names are asked for)."""
    letters = game.letters
    # (The option names a built-in set or holds a set's whole text.)
    tiles = None if game.tileset is None else str(game.options["tiles"])
    key = (letters if isinstance(letters, str) else tuple(letters), game.seat_titles, tiles, seat)
    found = _WORDS.get(key)
    if found is None:
        if len(_WORDS) >= _WORDS_KEPT:
            _WORDS.clear()  # games come and go; the words are quick to say again
        found = _WORDS[key] = {}
    return found


class PullingStringsPlugin(GamePlugin):
    """Pulling Strings: two players pull string ends at once to bring disks home."""

    game_class = PullingStrings
    summary = (
        "Two players secretly pull string ends at once; stacks of disks slide, split and "
        "gather, and five disks on your homes win."
    )
    verb = "pulls"
    draw_by_agreement = True
    # The page draws the board from its facts (:meth:`table`): a move costs no drawing here
    # (a learning game's pictures excepted: the server draws those).
    table_drawing = "table.js"
    position_help = (
        '{"stacks": [[row, col, count], ...], "broken": ["c", ...], "turn": 0} '
        "(rows and columns 0..4 from the top left)"
    )

    def rules_text(self) -> str:
        """The rules in four short paragraphs: board, turn, end of the game, options."""
        return RULES

    def seat_title(self, game: Game, seat: int) -> str:
        """``X (Eks; homes marked X, in blue)``, with the edition's names and marks: words
        that fit the seat's player and the others alike (the players' list shows them all)."""
        assert isinstance(game, PullingStrings)
        colour = ("blue", "vermillion")[seat]
        return (
            f"{game.info.seats[seat]} ({game.seat_titles[seat]}; homes marked "
            f"{game.home_marks[seat]}, in {colour})"
        )

    def render(self, state: State, markup: bool = False) -> str:
        """The diagram: end letters round the 5x5 grid, homes and stack counts (coloured
        with ``markup``)."""
        from taut.games.pulling_strings.diagram import render

        return render(_ps(state), markup=markup)

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """The grid with its strings, lettered ends, homes and stacks; the ends in
        ``legal`` are buttons that choose that pull."""
        from taut.games.pulling_strings.svg import board_svg

        return board_svg(_ps(view), seat, legal)

    def table(self, view: State, seat: int | None, legal: Sequence[str]) -> dict[str, Any] | None:
        """The board's facts as :mod:`.table_data` gives them: the page draws the picture
        from them (``table_drawing``), exactly as :meth:`svg` does; None in a learning game,
        whose pictures the server draws."""
        from taut.games.pulling_strings.table_data import table_data

        return table_data(_ps(view), seat, legal)

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """Who pulled which end, what split, moved and combined, and the disks home."""
        if isinstance(after, LearningState) and after.answers is not None:
            from taut.games.pulling_strings.learning_text import reveal_lines, summary_lines

            ax, ao = after.answers
            lines = reveal_lines(after)
            lines += describe_turn(_ps(before), ax.pulled, ao.pulled, after)
            return lines + (summary_lines(after) if after.is_terminal() else [])
        return describe_turn(_ps(before), joint[X], joint[O], _ps(after))

    def describe_move(self, state: State, seat: int, action_text: str) -> str:
        """A pull as the narration says it (``Eks (X) pulls c (top)``; in a learning game
        with the answer given)."""
        if isinstance(state, LearningState):
            try:
                action = state.string_to_action(seat, action_text)
            except ValueError:
                return action_text
            end, tile = state.decode(action)
            return move_words(state, seat, end, state.tiles.tiles[tile].other.text)
        return self.describe_moves(state, seat, [action_text])[0]

    def describe_moves(self, state: State, seat: int, legal: Sequence[str]) -> list[str]:
        """:meth:`describe_move` of each of ``legal``: an end's name and its words depend on
        the game's letters and seats alone, not on the position, so each is said once for
        all positions and games alike (a frame lists every move in words)."""
        if isinstance(state, LearningState):
            return [self.describe_move(state, seat, m) for m in legal]
        ps = _ps(state)
        words = _words_of(ps.game, seat)
        out = []
        for text in legal:
            said = words.get(text)
            if said is None:
                try:
                    said = move_words(ps, seat, ps.string_to_action(seat, text))
                except ValueError:
                    said = text
                words[text] = said
            out.append(said)
        return out

    def option_presentation(self, game_class: type[Game]) -> OptionPresentation:
        """Plain labels, groups, conditions and presets for the new-game form."""
        from taut.games.pulling_strings.presentation import presentation

        return presentation()

    def presenter(self, game: Game) -> Presenter:
        """The default terminal presentation, or in a learning game one that asks for the
        answer after the string."""
        assert isinstance(game, PullingStrings)
        if game.learning == "off":
            return super().presenter(game)
        from taut.games.pulling_strings.learning_text import LearningPresenter

        return LearningPresenter(self, game)

    def legend(self, game: Game) -> list[str]:
        """The goal, how to choose, how to read the board and how the game may be drawn."""
        assert isinstance(game, PullingStrings)
        x, o = game.seat_titles
        mx, mo = game.home_marks
        draws = []
        if game.repeat is not None:
            draws.append(f"when a position occurs for the {_ordinal(game.repeat)} time")
        if game.max_turns is not None:
            draws.append(f"after {game.max_turns} turns")
        ends = f" The game is also drawn {' or '.join(draws)}." if draws else ""
        goal = (
            f"{x} (X) wins with 5 disks on the {mx} homes, {o} (O) on the {mo} homes. Each "
            "turn both secretly pick a string end letter; the same letter breaks that end."
        )
        return [
            goal + ends,
            f"On the board {mx} and {mo} are empty homes, . an empty intersection and a "
            f"number a stack (3{mx}: a stack of 3 on a home marked {mx}); a broken end loses "
            "its letter. An intersection is named by the letter above its column and the "
            f"letter left of its row: {game.cell_name(CENTER)} is the centre.",
            "Type help for the unbroken ends, draw to offer a draw, quit to stop.",
            *_learning_legend(game),
        ]

    def status(self, state: State) -> str | None:
        """Disks home on each side."""
        hx, ho = _ps(state).home()
        return f"home X {hx}, O {ho}"

    def hides_moves(self, game: Game) -> bool:
        """In a learning game the moves hold the answers: they are never listed."""
        return isinstance(game, PullingStrings) and game.learning != "off"

    def tile_sets(self) -> Sequence[TileSet]:
        """The published edition's tile sets: ``asl``, ``roman`` and ``kana``."""
        from taut.games.pulling_strings.tilesets import TILE_SETS

        return [build() for build in TILE_SETS.values()]

    def camera_signing(self, game: Game) -> CameraSigning | None:
        """In a learning game with the ASL tiles, the answer may be fingerspelled to the
        camera: the recogniser of :mod:`.signs` reads the letter, which fills the move's
        ``answer``; the string's own letter (the ``end`` part) is the right one."""
        if not isinstance(game, PullingStrings) or game.learning == "off":
            return None
        if game.tileset is None or game.tileset.name != "asl":
            return None
        return CameraSigning("signs.js", "recogniser.json", slot="answer", right_slot="end")

    def static_files(self) -> dict[str, Path]:
        """The page's drawing of the board from :meth:`table`'s data, the fingerspelling
        recogniser for the browser and its learnt model (which holds the drawings'
        templates for J and Z)."""
        here = Path(__file__).parent
        return {
            "table.js": here / "table.js",
            "signs.js": here / "signs" / "signs.js",
            "recogniser.json": here / "signs" / "recogniser.json",
        }

    def commands(self) -> dict[str, list[click.Command]]:
        """``taut signs recognize``: the fingerspelled letters of hand landmarks."""
        from taut.games.pulling_strings.signs.commands import signs_group

        return {"": [signs_group]}

    def observer(self) -> Observer:
        """Stacks, broken ends, disks home and the turn."""
        from taut.games.pulling_strings.observation import PullingStringsObserver

        return PullingStringsObserver()

    def state_key(self, state: State) -> str:
        """The position's JSON, without the turn unless a turn limit makes it matter (under
        ``repeat`` it holds the counts of earlier positions, which decide the future too)."""
        data = _ps(state).to_json()
        if state.game.options.get("max_turns") is None:
            data = {k: v for k, v in data.items() if k != "turn"}
        return json.dumps(data, sort_keys=True, separators=(",", ":"))

    def tutorial(self) -> Tutorial:
        """A short scripted game that teaches the rules one at a time
        (:mod:`taut.games.pulling_strings.tutorial`)."""
        from taut.games.pulling_strings.tutorial import TUTORIAL

        return TUTORIAL


plugin = PullingStringsPlugin()
