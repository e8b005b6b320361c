"""A compact random playout: the same rules as ``state.py`` on plain mutable lists.

It makes exactly the random draws the protocol path makes (``State.random_joint`` at every
node: one ``rng.random()`` per chance node, one ``rng.choice`` per decision, even a forced
one), so for the same generator both play the same game. A test checks this game by game.
It is used by benchmarks and rollouts, where building a state per node would dominate.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from taut.core.terms import Outcome
from taut.games.tug_of_war.scoring import finish_round

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar


def random_playout(game: TugOfWar, rng: random.Random) -> tuple[int, Outcome]:
    """Play one uniform-random game; return the number of nodes and the outcome."""
    n = game.num_players
    ds = game.dominoes
    tiles = ds.tiles
    other = ds.other
    pips = ds.pips
    hand_size = game.hand_size
    rules = game.end_rules
    split = game.split_bonus
    rand = rng.random
    choice = rng.choice
    one = [0]  # a forced action still costs one rng.choice, as in the protocol path
    scores = [0] * n
    points = [0] * n
    in_game = [True] * n
    pool: tuple[int, ...] | None = None
    round_no = 1
    nodes = 0
    while True:
        playing = [s in pool for s in range(n)] if pool is not None else list(in_game)
        order = [s for s in range(n) if playing[s]]
        start = list(scores)
        stock = list(range(ds.size))  # kept sorted, like the protocol's sorted boneyard
        ends: list[list[int]] = [[0, 0] for _ in range(n)]
        for s in order:
            count = len(stock)
            k = min(int(rand() * 2 * count), 2 * count - 1)
            a, b = tiles[stock.pop(k >> 1)]
            ends[s] = [b, a] if k & 1 else [a, b]
            nodes += 1
        hands: list[list[int]] = [[] for _ in range(n)]
        for s in order:
            for _ in range(hand_size):
                count = len(stock)
                hands[s].append(stock.pop(min(int(rand() * count), count - 1)))
                nodes += 1
        cur = max(order, key=lambda s: (max(ends[s]), min(ends[s])))
        passes = 0
        winner = -1
        blocked_tie = False
        while True:
            hand = hands[cur]
            nodes += 1
            plays = _plays(sorted(hand), order, ends, other)
            if not plays and stock:
                choice(one)  # the draw decision
                count = len(stock)
                tile = stock.pop(min(int(rand() * count), count - 1))
                hand.append(tile)
                nodes += 2  # the draw's chance node and the decision after it
                plays = _plays((tile,), order, ends, other)
            if plays:
                t, j, e = choice(plays)
                e_ends = ends[j]
                e_ends[e] = other[t][e_ends[e]]
                total = e_ends[0] + e_ends[1]
                scores[j] += total if j == cur else -total
                hand.remove(t)
                passes = 0
                if not hand:
                    winner = cur
                    break
            else:
                choice(one)  # the pass
                passes = passes + 1 if not stock else 0
                if passes >= len(order):
                    left = {s: sum(pips[t] for t in hands[s]) for s in order}
                    fewest = min(left.values())
                    lowest = [s for s, p in left.items() if p == fewest]
                    if len(lowest) == 1:
                        winner = lowest[0]
                    else:
                        blocked_tie = True
                    break
            i = order.index(cur)
            cur = order[(i + 1) % len(order)]
        if not blocked_tie:
            remaining = sum(sum(pips[t] for t in hands[s]) for s in order if s != winner)
            i = order.index(winner)
            for step in range(1, len(order)):
                if remaining == 0:
                    break
                target = order[(i + step) % len(order)]
                # The legal shares as the rules list them: any split, or all or nothing.
                k = choice(range(remaining + 1) if split else (0, remaining))
                scores[target] -= k
                remaining -= k
                nodes += 1
            choice(one)  # the keep step
            scores[winner] += remaining
            nodes += 1
        result = finish_round(rules, round_no, scores, start, points, in_game, playing, pool)
        if result.outcome is not None:
            return nodes, result.outcome
        points = list(result.points)
        in_game = list(result.in_game)
        pool = result.pool
        round_no += 1


def _plays(
    hand: list[int] | tuple[int, ...],
    order: list[int],
    ends: list[list[int]],
    other: tuple[tuple[int, ...], ...],
) -> list[tuple[int, int, int]]:
    """Plays in ascending action-id order: tile, then train, then end."""
    out = []
    for t in hand:
        fits = other[t]
        for j in order:
            e0, e1 = ends[j]
            if fits[e0] >= 0:
                out.append((t, j, 0))
            if fits[e1] >= 0:
                out.append((t, j, 1))
    return out
