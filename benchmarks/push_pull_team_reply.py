"""What a best reply can win against uniform random play in Push-Pull's team games.

Solves, by value iteration over per-piece transitions (``taut.solve.push_pull_teams``),
the decision problem of a ``two-teams`` player facing a uniformly random one. A
``four-teams`` team whose two seats coordinated perfectly would be that player, so the
result bounds every agent in both variants. Prints the value from the start and the share
of games the best reply wins (games end with certainty against random play).

Run: ``.venv/bin/python benchmarks/push_pull_team_reply.py [--json]``
"""

from __future__ import annotations

import argparse
import json
import time

from taut.solve.push_pull_teams import team_reply_to_random


def main() -> None:
    """Print the best reply's value and win share for each teaming."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="Print JSON lines only.")
    args = parser.parse_args()
    if not args.json:
        print(f"{'teams':<8} {'value':>8} {'wins':>8} {'sweeps':>7} {'seconds':>8}")
    for teams in ("NE-SW", "NW-SE"):
        start = time.perf_counter()
        reply = team_reply_to_random(teams)
        seconds = time.perf_counter() - start
        row = {
            "teams": teams,
            "value": reply.value,
            "win_share": reply.win_share,
            "sweeps": reply.sweeps,
            "seconds": seconds,
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{teams:<8} {reply.value:>8.4f} {reply.win_share:>8.2%} {reply.sweeps:>7} "
                f"{seconds:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
