"""The arrow rule: how the arrows played on one piece move it. Every variant uses this file.

A player's choice for a piece is an arrow seen from their side of the board: a *pull*
points toward their own side, a *push* points away from it, a *pass* points nowhere, and
(free-for-all only) a *left* or *right* shift points sideways as the player sees it.

On each axis separately (north-south, west-east) the arrows along that axis are counted:
opposite arrows cancel in pairs, and if ``k`` arrows remain, all pointing one way, the piece
moves one step that way when ``k`` is odd and two steps the *opposite* way when ``k`` is
even (``k = 0``: it stays). With the two duel players this reproduces the original nine-row
outcome table exactly.

Directions are ``(d_row, d_col)`` vectors with rows counted from north to south and columns
from west to east, so north is ``(-1, 0)`` and east is ``(0, 1)``.
"""

from __future__ import annotations

from collections.abc import Iterable

#: Choice codes. The order is part of the action encoding (``notation.py``): pass is 0 so
#: that a piece off the board maps to the fixed choice 0.
PASS, PULL, PUSH, LEFT, RIGHT = range(5)
CHOICE_NAMES: tuple[str, ...] = ("pass", "pull", "push", "left", "right")

#: Side codes, clockwise from north.
N, E, S, W = range(4)
SIDE_NAMES = "NESW"
SIDE_TITLES: tuple[str, ...] = ("North", "East", "South", "West")

Vector = tuple[int, int]

#: The outward direction of each side: where a pull by that side's player points.
OUTWARD: tuple[Vector, ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))


def arrow(side: int, choice: int) -> Vector:
    """The direction of the arrow a player on ``side`` makes with ``choice``.

    A player faces the board, i.e. looks in the direction opposite to ``OUTWARD[side]``.
    Their left is that facing direction turned a quarter turn counter-clockwise on the page
    (north's player faces south, so their left is east; west's player faces east, so their
    left is north).
    """
    d_row, d_col = OUTWARD[side]
    if choice == PASS:
        return (0, 0)
    if choice == PULL:
        return (d_row, d_col)
    if choice == PUSH:
        return (-d_row, -d_col)
    f_row, f_col = -d_row, -d_col  # the direction the player faces
    left = (-f_col, f_row)
    if choice == LEFT:
        return left
    if choice == RIGHT:
        return (-left[0], -left[1])
    raise ValueError(f"unknown choice code {choice}; codes are 0..4 ({', '.join(CHOICE_NAMES)})")


def axis_step(net: int) -> int:
    """The move along one axis when ``net`` arrows remain after cancelling (sign = way).

    ``net`` odd: one step that way; even and non-zero: two steps the opposite way; zero: stay.
    """
    if net == 0:
        return 0
    way = 1 if net > 0 else -1
    return way if net % 2 else -2 * way


def move(arrows: Iterable[Vector]) -> Vector:
    """The move ``(d_row, d_col)`` of a piece under ``arrows``, each a unit vector or zero."""
    net_row = net_col = 0
    for d_row, d_col in arrows:
        net_row += d_row
        net_col += d_col
    return (axis_step(net_row), axis_step(net_col))


def move_for_choices(choices: Iterable[tuple[int, int]]) -> Vector:
    """The move of a piece given ``(side, choice)`` pairs, one per player side that acts."""
    return move(arrow(side, choice) for side, choice in choices)
