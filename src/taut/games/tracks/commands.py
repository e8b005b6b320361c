"""The solitaire commands: ``taut tracks puzzle|solve|check|solitaire``, and ``taut solve
tracks`` (the two-player game solved exactly, :mod:`taut.games.tracks.solve.report`).

(Longer than 400 lines: the four solitaire commands and the solve report's command share
their options and their output.)

``puzzle`` makes a puzzle, ``solve`` finds the most different tiling and counts the
tilings, ``check`` judges an answer (exit 0 solved, 1 not solved, 2 bad input) and
``solitaire`` plays one at the terminal. Bad input ends a command through
:func:`taut.cli.common.fail`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.markup import escape

from taut.core.chance import make_rng
from taut.core.console import console, err_console, fail, progress_bar
from taut.core.number_param import Real
from taut.games.tracks.cells import plural
from taut.games.tracks.deal import Deal, deal, tilings_text, unwinnable_text
from taut.games.tracks.render import SOLVED_STYLE, WRONG_STYLE, render_puzzle
from taut.games.tracks.solitaire import (
    DEFAULT_THRESHOLD,
    MAX_SIZE,
    MIN_SIZE,
    CheckReport,
    Puzzle,
    PuzzleError,
    check_answer,
    label_name,
    needed_differences,
    puzzle_from_text,
    tiles_from_text,
    tiles_to_rows,
)
from taut.games.tracks.solver import SolveResult, solve
from taut.games.tracks.terminal import Solitaire
from taut.games.tracks.tiles import unit_name

FC = TypeVar("FC", bound=Callable[..., Any] | click.Command)

_SIZE_HELP = f"Board side {MIN_SIZE}..{MAX_SIZE} (default: a die roll plus one)."
_THRESHOLD_HELP = "Share of the cells that must differ from the original."
_RAW_HELP = "Keep the first deal even if no tiling differs from it enough to win."


# -- reading input ------------------------------------------------------------------------


def _read_source(source: str, what: str) -> str:
    try:
        if source == "-":
            return sys.stdin.read()
        return Path(source).read_bytes().decode("utf-8")
    except OSError as exc:
        fail(f"cannot read {what} {source}: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        fail(f"{what} {source} is not UTF-8 text: {exc.reason} at byte {exc.start}")


def _load_puzzle(source: str) -> Puzzle:
    try:
        return puzzle_from_text(_read_source(source, "puzzle"))
    except PuzzleError as exc:
        fail(f"puzzle {source}: {exc}")


def _solve(puzzle: Puzzle, cap: int, method: str) -> SolveResult:
    return solve(puzzle.size, puzzle.partner(), puzzle.original, cap=cap or None, method=method)


def _new_deal(size: int | None, seed: int | None, threshold: float, raw: bool) -> Deal:
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        fail(f"--size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
    try:
        return deal(size, make_rng(seed), threshold, raw=raw)
    except PuzzleError as exc:
        fail(str(exc))


def _threshold_option() -> Callable[[FC], FC]:
    return click.option(
        "--threshold",
        type=Real(0.0, 1.0),
        default=DEFAULT_THRESHOLD,
        show_default=True,
        help=_THRESHOLD_HELP,
    )


# -- the commands ---------------------------------------------------------------------------


@click.group("tracks", no_args_is_help=True)
def tracks_group() -> None:
    """Track Tiles solitaire: make, solve, check and play puzzles."""


@tracks_group.command("puzzle")
@click.option("--size", type=int, default=None, help=_SIZE_HELP)
@click.option("--seed", type=int, default=None, help="Seed for the die.")
@click.option("--json", "as_json", is_flag=True, help="Print the puzzle as JSON only.")
@click.option("--no-original", is_flag=True, help="Leave the original tiling out of the puzzle.")
@_threshold_option()
@click.option("--raw", is_flag=True, help=_RAW_HELP)
def puzzle_cmd(
    size: int | None,
    seed: int | None,
    as_json: bool,
    no_original: bool,
    threshold: float,
    raw: bool,
) -> None:
    """Make a puzzle: a random full board, its paths labelled round the edge.

    Boards are dealt again (reproducibly from the seed) until some tiling joining the
    pairs differs from the board in enough cells, unless --raw keeps the first deal.
    """
    dealt = _new_deal(size, seed, threshold, raw)
    puzzle = dealt.puzzle
    if no_original:
        puzzle = Puzzle(puzzle.size, puzzle.pairs)
    if as_json:
        click.echo(json.dumps(puzzle.to_json()))
        if not dealt.winnable:
            err_console.print(unwinnable_text(dealt.result, dealt.needed))
        return
    console.print(render_puzzle(puzzle, markup=True))
    pairs = ", ".join(
        f"{label_name(i)} {unit_name(puzzle.size, a)}-{unit_name(puzzle.size, b)}"
        for i, (a, b) in enumerate(puzzle.pairs)
    )
    console.print(f"Pairs: {pairs}")
    if puzzle.original is not None:
        console.print("Original:")
        console.print(render_puzzle(puzzle, puzzle.original, markup=True))
    for line in _deal_report(dealt):
        console.print(line)
    console.print("Use --json to save it for `taut tracks solve`.")


def _deal_report(dealt: Deal) -> list[str]:
    """How many tilings join the pairs, how often the board was dealt, and whether the
    puzzle can be won."""
    lines = [tilings_text(dealt.result)]
    if dealt.deals > 1:
        lines.append(f"Dealt {plural(dealt.deals, 'board')} to find one that can be won.")
    if not dealt.winnable:
        lines.append(unwinnable_text(dealt.result, dealt.needed))
    return lines


@tracks_group.command("solve")
@click.argument("source")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option(
    "--cap",
    type=click.IntRange(min=0),
    default=10_000,
    show_default=True,
    help="Count tilings exactly up to this many (0: no cap).",
)
@click.option(
    "--method",
    default="auto",
    show_default=True,
    help="How to find the maximum: auto, sat (MaxSAT) or dp.",
)
def solve_cmd(source: str, as_json: bool, cap: int, method: str) -> None:
    """Solve a puzzle: the most different tiling (a proven maximum) and the count.

    SOURCE is a puzzle JSON file, or - for standard input. The count covers every tiling
    that joins exactly the labelled pairs, the original included.
    """
    if method not in ("auto", "sat", "dp"):
        fail(f"--method must be auto, sat or dp, got {method!r}")
    puzzle = _load_puzzle(source)
    try:
        res = _solve(puzzle, cap, method)
    except ImportError:
        fail("--method sat needs python-sat (pip install 'taut[solve]')")
    if as_json:
        out: dict[str, Any] = {
            "tiles": None if res.tiles is None else tiles_to_rows(res.tiles, puzzle.size),
            "differs": res.differs,
            "solutions": res.solutions,
            "solutions_capped": res.capped,
        }
        click.echo(json.dumps(out))
        return
    _print_solution(puzzle, res)


def _print_solution(puzzle: Puzzle, res: SolveResult) -> None:
    n = puzzle.size
    count = f"at least {res.solutions}" if res.capped else str(res.solutions)
    if res.solutions == 0:
        console.print("No tiling joins exactly these pairs.")
        return
    console.print(f"Tilings joining exactly these pairs: {count}.")
    if res.tiles is None:
        console.print("Only the original tiling joins these pairs: there is no other solution.")
        return
    console.print(render_puzzle(puzzle, res.tiles, markup=True))
    if res.differs is not None:
        needed = needed_differences(n, DEFAULT_THRESHOLD)
        verdict = "at least" if res.differs >= needed else "fewer than"
        console.print(
            f"Differs from the original in {res.differs} of {n * n} cells, the most possible "
            f"({verdict} the {needed} needed to count as different)."
        )
    console.print(f"Solved in {res.seconds:.2f} s.")


@tracks_group.command("check")
@click.argument("puzzle_file")
@click.argument("solution_file")
@click.option(
    "--threshold",
    type=Real(0.0, 1.0),
    default=DEFAULT_THRESHOLD,
    show_default=True,
    help=_THRESHOLD_HELP,
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
def check_cmd(puzzle_file: str, solution_file: str, threshold: float, as_json: bool) -> None:
    """Check an answer: exit 0 when solved, 1 when wrong or too similar, 2 on bad input.

    PUZZLE_FILE is the puzzle JSON file; SOLUTION_FILE the answer: solve's JSON, a JSON
    list of rows, or rows of digits (- for standard input).
    """
    puzzle = _load_puzzle(puzzle_file)
    try:
        tiles = tiles_from_text(_read_source(solution_file, "answer"), puzzle.size)
    except PuzzleError as exc:
        fail(f"answer {solution_file}: {exc}")
    report = check_answer(puzzle, tiles, threshold)
    if as_json:
        verdict = {
            "solved": report.solved,
            "problems": list(report.problems),
            "differs": report.differs,
            "needed": report.needed,
        }
        click.echo(json.dumps(verdict))
    else:
        _print_report(puzzle, report)
    if not report.solved:
        raise click.exceptions.Exit(1)


def _print_report(puzzle: Puzzle, report: CheckReport) -> None:
    n = puzzle.size
    for line in report.problems:
        console.print(f"[{WRONG_STYLE}]wrong:[/] {escape(line)}")
    if not report.problems:
        console.print("Every labelled pair is joined.")
    if report.differs is not None:
        console.print(
            f"Differs from the original in {report.differs} of {n * n} cells "
            f"({report.needed} needed)."
        )
        if not report.problems and report.differs < report.needed:
            # The right paths but too close to the original: say whether any tiling can
            # differ enough, so the player knows whether to keep trying.
            best = _solve(puzzle, 1, "auto").differs or 0
            if best < report.needed:
                console.print(
                    f"No tiling differs in {plural(report.needed, 'cell')}: the most possible "
                    f"is {best}, so no substantially different solution exists."
                )
            else:
                console.print(f"A tiling differing in {plural(best, 'cell')} exists; keep trying.")
    console.print(f"[{SOLVED_STYLE}]Solved.[/]" if report.solved else "Not solved.")


@tracks_group.command("solitaire")
@click.option("--size", type=int, default=None, help=_SIZE_HELP)
@click.option("--seed", type=int, default=None, help="Seed for the puzzle.")
@click.option("--puzzle", "puzzle_file", default=None, help="Play this puzzle JSON file.")
@_threshold_option()
@click.option("--raw", is_flag=True, help=_RAW_HELP)
def solitaire_cmd(
    size: int | None, seed: int | None, puzzle_file: str | None, threshold: float, raw: bool
) -> None:
    """Play the solitaire in the terminal: fill the labelled board, then check it.

    A new puzzle is dealt as for `taut tracks puzzle`: one that can be won, unless --raw.
    """
    if puzzle_file is not None:
        if raw:
            fail("--raw is about dealing a new puzzle; it cannot be used with --puzzle")
        Solitaire(_load_puzzle(puzzle_file), threshold, input, console.print).run()
        return
    dealt = _new_deal(size, seed, threshold, raw)
    Solitaire(dealt.puzzle, threshold, input, console.print, dealt.result).run()


# -- the two-player game, solved ------------------------------------------------------------


@click.command("tracks")
@click.option("--size", type=int, default=3, show_default=True, help="Side of the board.")
@click.option(
    "--roll",
    type=click.Choice(["once", "each"]),
    default="once",
    show_default=True,
    help="The game's roll option (only once is solved).",
)
@click.option(
    "--first",
    type=click.Choice(["NS", "WE"]),
    default="NS",
    show_default=True,
    help="Who places first.",
)
@click.option(
    "--stored",
    is_flag=True,
    help="Print the shipped results instead of searching (always so for 5x5).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def solve_tracks_command(size: int, roll: str, first: str, stored: bool, as_json: bool) -> None:
    """Solve two-player Track Tiles exactly for the nine pairs of first kinds.

    With roll=once each player's kinds follow from one roll, so a game is fixed by the
    size, both first kinds and who places first. For every pair this prints the value
    (NS wins, WE wins or a draw, with perfect play), a best first placement, the nodes
    searched and the time. Boards up to 4x4 are solved (4x4 takes a minute or two; a
    progress bar runs on standard error); --stored prints the shipped results at once.
    5x5 is not solved: a search of one of its games takes far longer than this command
    should (hours at least), so --size 5 prints the shipped results of searches cut off
    after a budget of nodes, with the bounds they proved (or "unknown").
    """
    from taut.games.tracks.solve.report import (
        MAX_SOLVED,
        MAX_STORED,
        report,
        solve_all,
        stored_results,
    )

    if roll == "each":
        fail(
            "--roll each: a die is rolled before every placement, so no game is fixed "
            "in advance; only --roll once is solved"
        )
    if not 2 <= size <= 12:
        fail(f"--size must be 2..12 (the game's boards), got {size}")
    if size > MAX_STORED:
        fail(
            f"--size {size}: boards up to {MAX_SOLVED}x{MAX_SOLVED} are solved; "
            f"{size}x{size} is out of this solver's reach (see docs/tracks.md)"
        )
    seat = 0 if first == "NS" else 1
    if stored or size > MAX_SOLVED:
        results = stored_results(size, seat)
    else:
        with progress_bar(quiet=as_json, stderr=True) as bar:
            task = bar.add_task(f"Solving {size}x{size}", total=9)
            results = solve_all(
                size,
                seat,
                lambda done, text: bar.update(task, completed=done, description=text),
            )
    data = report(size, first, results)
    if as_json:
        click.echo(json.dumps(data))
        return
    for line in _solve_lines(data):
        console.print(escape(line))


def _solve_lines(data: dict[str, Any]) -> list[str]:
    """The solved games as a table."""
    size = data["size"]
    known = "values with perfect play" if data["solved"] else "what the searches proved"
    lines = [
        f"Track Tiles {size}x{size}, roll=once, {data['first']} places first: {known}.",
        f"{'NS kind':>7} {'WE kind':>7}  {'value':<14} {'first move':<10} {'nodes':>12} "
        f"{'seconds':>8}",
    ]
    for g in data["games"]:
        lines.append(
            f"{g['ns_kind']:>7} {g['we_kind']:>7}  {g['value']:<14} {g['move'] or '-':<10} "
            f"{g['nodes']:>12,} {g['seconds']:>8.2f}"
        )
    lines.append(f"{data['nodes']:,} nodes in {data['seconds']:.2f} s ({_how(data)}).")
    if not data["solved"]:
        lines.append(
            f"{size}x{size} is not solved: a full search takes hours a game or more; these "
            "are the shipped results of searches cut off after a node budget (see "
            "docs/tracks.md)."
        )
    return lines


def _how(data: dict[str, Any]) -> str:
    if data["stored"]:
        return "shipped results"
    return "compiled search" if data["compiled"] else "Python search"
