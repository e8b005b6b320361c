"""The track-tile solitaire: puzzles, their JSON form, and checking a player's answer.

A puzzle is made from a random full board: every path of a full board joins two edge
units, and each such pair gets one label. The player must fill the empty labelled board
so that every path joins exactly the units sharing a label, and the tiling should differ
"substantially" from the original: by default at least half of the cells.

JSON form::

    {"size": 3,
     "pairs": [[["N", 0], ["W", 2]], [["N", 1], ["E", 0]], ...],
     "original": [[1, 3, 2], [2, 2, 1], [3, 1, 1]]}

Sides are ``N``, ``E``, ``S``, ``W``; the index is the column for N and S and the row for
E and W, counted from 0 at the top or left. ``original`` is optional. Pairs are labelled
``A``, ``B``, ``C``, ... in the order given; :func:`generate` lists them in the order the
labels are written going clockwise round the board from the top-left corner.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from taut.core.errors import PositionError, RecordError
from taut.core.record_files import parse_json
from taut.games.tracks.cells import cell_name
from taut.games.tracks.paths import exit_unit, matching, trace
from taut.games.tracks.tiles import (
    KINDS,
    SIDE_NAMES,
    clockwise_units,
    solitaire_kind,
    unit_id,
    unit_name,
)

#: Board sides a puzzle may have (the die gives 2..7; larger boards are allowed too).
MIN_SIZE, MAX_SIZE = 2, 12
#: Default share of the cells that must differ from the original.
DEFAULT_THRESHOLD = 0.5


class PuzzleError(PositionError):
    """A puzzle or an answer is malformed: the message names the problem."""


def label_name(index: int) -> str:
    """The label of pair ``index``: ``A``, ``B``, ... ``Z``, then ``AA``, ``AB``, ..."""
    if index < 26:
        return chr(ord("A") + index)
    return label_name(index // 26 - 1) + chr(ord("A") + index % 26)


@dataclass(frozen=True)
class Puzzle:
    """A labelled empty board: ``pairs`` of unit ids, and the original tiling if known."""

    size: int
    pairs: tuple[tuple[int, int], ...]
    original: tuple[int, ...] | None = None

    def partner(self) -> list[int]:
        """``partner[u]``: the unit sharing a label with unit ``u``."""
        out = [0] * (4 * self.size)
        for a, b in self.pairs:
            out[a] = b
            out[b] = a
        return out

    def labels(self) -> dict[int, str]:
        """The label written at each unit."""
        out: dict[int, str] = {}
        for i, (a, b) in enumerate(self.pairs):
            out[a] = out[b] = label_name(i)
        return out

    def to_json(self) -> dict[str, Any]:
        """The JSON object described in the module docstring."""
        n = self.size

        def unit(u: int) -> list[Any]:
            side, index = divmod(u, n)
            return [SIDE_NAMES[side], index]

        data: dict[str, Any] = {"size": n, "pairs": [[unit(a), unit(b)] for a, b in self.pairs]}
        if self.original is not None:
            data["original"] = tiles_to_rows(self.original, n)
        return data


def tiles_to_rows(tiles: Sequence[int], size: int) -> list[list[int]]:
    """A flat row-major tiling as a list of rows."""
    return [list(tiles[r * size : (r + 1) * size]) for r in range(size)]


def pairs_of(board: Sequence[int], size: int) -> tuple[tuple[int, int], ...]:
    """Label a full board: walk the units clockwise from the top-left; each unit not yet
    labelled gets the next label, and so does the unit its path leaves by."""
    done: set[int] = set()
    pairs = []
    for u in clockwise_units(size):
        if u in done:
            continue
        v = exit_unit(board, size, u)
        if v is None:
            raise PuzzleError("the board has an empty cell; only full boards make puzzles")
        pairs.append((u, v))
        done.update((u, v))
    return tuple(pairs)


def random_board(size: int, rng: random.Random) -> tuple[int, ...]:
    """A full board with kinds from a die: 1-2 give kind 1, 3-4 kind 2, 5-6 kind 3."""
    return tuple(solitaire_kind(rng.randint(1, 6)) for _ in range(size * size))


def generate(size: int | None, rng: random.Random) -> Puzzle:
    """A new puzzle as the rules make it (``size`` None: a die roll plus one)."""
    n = rng.randint(1, 6) + 1 if size is None else size
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise PuzzleError(f"puzzle size must be {MIN_SIZE}..{MAX_SIZE}, got {n}")
    board = random_board(n, rng)
    return Puzzle(n, pairs_of(board, n), board)


# -- reading ----------------------------------------------------------------------------

_UNIT_RE = re.compile(r"^\s*([NESWnesw])\s*(\d{1,4})\s*$")  # never a page of digits


def _parse_unit(size: int, raw: Any, where: str) -> int:
    if isinstance(raw, list) and len(raw) == 2:
        side, index = raw
    elif isinstance(raw, str) and (m := _UNIT_RE.match(raw)):
        side, index = m.group(1), int(m.group(2))
    else:
        raise PuzzleError(f'{where}: {raw!r} is not a unit; write [side, index] such as ["N", 2]')
    if not isinstance(side, str) or side.upper() not in SIDE_NAMES:
        raise PuzzleError(f"{where}: side {side!r} is not one of N, E, S, W")
    if isinstance(index, bool) or not isinstance(index, int):
        raise PuzzleError(f"{where}: index {index!r} is not an integer")
    if not 0 <= index < size:
        raise PuzzleError(
            f"{where}: unit {side.upper()}{index} is off the {size}x{size} board "
            f"(indices 0..{size - 1})"
        )
    return unit_id(size, SIDE_NAMES.index(side.upper()), index)


def parse_tiles(raw: Any, size: int, what: str = "tiling") -> tuple[int, ...]:
    """Read a full tiling: a list of rows, each a list of kinds or a string of digits."""
    if isinstance(raw, str):
        raw = [line for line in raw.split("\n") if line.strip()]
    if not isinstance(raw, list) or len(raw) != size:
        got = len(raw) if isinstance(raw, list) else type(raw).__name__
        raise PuzzleError(f"{what} must have {size} rows, got {got}")
    out: list[int] = []
    for r, row in enumerate(raw, start=1):
        cells = (
            [ch for ch in row if not ch.isspace() and ch != ","] if isinstance(row, str) else row
        )
        if not isinstance(cells, list) or len(cells) != size:
            raise PuzzleError(f"{what} row {r} must hold {size} kinds, got {row!r}")
        for c, v in enumerate(cells):
            kind = int(v) if isinstance(v, (int, str)) and str(v) in ("1", "2", "3") else 0
            if isinstance(v, bool) or kind not in KINDS:
                raise PuzzleError(
                    f"{what} row {r}, column {c + 1}: {v!r} is not a kind (1, 2 or 3)"
                )
            out.append(kind)
    return tuple(out)


def puzzle_from_json(data: Any) -> Puzzle:
    """Validate and read a puzzle object; raises :class:`PuzzleError` naming the problem."""
    if not isinstance(data, dict):
        raise PuzzleError("a puzzle must be a JSON object with 'size' and 'pairs'")
    unknown = set(data) - {"size", "pairs", "original"}
    if unknown:
        raise PuzzleError(
            f"unknown puzzle field(s) {sorted(unknown)}; allowed: size, pairs, original"
        )
    size = data.get("size")
    if isinstance(size, bool) or not isinstance(size, int):
        raise PuzzleError(f"'size' must be an integer {MIN_SIZE}..{MAX_SIZE}, got {size!r}")
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise PuzzleError(f"'size' must be {MIN_SIZE}..{MAX_SIZE}, got {size}")
    raw_pairs = data.get("pairs")
    if not isinstance(raw_pairs, list):
        raise PuzzleError("'pairs' must be a list of [unit, unit] pairs")
    seen: dict[int, int] = {}
    pairs: list[tuple[int, int]] = []
    for i, pair in enumerate(raw_pairs, start=1):
        where = f"pair {i}"
        if not isinstance(pair, list) or len(pair) != 2:
            raise PuzzleError(f"{where}: {pair!r} is not a list of two units")
        a = _parse_unit(size, pair[0], where)
        b = _parse_unit(size, pair[1], where)
        if a == b:
            raise PuzzleError(f"{where}: joins unit {unit_name(size, a)} to itself")
        for u in (a, b):
            if u in seen:
                raise PuzzleError(
                    f"unit {unit_name(size, u)} is in two pairs ({seen[u]} and {i}); "
                    "every edge unit is in exactly one pair"
                )
            seen[u] = i
        pairs.append((a, b))
    missing = [unit_name(size, u) for u in range(4 * size) if u not in seen]
    if missing:
        raise PuzzleError(
            f"unit(s) {', '.join(missing)} are in no pair; on a full board every edge unit "
            "is joined to exactly one other"
        )
    original = None
    if data.get("original") is not None:
        original = parse_tiles(data["original"], size, "'original'")
    puzzle = Puzzle(size, tuple(pairs), original)
    if original is not None:
        wrong = answer_problems(puzzle, original)
        if wrong:
            raise PuzzleError("'original' does not realise the pairs: " + wrong[0])
    return puzzle


def _parse_json(text: str, what: str) -> Any:
    """Strict JSON (deep nesting, huge numbers, NaN and repeated keys are refused)."""
    try:
        return parse_json(text, what)
    except RecordError as exc:
        raise PuzzleError(str(exc)) from None


def puzzle_from_text(text: str) -> Puzzle:
    """Parse puzzle JSON text (see :func:`puzzle_from_json`)."""
    return puzzle_from_json(_parse_json(text, "the puzzle"))


def tiles_from_text(text: str, size: int) -> tuple[int, ...]:
    """Read an answer: the solver's JSON (``{"tiles": ...}``), a JSON list of rows, or
    plain text with one row of digits per line."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        data = _parse_json(stripped, "the answer")
        if isinstance(data, dict):
            if "tiles" not in data:
                raise PuzzleError("an answer object needs a 'tiles' field")
            data = data["tiles"]
            if data is None:
                raise PuzzleError("the answer has no tiles (the solver found no other tiling)")
        return parse_tiles(data, size, "the answer")
    return parse_tiles(stripped, size, "the answer")


# -- checking ---------------------------------------------------------------------------


def answer_problems(puzzle: Puzzle, tiles: Sequence[int]) -> list[str]:
    """What is wrong with a full tiling, one line per labelled pair it does not join."""
    n = puzzle.size
    labels = puzzle.labels()
    out = []
    for i, (a, b) in enumerate(puzzle.pairs):
        t = trace(tiles, n, a)
        end = t.end_unit
        if end == b:
            continue
        cells = " ".join(cell_name(n, cell) for cell, _, _ in t.segments)
        if end is None:
            where = "stops at an empty cell"
        else:
            where = f"leaves at {unit_name(n, end)} (label {labels[end]})"
        out.append(
            f"pair {label_name(i)} ({unit_name(n, a)}-{unit_name(n, b)}): the path from "
            f"{unit_name(n, a)} runs through {cells} and {where}, not at {unit_name(n, b)}"
        )
    return out


def needed_differences(size: int, threshold: float) -> int:
    """Cells that must differ for a solution to count as different (at least)."""
    return math.ceil(threshold * size * size - 1e-9)


@dataclass(frozen=True)
class CheckReport:
    """The verdict on an answer.

    ``problems`` lists labelled pairs not joined (empty when the paths are right);
    ``differs`` counts cells unlike the original (None without one); ``needed`` is the
    threshold in cells; ``solved`` is True when the paths are right and, with an
    original, enough cells differ.
    """

    problems: tuple[str, ...]
    differs: int | None
    needed: int
    solved: bool


def check_answer(
    puzzle: Puzzle, tiles: Sequence[int], threshold: float = DEFAULT_THRESHOLD
) -> CheckReport:
    """Check a full tiling against a puzzle."""
    if len(tiles) != puzzle.size**2:
        raise PuzzleError(f"an answer needs {puzzle.size**2} cells, got {len(tiles)}")
    problems = tuple(answer_problems(puzzle, tiles))
    needed = needed_differences(puzzle.size, threshold)
    differs = None
    if puzzle.original is not None:
        differs = sum(1 for a, b in zip(tiles, puzzle.original, strict=True) if a != b)
    solved = not problems and (differs is None or differs >= needed)
    return CheckReport(problems, differs, needed, solved)


def realises(puzzle: Puzzle, tiles: Sequence[int]) -> bool:
    """True when every path of ``tiles`` joins exactly the labelled pairs."""
    return matching(tiles, puzzle.size) == [*puzzle.partner()]
