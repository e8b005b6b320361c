"""Exact solver for the track-tile solitaire: the most different tiling and the count.

Two exact methods are combined, chosen by measurement. The frontier dynamic program
(:mod:`taut.games.tracks.frontier`) counts the tilings that realise a pairing and can find
the most different one by forward passes; the MaxSAT model (:mod:`taut.games.tracks.maxsat`)
finds the most different tiling much faster: on 7x7 puzzles about a tenth of a second
where the frontier passes take seconds. So :func:`solve` uses MaxSAT whenever python-sat
is installed and falls back to the passes otherwise (tests check that the two agree);
counting always uses the frontier program.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from taut.games.tracks.frontier import FrontierSolver
from taut.games.tracks.maxsat import max_difference_sat, sat_available

__all__ = [
    "FrontierSolver",
    "SolveResult",
    "max_difference_sat",
    "sat_available",
    "solve",
]


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` found.

    ``tiles`` is the best tiling (row-major kinds) or None when no tiling other than the
    original realises the pairing (or none at all does). ``differs`` is the number of
    cells where ``tiles`` differs from the original (None without an original or without
    a tiling). ``solutions`` counts the tilings realising the pairing, the original
    included; when ``capped`` it is the cap and the true count is at least that.
    """

    size: int
    tiles: tuple[int, ...] | None
    differs: int | None
    solutions: int
    capped: bool
    seconds: float


def solve(
    size: int,
    partner: Sequence[int],
    original: Sequence[int] | None = None,
    cap: int | None = 10_000,
    method: str = "auto",
) -> SolveResult:
    """Solve one puzzle: the most different tiling (a proven maximum) and the count.

    ``method`` picks how the maximum is found: ``sat`` (MaxSAT), ``dp`` (frontier passes)
    or ``auto`` (SAT when python-sat is installed). Counting always uses the frontier
    program, exact up to ``cap`` (``None`` or 0: no cap).
    """
    if method not in ("auto", "sat", "dp"):
        raise ValueError(f"method must be auto, sat or dp, got {method!r}")
    use_sat = method == "sat" or (method == "auto" and sat_available())
    start = time.perf_counter()
    solver = FrontierSolver(size, partner)
    tiles: tuple[int, ...] | None
    differs: int | None = None
    # The count is guided by a tiling known to work: the original, or the one just found.
    guide: Sequence[int] | None
    if original is None:
        tiles = max_difference_sat(size, partner, None)[0] if use_sat else solver.any_tiling()
        guide = tiles
    else:
        if use_sat:
            tiles, best = max_difference_sat(size, partner, original)
        else:
            tiles, best = solver.max_difference(original)
        differs = best if best >= 0 else None
        guide = original if best >= 0 else None
    if guide is None:  # nothing realises the pairing
        count, capped = 0, False
    else:
        count, capped = solver.count(cap, guide)
    return SolveResult(size, tiles, differs, count, capped, time.perf_counter() - start)
