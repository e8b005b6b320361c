"""Push-Pull passes the protocol conformance checks in every variant, with and without shifts."""

from __future__ import annotations

import pytest

import taut
from tests.conformance import check_conformance


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "duel"},
        {"variant": "four"},
        {"variant": "four", "shifts": True},
        {"variant": "four-teams"},
        {"variant": "four-teams", "shifts": True, "teams": "NW-SE"},
        {"variant": "two-teams"},
    ],
    ids=lambda o: "-".join(str(v) for v in o.values()),
)
def test_conformance(options: dict[str, object]) -> None:
    check_conformance(taut.make("push-pull", max_turns=30, **options), games=6)


def test_conformance_two_teams_shifts() -> None:
    # 15,625 actions per player: every one is round-tripped at every node, so keep it short.
    game = taut.make("push-pull", variant="two-teams", shifts=True, max_turns=2)
    check_conformance(game, games=1)
