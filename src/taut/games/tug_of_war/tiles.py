"""Domino sets: tile ids, halves, pips and the oriented-tile ids used for chance.

A double-``m`` set holds every unordered pair ``(a, b)`` with ``0 <= a <= b <= m``. Tiles
get dense ids in the order ``0-0, 0-1, ..., 0-m, 1-1, 1-2, ...`` so a hand is a small set of
ints and move generation is a table lookup (:attr:`DominoSet.other`).

Chance outcomes name an *oriented* tile ``a * (m + 1) + b``: a starter laid face up has a
first half (its train's end 0) and a second half (end 1), so the deal of a starter decides
its orientation too. Every other deal or draw only ever offers the canonical orientation
``a <= b``.
"""

from __future__ import annotations

import re
from functools import cache

from taut.core.errors import MalformedActionError

Tile = tuple[int, int]
"""A tile as its two halves (in either order unless stated)."""

_TILE_RE = re.compile(r"^\s*(\d{1,4})\s*[-|:/]\s*(\d{1,4})\s*$")  # never a page of digits


class DominoSet:
    """The tiles of a double-``top`` set and the tables built on them."""

    def __init__(self, top: int) -> None:
        self.top = top
        #: Halves per tile id, low half first.
        self.tiles: tuple[Tile, ...] = tuple(
            (a, b) for a in range(top + 1) for b in range(a, top + 1)
        )
        self.size = len(self.tiles)
        self._index: dict[Tile, int] = {}
        for i, (a, b) in enumerate(self.tiles):
            self._index[(a, b)] = i
            self._index[(b, a)] = i
        #: Pips (sum of both halves) per tile id.
        self.pips: tuple[int, ...] = tuple(a + b for a, b in self.tiles)
        #: Sum of the pips of every tile in the set: no leftover can exceed it.
        self.total_pips = sum(self.pips)
        # other[t][v]: the half left open when tile t is placed against an end showing v,
        # or -1 when t has no half v. A double leaves its own number open.
        self.other: tuple[tuple[int, ...], ...] = tuple(
            tuple(b if a == v else (a if b == v else -1) for v in range(top + 1))
            for a, b in self.tiles
        )
        self.is_double: tuple[bool, ...] = tuple(a == b for a, b in self.tiles)
        #: Per tile id, a bit mask of its numbers (bit ``v`` set when a half shows ``v``).
        self.numbers: tuple[int, ...] = tuple((1 << a) | (1 << b) for a, b in self.tiles)
        self.num_oriented = (top + 1) * (top + 1)
        #: The chance-outcome id of each tile laid low half first.
        self.canonical: tuple[int, ...] = tuple(a * (top + 1) + b for a, b in self.tiles)

    def index(self, a: int, b: int) -> int:
        """The id of tile ``a-b`` (either order); raises KeyError outside the set."""
        return self._index[(a, b)]

    def has(self, a: int, b: int) -> bool:
        """True when ``a-b`` is a tile of this set."""
        return (a, b) in self._index

    def oriented(self, a: int, b: int) -> int:
        """The chance-outcome id of tile ``a-b`` laid with ``a`` first."""
        return a * (self.top + 1) + b

    def unorient(self, outcome: int) -> Tile:
        """The halves ``(first, second)`` of an oriented id."""
        return divmod(outcome, self.top + 1)

    def canonical_outcome(self, tile: int) -> int:
        """The oriented id of tile ``tile`` with its low half first."""
        return self.canonical[tile]

    def name(self, tile: int) -> str:
        """``a-b`` with the low half first."""
        a, b = self.tiles[tile]
        return f"{a}-{b}"

    def title(self) -> str:
        """``double-six``, ``double-nine`` or ``double-twelve`` (or ``double-N``)."""
        words = {6: "six", 9: "nine", 12: "twelve"}
        return f"double-{words.get(self.top, str(self.top))}"

    def parse(self, text: str) -> Tile:
        """Parse ``a-b`` (also ``a|b``, ``a:b``, ``a/b``) into halves, in the given order."""
        m = _TILE_RE.match(text)
        if m is None:
            raise MalformedActionError(f"{text.strip()!r} is not a tile; write it like 3-5")
        a, b = int(m.group(1)), int(m.group(2))
        if not self.has(a, b):
            raise MalformedActionError(
                f"{a}-{b} is not a tile of the {self.title()} set (halves 0..{self.top})"
            )
        return a, b

    def from_json(self, data: object) -> Tile:
        """Read ``[a, b]`` (either order); raises ValueError naming what is wrong."""
        if (
            not isinstance(data, list | tuple)
            or len(data) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in data)
        ):
            raise ValueError(f"{data!r} is not a tile [a, b]")
        a, b = int(data[0]), int(data[1])
        if not self.has(a, b):
            raise ValueError(f"[{a}, {b}] is not a tile of the {self.title()} set")
        return a, b


@cache
def domino_set(top: int) -> DominoSet:
    """The shared (immutable) :class:`DominoSet` for double-``top``."""
    return DominoSet(top)
