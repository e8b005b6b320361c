"""The Track Tiles solver's transposition table: two slots a key, a bound pair and a move
each, in two flat arrays (compiled with the kernel, :mod:`taut.games.tracks.solve.jit`)."""

from __future__ import annotations

from typing import Any

from taut.games.tracks.solve.jit import jit

#: Hashing: keys times an odd constant, modulo 2^62, so that Python's exact integers and
#: Numba's wrapping 64-bit ones agree; the slot pair is read from the top bits.
MULTIPLIER = 0x2545F4914F6CDD1D
MASK62 = (1 << 62) - 1


@jit
def slot_of(key: int, tt_bits: int) -> int:
    """The first of the two table slots of ``key``."""
    return int(((key * MULTIPLIER) & MASK62) >> (62 - tt_bits)) & ~1


@jit
def probe(tt_key: Any, tt_info: Any, tt_bits: int, key: int) -> int:
    """The stored word of ``key`` (see :func:`store`), or -1."""
    slot = slot_of(key, tt_bits)
    if tt_key[slot] == key:
        return int(tt_info[slot])
    if tt_key[slot + 1] == key:
        return int(tt_info[slot + 1])
    return -1


@jit
def store(
    tt_key: Any, tt_info: Any, tt_bits: int, key: int, lo: int, hi: int, move: int, empties: int
) -> None:
    """Keep bounds ``lo <= value <= hi`` and a best move (-1: none) of ``key``.

    The first slot of a pair keeps the position with the most empty cells (the biggest
    subtree), the second takes whatever comes.
    """
    slot = slot_of(key, tt_bits)
    word = (lo + 1) | ((hi + 1) << 2) | ((move + 1) << 4) | (empties << 12)
    if tt_key[slot + 1] == key:
        tt_info[slot + 1] = word
    elif tt_key[slot] == key or tt_info[slot] >> 12 <= empties:
        tt_key[slot] = key
        tt_info[slot] = word
    else:
        tt_key[slot + 1] = key
        tt_info[slot + 1] = word
