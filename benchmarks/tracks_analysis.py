"""Track Tiles by the numbers: tracks on random full boards, puzzles with no different
solution, and how the agents fare.

1. Random full boards (every cell a uniform random kind): how often the board has no
   track, only one player's track, or both players' tracks. Exact (every board) for
   sizes 2 and 3, sampled above.
2. Random solitaire puzzles (made as the rules describe): how often no tiling other than
   the original joins the labelled pairs, and how often a "substantially different" one
   (at least half of the cells differ) exists. Exact for sizes 2 and 3, sampled above.
3. Two-player games: greedy against random (seats alternate) and greedy against itself.

    python benchmarks/tracks_analysis.py [--boards 20000] [--puzzles 300] [--games 200]
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.games.tracks.paths import matching, tracks
from taut.games.tracks.solitaire import generate, needed_differences
from taut.games.tracks.solver import solve


def interval(k: int, n: int) -> str:
    """A share in percent with its 95% Wilson score interval."""
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    lo, hi = max(0.0, centre - half), min(1.0, centre + half)
    return f"{100 * p:5.1f} ({100 * lo:4.1f}-{100 * hi:5.1f})"


def exact(k: int, n: int) -> str:
    """A share known exactly, in percent."""
    return f"{100 * k / n:9.3f}"


def board_tracks(size: int, boards: int, rng: random.Random) -> None:
    """Row of table 1 for one size."""
    cells = size * size
    tally: Counter[str] = Counter()
    population: Iterable[tuple[int, ...]]
    if size <= 3:
        population = itertools.product((1, 2, 3), repeat=cells)
        n = 3**cells
    else:
        population = (tuple(rng.choice((1, 2, 3)) for _ in range(cells)) for _ in range(boards))
        n = boards
    for board in population:
        ns, we = tracks(board, size)
        tally["both" if ns and we else "NS" if ns else "WE" if we else "none"] += 1
    share = exact if size <= 3 else interval
    how = "all" if size <= 3 else "sample"
    print(
        f"| {size:>2} | {n:>6} {how:<6} | {share(tally['none'], n)} | "
        f"{share(tally['NS'] + tally['WE'], n)} | {share(tally['both'], n)} |",
        flush=True,
    )


def puzzles_without_alternative(size: int, puzzles: int, rng: random.Random) -> None:
    """Row of table 2 for one size."""
    cells = size * size
    needed = needed_differences(size, 0.5)
    if size <= 3:
        # Every board is equally likely; a board's puzzle has as many tilings as boards
        # share its pairing.
        groups: Counter[tuple[int | None, ...]] = Counter()
        boards = list(itertools.product((1, 2, 3), repeat=cells))
        pairing = [tuple(matching(b, size)) for b in boards]
        groups.update(pairing)
        n = len(boards)
        only = sum(1 for p in pairing if groups[p] == 1)
        by_pairing: dict[tuple[int | None, ...], list[tuple[int, ...]]] = {}
        for b, p in zip(boards, pairing, strict=True):
            by_pairing.setdefault(p, []).append(b)
        far = total = 0
        for b, p in zip(boards, pairing, strict=True):
            best = max(sum(x != y for x, y in zip(t, b, strict=True)) for t in by_pairing[p])
            total += best
            far += best >= needed
        print(
            f"| {size:>2} | {n:>6} all    | {exact(only, n)} | {exact(far, n)} | "
            f"{total / n:6.2f} / {cells} |",
            flush=True,
        )
        return
    only = far = total = 0
    for _ in range(puzzles):
        puzzle = generate(size, rng)
        res = solve(size, puzzle.partner(), puzzle.original, cap=2)
        differs = res.differs or 0
        only += res.tiles is None
        far += differs >= needed
        total += differs
    print(
        f"| {size:>2} | {puzzles:>6} sample | {interval(only, puzzles)} | "
        f"{interval(far, puzzles)} | {total / puzzles:6.2f} / {cells} |",
        flush=True,
    )


def agent_games(size: int, games: int) -> None:
    """Row of table 3: greedy v random (seats alternate), greedy v greedy."""
    game = taut.make("tracks", size=size)
    wins = draws = 0
    for i in range(games):
        seat = i % 2
        agents = [GreedyAgent(), RandomAgent()] if seat == 0 else [RandomAgent(), GreedyAgent()]
        out = play_match(game, agents, seed=i).state.outcome
        assert out is not None
        wins += out.winners == (seat,)
        draws += out.is_draw
    ns = we = 0
    half = max(games // 2, 1)
    for i in range(half):
        out = play_match(game, [GreedyAgent(), GreedyAgent()], seed=10_000 + i).state.outcome
        assert out is not None
        ns += out.winners == (0,)
        we += out.winners == (1,)
    print(
        f"| {size:>2} | {games:>5} | {interval(wins, games)} | {interval(draws, games)} | "
        f"{half:>5} | {interval(ns, half)} | {interval(we, half)} |",
        flush=True,
    )


def main() -> None:
    """Print the three tables as Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--puzzles", type=int, default=300)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1993)
    parser.add_argument("--max-board", type=int, default=12)
    parser.add_argument("--max-puzzle", type=int, default=7)
    parser.add_argument("--skip-games", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("Random full boards (percent of boards):\n")
    print("| size | boards | no track | one track | both tracks |")
    print("|---:|---|---:|---:|---:|")
    for size in range(2, args.max_board + 1):
        board_tracks(size, args.boards, rng)
    print("\nRandom solitaire puzzles (percent of puzzles):\n")
    print(
        "| size | puzzles | no other solution | a solution differing in half the cells "
        "| mean most cells changed |"
    )
    print("|---:|---|---:|---:|---:|")
    for size in range(2, args.max_puzzle + 1):
        puzzles_without_alternative(size, args.puzzles, rng)
    if args.skip_games:
        return
    print("\nTwo-player games, roll=once, NS first (percent of games):\n")
    print(
        "| size | games | greedy beats random | drawn | greedy v greedy games | NS wins | WE wins |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for size in (4, 6, 8):
        agent_games(size, args.games)


if __name__ == "__main__":
    main()
