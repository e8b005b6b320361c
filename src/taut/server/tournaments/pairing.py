"""Pairings and standings of tournaments for two-seat games: pure functions, no I/O.

Entrants are named by strings (a player's id, or a computer level's subject). A pairing is
``(first, second)``: ``first`` takes the game's first seat; ``second`` is None for a bye.

* :func:`round_robin`: every round of a round robin by the circle method (one entrant stays
  put, the others turn round it); an odd field gets a bye entrant, whose partner rests.
* :func:`swiss_round`: one round of a Swiss tournament: entrants in order of score (then
  rating), each paired with the best-placed entrant it has not met, backtracking where that
  leaves somebody without an opponent; an odd field gives the bye to the lowest-placed
  entrant who has had none.
* :func:`standings`: points (win 1, draw 1/2, loss 0, bye 1) and a tiebreak:
  Sonneborn-Berger (the points of the opponents beaten, and half those of the opponents
  drawn) for a round robin, Buchholz (the sum of the opponents' points) for Swiss.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

#: The two systems.
System = Literal["round-robin", "swiss"]
SYSTEMS: tuple[System, ...] = ("round-robin", "swiss")

#: A pairing: the entrant at the first seat, and the one at the second (None: a bye).
Pairing = tuple[str, str | None]

#: Points for a win, a draw, a loss and a bye.
WIN, DRAW, LOSS, BYE = 1.0, 0.5, 0.0, 1.0

#: Steps the Swiss search may take before it allows a rematch (a field where no pairing
#: without one exists would otherwise be searched exhaustively).
SEARCH_STEPS = 20_000


def round_robin(entrants: Sequence[str]) -> list[list[Pairing]]:
    """Every round of a round robin among ``entrants``: ``n - 1`` rounds for an even ``n``,
    ``n`` rounds (one bye each) for an odd ``n``. Each pair meets once; the seats alternate
    so that nobody has the first seat in every round."""
    field: list[str | None] = list(entrants)
    if len(field) < 2:
        return []
    if len(field) % 2:
        field.append(None)  # whoever meets it rests
    n = len(field)
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        pairs: list[Pairing] = []
        for i in range(n // 2):
            a, b = field[i], field[n - 1 - i]
            # The fixed entrant alternates its seat; the others by their table.
            if (i == 0 and r % 2) or (i > 0 and i % 2):
                a, b = b, a
            if a is None:
                assert b is not None
                pairs.append((b, None))
            elif b is None:
                pairs.append((a, None))
            else:
                pairs.append((a, b))
        rounds.append(_byes_last(pairs))
        # The circle: the first entrant stays, the others move one place round.
        field = [field[0], field[-1], *field[1:-1]]
    return rounds


def _byes_last(pairs: list[Pairing]) -> list[Pairing]:
    return [p for p in pairs if p[1] is not None] + [p for p in pairs if p[1] is None]


def met(history: Iterable[Sequence[Pairing]]) -> set[frozenset[str]]:
    """The pairs of entrants that have played each other in ``history`` (rounds of
    pairings)."""
    return {frozenset((a, b)) for pairs in history for a, b in pairs if b is not None}


def byes(history: Iterable[Sequence[Pairing]]) -> set[str]:
    """The entrants that have had a bye in ``history``."""
    return {a for pairs in history for a, b in pairs if b is None}


def swiss_round(
    ranked: Sequence[str],
    history: Sequence[Sequence[Pairing]],
    firsts: Mapping[str, int] | None = None,
) -> list[Pairing]:
    """The next Swiss round for ``ranked`` (best first: by score, then rating), given the
    rounds played. Nobody meets an opponent again while a pairing without rematches
    exists; the bye (an odd field) goes to the lowest-ranked entrant without one (to the
    lowest-ranked entrant when all have had one). ``firsts`` (how often each entrant had
    the first seat) gives the first seat to whoever had it less."""
    order = list(ranked)
    if len(order) < 2:
        return [(order[0], None)] if order else []
    played = met(history)
    rested = byes(history)
    bye: str | None = None
    if len(order) % 2:
        bye = next((e for e in reversed(order) if e not in rested), order[-1])
        order.remove(bye)
    pairs = _pair_without_rematches(order, played)
    if pairs is None:  # every complete pairing repeats a game: pair by rank
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    seats = dict(firsts or {})
    out: list[Pairing] = []
    for a, b in pairs:
        # The better-placed entrant takes the first seat unless it has had it more often.
        if seats.get(b, 0) < seats.get(a, 0):
            a, b = b, a
        out.append((a, b))
    if bye is not None:
        out.append((bye, None))
    return out


def _pair_without_rematches(
    order: list[str], played: set[frozenset[str]]
) -> list[tuple[str, str]] | None:
    """Pair ``order`` (an even number, best first) top down, each with the best-placed
    entrant not met yet, backtracking when someone is left without one; None if no
    pairing avoids a rematch (or the search ran out of steps)."""
    steps = 0

    def search(free: list[str]) -> list[tuple[str, str]] | None:
        nonlocal steps
        if not free:
            return []
        top, rest = free[0], free[1:]
        for i, other in enumerate(rest):
            steps += 1
            if steps > SEARCH_STEPS:
                return None
            if frozenset((top, other)) in played:
                continue
            tail = search(rest[:i] + rest[i + 1 :])
            if tail is not None:
                return [(top, other), *tail]
        return None

    return search(order)


@dataclass(frozen=True)
class Game:
    """A played pairing: the entrants at the first and second seat and the points the
    first one scored (1, 1/2 or 0); ``second`` None: a bye (``score`` is ignored)."""

    first: str
    second: str | None
    score: float = 0.0


@dataclass(frozen=True)
class Standing:
    """An entrant's place: its rank (1 best; equal points and tiebreak share one), points,
    tiebreak, and games, wins, draws, losses and byes."""

    rank: int
    entrant: str
    points: float
    tiebreak: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int


def points(entrants: Sequence[str], games: Iterable[Game]) -> dict[str, float]:
    """Each entrant's points from the games played."""
    total = dict.fromkeys(entrants, 0.0)
    for g in games:
        if g.second is None:
            total[g.first] = total.get(g.first, 0.0) + BYE
            continue
        total[g.first] = total.get(g.first, 0.0) + g.score
        total[g.second] = total.get(g.second, 0.0) + (WIN - g.score)
    return total


def standings(
    entrants: Sequence[str],
    games: Sequence[Game],
    system: System,
    rating: Mapping[str, float] | None = None,
) -> list[Standing]:
    """The table: by points, then the tiebreak (Sonneborn-Berger for a round robin,
    Buchholz for Swiss), then ``rating`` (higher first), then the order of ``entrants``.
    A bye counts as a win in points and adds nothing to a tiebreak."""
    score = points(entrants, games)
    tiebreak = dict.fromkeys(entrants, 0.0)
    counts = {e: [0, 0, 0, 0, 0] for e in entrants}  # played, wins, draws, losses, byes
    for g in games:
        if g.second is None:
            counts.setdefault(g.first, [0, 0, 0, 0, 0])[4] += 1
            continue
        for me, other, mine in ((g.first, g.second, g.score), (g.second, g.first, WIN - g.score)):
            c = counts.setdefault(me, [0, 0, 0, 0, 0])
            c[0] += 1
            c[1 if mine == WIN else 2 if mine == DRAW else 3] += 1
            if system == "swiss":
                tiebreak[me] = tiebreak.get(me, 0.0) + score.get(other, 0.0)
            else:
                tiebreak[me] = tiebreak.get(me, 0.0) + mine * score.get(other, 0.0)
    rated = dict(rating or {})
    place = {e: i for i, e in enumerate(entrants)}
    order = sorted(entrants, key=lambda e: (-score[e], -tiebreak[e], -rated.get(e, 0.0), place[e]))
    out: list[Standing] = []
    for i, e in enumerate(order):
        shared = (
            out[-1].rank
            if out and out[-1].points == score[e] and out[-1].tiebreak == tiebreak[e]
            else i + 1
        )
        played, wins, draws, losses, bye_count = counts[e]
        out.append(
            Standing(shared, e, score[e], tiebreak[e], played, wins, draws, losses, bye_count)
        )
    return out


def swiss_order(
    entrants: Sequence[str], games: Sequence[Game], rating: Mapping[str, float]
) -> list[str]:
    """Entrants in the order a Swiss round pairs them: by points, then rating (higher
    first), then the order of ``entrants``."""
    score = points(entrants, games)
    place = {e: i for i, e in enumerate(entrants)}
    return sorted(entrants, key=lambda e: (-score[e], -rating.get(e, 0.0), place[e]))
