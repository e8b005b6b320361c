"""Track Tiles at the terminal: one turn fits 80x24, the result once, colours that need no
colour, and the words the terminal says about the game (rules, seats, positions)."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

import taut.games.tracks as package
from taut.cli import cli
from taut.core import GameRecord
from taut.core.terms import CHANCE_SEAT
from taut.games.tracks.cells import plural
from taut.games.tracks.plugin import plugin
from taut.games.tracks.render import SEAT_COLOURS, render_puzzle, render_state
from taut.games.tracks.rules import Tracks, TracksState
from taut.games.tracks.screen import render_screen
from taut.games.tracks.solitaire import generate

runner = CliRunner()
WIDTH, LINES = 80, 24


def every_cell(size: int) -> list[str]:
    """Every cell, row by row: a person who plays them in order (taken ones are refused)."""
    return [f"{chr(ord('a') + c)}{r + 1}" for r in range(size) for c in range(size)]


def play(args: list[str], moves: list[str], record: Path | None = None) -> str:
    saving = [] if record is None else ["--record", str(record)]
    r = runner.invoke(
        cli,
        ["play", "tracks", *args, *saving],
        input="\n".join(moves) + "\n",
        env={"COLUMNS": str(WIDTH)},
    )
    assert r.exit_code == 0, r.output
    return r.stdout


def between_prompts(out: str, prompt: str) -> list[list[str]]:
    """The lines printed after each prompt up to the next one (or the end). The person's
    entry ends the prompt's line on a terminal, so each piece starts on a line of its own."""
    pieces = out.split(prompt)[1:]
    return [
        piece.split("\n")[:-1] if piece.endswith("\n") else piece.split("\n") for piece in pieces
    ]


@pytest.mark.parametrize("size", [6, 7, 12])
@pytest.mark.parametrize("roll", ["once", "each"])
@pytest.mark.parametrize("person", ["ns", "we"])
def test_a_turn_fits_an_80x24_terminal(size: int, roll: str, person: str) -> None:
    computer = "we" if person == "ns" else "ns"
    args = [f"--{person}", "human", f"--{computer}", "greedy", "--size", str(size)]
    args += ["--roll", roll, "--seed", "5"]
    out = play(args, every_cell(size))
    turns = between_prompts(out, f"{person.upper()} places> ")
    # The lines printed after a placement and the computer's reply, with the next prompt
    # (after the last placement: the last board, the result and where the record is).
    assert max(len(lines) + 1 for lines in turns[:-1]) <= LINES
    assert len(turns[-1]) <= LINES
    assert "won (" in turns[-1][-1] or "draw (" in turns[-1][-1]
    assert max(cell_len(line) for lines in turns for line in lines) <= WIDTH, [
        l for ls in turns for l in ls if cell_len(l) > WIDTH
    ][:2]
    # A full turn was among them: the person's rule, the computer's, and the board.
    full = [lines for lines in turns if sum("places kind" in line for line in lines) == 2]
    assert full and all(any("┗" in line for line in lines) for lines in full)
    # 6x6 keeps the full art (three lines a cell); larger boards are compact.
    art = "━━a━━━━b━━" in out
    assert art is (size == 6)


@pytest.mark.parametrize("seats", [["--ns", "human", "--we", "greedy"], ["--ns", "greedy"]])
def test_the_result_is_printed_once(tmp_path: Path, seats: list[str]) -> None:
    record = tmp_path / "game.json"
    out = play([*seats, "--we", "greedy", "--size", "4", "--seed", "2"], every_cell(4), record)
    final = GameRecord.load(record).replay()
    assert final.is_terminal()
    assert out.count(final.describe_outcome()) == 1


def test_the_last_board_lists_the_winning_track_instead_of_the_result() -> None:
    state = Tracks(size=3).state_from_json(
        {"board": ["3..", "3..", "3.."], "first": "NS", "tiles": {"NS": 1, "WE": 2}}
    )
    assert isinstance(state, TracksState) and state.outcome is not None
    text = render_screen(state, markup=False)
    assert "NS's track:" in text and "a1 a2 a3" in text
    assert state.describe_outcome() not in text
    # Bold and in NS's blue with colour; bold alone without.
    assert "[bold #0072B2]│[/]" in render_screen(state, markup=True)


def no_colour(markup: str) -> str:
    """What a terminal without colour (NO_COLOR) shows of ``markup``."""
    out = io.StringIO()
    Console(file=out, no_color=True, width=200, soft_wrap=True).print(markup)
    return out.getvalue().rstrip("\n")


def test_boards_use_the_colour_blind_safe_palette_and_read_the_same_without_it() -> None:
    game = Tracks(size=4)
    state = game.new_initial_state()
    actions: list[int | dict[int, int]] = [{CHANCE_SEAT: 0}, {CHANCE_SEAT: 3}, 0, 5, 10, 15]
    for action in actions:
        state = state.apply(action)
    assert isinstance(state, TracksState)
    puzzle = generate(3, random.Random(1))
    pictures = [
        (render_state(state, markup=True), render_state(state)),
        (render_screen(state, markup=True), render_screen(state, markup=False)),
        (render_screen(state, compact=True), render_screen(state, markup=False, compact=True)),
        (
            render_puzzle(puzzle, puzzle.original, markup=True),
            render_puzzle(puzzle, puzzle.original),
        ),
    ]
    for marked, plain in pictures:
        assert no_colour(marked) == plain
        assert "[" not in plain
        for name in ("red", "blue", "yellow", "green", "magenta", "cyan"):
            assert f" {name}]" not in marked and f"[{name}" not in marked
    marked = render_state(state, markup=True)
    assert "#0072B2" in marked and "#D55E00" in marked


def test_seat_titles_name_the_sides_and_the_boards_colours() -> None:
    game = Tracks()
    assert plugin.seat_title(game, 0) == "NS (joins top and bottom, blue)"
    assert plugin.seat_title(game, 1) == "WE (joins left and right, vermillion)"
    assert SEAT_COLOURS == ("blue", "vermillion")


def test_rules_text_covers_the_game_its_options_and_the_solitaire() -> None:
    text = plugin.rules_text()
    paragraphs = text.split("\n\n")
    assert len(paragraphs) == 4 and all("\n" not in p for p in paragraphs)
    for words in ("never turned", "mod 3 + 1", "roll=each", "first=random", "draw", "--raw"):
        assert words in text, words


def test_position_help_shows_a_position_the_game_reads() -> None:
    help_text = plugin.position_help
    example = help_text[: help_text.index("} (") + 1]
    rows = ", ".join(['"......"'] * 5)
    state = Tracks().state_from_json(json.loads(example.replace('", ...]', f'", {rows}]')))
    assert state.to_json()["tiles"] == {"NS": 2, "WE": None}


def test_plural() -> None:
    assert [plural(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]


def test_the_package_names_no_colour_outside_the_palette() -> None:
    named = re.compile(r"\[/?(bold )?(red|green|blue|yellow|magenta|cyan)\b")
    for path in Path(package.__file__).parent.glob("*.py"):
        assert not named.search(path.read_text()), path.name
