"""The turn-based view of a simultaneous game."""

import random

import pytest

import taut
from taut.core import NodeKind
from taut.core.errors import PositionError
from taut.core.turn_based import HIDDEN, TurnBasedGame
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
        # O's view shows that X has pulled, not what; O still knows it is its turn.
        v = t.view(1)
        assert v.pending == ((0, HIDDEN),) and v.hidden
        assert v.acting_seats() == (1,) and list(v.legal_actions(1)) == list(t.legal_actions(1))
        with pytest.raises(PositionError):
            v.apply(joint[1])
        assert t.view(0).pending == ((0, joint[0]),)
        t = t.apply(joint[1])
        s = s.apply(joint)
        assert t.inner == s
    assert t.outcome == s.outcome


def test_options_come_from_the_wrapped_game() -> None:
    inner = taut.make("pulling-strings", max_turns=9)
    assert TurnBasedGame(inner).options == inner.options
    with pytest.raises(TypeError):
        TurnBasedGame(inner, max_turns=3)  # type: ignore[call-arg]


def test_a_view_round_trips_through_json() -> None:
    tb = TurnBasedGame(taut.make("pulling-strings", max_turns=9))
    t = tb.new_initial_state().apply(3)
    v = t.view(1)
    again = tb.state_from_json(v.to_json())
    assert again.pending == v.pending and again.hidden
    with pytest.raises(PositionError):
        tb.state_from_json({"inner": v.to_json()["inner"], "pending": [[0, "x"]]})
