"""The solitaire at a terminal: fill the labelled board cell by cell, trace, check, reveal.

:class:`Solitaire` reads commands through a function and writes Rich markup through
another, so a whole game can be scripted; ``taut tracks solitaire`` connects it to the
terminal.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.markup import escape

from taut.core.errors import TautError
from taut.core.numbers import whole
from taut.games.tracks.cells import cell_name, parse_cell, plural
from taut.games.tracks.deal import COUNT_CAP, differ_text, tilings_text, unwinnable_text, winnable
from taut.games.tracks.paths import trace
from taut.games.tracks.render import (
    SOLVED_STYLE,
    WRONG_STYLE,
    render_puzzle,
    segments_to_highlight,
)
from taut.games.tracks.solitaire import (
    Puzzle,
    PuzzleError,
    check_answer,
    label_name,
    needed_differences,
)
from taut.games.tracks.solver import SolveResult, solve

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
    script a whole game. Bad input only prints a message. ``best`` is the solver's answer
    when the caller has it already (a dealt puzzle), else it is worked out at the start.
    """

    def __init__(
        self,
        puzzle: Puzzle,
        threshold: float,
        read_line: Callable[[str], str],
        say: Callable[[str], None],
        best: SolveResult | None = None,
    ) -> None:
        self.puzzle = puzzle
        self.threshold = threshold
        self.read_line = read_line
        self.say = say
        self.tiles = [0] * (puzzle.size * puzzle.size)
        self.highlight: set[tuple[int, int]] = set()
        self._best = best

    @property
    def needed(self) -> int:
        """Cells that must differ from the original."""
        return needed_differences(self.puzzle.size, self.threshold)

    def best(self) -> SolveResult:
        """The solver's answer: the most different tiling and the count (computed once)."""
        if self._best is None:
            p = self.puzzle
            self._best = solve(p.size, p.partner(), p.original, cap=COUNT_CAP)
        return self._best

    def intro(self) -> list[str]:
        """What the player is told first: the goal, how many tilings join the pairs, and
        whether any of them differs enough."""
        res = self.best()
        goal = "every path joins the two edge units with the same label"
        if self.puzzle.original is not None:
            goal += f", differing from the original in at least {plural(self.needed, 'cell')}"
        lines = [f"Fill the board so that {goal}. Type help."]
        if res.solutions == 0:
            return [*lines, "No tiling joins exactly these pairs: this puzzle cannot be solved."]
        lines.append(tilings_text(res))
        if not winnable(res, self.needed):
            lines.append(unwinnable_text(res, self.needed))
        return lines

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
        return text + (f", [{WRONG_STYLE}]{wrong} joined wrongly[/]" if wrong else "")

    def run(self) -> bool:
        """Play until solved, revealed or quit; True when solved."""
        for line in self.intro():
            self.say(line)
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
                self.say(f"[{WRONG_STYLE}]{escape(str(exc))}[/] (type help)")
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
        if res.solutions == 0:
            self.say("No tiling joins exactly these pairs.")
        elif self.puzzle.original is None:
            self.say("This puzzle has no original; any tiling joining the pairs solves it.")
        elif res.tiles is None:
            self.say("Only the original joins these pairs: no different solution exists.")
        else:
            differs = res.differs or 0
            more = "" if differs >= self.needed else " (fewer than needed: no solution counts)"
            self.say(f"The most different solution changes {plural(differs, 'cell')}{more}.")

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
            self.say(f"The board is not full yet: {plural(len(empty), 'empty cell')} ({shown}).")
            return None
        report = check_answer(self.puzzle, self.tiles, self.threshold)
        for line in report.problems:
            self.say(f"[{WRONG_STYLE}]wrong:[/] {escape(line)}")
        if report.problems:
            return None
        if report.differs is not None and not report.solved:
            self.say(
                f"Every pair is joined, but only {differ_text(report.differs)} from the "
                f"original ({report.needed} needed)."
            )
            self._say_best()
            return None
        extra = "" if report.differs is None else f" {differ_text(report.differs)}."
        self.say(f"[{SOLVED_STYLE}]Solved![/]{extra}")
        return True

    def _fill_row(self, args: list[str]) -> None:
        n = self.puzzle.size
        row = whole(args[0]) if args else None
        if len(args) < 2 or row is None:
            raise PuzzleError("write row, a row number and its kinds, e.g. row 2 123")
        r = row - 1
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
