"""Write the golden records of the current format: ``python tests/golden/make.py``.

Each game is played by fixed agents from a fixed seed through the same loop as
``taut play``; the file keeps the record, the number of positions along the game, a digest
of every position's JSON and the final position. Run it only when a rules change is meant
to change these games: the golden test exists to notice when they change by accident.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.test_golden import digest_positions  # noqa: E402

import taut  # noqa: E402
from taut.agents import make_agent  # noqa: E402
from taut.agents.base import Agent  # noqa: E402
from taut.arena.match import DrawOffer, play_match  # noqa: E402
from taut.core.game import State  # noqa: E402
from taut.core.record import GameRecord  # noqa: E402

GAMES = [
    (
        "pulling-strings-published",
        "pulling-strings",
        {"edition": "published", "seed": 12, "break": "string", "max_turns": 60},
        ["hard:think=0.05", "greedy"],
        5,
    ),
    (
        "push-pull-two-teams",
        "push-pull",
        {"variant": "two-teams", "max_turns": 40},
        ["greedy", "random"],
        6,
    ),
    ("push-pull-duel-perfect", "push-pull", {}, ["perfect", "greedy"], 7),
    (
        "tug-of-war-4",
        "tug-of-war",
        {"players": 4, "target": 30},
        ["medium", "random", "easy", "random"],
        8,
    ),
    (
        "tracks-each-random-first",
        "tracks",
        {"size": 4, "roll": "each", "first": "random"},
        ["hard:think=0.05", "random"],
        9,
    ),
]


class OffersAfter(Agent):
    """Plays randomly and offers a draw on its third move; accepts any offer."""

    name = "offers"

    def __init__(self) -> None:
        self.moves = 0

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        self.moves += 1
        if self.moves == 3:
            raise DrawOffer(seat)
        return rng.choice(state.legal_actions(seat))

    def accept_draw(self, state: State, seat: int) -> bool:
        return True


def write(name: str, record: GameRecord) -> None:
    data = json.loads(json.dumps(record.to_json()))
    count, digest, final = digest_positions(GameRecord.from_json(data))
    golden = {"record": data, "positions": count, "positions_sha256": digest, "final": final}
    (ROOT / "tests" / "golden" / f"{name}.json").write_text(json.dumps(golden, indent=1) + "\n")
    print(name, count)


def main() -> None:
    for name, game_name, options, specs, seed in GAMES:
        game = taut.make(game_name, **options)
        agents = [make_agent(spec, game=game) for spec in specs]
        seats = dict(zip(game.info.seats, specs, strict=True))
        write(name, play_match(game, agents, seed=seed, seats=seats).record)
    game = taut.make("tracks", size=5)
    write("tracks-agreed-draw", play_match(game, [OffersAfter(), OffersAfter()], seed=3).record)


if __name__ == "__main__":
    main()
