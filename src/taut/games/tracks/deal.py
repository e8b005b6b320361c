"""Dealing solitaire puzzles that can be won.

About one random deal in five (most of them 2x2 and 3x3 boards) has no tiling that joins
the labelled pairs and changes enough cells. :func:`deal` asks the exact solver about each
deal and deals again, from the same random stream, until the most different tiling
reaches the threshold; so a seed still names one puzzle. The board's side is rolled once
(or given), and only the tiles are dealt again. ``raw`` keeps the first deal as it falls.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass

from taut.games.tracks.cells import plural
from taut.games.tracks.frontier import FrontierSolver
from taut.games.tracks.solitaire import (
    DEFAULT_THRESHOLD,
    Puzzle,
    PuzzleError,
    generate,
    needed_differences,
    pairs_of,
    random_board,
)
from taut.games.tracks.solver import SolveResult, solve

#: Deals tried before giving up (a threshold no board of the size can reach).
MAX_DEALS = 200
#: Tilings counted exactly, at most, for the count a new puzzle reports.
COUNT_CAP = 10_000


@dataclass(frozen=True)
class Deal:
    """A dealt puzzle and what the solver knows about it.

    ``result`` is the solver's answer for ``puzzle`` (the most different tiling and the
    number of tilings joining the pairs, exact up to a cap); ``deals`` counts the boards
    dealt to find it (1: the first one); ``needed`` is the threshold in cells.
    """

    puzzle: Puzzle
    result: SolveResult
    deals: int
    needed: int

    @property
    def winnable(self) -> bool:
        """Whether some tiling joins the pairs and differs in at least ``needed`` cells."""
        return winnable(self.result, self.needed)


def winnable(result: SolveResult, needed: int) -> bool:
    """Whether ``result`` shows a tiling that solves its puzzle at ``needed`` cells."""
    return result.solutions > 0 and (result.differs is None or result.differs >= needed)


def deal(
    size: int | None,
    rng: random.Random,
    threshold: float = DEFAULT_THRESHOLD,
    raw: bool = False,
    cap: int = COUNT_CAP,
    tries: int = MAX_DEALS,
) -> Deal:
    """A puzzle as the rules deal it (``size`` None: a die roll plus one), dealt again
    until it can be won at ``threshold`` unless ``raw``; its tilings counted up to ``cap``.

    Raises :class:`PuzzleError` when ``tries`` deals bring no winnable puzzle.
    """
    puzzle = generate(size, rng)
    n = puzzle.size
    needed = needed_differences(n, threshold)
    for count in range(1, tries + 1):
        if count > 1:
            board = random_board(n, rng)
            puzzle = Puzzle(n, pairs_of(board, n), board)
        # A count of 1 is enough to judge; the full count is made once, for the keeper.
        res = solve(n, puzzle.partner(), puzzle.original, cap=1)
        if raw or winnable(res, needed):
            return Deal(puzzle, _counted(puzzle, res, cap), count, needed)
    raise PuzzleError(
        f"no {n}x{n} board in {tries} deals has a solution differing in {needed} of "
        f"{n * n} cells; lower --threshold, or ask for the deal as it falls with --raw"
    )


def _counted(puzzle: Puzzle, res: SolveResult, cap: int) -> SolveResult:
    """``res`` with its count made exact up to ``cap``."""
    solver = FrontierSolver(puzzle.size, puzzle.partner())
    solutions, capped = solver.count(cap or None, puzzle.original)
    return dataclasses.replace(res, solutions=solutions, capped=capped)


# -- what is said about a puzzle ----------------------------------------------------------


def tilings_text(result: SolveResult) -> str:
    """How many tilings join the pairs: ``113 tilings join exactly these pairs.``"""
    if result.capped:
        return f"At least {result.solutions} tilings join exactly these pairs."
    verb = "joins" if result.solutions == 1 else "join"
    return f"{plural(result.solutions, 'tiling')} {verb} exactly these pairs."


def unwinnable_text(result: SolveResult, needed: int) -> str:
    """Why no answer can count: the most cells any tiling changes is below ``needed``."""
    return (
        f"No tiling differs from the original in {plural(needed, 'cell')} (the most is "
        f"{result.differs or 0}): this puzzle cannot be won."
    )


def differ_text(count: int) -> str:
    """``1 cell differs``, ``3 cells differ``."""
    return f"{plural(count, 'cell')} {'differs' if count == 1 else 'differ'}"
