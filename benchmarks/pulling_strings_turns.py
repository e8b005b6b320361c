"""Random-play speed of Pulling Strings: a plain dictionary model against taut's engine.

The plain model keeps stacks in a dict keyed by (row, col), names ends like "N2" and works
out each move geometrically (``reference.reference_turn``). taut's engine is measured two
ways: its compact playout loop (what ``taut bench`` uses) and the full protocol path
(``state.apply`` with validation and a new immutable state per turn). The protocol path is
measured once more under ``repeat=3`` (draws by repetition), whose states count the
positions seen; without the option the game pays nothing for it.

Run: ``.venv/bin/python benchmarks/pulling_strings_turns.py [--seconds S] [--json]``
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable

import taut
from taut.games.pulling_strings.board import HOMES
from taut.games.pulling_strings.reference import reference_turn

ENDS = [f"{side}{i}" for side in "NESW" for i in range(5)]
X_HOMES: list[tuple[int, int]] = list(HOMES[0])
O_HOMES: list[tuple[int, int]] = list(HOMES[1])
MAX_TURNS = 200


def _cell_ends(row: int, col: int) -> list[str]:
    return [f"N{col}", f"S{col}", f"W{row}", f"E{row}"]


def plain_game(rng: random.Random) -> int:
    """One random game of the plain dictionary model; returns its number of turns."""
    stacks: dict[tuple[int, int], int] = {(2, 2): 5}
    broken: set[str] = set()
    for turn in range(1, MAX_TURNS + 1):
        legal = [e for e in ENDS if e not in broken]
        p, q = rng.choice(legal), rng.choice(legal)
        stacks = reference_turn(stacks, p, q)
        if p == q:
            broken.add(p)
        hx = sum(stacks.get(h, 0) for h in X_HOMES)
        ho = sum(stacks.get(h, 0) for h in O_HOMES)
        if max(hx, ho) >= 5 and hx != ho:
            return turn
        if all(all(e in broken for e in _cell_ends(*cell)) for cell in stacks):
            return turn
    return MAX_TURNS


def measure(play: Callable[[random.Random], int], seconds: float) -> float:
    """Turns per second of ``play`` over about ``seconds``."""
    rng = random.Random(0)
    turns = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns += play(rng)
    return turns / (time.perf_counter() - start)


def main() -> None:
    """Measure the three implementations and print turns/s and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    game = taut.make("pulling-strings", max_turns=MAX_TURNS)
    counting = taut.make("pulling-strings", max_turns=MAX_TURNS, repeat=3)

    def fast(rng: random.Random) -> int:
        return game.random_playout(rng)[0]

    def protocol_of(g: taut.core.Game) -> Callable[[random.Random], int]:
        def protocol(rng: random.Random) -> int:
            state = g.new_initial_state()
            n = 0
            while not state.is_terminal():
                legal = state.legal_actions(0)
                state = state.apply({0: rng.choice(legal), 1: rng.choice(legal)})
                n += 1
            return n

        return protocol

    plain = measure(plain_game, args.seconds)
    results = {
        "plain_dict_model": plain,
        "taut_playout_loop": measure(fast, args.seconds),
        "taut_protocol_apply": measure(protocol_of(game), args.seconds),
        "taut_protocol_repeat3": measure(protocol_of(counting), args.seconds),
    }
    if args.json:
        print(json.dumps({k: round(v) for k, v in results.items()}))
        return
    print(f"{'implementation':<24} {'turns/s':>10} {'vs plain':>9}")
    for name, rate in results.items():
        print(f"{name:<24} {rate:>10,.0f} {rate / plain:>8.2f}x")


if __name__ == "__main__":
    main()
