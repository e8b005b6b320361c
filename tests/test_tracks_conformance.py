"""Track Tiles passes the protocol conformance checks in every option combination."""

import pytest

import taut
from tests.conformance import check_conformance


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("roll", ["once", "each"])
@pytest.mark.parametrize("first", ["NS", "WE", "random"])
def test_conformance(size: int, roll: str, first: str) -> None:
    game = taut.make("tracks", size=size, roll=roll, first=first)
    check_conformance(game, games=8, seed=size)
