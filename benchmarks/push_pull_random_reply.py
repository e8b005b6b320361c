"""What the best reply to uniform random play can win in each Push-Pull variant.

For each variant and replying seats, ``taut.games.push_pull.solve.random_reply`` solves the
decision problem of those seats (perfectly coordinated) against uniformly random other
seats. Two figures per row:

* ``value``: the expected result (win 1, loss -1, shared win 0) with no turn limit, and the
  share of games won, ``(1 + value) / 2``, where shared wins cannot happen;
* ``value at 19:1``: a win 1, a loss -19, a draw 0, over at most 200 turns (the arena's
  limit). Negative means that no agent in those seats wins 95% of decisive games.

Run: ``.venv/bin/python benchmarks/push_pull_random_reply.py [--json]``
"""

from __future__ import annotations

import argparse
import json
import time

from taut.games.push_pull.solve.random_reply import reply_to_random

ROWS = [
    ("duel", (0,), "W"),
    ("four", (0,), "N alone"),
    ("four", (0, 2), "N and S"),
    ("four", (0, 1), "N and E"),
    ("four-teams", (0, 1), "team N+E"),
    ("two-teams", (0,), "player NE"),
]


def main() -> None:
    """Print the best reply's values for each variant."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="Print JSON lines only.")
    args = parser.parse_args()
    if not args.json:
        print(
            f"{'variant':<11} {'seats':<10} {'value':>7} {'wins':>7} {'value at 19:1':>14} "
            f"{'seconds':>8}"
        )
    for variant, seats, label in ROWS:
        start = time.perf_counter()
        plain = reply_to_random(variant, seats)
        strict = reply_to_random(variant, seats, loss_weight=19, turns=200)
        seconds = time.perf_counter() - start
        row = {
            "variant": variant,
            "seats": label,
            "value": plain.value,
            "win_share": plain.win_share,
            "value_19_to_1_200_turns": strict.value,
            "seconds": seconds,
        }
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"{variant:<11} {label:<10} {plain.value:>7.4f} {plain.win_share:>7.1%} "
                f"{strict.value:>14.4f} {seconds:>8.1f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
