"""Random-play speed of taut's games beside OpenSpiel's nearest C++ games, per CPU-second.

For each taut game, uniform-random self-play runs through ``game.random_playout`` (what
``taut bench`` calls, with the same options: ``max_turns=200`` for games that have a turn
limit and were given none). Beside it, OpenSpiel's nearest game (C++, through ``pyspiel``)
is stepped by a plain Python loop::

    state = game.new_initial_state()
    while not state.is_terminal():
        chance node       -> state.apply_action(outcome drawn by its probability)
        simultaneous node -> state.apply_actions([random choice of legal_actions(p), each p])
        otherwise         -> state.apply_action(random choice of state.legal_actions())

A *turn* is one node, as ``taut bench`` counts it: one ``apply`` of a decision, of a joint
simultaneous action, or of a chance outcome (a die, a coin, a dealt card). Both sides
count the same way. Time is CPU time of this process (``time.process_time``), so other
work on a shared machine slows the figures less than wall-clock time would; each figure
is the median of ``--runs`` runs of ``--seconds`` each, taut's and OpenSpiel's runs
interleaved. The ratio is taut's turns per CPU-second over OpenSpiel's.

Pairs: pulling-strings / goofspiel (two seats, simultaneous, 13 cards), push-pull duel /
oshi_zumo (two seats, simultaneous), tug-of-war with 2 players / crazy_eights with 2
players (dealt hands, chance deals), tracks 6x6 / hex 6x6 (placement on a board).

Needs the ``interop`` extra (``open_spiel``). Run: ``.venv/bin/python
benchmarks/vs_openspiel.py [--seconds S] [--runs R] [--only NAME,...] [--json]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from taut.cli.bench import BENCH_MAX_TURNS
from taut.cli.options import build_game
from taut.core.chance import sample_index
from taut.core.game import Game
from taut.core.registry import plugin


@dataclass(frozen=True)
class Pair:
    """A taut game (registry name, ``-O`` pairs) and the OpenSpiel game set beside it."""

    taut: str
    taut_options: tuple[str, ...]
    openspiel: str
    openspiel_params: dict[str, Any]

    @property
    def label(self) -> str:
        """The taut game with its options, as printed."""
        opts = " ".join(self.taut_options)
        return f"{self.taut} {opts}".strip()

    @property
    def openspiel_label(self) -> str:
        """The OpenSpiel game with its parameters, as printed."""
        params = ",".join(f"{k}={v}" for k, v in self.openspiel_params.items())
        return f"{self.openspiel}({params})" if params else self.openspiel


PAIRS = (
    Pair("pulling-strings", (), "goofspiel", {}),
    Pair("push-pull", ("variant=duel",), "oshi_zumo", {}),
    Pair("tug-of-war", ("players=2",), "crazy_eights", {"players": 2}),
    Pair("tracks", ("size=6",), "hex", {"board_size": 6}),
)


def taut_game(pair: Pair) -> Game:
    """The taut game as ``taut bench`` builds it."""
    return build_game(
        plugin(pair.taut), {}, list(pair.taut_options), defaults={"max_turns": BENCH_MAX_TURNS}
    )


def rate(playout: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    """Turns per CPU-second of ``playout`` (one game, returning its turns) over ``seconds``
    of this process's CPU time."""
    rng = random.Random(seed)
    turns = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        turns += playout(rng)
        now = time.process_time()
        if now >= deadline:
            return turns / (now - start)


def taut_playout(game: Game) -> Callable[[random.Random], int]:
    """One random game of ``game`` by the function ``taut bench`` times."""
    play = game.random_playout

    def run(rng: random.Random) -> int:
        return play(rng)[0]

    return run


def openspiel_playout(game: Any) -> Callable[[random.Random], int]:
    """One random game of a ``pyspiel`` game, stepped from Python."""
    players = range(game.num_players())

    def run(rng: random.Random) -> int:
        choice = rng.choice
        state = game.new_initial_state()
        turns = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                i = sample_index([p for _, p in outcomes], rng)
                state.apply_action(outcomes[i][0])
            elif state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(choice(state.legal_actions()))
            turns += 1
        return turns

    return run


def measure(pair: Pair, seconds: float, runs: int, seed: int) -> dict[str, Any]:
    """Median turns per CPU-second of both games over ``runs`` interleaved runs."""
    import pyspiel

    game = taut_game(pair)
    other = pyspiel.load_game(pair.openspiel, pair.openspiel_params)
    ours, theirs = taut_playout(game), openspiel_playout(other)
    taut_rates, openspiel_rates = [], []
    for run in range(runs):
        taut_rates.append(rate(ours, seconds, seed + run))
        openspiel_rates.append(rate(theirs, seconds, seed + run))
    t = statistics.median(taut_rates)
    o = statistics.median(openspiel_rates)
    return {
        "game": pair.label,
        "taut_turns_per_cpu_s": round(t),
        "openspiel_game": pair.openspiel_label,
        "openspiel_turns_per_cpu_s": round(o),
        "ratio": round(t / o, 3),
        "taut_runs": [round(x) for x in taut_rates],
        "openspiel_runs": [round(x) for x in openspiel_rates],
    }


def main() -> None:
    """Measure every pair (or those in ``--only``) and print a table or JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per run.")
    parser.add_argument("--runs", type=int, default=3, help="Runs per game (median taken).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default="", help="Comma list of taut game names.")
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    args = parser.parse_args()
    if args.seconds <= 0 or args.runs < 1:
        parser.error("--seconds must be positive and --runs at least 1")
    wanted = {name for name in args.only.split(",") if name}
    unknown = wanted - {p.taut for p in PAIRS}
    if unknown:
        parser.error(
            f"unknown game(s) {', '.join(sorted(unknown))}; "
            f"known: {', '.join(p.taut for p in PAIRS)}"
        )
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("pyspiel is missing: install taut with the interop extra")
    rows = [
        measure(pair, args.seconds, args.runs, args.seed)
        for pair in PAIRS
        if not wanted or pair.taut in wanted
    ]
    if args.json:
        print(json.dumps({"seconds": args.seconds, "runs": args.runs, "rows": rows}))
        return
    rate_head = "turns/CPU-s"
    head = f"{'taut game':<24} {rate_head:>12}  {'OpenSpiel game':<28} {rate_head:>12} {'ratio':>6}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r['game']:<24} {r['taut_turns_per_cpu_s']:>12,}  {r['openspiel_game']:<28} "
            f"{r['openspiel_turns_per_cpu_s']:>12,} {r['ratio']:>6.2f}"
        )


if __name__ == "__main__":
    main()
