"""How strong ``hard`` plays Tug of War, and how much of a game luck decides.

Pairings (``--games`` games each, default options, seats rotating so that the measured
agent sits in every seat equally often):

* ``bound``: the omniscient player, ``hard``'s search run on the true state (every hand
  in sight, so its samples are the truth and only the draws still to come are unknown),
  against ``random`` with two players. Its share of decisive games is an estimate of what a
  fair player can hope for against random play: the rest is decided by the deal and the
  draws.
* ``random``: ``hard`` against ``random``, two players.
* ``medium``: ``hard`` against ``medium`` (``greedy``), two players.
* ``random3``, ``random4``: ``hard`` in one seat against ``random`` in the others, three
  and four players; its share of wins beside the fair share (1/3, 1/4) and their ratio.

Every rate comes with its 95% Wilson interval; two-player rows print wins-draws-losses
and the share of decisive games, and ``random`` is also given as a ratio of ``bound``.
Progress goes to stderr, one line per finished game.

Run: ``.venv/bin/python benchmarks/tug_of_war_strength.py [--games 200] [--think 2]
[--seed 1] [--workers 1] [--only bound,random,medium,random3,random4] [--hard SPEC]``

``--hard`` replaces the measured agent's spec (default ``hard:think=THINK``), e.g.
``--hard ismcts:think=0.5:bias=5:c=0.3:rollout=0:playout=3`` to compare settings.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.arena.match import play_match
from taut.arena.stats import wilson_interval
from taut.core.chance import derive_seed
from taut.core.game import State
from taut.core.registry import make


@dataclass(frozen=True)
class Pairing:
    """One row: its name, the player count, the opponents' spec, omniscient or not."""

    name: str
    players: int
    opponent: str
    omniscient: bool = False


PAIRINGS = (
    Pairing("bound", 2, "random", omniscient=True),
    Pairing("random", 2, "random"),
    Pairing("medium", 2, "medium"),
    Pairing("random3", 3, "random"),
    Pairing("random4", 4, "random"),
)


class Omniscient(Agent):
    """Plays ``base`` on the true state instead of its view (a measuring device only:
    the match loop's observer keeps :attr:`truth` up to date)."""

    name = "omniscient"

    def __init__(self, base: Agent) -> None:
        self.base = base
        self.truth: State | None = None

    def observe(self, before: State, joint: dict[int, int], after: State) -> None:
        """The match loop's observer: remember the position every move leads to."""
        self.truth = after

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """``base``'s move on the true state."""
        truth = self.truth if self.truth is not None else state
        return self.base.act(truth, seat, rng)


@dataclass(frozen=True)
class Job:
    """One game to play."""

    pairing: Pairing
    game_no: int
    spec: str
    seed: int


def play_one(job: Job) -> tuple[str, int, int | None, float]:
    """Play one game: (pairing, game number, 1 won / 0 lost / None drawn, seconds)."""
    start = time.perf_counter()
    p = job.pairing
    game = make("tug-of-war", players=p.players)
    seat = job.game_no % p.players
    agents: list[Agent] = [make_agent(p.opponent, game=game) for _ in range(p.players)]
    measured = make_agent(job.spec, game=game)
    observer = None
    if p.omniscient:
        omniscient = Omniscient(measured)
        observer = omniscient.observe
        measured = omniscient
    agents[seat] = measured
    seed = derive_seed(job.seed, p.name, job.game_no)
    outcome = play_match(game, agents, seed=seed, observer=observer).state.outcome
    assert outcome is not None
    result = None if not outcome.winners else int(outcome.winners == (seat,))
    return p.name, job.game_no, result, time.perf_counter() - start


def _share(k: int, n: int) -> str:
    lo, hi = wilson_interval(k, n)
    return f"{k / n if n else 0.0:.1%} [{lo:.1%}, {hi:.1%}]"


def report(p: Pairing, results: list[int | None]) -> tuple[str, float]:
    """The row's line and its measured share (decisive share, or share of games won)."""
    wins = sum(1 for r in results if r == 1)
    losses = sum(1 for r in results if r == 0)
    draws = len(results) - wins - losses
    decisive = wins + losses
    who = "omniscient" if p.omniscient else "hard"
    if p.players == 2:
        line = (
            f"{p.name:<8} {who} vs {p.opponent}, 2 players: {wins}-{draws}-{losses}, "
            f"decisive share {_share(wins, decisive)}"
        )
        return line, wins / decisive if decisive else 0.0
    fair = 1 / p.players
    rate = wins / len(results) if results else 0.0
    line = (
        f"{p.name:<8} hard as one seat vs {p.players - 1} {p.opponent}, {p.players} players: "
        f"won {wins}/{len(results)} = {_share(wins, len(results))}; "
        f"fair share {fair:.1%}; ratio {rate / fair:.2f}x"
    )
    return line, rate


def main() -> None:
    """Play the chosen pairings and print each row with its 95% Wilson interval."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--think", type=float, default=2.0, help="seconds per hard move")
    parser.add_argument("--seed", type=int, default=1, help="seed of every game")
    parser.add_argument("--workers", type=int, default=1, help="games played at once")
    names = ",".join(p.name for p in PAIRINGS)
    parser.add_argument("--only", default=names, help=f"pairings to play, of {names}")
    parser.add_argument("--hard", default="", help="the measured agent's spec")
    args = parser.parse_args()
    wanted = args.only.split(",")
    unknown = [w for w in wanted if w not in {p.name for p in PAIRINGS}]
    if unknown:
        parser.error(f"unknown pairing {', '.join(unknown)}; pairings: {names}")
    if args.games < 1 or args.workers < 1 or args.think <= 0:
        parser.error("--games and --workers must be at least 1 and --think above 0")
    spec = args.hard or f"hard:think={args.think}"
    print(f"agent {spec}, {args.games} games per pairing, seed {args.seed}", flush=True)
    shares: dict[str, float] = {}
    for p in PAIRINGS:
        if p.name not in wanted:
            continue
        start = time.perf_counter()
        jobs = [Job(p, g, spec, args.seed) for g in range(args.games)]
        results: list[int | None] = [None] * args.games
        with ProcessPoolExecutor(args.workers) as pool:
            for done, (_, g, result, seconds) in enumerate(pool.map(play_one, jobs), 1):
                results[g] = result
                mark = {1: "won", 0: "lost", None: "drawn"}[result]
                print(
                    f"{p.name} game {done}/{args.games}: {mark} ({seconds:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
        line, shares[p.name] = report(p, results)
        print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True)
    if "bound" in shares and "random" in shares and shares["bound"] > 0:
        print(f"hard vs random as a share of the bound: {shares['random'] / shares['bound']:.2f}")


if __name__ == "__main__":
    main()
