"""The Track Tiles plugin: what the shared layers need from this game."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from taut.core.game import Game, State
from taut.core.plugin import GamePlugin, Policy
from taut.games.tracks.rules import Tracks, TracksState

if TYPE_CHECKING:
    import click

    from taut.core.observation import Observer
    from taut.core.presentation import OptionPresentation
    from taut.core.presenter import Presenter
    from taut.core.tutorial import Tutorial

#: What is printed before a game at the terminal, line by line (each fits 80 columns).
LEGEND = (
    "NS (blue) joins top and bottom, WE (vermillion) joins left and right.",
    "Tiles are never rotated. Type a cell to place your tile: c3 is column c, row 3.",
    "help lists the empty cells, draw offers a draw, quit stops.",
)

#: The rules, for ``rules`` at the terminal: one paragraph a line, for the terminal to wrap.
RULES = "\n\n".join(
    [
        "Track Tiles is played on a square board, 6x6 unless the size option says "
        "otherwise. Every tile carries two pieces of track joining its four sides in pairs, "
        "and tiles are never turned: kind 1 joins top with left and right with bottom (two "
        "curves), kind 2 joins top with right and bottom with left (the mirror image), and "
        "kind 3 runs straight across both ways, so a path on it cannot turn.",
        "NS wants a path of track joining the top edge to the bottom edge, WE one joining "
        "the left edge to the right edge. At the start each player rolls a die for a first "
        "kind: face f gives kind f mod 3 + 1. On a turn the player to move puts their kind "
        "on any empty cell; their next kind is that one plus one, 3 going back to 1. With "
        "roll=each a player rolls for the kind before every placement instead. NS places "
        "first; first=WE or first=random (a coin) changes that.",
        "After every placement the board is checked. A track between top and bottom wins "
        "for NS, one between left and right for WE, whoever placed the last tile; if one "
        "tile completes both tracks, the player who placed it wins. A full board without a "
        "track is a draw, and players may also agree to a draw.",
        "The solitaire (taut tracks solitaire) deals a full board of random kinds, its side "
        "a die roll plus one, and labels its edges: every path of a full board runs from "
        "one edge unit (a cell side on the border) to another, and both ends get the same "
        "label. The board is emptied; fill it again with kinds of your choice so that every "
        "path joins the two units with the same label, changing at least half of the cells "
        "(--threshold) from the board that was dealt. A deal is kept only when such a "
        "tiling exists, unless --raw asks for the deal as it falls.",
    ]
)


@functools.lru_cache(maxsize=4096)
def _placement_words(size: int, seat: int, kind: int, action_text: str) -> str:
    """A placement's words, which depend on the board's size, the seat, its kind in hand and
    the cell only: said once for every position that offers it (a frame lists every empty
    cell)."""
    from taut.games.tracks.cells import parse_cell
    from taut.games.tracks.narrate import placement_words

    try:
        cell = parse_cell(size, action_text)
    except ValueError:
        return action_text
    return placement_words(size, seat, kind, cell)


def _ts(state: State) -> TracksState:
    assert isinstance(state, TracksState)
    return state


class TracksPlugin(GamePlugin):
    """Track Tiles: two players place dealt tiles to join their sides with a track."""

    game_class = Tracks
    summary = (
        "Two players place curve and crossing tiles, rolled on a die and never rotated; "
        "the first path joining your two sides of the board wins."
    )
    verb = "places"
    draw_by_agreement = True
    # Every empty cell is drawn as an offer: one picture a position serves both seats.
    offers = True
    # The page draws the board from its facts (:meth:`table`): a move costs no drawing here.
    table_drawing = "table.js"

    position_help = (
        '{"board": ["1.3...", ...], "first": "NS", "tiles": {"NS": 2, "WE": null}, '
        '"last": "c1"} (rows top down, . empty; a null tile is not rolled yet)'
    )

    def rules_text(self) -> str:
        """The two-player game, its options, and the solitaire."""
        return RULES

    def seat_title(self, game: Game, seat: int) -> str:
        """``NS (joins top and bottom, blue)`` or ``WE (joins left and right,
        vermillion)``: the sides and the colour the board gives them."""
        from taut.games.tracks.cells import SEATS
        from taut.games.tracks.render import SEAT_COLOURS

        joins = ("top and bottom", "left and right")[seat]
        return f"{SEATS[seat]} (joins {joins}, {SEAT_COLOURS[seat]})"

    def render(self, state: State, markup: bool = False) -> str:
        """The board with coordinates, the tiles in hand, who is next or the result."""
        from taut.games.tracks.render import render_state

        return render_state(_ts(state), markup=markup)

    def svg(self, view: State, seat: int | None, legal: Sequence[str]) -> str:
        """The board with its tracks coloured by the sides they reach, the tiles in hand
        under it; the cells of ``legal`` are buttons, every other empty cell an offer."""
        from taut.games.tracks.svg import board_svg

        return board_svg(_ts(view), seat, legal)

    def static_files(self) -> dict[str, Path]:
        """The page's drawing of the table from :meth:`table`'s data."""
        return {"table.js": Path(__file__).parent / "table.js"}

    def table(self, view: State, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
        """The board's facts as :mod:`.table_data` gives them: the page draws the picture
        from them (``table_drawing``), exactly as :meth:`svg` does."""
        from taut.games.tracks.table_data import table_data

        return table_data(_ts(view), seat, legal)

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """The coin, a roll (``NS rolls 4: kind 2.``) or a placement (``NS places kind 2
        on c3.``)."""
        from taut.games.tracks.narrate import describe

        return describe(_ts(before), joint)

    def describe_move(self, state: State, seat: int, action_text: str) -> str:
        """A placement as the narration says it (``NS places kind 2 on c3``)."""
        ts = _ts(state)
        return _placement_words(ts.game.size, seat, ts.kinds[seat], action_text)

    def describe_moves(self, state: State, seat: int, legal: Sequence[str]) -> list[str]:
        """:meth:`describe_move` of each of ``legal`` (every empty cell, in a frame)."""
        ts = _ts(state)
        size, kind = ts.game.size, ts.kinds[seat]
        return [_placement_words(size, seat, kind, text) for text in legal]

    def option_presentation(self, game_class: type[Game]) -> OptionPresentation:
        """Plain labels, groups, conditions and presets for the new-game form."""
        from taut.games.tracks.presentation import presentation

        return presentation()

    def legend(self, game: Game) -> list[str]:
        """Who joins which sides, and how to name a cell."""
        return list(LEGEND)

    def move_help(self, state: State, seat: int) -> str | None:
        """The tile in hand, how to name a cell, and the empty cells."""
        from taut.games.tracks.narrate import move_help

        return move_help(_ts(state), seat)

    def presenter(self, game: Game) -> Presenter:
        """Placements as rules, the coin and rolls as lines, the board once a turn (compact
        where the full art and a turn would not fit 80x24)."""
        from taut.games.tracks.presenter import TracksPresenter

        return TracksPresenter(self, game)

    def lead(self, state: State) -> Sequence[float]:
        """Who is ahead: the fewer empty cells a player still needs for a track, the better
        (the evaluation without its bonus for the side to move)."""
        from taut.games.tracks.heuristic import distances

        ts = _ts(state)
        d_ns, d_we = distances(ts.board, ts.game.size)
        return (-float(d_ns), -float(d_we))

    def observer(self) -> Observer:
        """The board, the kinds in hand, the first seat, the last cell and the tile count."""
        from taut.games.tracks.observation import TracksObserver

        return TracksObserver()

    def max_game_length(self, game: Game) -> int:
        """One placement per cell: ``size * size`` decisions (chance nodes do not count)."""
        assert isinstance(game, Tracks)
        return game.size * game.size

    def exact_policy(self, game: Game) -> Policy | None:
        """Perfect play of the solved boards (up to 4x4) with ``roll=once``: every best
        placement, equally likely, from the shipped book or a search; None otherwise."""
        from taut.games.tracks.solve.search import SOLVED_SIZES

        if not isinstance(game, Tracks) or game.roll_each or game.size not in SOLVED_SIZES:
            return None
        from taut.games.tracks.solve.book import policy

        return policy(game.size)

    def unsolved_because(self, game: Game) -> str:
        """Which Track Tiles games are solved, and how ``game`` differs."""
        from taut.games.tracks.solve.search import SOLVED_SIZES

        assert isinstance(game, Tracks)
        sizes = f"{SOLVED_SIZES[0]}x{SOLVED_SIZES[0]} to {SOLVED_SIZES[-1]}x{SOLVED_SIZES[-1]}"
        this = f"{game.size}x{game.size}, roll={'each' if game.roll_each else 'once'}"
        return f"Track Tiles is solved on boards of {sizes} with roll=once, not {this}"

    def commands(self) -> dict[str, list[click.Command]]:
        """``taut tracks puzzle|solve|check|solitaire`` (the solitaire puzzle) and ``taut
        solve tracks`` (the two-player game solved)."""
        from taut.games.tracks.commands import solve_tracks_command, tracks_group

        return {"": [tracks_group], "solve": [solve_tracks_command]}

    def tutorial(self) -> Tutorial:
        """A short scripted game that teaches the rules one at a time
        (:mod:`taut.games.tracks.tutorial`)."""
        from taut.games.tracks.tutorial import TUTORIAL

        return TUTORIAL


plugin = TracksPlugin()
