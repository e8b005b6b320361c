"""Labelled duel positions, their keys and their classes.

Positions are written ``"L,M,S"``: each piece's square 0..4 counted from West, or ``W`` /
``E`` when that side has scored it. Actions are written in the game's notation for the
pieces on the board, in the order L, M, S (``"L=pull,M=push,S=pass"``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from taut.games.push_pull.arrows import CHOICE_NAMES
from taut.games.push_pull.board import EXIT_NAMES, OFF, SIZE
from taut.games.push_pull.solve.duel_model import NUM_CHOICES, Canon
from taut.games.push_pull.variants import NUM_PIECES, PIECES

if TYPE_CHECKING:
    from taut.games.push_pull.rules import PushPullState

#: The starting position.
START = "2,2,2"

Position = tuple[int | str, ...]
"""A labelled position: for L, M, S a square or ``"W"`` / ``"E"``."""


def position_key(squares: Sequence[int | str]) -> str:
    """``"2,W,3"`` from the three pieces' squares or scorers, in the order L, M, S."""
    return ",".join(str(s) for s in squares)


def duel_position_key(state: PushPullState) -> str:
    """The position key (``"2,W,3"``) of a duel state."""
    parts = []
    for loc in state.locs:
        parts.append(str(loc) if loc < OFF else EXIT_NAMES[loc - OFF])
    return ",".join(parts)


def parse_position_key(key: str) -> list[int | str]:
    """``[2, "W", 3]`` from ``"2,W,3"`` (the locations ``state_from_json`` reads)."""
    return [int(p) if p.isdigit() else p for p in key.split(",")]


def all_positions() -> list[Position]:
    """Every non-terminal labelled position, as (L, M, S) squares or ``"W"`` / ``"E"``."""
    squares: list[int | str] = [*range(SIZE), "W", "E"]
    out: list[Position] = []
    for pos in itertools.product(squares, repeat=NUM_PIECES):
        if pos.count("W") < 2 and pos.count("E") < 2:
            out.append(pos)
    return out


def classify(pos: Sequence[int | str]) -> tuple[Canon, list[int]]:
    """The class of a labelled position and the pieces on the board in class order."""
    live = sorted((s, p) for p, s in enumerate(pos) if isinstance(s, int))
    squares = tuple(s for s, _ in live)
    return (squares, list(pos).count("W"), list(pos).count("E")), [p for _, p in live]


@functools.cache
def action_key(pieces: tuple[int, ...], action: int) -> str:
    """The notation of a class-order action for the given pieces, listed in order L, M, S."""
    k = len(pieces)
    digits = [action // NUM_CHOICES ** (k - 1 - i) % NUM_CHOICES for i in range(k)]
    named = sorted(zip(pieces, digits, strict=True))
    return ",".join(f"{PIECES[p]}={CHOICE_NAMES[d]}" for p, d in named)
