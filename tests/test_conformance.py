"""Every registered game passes the protocol's conformance checks, with its default options
(a turn limit where the game has one, so random play always ends)."""

from __future__ import annotations

import pytest

import taut
from tests.conformance import check_conformance


@pytest.mark.parametrize("name", taut.games())
def test_every_registered_game_conforms(name: str) -> None:
    cls = taut.plugin(name).game_class
    options = {"max_turns": 60} if any(s.name == "max_turns" for s in cls.OPTIONS) else {}
    check_conformance(taut.make(name, **options), games=4)
