"""Pulling Strings passes the protocol conformance checks in every option combination."""

import pytest

import taut
from tests.conformance import check_conformance


@pytest.mark.parametrize("edition", ["classic", "published"])
@pytest.mark.parametrize("brk", ["end", "string"])
@pytest.mark.parametrize("corner", ["split", "keep"])
def test_conformance(edition: str, brk: str, corner: str) -> None:
    game = taut.make(
        "pulling-strings", edition=edition, corner=corner, max_turns=60, seed=3, **{"break": brk}
    )
    check_conformance(game, games=6)
