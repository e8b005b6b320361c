"""Seats, cell notation and counted nouns: the words every other module of the game writes.

Cells are named by a column letter and a 1-based row number counted from the top
(``c3`` is column c, row 3); a cell id is ``row * size + col`` with both from 0.
"""

from __future__ import annotations

import functools
import re

from taut.core.errors import MalformedActionError

NS, WE = 0, 1
#: The seat names by seat id: NS joins top and bottom, WE joins left and right.
SEATS = ("NS", "WE")

_CELL_RE = re.compile(r"^\s*([a-z])\s*(\d{1,2})\s*$|^\s*(\d{1,2})\s*([a-z])\s*$")


def column_letter(col: int) -> str:
    """The letter of a column: ``a`` for column 0."""
    return chr(ord("a") + col)


# Said for every legal placement of every position the server sends: kept once said.
@functools.lru_cache(maxsize=4096)
def cell_name(size: int, cell: int) -> str:
    """Canonical cell notation: column letter then 1-based row from the top (``c3``)."""
    r, c = divmod(cell, size)
    return f"{column_letter(c)}{r + 1}"


@functools.lru_cache(maxsize=16)
def cell_names(size: int) -> tuple[str, ...]:
    """Every cell's notation on a board of ``size``, by cell id."""
    return tuple(cell_name(size, cell) for cell in range(size * size))


def parse_cell(size: int, text: str) -> int:
    """Parse a cell such as ``c3``, ``C3`` or ``3c`` (column letter, row number from 1).

    Raises :class:`MalformedActionError` naming the allowed range.
    """
    last_col = column_letter(size - 1)
    m = _CELL_RE.match(text.lower())
    if m is None:
        raise MalformedActionError(
            f"{text.strip()!r} is not a cell; write a column letter a-{last_col} and a row "
            f"number 1-{size}, e.g. c3"
        )
    letter, digits = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
    col = ord(letter) - ord("a")
    row = int(digits) - 1
    if not (0 <= col < size and 0 <= row < size):
        raise MalformedActionError(
            f"{text.strip()!r} is off the {size}x{size} board; columns a-{last_col}, rows 1-{size}"
        )
    return row * size + col


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one (``1 cell``,
    ``2 cells``); every noun this game counts takes an ``s``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
