"""How the ``hard`` level plays the four-sided Push-Pull variants, seats rotated fairly.

Matchups (``--games`` games each):

* ``four``: ``hard`` in one seat against three ``random`` seats, then against three
  ``medium`` seats; ``hard`` sits North, East, South and West in turn. A game counts as
  won when ``hard`` is among the scorers of the last piece (the game's returns count a
  shared last piece as a win for each scorer); sole wins are shown too. Against random
  play no agent can win more than about 51.5% (44.4% alone):
  ``taut analyse random-reply`` and ``taut.games.push_pull.evaluation``.
* ``four-teams`` and ``two-teams``: a ``hard`` team against a ``medium`` team, the teams
  swapping sides every game; the share of decisive games the ``hard`` team won.

Every rate comes with its 95% Wilson interval. Games are capped at 200 turns (a draw).

Run: ``.venv/bin/python benchmarks/push_pull_four.py [--games 100] [--think 0.3]
[--workers 2] [--json] [--only four-random,four-medium,four-teams,two-teams]``
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from taut.agents import make_agent
from taut.arena.match import play_match
from taut.arena.stats import wilson_interval
from taut.core.chance import derive_seed
from taut.core.registry import make

#: Turns after which a game is drawn (the arena's default cap).
MAX_TURNS = 200


@dataclass(frozen=True)
class Matchup:
    """One row: the variant, the opponents' level, and whether seats play as teams."""

    name: str
    variant: str
    opponent: str
    teams: bool


MATCHUPS = (
    Matchup("four-random", "four", "random", False),
    Matchup("four-medium", "four", "medium", False),
    Matchup("four-teams", "four-teams", "medium", True),
    Matchup("two-teams", "two-teams", "medium", True),
)


def _hard_seats(matchup: Matchup, g: int) -> tuple[int, ...]:
    """The seats ``hard`` holds in game ``g``: one seat in turn, or a team in turn."""
    game = make("push-pull", variant=matchup.variant)
    if matchup.teams:
        units = game.teams()
        return tuple(units[g % len(units)])
    return (g % game.info.num_seats,)


def play_one(job: tuple[Matchup, int, float, int]) -> tuple[str, int, bool, bool, bool]:
    """Play game ``g`` of a matchup: (matchup, g, hard won, hard won alone, decisive)."""
    matchup, g, think, seed = job
    game = make("push-pull", variant=matchup.variant, max_turns=MAX_TURNS)
    hard = _hard_seats(matchup, g)
    agents = [
        make_agent(f"hard:think={think}" if s in hard else matchup.opponent, game=game)
        for s in range(game.info.num_seats)
    ]
    outcome = play_match(game, agents, seed=derive_seed(seed, matchup.name, g)).state.outcome
    assert outcome is not None
    winners = set(outcome.winners)
    won = bool(winners & set(hard))
    alone = won and winners <= set(hard)
    decisive = bool(winners) and not (won and not alone)
    return matchup.name, g, won, alone, decisive


def _rate(k: int, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(k, n) if n else (0.0, 1.0)
    return {"rate": k / n if n else 0.0, "low": lo, "high": hi}


def main() -> None:
    """Play the matchups and print win rates with 95% Wilson intervals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="Games per matchup.")
    parser.add_argument("--think", type=float, default=0.3, help="Seconds per hard move.")
    parser.add_argument("--workers", type=int, default=2, help="Games played at once.")
    parser.add_argument("--seed", type=int, default=1, help="Seed of every game.")
    parser.add_argument("--only", default="", help="Comma-separated matchups to play.")
    parser.add_argument("--json", action="store_true", help="Print one JSON line per matchup.")
    args = parser.parse_args()
    chosen = [m for m in MATCHUPS if not args.only or m.name in args.only.split(",")]
    for m in chosen:
        start = time.perf_counter()
        jobs = [(m, g, args.think, args.seed) for g in range(args.games)]
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(play_one, jobs))
        n = len(results)
        won = sum(r[2] for r in results)
        alone = sum(r[3] for r in results)
        decisive = sum(r[4] for r in results)
        row: dict[str, object] = {
            "matchup": m.name,
            "variant": m.variant,
            "opponent": m.opponent,
            "games": n,
            "think": args.think,
            "seconds": round(time.perf_counter() - start, 1),
        }
        if m.teams:
            row["decisive"] = decisive
            row["wins"] = won
            row["win_share_of_decisive"] = _rate(won, decisive)
        else:
            row["wins"] = won
            row["sole_wins"] = alone
            row["win_rate"] = _rate(won, n)
            row["sole_win_rate"] = _rate(alone, n)
        if args.json:
            print(json.dumps(row), flush=True)
            continue
        if m.teams:
            r = row["win_share_of_decisive"]
            assert isinstance(r, dict)
            print(
                f"{m.name:<12} hard team vs {m.opponent}: {won}/{decisive} decisive "
                f"= {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}] "
                f"({n} games, {row['seconds']} s)",
                flush=True,
            )
        else:
            r, s = row["win_rate"], row["sole_win_rate"]
            assert isinstance(r, dict) and isinstance(s, dict)
            print(
                f"{m.name:<12} hard vs 3 {m.opponent}: won {won}/{n} = {r['rate']:.1%} "
                f"[{r['low']:.1%}, {r['high']:.1%}]; alone {alone}/{n} = {s['rate']:.1%} "
                f"[{s['low']:.1%}, {s['high']:.1%}] ({row['seconds']} s)",
                flush=True,
            )


if __name__ == "__main__":
    main()
