"""The variants of Push-Pull as data: who sits where, who scores what, and the turn tables.

A :class:`Layout` describes one combination of options: the board (strip or 5x5), the
sides in play, which sides each seat chooses for, and the *scoring units* (a player, or a
team in the team games) that pieces are scored for. Everything a turn needs is
precomputed here from the one arrow rule (``arrows.py``), so the engine's hot path is table
lookups.

Encodings (all dense ints):

* a *piece choice* of a seat is one choice per side it controls, the first side's choice
  the most significant digit in base ``n_choices`` (3 without shifts, 5 with);
* an *action* of a seat is ``c_L * B**2 + c_M * B + c_S`` with ``B = n_choices ** sides``,
  so pieces L, M, S are its base-``B`` digits and a piece off the board has the digit 0
  (pass);
* a *joint piece index* ``j`` combines every side's choice for one piece:
  ``j = sum(choice_of_side_k * n_choices ** k)`` over ``sides`` in play. Each seat adds its
  own part, so ``j`` is the sum of the seats' contributions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from taut.games.push_pull.arrows import (
    SIDE_NAMES,
    SIDE_TITLES,
    E,
    N,
    S,
    Vector,
    W,
    move_for_choices,
)
from taut.games.push_pull.board import CORNER_SIDES, OFF, SIZE, centre, corner_of, landing

VARIANTS: tuple[str, ...] = ("duel", "four", "four-teams", "two-teams")
TEAMINGS: tuple[str, ...] = ("NE-SW", "NW-SE")
PIECES = "LMS"
NUM_PIECES = 3

#: How a game is won: first unit to score two pieces, or scoring the last piece.
WIN_TWO, WIN_LAST = "two", "last"


@dataclass(frozen=True, eq=False)  # one shared instance per option set: compare by identity
class Layout:
    """Seats, sides, scoring units and turn tables of one variant (built by :func:`layout`)."""

    variant: str
    shifts: bool
    teams: str
    rows: int
    """1 for the duel strip, 5 for the board."""
    sides: tuple[int, ...]
    """Sides in play, in the order of the joint piece index."""
    seats: tuple[str, ...]
    seat_titles: tuple[str, ...]
    seat_sides: tuple[tuple[int, ...], ...]
    """The sides each seat chooses for (two for a two-teams player)."""
    units: tuple[str, ...]
    """Names of the scoring units (players, or teams such as ``N+E``)."""
    unit_seats: tuple[tuple[int, ...], ...]
    side_unit: dict[int, int]
    win: str
    n_choices: int
    piece_base: int
    """``B``: piece choices per seat (``n_choices ** sides per seat``)."""
    num_actions: int
    joint_size: int
    """Number of joint piece indices (``n_choices ** len(sides)``)."""
    start: int
    moves: tuple[Vector, ...] = field(repr=False)
    """The move for each joint piece index."""
    dest: tuple[int, ...] = field(repr=False)
    """``dest[square * joint_size + j]``: the piece's next location (square or OFF + exit)."""
    contrib: tuple[tuple[tuple[int, ...], ...], ...] = field(repr=False)
    """``contrib[seat][action]``: that seat's part of the joint piece index of L, M, S."""
    legal: tuple[tuple[int, ...], ...] = field(repr=False)
    """``legal[mask]``: ascending legal actions when the pieces in ``mask`` (bit p for piece
    p) are on the board."""

    @property
    def num_seats(self) -> int:
        """Number of seats."""
        return len(self.seats)

    def exit_unit(self, exit_code: int) -> int:
        """The unit a piece that left by ``exit_code`` (side or corner) is scored for."""
        if exit_code < 4:
            return self.side_unit[exit_code]
        # A corner score exists only when both sides belong to one unit.
        return self.side_unit[CORNER_SIDES[exit_code][0]]

    def decode(self, seat: int, action: int) -> tuple[tuple[int, ...], ...]:
        """Per piece, the choices of ``seat`` for each of its sides."""
        base, m, n = self.piece_base, len(self.seat_sides[seat]), self.n_choices
        out = []
        for p in range(NUM_PIECES):
            c = action // base ** (NUM_PIECES - 1 - p) % base
            out.append(tuple(c // n ** (m - 1 - t) % n for t in range(m)))
        return tuple(out)

    def encode(self, seat: int, choices: tuple[tuple[int, ...], ...]) -> int:
        """Inverse of :meth:`decode`."""
        n, action = self.n_choices, 0
        for per_side in choices:
            c = 0
            for ch in per_side:
                c = c * n + ch
            action = action * self.piece_base + c
        return action


def _seats_for(variant: str, teams: str) -> tuple[tuple[tuple[int, ...], ...], list[list[int]]]:
    """Sides per seat and sides per scoring unit."""
    pair_a, pair_b = ([N, E], [S, W]) if teams == "NE-SW" else ([N, W], [S, E])
    if variant == "duel":
        return ((W,), (E,)), [[W], [E]]
    if variant == "four":
        return ((N,), (E,), (S,), (W,)), [[N], [E], [S], [W]]
    if variant == "four-teams":
        return ((N,), (E,), (S,), (W,)), [pair_a, pair_b]
    return (tuple(pair_a), tuple(pair_b)), [pair_a, pair_b]


def _moves(sides: tuple[int, ...], n: int) -> list[Vector]:
    """The move of a piece for each joint piece index (one choice per side in play)."""
    weight = {side: n**k for k, side in enumerate(sides)}
    moves: list[Vector] = []
    for j in range(n ** len(sides)):
        pairs = [(side, j // weight[side] % n) for side in sides]
        moves.append(move_for_choices(pairs))
    return moves


def _destinations(moves: list[Vector], rows: int, side_unit: dict[int, int]) -> list[int]:
    """``dest[square * joint_size + j]``: where each move takes a piece from each square."""
    start = centre(rows)
    dest: list[int] = []
    for square in range(rows * SIZE):
        for move in moves:
            row, col, crossed = landing(square, move, rows)
            if not crossed:
                dest.append(row * SIZE + col)
            elif len(crossed) == 1:
                dest.append(OFF + crossed[0])
            elif side_unit[crossed[0]] == side_unit[crossed[1]]:
                dest.append(OFF + corner_of(*crossed))  # scored by the team off its corner
            else:
                dest.append(start)  # off a corner between rivals: back to the centre
    return dest


def _contributions(
    seat_sides: tuple[tuple[int, ...], ...], sides: tuple[int, ...], n: int
) -> list[tuple[tuple[int, ...], ...]]:
    """``contrib[seat][action]``: the seat's part of the joint piece index of L, M, S."""
    weight = {side: n**k for k, side in enumerate(sides)}
    base = n ** len(seat_sides[0])
    contrib: list[tuple[tuple[int, ...], ...]] = []
    for group in seat_sides:
        per_choice = []
        for c in range(base):
            digits = [c // n ** (len(group) - 1 - t) % n for t in range(len(group))]
            per_choice.append(sum(d * weight[s] for d, s in zip(digits, group, strict=True)))
        contrib.append(
            tuple(
                (
                    per_choice[a // base**2],
                    per_choice[a // base % base],
                    per_choice[a % base],
                )
                for a in range(base**NUM_PIECES)
            )
        )
    return contrib


def _legal(base: int) -> list[tuple[int, ...]]:
    """``legal[mask]``: the ascending legal actions when the pieces in ``mask`` are on the
    board (a piece off the board only passes: its digit is 0)."""
    legal: list[tuple[int, ...]] = []
    for mask in range(1 << NUM_PIECES):
        # Bit p of the mask is set when piece p (L, M, S) is on the board.
        r_l, r_m, r_s = (range(base) if mask >> p & 1 else range(1) for p in range(NUM_PIECES))
        legal.append(
            tuple(sorted(a * base**2 + b * base + c for a in r_l for b in r_m for c in r_s))
        )
    return legal


@cache
def layout(variant: str, shifts: bool = False, teams: str = "NE-SW") -> Layout:
    """The layout of a variant (cached: every game with these options shares it)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
    seat_sides, unit_sides = _seats_for(variant, teams)
    rows = 1 if variant == "duel" else SIZE
    sides = (W, E) if variant == "duel" else (N, E, S, W)
    n = 5 if shifts else 3
    side_unit = {side: u for u, group in enumerate(unit_sides) for side in group}
    seat_names = tuple("".join(SIDE_NAMES[s] for s in group) for group in seat_sides)
    seat_titles = tuple("-".join(SIDE_TITLES[s] for s in group) for group in seat_sides)
    if variant == "four-teams":
        units = tuple("+".join(SIDE_NAMES[s] for s in group) for group in unit_sides)
        unit_seats = tuple(tuple(seat_sides.index((s,)) for s in group) for group in unit_sides)
    else:
        units = seat_names
        unit_seats = tuple((i,) for i in range(len(seat_sides)))
    moves = _moves(sides, n)
    base = n ** len(seat_sides[0])
    return Layout(
        variant=variant,
        shifts=shifts,
        teams=teams,
        rows=rows,
        sides=sides,
        seats=seat_names,
        seat_titles=seat_titles,
        seat_sides=seat_sides,
        units=units,
        unit_seats=unit_seats,
        side_unit=side_unit,
        win=WIN_LAST if variant == "four" else WIN_TWO,
        n_choices=n,
        piece_base=base,
        num_actions=base**NUM_PIECES,
        joint_size=len(moves),
        start=centre(rows),
        moves=tuple(moves),
        dest=tuple(_destinations(moves, rows, side_unit)),
        contrib=tuple(_contributions(seat_sides, sides, n)),
        legal=tuple(_legal(base)),
    )
