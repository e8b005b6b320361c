"""The turn-based view of a simultaneous game."""

import random

import pytest

import taut
from taut.core import NodeKind
from taut.core.errors import PositionError
from taut.core.turn_based import TurnBasedGame
from tests.conformance import check_conformance


def test_conformance() -> None:
    check_conformance(TurnBasedGame(taut.make("pulling-strings", max_turns=40)), games=5)


def test_same_outcome_as_simultaneous() -> None:
    inner = taut.make("pulling-strings", max_turns=100)
    tb = TurnBasedGame(inner)
    rng = random.Random(4)
    s = inner.new_initial_state()
    t = tb.new_initial_state()
    assert not tb.info.simultaneous and not tb.info.perfect_information
    while not s.is_terminal():
        joint = s.random_joint(rng)
        assert t.kind is NodeKind.DECISION and t.acting_seats() == (0,)
        t = t.apply(joint[0])
        assert t.acting_seats() == (1,)
        # O's view does not show X's pending pull.
        v = t.view(1)
        assert v.pending == () and v.hidden
        with pytest.raises(PositionError):
            v.apply(joint[1])
        assert t.view(0).pending == ((0, joint[0]),)
        t = t.apply(joint[1])
        s = s.apply(joint)
        assert t.inner == s
    assert t.outcome == s.outcome
