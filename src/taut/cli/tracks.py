"""``taut play tracks`` and the solitaire commands ``taut tracks puzzle|solve|check|solitaire``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.cli.app import (
    THINK,
    WHO,
    app,
    console,
    fail,
    make_game,
    play_app,
)
from taut.cli.table import HumanAgent, TerminalTable, play_in_terminal
from taut.core.chance import make_rng
from taut.core.errors import TautError
from taut.core.game import CHANCE_SEAT, State
from taut.games.tracks.paths import trace
from taut.games.tracks.render import (
    render_puzzle,
    render_state,
    segments_to_highlight,
)
from taut.games.tracks.rules import SEATS, Tracks, TracksState, cell_name, parse_cell
from taut.games.tracks.solitaire import (
    DEFAULT_THRESHOLD,
    MAX_SIZE,
    MIN_SIZE,
    Puzzle,
    PuzzleError,
    check_answer,
    generate,
    label_name,
    needed_differences,
    puzzle_from_text,
    tiles_from_text,
    tiles_to_rows,
)
from taut.games.tracks.tiles import roll_to_kind, unit_name
from taut.solve.tracks import SolveResult, solve

tracks_app = typer.Typer(
    help="Track Tiles solitaire: make, solve, check and play puzzles.", no_args_is_help=True
)
app.add_typer(tracks_app, name="tracks")

_LEGEND = (
    "NS (blue) joins top and bottom, WE (red) joins left and right; tiles are never "
    "rotated. Type a cell such as c3 (column letter, row number) to place your tile; "
    "help lists the empty cells, quit stops."
)


# -- the two-player game ----------------------------------------------------------------


@play_app.command("tracks")
def play(
    ns: str = typer.Option("human", "--ns", help=f"Who plays NS: {WHO}."),
    we: str = typer.Option("greedy", "--we", help=f"Who plays WE: {WHO}."),
    size: int = typer.Option(6, "--size", help="Side of the board (2..12)."),
    first: str = typer.Option("NS", "--first", help="Who places first: NS, WE or random."),
    roll: str = typer.Option(
        "once", "--roll", help="once: roll the first kind, then 1->2->3->1; each: every turn."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the die and the agents."),
    record: Path | None = typer.Option(
        None, "--record", help="Write the game record (JSON) here; updated after every move."
    ),
    think: float | None = THINK,
) -> None:
    """Play Track Tiles in the terminal.

    Place your current tile on an empty cell; the first path joining your two sides wins.

    A tile completing both players' paths wins for the player who placed it.
    """
    game = make_game("tracks", {"size": size, "first": first, "roll": roll})
    assert isinstance(game, Tracks)
    table = TerminalTable(console, _board_markup, humans=1, verb="places")
    agents: list[Agent] = []
    for spec in (ns, we):
        try:
            agents.append(HumanAgent(table) if spec == "human" else make_agent(spec, think=think))
        except TautError as exc:
            fail(f"{exc} (or human)")
    console.print(escape(_LEGEND))
    console.print(_board_markup(game.new_initial_state()))

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        b, a = _ts(before), _ts(after)
        if CHANCE_SEAT in joint:
            outcome = joint[CHANCE_SEAT]
            if b.first is None:
                console.print(f"The coin says {SEATS[outcome]} places first.")
            else:
                seat = b.rolling_seat()
                who = SEATS[seat] if seat is not None else "?"
                console.print(f"{who} rolls {outcome + 1}: kind {roll_to_kind(outcome + 1)}.")
            # The board was drawn after the last placement; draw it again only once the
            # opening rolls are done, to show both tiles before the first placement.
            if a.kind.value == "decision" and a.placed() == 0:
                console.print(_board_markup(a))
            return
        seat, cell = next(iter(joint.items()))
        console.rule(f"{SEATS[seat]} places kind {b.kinds[seat]} on {cell_name(game.size, cell)}")
        console.print(_board_markup(a))

    play_in_terminal(console, game, agents, seed, observe, record)


def _ts(state: State) -> TracksState:
    assert isinstance(state, TracksState)
    return state


def _board_markup(state: State) -> str:
    return render_state(_ts(state), markup=True)


# -- solitaire: reading input -----------------------------------------------------------


def _read_source(source: str, what: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text()
    except OSError as exc:
        fail(f"cannot read {what} {source}: {exc.strerror or exc}")


def _load_puzzle(source: str) -> Puzzle:
    try:
        return puzzle_from_text(_read_source(source, "puzzle"))
    except PuzzleError as exc:
        fail(f"puzzle {source}: {exc}")


def _solve(puzzle: Puzzle, cap: int, method: str) -> SolveResult:
    return solve(puzzle.size, puzzle.partner(), puzzle.original, cap=cap or None, method=method)


# -- solitaire: commands ------------------------------------------------------------------


@tracks_app.command("puzzle")
def puzzle_cmd(
    size: int | None = typer.Option(
        None, "--size", help=f"Board side {MIN_SIZE}..{MAX_SIZE} (default: a die roll plus one)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the die."),
    as_json: bool = typer.Option(False, "--json", help="Print the puzzle as JSON only."),
    no_original: bool = typer.Option(
        False, "--no-original", help="Leave the original tiling out of the puzzle."
    ),
) -> None:
    """Make a puzzle: a random full board, its paths labelled round the edge."""
    if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
        fail(f"--size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
    puzzle = generate(size, make_rng(seed))
    if no_original:
        puzzle = Puzzle(puzzle.size, puzzle.pairs)
    if as_json:
        print(json.dumps(puzzle.to_json()))
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
    console.print("Use --json to save it for `taut tracks solve`.")


@tracks_app.command("solve")
def solve_cmd(
    source: str = typer.Argument(..., help="Puzzle JSON file, or - for standard input."),
    as_json: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
    cap: int = typer.Option(
        10_000, "--cap", min=0, help="Count tilings exactly up to this many (0: no cap)."
    ),
    method: str = typer.Option(
        "auto", "--method", help="How to find the maximum: auto, sat (MaxSAT) or dp."
    ),
) -> None:
    """Solve a puzzle: the most different tiling (a proven maximum) and the count.

    The count covers every tiling that joins exactly the labelled pairs, the original
    included.
    """
    if method not in ("auto", "sat", "dp"):
        fail(f"--method must be auto, sat or dp, got {method!r}")
    puzzle = _load_puzzle(source)
    try:
        res = _solve(puzzle, cap, method)
    except ImportError:
        fail("--method sat needs python-sat (pip install 'taut[solve]')")
    n = puzzle.size
    if as_json:
        out: dict[str, Any] = {
            "tiles": None if res.tiles is None else tiles_to_rows(res.tiles, n),
            "differs": res.differs,
            "solutions": res.solutions,
            "solutions_capped": res.capped,
        }
        print(json.dumps(out))
        return
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


@tracks_app.command("check")
def check_cmd(
    puzzle_file: str = typer.Argument(..., help="Puzzle JSON file."),
    solution_file: str = typer.Argument(
        ..., help="Answer: solve's JSON, a JSON list of rows, or rows of digits; - for stdin."
    ),
    threshold: float = typer.Option(
        DEFAULT_THRESHOLD,
        "--threshold",
        min=0.0,
        max=1.0,
        help="Share of the cells that must differ from the original.",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the verdict as JSON."),
) -> None:
    """Check an answer: exit 0 when solved, 1 when wrong or too similar, 2 on bad input."""
    puzzle = _load_puzzle(puzzle_file)
    try:
        tiles = tiles_from_text(_read_source(solution_file, "answer"), puzzle.size)
    except PuzzleError as exc:
        fail(f"answer {solution_file}: {exc}")
    report = check_answer(puzzle, tiles, threshold)
    n = puzzle.size
    if as_json:
        print(
            json.dumps(
                {
                    "solved": report.solved,
                    "problems": list(report.problems),
                    "differs": report.differs,
                    "needed": report.needed,
                }
            )
        )
    else:
        for line in report.problems:
            console.print(f"[red]wrong:[/red] {escape(line)}")
        if not report.problems:
            console.print("Every labelled pair is joined.")
        if report.differs is not None:
            console.print(
                f"Differs from the original in {report.differs} of {n * n} cells "
                f"({report.needed} needed)."
            )
            if not report.problems and report.differs < report.needed:
                best = _solve(puzzle, 1, "auto").differs or 0
                if best < report.needed:
                    console.print(
                        f"No tiling differs in {report.needed} cells: the most possible is "
                        f"{best}, so no substantially different solution exists."
                    )
                else:
                    console.print(f"A tiling differing in {best} cells exists; keep trying.")
        console.print("[bold green]Solved.[/bold green]" if report.solved else "Not solved.")
    if not report.solved:
        raise typer.Exit(1)


# -- solitaire: interactive -----------------------------------------------------------------

_SOLITAIRE_HELP = """Commands:
  c3 2      place kind 2 on cell c3 (column letter, row number); also 2 c3 or c3=2
  c3 .      clear cell c3
  row 2 123 fill row 2 with kinds 1, 2, 3 (a . leaves a cell empty)
  trace A   highlight the path from the first unit labelled A
  check     check the board (it must be full)
  original  show the board the puzzle was made from
  best      how many cells the most different solution changes
  reveal    show the most different solution (and stop)
  show      draw the board again
  quit      stop"""


class Solitaire:
    """The interactive solitaire: a board being filled, and commands to work on it.

    Input comes from ``read_line`` and output goes to ``say`` (rich markup), so tests can
    script a whole game. Bad input only prints a message.
    """

    def __init__(
        self,
        puzzle: Puzzle,
        threshold: float,
        read_line: Callable[[str], str],
        say: Callable[[str], None],
    ) -> None:
        self.puzzle = puzzle
        self.threshold = threshold
        self.read_line = read_line
        self.say = say
        self.tiles = [0] * (puzzle.size * puzzle.size)
        self.highlight: set[tuple[int, int]] = set()
        self._best: SolveResult | None = None

    def best(self) -> SolveResult:
        """The solver's answer (computed once)."""
        if self._best is None:
            p = self.puzzle
            self._best = solve(p.size, p.partner(), p.original, cap=2)
        return self._best

    def show(self) -> None:
        """Draw the board and the progress line."""
        self.say(render_puzzle(self.puzzle, self.tiles, markup=True, highlight=self.highlight))
        self.say(self.progress())

    def progress(self) -> str:
        """Cells filled, pairs already joined, and pairs already known to be wrong."""
        n = self.puzzle.size
        joined = wrong = 0
        for a, b in self.puzzle.pairs:
            end = trace(self.tiles, n, a).end_unit
            if end == b:
                joined += 1
            elif end is not None:
                wrong += 1
        filled = sum(1 for k in self.tiles if k)
        text = f"{filled}/{n * n} cells filled, {joined}/{len(self.puzzle.pairs)} pairs joined"
        return text + (f", [red]{wrong} joined wrongly[/red]" if wrong else "")

    def run(self) -> bool:
        """Play until solved, revealed or quit; True when solved."""
        self.say(
            "Fill the board so that every path joins the two edge units with the same "
            "label, differing from the original in at least "
            f"{needed_differences(self.puzzle.size, self.threshold)} cells. Type help."
        )
        self.show()
        while True:
            try:
                text = self.read_line("tracks> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                return False
            if not text:
                continue
            try:
                done = self.command(text)
            except (PuzzleError, TautError) as exc:
                self.say(f"[red]{escape(str(exc))}[/red] (type help)")
                continue
            if done is not None:
                return done

    def command(self, text: str) -> bool | None:
        """Carry out one command; returns True/False to stop (solved / not), else None."""
        words = text.replace("=", " ").split()
        head = words[0].lower()
        if head in ("help", "?", "h"):
            self.say(escape(_SOLITAIRE_HELP))
        elif head in ("quit", "exit", "q"):
            return False
        elif head == "show":
            self.show()
        elif head == "original":
            if self.puzzle.original is None:
                self.say("This puzzle does not include its original board.")
            else:
                self.say(render_puzzle(self.puzzle, self.puzzle.original, markup=True))
        elif head == "best":
            self._say_best()
        elif head == "reveal":
            res = self.best()
            if res.tiles is None:
                self._say_best()
            else:
                self.say(render_puzzle(self.puzzle, res.tiles, markup=True))
                self._say_best()
            return False
        elif head == "trace":
            self._trace(words[1:])
        elif head == "check":
            return self._check()
        elif head == "row":
            self._fill_row(words[1:])
        else:
            self._place(words)
        return None

    def _say_best(self) -> None:
        res = self.best()
        needed = needed_differences(self.puzzle.size, self.threshold)
        if res.solutions == 0:
            self.say("No tiling joins exactly these pairs.")
        elif self.puzzle.original is None:
            self.say("This puzzle has no original; any tiling joining the pairs solves it.")
        elif res.tiles is None:
            self.say("Only the original joins these pairs: no different solution exists.")
        else:
            differs = res.differs or 0
            more = "" if differs >= needed else " (fewer than needed: no solution counts)"
            self.say(f"The most different solution changes {differs} cells{more}.")

    def _trace(self, args: list[str]) -> None:
        if len(args) != 1:
            raise PuzzleError("write trace and a label, e.g. trace A")
        name = args[0].upper()
        for i, (a, _) in enumerate(self.puzzle.pairs):
            if label_name(i) == name:
                t = trace(self.tiles, self.puzzle.size, a)
                self.highlight = segments_to_highlight(self.tiles, t.segments)
                self.show()
                return
        raise PuzzleError(f"no label {name!r} on this board")

    def _check(self) -> bool | None:
        empty = [cell_name(self.puzzle.size, i) for i, k in enumerate(self.tiles) if not k]
        if empty:
            shown = " ".join(empty[:8]) + (" ..." if len(empty) > 8 else "")
            self.say(f"The board is not full yet: {len(empty)} empty ({shown}).")
            return None
        report = check_answer(self.puzzle, self.tiles, self.threshold)
        for line in report.problems:
            self.say(f"[red]wrong:[/red] {escape(line)}")
        if report.problems:
            return None
        if report.differs is not None and not report.solved:
            self.say(
                f"Every pair is joined, but only {report.differs} cells differ from the "
                f"original ({report.needed} needed)."
            )
            self._say_best()
            return None
        extra = "" if report.differs is None else f" {report.differs} cells differ."
        self.say(f"[bold green]Solved![/bold green]{extra}")
        return True

    def _fill_row(self, args: list[str]) -> None:
        n = self.puzzle.size
        if len(args) < 2 or not args[0].isdigit():
            raise PuzzleError("write row, a row number and its kinds, e.g. row 2 123")
        r = int(args[0]) - 1
        kinds = "".join(args[1:])
        if not 0 <= r < n or len(kinds) != n or any(ch not in "123." for ch in kinds):
            raise PuzzleError(f"row needs a number 1-{n} and {n} kinds from 1 2 3 . (empty)")
        for c, ch in enumerate(kinds):
            self.tiles[r * n + c] = 0 if ch == "." else int(ch)
        self.highlight = set()
        self.show()

    def _place(self, words: list[str]) -> None:
        n = self.puzzle.size
        kinds = [w for w in words if w in ("1", "2", "3", ".")]
        cells = [w for w in words if w not in kinds]
        if len(words) == 1 and len(words[0]) >= 3:
            # "c32" is not accepted: a cell and a kind must be separated.
            raise PuzzleError(f"{words[0]!r}: write a cell and a kind, e.g. c3 2 (help lists all)")
        if len(kinds) != 1 or len(cells) != 1:
            raise PuzzleError(f"{' '.join(words)!r} is not a command; e.g. c3 2 (type help)")
        cell = parse_cell(n, cells[0])
        self.tiles[cell] = 0 if kinds[0] == "." else int(kinds[0])
        self.highlight = set()
        self.show()


@tracks_app.command("solitaire")
def solitaire_cmd(
    size: int | None = typer.Option(
        None, "--size", help=f"Board side {MIN_SIZE}..{MAX_SIZE} (default: a die roll plus one)."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for the puzzle."),
    puzzle_file: str | None = typer.Option(None, "--puzzle", help="Play this puzzle JSON file."),
    threshold: float = typer.Option(
        DEFAULT_THRESHOLD,
        "--threshold",
        min=0.0,
        max=1.0,
        help="Share of the cells that must differ from the original.",
    ),
) -> None:
    """Play the solitaire in the terminal: fill the labelled board, then check it."""
    if puzzle_file is not None:
        puzzle = _load_puzzle(puzzle_file)
    else:
        if size is not None and not MIN_SIZE <= size <= MAX_SIZE:
            fail(f"--size must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
        puzzle = generate(size, make_rng(seed))
    game = Solitaire(puzzle, threshold, input, console.print)
    game.run()
