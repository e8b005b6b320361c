"""How Pulling Strings shows itself: the board (plain and coloured), the narration of a turn,
and what the plugin tells a player (legend, seat titles, rules, position help)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.style import Style
from rich.text import Text

import taut
from taut.cli import cli as app
from taut.core.errors import PositionError
from taut.core.registry import plugin as plugin_of
from taut.games.pulling_strings import PullingStrings, PullingStringsState, parse, render
from taut.games.pulling_strings.board import CENTER, HOME_CELLS
from taut.games.pulling_strings.diagram import SEAT_COLOURS
from taut.games.pulling_strings.narrate import describe_turn

PLUGIN = plugin_of("pulling-strings")
# Published letters as in the published rules' examples (T/U: the middle row's ends,
# C/G: the middle column's); they include neither X nor O.
PUBLISHED = "ABCDE" + "FHUJY" + "KLGMN" + "OPTQR"
# Published letters with the tiles X and O on ends (N1 and W3).
WITH_X_AND_O = "AXCDE" + "FHUJY" + "KLGMN" + "IPTOR"


def make(**options: object) -> PullingStrings:
    game = taut.make("pulling-strings", **options)
    assert isinstance(game, PullingStrings)
    return game


def position(
    game: PullingStrings, stacks: list[list[int]], broken: list[str] | None = None
) -> PullingStringsState:
    return game.state_from_json({"stacks": stacks, "broken": broken or []})


def pull(state: PullingStringsState, x: str, o: str) -> PullingStringsState:
    out = state.apply({0: state.string_to_action(0, x), 1: state.string_to_action(1, o)})
    assert isinstance(out, PullingStringsState)
    return out


def grid(text: str) -> list[list[str]]:
    """The five cell texts of each row of a plain diagram."""
    rows = text.splitlines()[1:-1]
    width = max(len(tok) for row in rows for tok in row[2:].split()[:5])
    return [
        [row[2 + j * (width + 1) : 2 + j * (width + 1) + width].strip() for j in range(5)]
        for row in rows
    ]


# -- a stack on a home keeps the home visible ----------------------------------------------


class TestHomesUnderStacks:
    def test_plain_shows_count_and_home_mark(self) -> None:
        game = make()
        s = position(game, [[0, 1, 3], [0, 3, 2], [2, 2, 4]])  # on an X home, an O home
        cells = grid(render(s))
        assert cells[0][1] == "3X" and cells[0][3] == "2O" and cells[2][2] == "4"
        assert cells[1][0] == "O" and cells[1][4] == "X"  # empty homes as before

    def test_plain_without_stack_on_a_home_is_unchanged(self) -> None:
        text = render(make().new_initial_state())
        assert text.splitlines()[1] == "y . X . O . f"

    def test_plain_reads_back(self) -> None:
        game = make()
        s = position(game, [[0, 1, 3], [4, 1, 12], [3, 4, 1]], broken=["c", "t"])
        again = parse(render(s), game)
        assert again.stack_list() == s.stack_list() and again.broken == s.broken

    def test_parse_takes_the_2003_bare_count_on_a_home(self) -> None:
        s = parse(
            """
  a b c d e
y . 3 . O . f
x O . . . X g
w . . . . . h
v X . . . O i
t . O . X . l
  s r o n m
"""
        )
        assert s.stack_list() == [[0, 1, 3]]
        assert grid(render(s))[0][1] == "3X"

    @pytest.mark.parametrize(
        ("cell", "why"),
        [("3O", "'X' (an empty home)"), (" .", "'X' (an empty home)"), ("3.", "'.' or a count")],
    )
    def test_parse_refuses_a_wrong_mark(self, cell: str, why: str) -> None:
        rows = [
            "   a  b  c  d  e",
            "y  .  X  .  O  . f",
            "x  O  .  .  .  X g",
            "w  .  .  .  .  . h",
            "v  X  .  .  .  O i",
            "t  .  O  .  X  . l",
            "   s  r  o  n  m",
        ]
        col = 1 if cell != "3." else 2
        start = 2 + col * 3
        rows[1] = rows[1][:start] + cell + rows[1][start + 2 :]
        with pytest.raises(PositionError, match=re.escape(why)):
            parse("\n".join(rows))

    def test_markup_colours_homes_and_their_stacks(self) -> None:
        game = make()
        s = position(game, [[0, 1, 3], [0, 3, 2], [2, 2, 4]], broken=["c"])
        markup = render(s, markup=True)
        blue, vermillion = SEAT_COLOURS
        assert f"[bold {blue}]3X[/]" in markup and f"[bold {vermillion}]2O[/]" in markup
        assert f"[{blue}]X[/]" in markup and f"[{vermillion}]O[/]" in markup
        assert "[bold]4[/]" in markup and "[dim]-[/]" in markup

    def test_markup_is_the_plain_board_with_broken_ends_marked(self) -> None:
        game = make()
        s = position(game, [[0, 1, 3], [4, 3, 11], [2, 2, 4]], broken=["c", "l", "y"])
        shown = Text.from_markup(render(s, markup=True))
        plain = render(s)
        # Without any style the board still reads: the same cells, a dash for a broken end.
        assert [ln.replace("-", " ").rstrip() for ln in shown.plain.splitlines()] == (
            plain.splitlines()
        )
        for text, seat in (("3X", 0), ("11X", 0)):
            at = shown.plain.index(text)
            styles = [Style.parse(str(sp.style)) for sp in shown.spans if sp.start <= at < sp.end]
            assert styles == [Style.parse(f"bold {SEAT_COLOURS[seat]}")]

    def test_plugin_render_passes_markup_on(self) -> None:
        s = position(make(), [[0, 1, 3]])
        assert PLUGIN.render(s) == render(s)
        assert PLUGIN.render(s, markup=True) == render(s, markup=True) != render(s)


# -- the published edition draws squares and circles -----------------------------------------


class TestPublishedMarks:
    def test_homes_are_squares_and_circles(self) -> None:
        game = make(edition="published", letters=WITH_X_AND_O)
        assert game.home_marks == ("\u25a1", "\u25cb")
        cells = grid(render(game.new_initial_state()))
        marks = {cells[r][c] for r, c in ((0, 1), (1, 4), (3, 0), (4, 3))}
        assert marks == {"\u25a1"}
        marks = {cells[r][c] for r, c in ((0, 3), (1, 0), (3, 4), (4, 1))}
        assert marks == {"\u25cb"}
        # The letter tiles X and O stay on their ends and nowhere in the grid.
        assert not {"X", "O"} & {t for row in cells for t in row}
        assert render(game.new_initial_state()).splitlines()[0].split()[1] == "X"

    def test_stack_on_a_published_home(self) -> None:
        game = make(edition="published", letters=PUBLISHED)
        s = position(game, [[0, 1, 3], [1, 0, 2]])
        text = render(s)
        assert grid(text)[0][1] == "3\u25a1" and grid(text)[1][0] == "2\u25cb"
        again = parse(text, game)
        assert again.stack_list() == s.stack_list()
        assert parse(text).game.letters == PUBLISHED

    def test_classic_keeps_x_and_o(self) -> None:
        assert make().home_marks == ("X", "O")


# -- narration in the board's own coordinates -----------------------------------------------


class TestNarration:
    def test_split_named_by_the_letters_on_the_board(self) -> None:
        s = make().new_initial_state()
        lines = describe_turn(s, 2, 7, pull(s, "c", "h"))
        assert lines[0] == "Eks (X) pulled c (top), Oh (O) pulled h (right)."
        assert lines[1] == "Stack of 5 at (c,w) splits (one disk added): 3 to (c,x), 3 to (d,w)."
        assert lines[-1] == "Disks home: X 0, O 0."
        assert not any(re.search(r"\(\d,\d\)", line) for line in lines)

    def test_moves_combines_and_breaks(self) -> None:
        game = make()
        s = position(game, [[1, 2, 3], [2, 3, 3]])
        after = pull(s, "o", "w")
        lines = describe_turn(s, 12, 17, after)
        assert "Stack of 3 moves (c,x) -> (c,w)." in lines
        assert "Stack of 3 moves (d,w) -> (c,w)." in lines
        assert "Stacks combine at (c,w): 6 disks." in lines
        s = game.new_initial_state()
        lines = describe_turn(s, 2, 2, pull(s, "c", "c"))
        assert "Both pulled the same end: c broken for good." in lines

    def test_published_names_use_its_tiles(self) -> None:
        game = make(edition="published", letters=PUBLISHED)
        assert game.cell_name(CENTER) == "(C,T)"
        s = game.new_initial_state()
        lines = describe_turn(s, 7, 17, pull(s, "U", "T"))
        assert lines[0] == "Squares (X) pulled U (right), Circles (O) pulled T (left)."
        assert lines[1] == "Stack of 5 at (C,T) splits (one disk added): 3 to (D,T), 3 to (B,T)."

    def test_every_intersection_has_a_distinct_name(self) -> None:
        game = make()
        names = {game.cell_name(c) for c in range(25)}
        assert len(names) == 25
        assert [game.cell_name(c) for c in HOME_CELLS[0]] == ["(b,y)", "(e,x)", "(a,v)", "(d,t)"]

    def test_the_legend_explains_the_board_and_names(self) -> None:
        text = " ".join(PLUGIN.legend(make()))
        assert "3X" in text and "(c,w) is the centre" in text and "broken end" in text
        text = " ".join(PLUGIN.legend(make(edition="published", letters=PUBLISHED)))
        assert "3\u25a1" in text and "(C,T) is the centre" in text
        assert "Squares (X)" in text and "Circles (O)" in text


# -- what the plugin tells a player ---------------------------------------------------------


class TestPluginTexts:
    def test_seat_titles(self) -> None:
        assert PLUGIN.seat_title(make(), 0) == "X (Eks; homes marked X, in blue)"
        assert PLUGIN.seat_title(make(), 1) == "O (Oh; homes marked O, in vermillion)"
        pub = make(edition="published", seed=4)
        assert PLUGIN.seat_title(pub, 0) == "X (Squares; homes marked \u25a1, in blue)"
        assert PLUGIN.seat_title(pub, 1).startswith("O (Circles; homes marked \u25cb")

    def test_position_help_shows_the_json(self) -> None:
        text = PLUGIN.position_help
        assert '"stacks": [[row, col, count], ...]' in text
        assert '"broken": ["c", ...]' in text and '"turn": 0' in text
        example = text[: text.rindex("}") + 1]
        example = example.replace("row, col, count", "2, 2, 5").replace(", ...", "")
        assert make().state_from_json(json.loads(example)).stack_list() == [[2, 2, 5]]

    def test_rules_name_every_way_to_end(self) -> None:
        text = PLUGIN.rules_text()
        assert "\n\n" in text and len(text.split("\n\n")) >= 3
        for words in ("five disks", "broken", "agree", "max_turns", "repeat=N", "N-th time"):
            assert words in text, words
        for option in make().options:
            if option not in ("seed", "letters"):
                assert option in text, option


# -- docs, rules and `taut games` say the same about draws ----------------------------------


def test_docs_rules_and_games_agree_on_draws() -> None:
    docs = (Path(__file__).parents[1] / "docs" / "pulling-strings.md").read_text()
    listing = CliRunner().invoke(app, ["games"])
    assert listing.exit_code == 0
    for spec in PullingStrings.OPTIONS:
        assert f"| `{spec.name}` |" in docs, spec.name
        assert f"{spec.name} " in listing.stdout
    # `taut games` prints each option's doc; the docs and the rules say it the same way.
    (repeat,) = [spec for spec in PullingStrings.OPTIONS if spec.name == "repeat"]
    for text in (docs, PLUGIN.rules_text(), repeat.doc):
        assert "occurs for the N-th time" in " ".join(text.split()), text[:80]
