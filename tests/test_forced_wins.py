"""Every search, in every game, takes a win that is there to be taken.

Positions are found by seeded random play: a node where the acting seat has a move that
wins at once whatever anyone else does, while some of its other moves do not. In the
Push-Pull duel no move ever dominates another (every optimal mix uses every move, checked
below). The search
must put its move (or the top of its mix) on a winning one. Searchers get only the view
of their seat.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator

import pytest

import taut
from taut.agents import make_agent
from taut.core.game import State
from taut.core.terms import CHANCE_SEAT, NodeKind


def _step(state: State, rng: random.Random) -> State:
    if state.kind is NodeKind.CHANCE:
        return state.apply({CHANCE_SEAT: state.sample_chance(rng)})
    return state.apply(state.random_joint(rng))


def _wins_at_once(state: State, seat: int, action: int) -> bool:
    """True when ``action`` ends the game with ``seat`` winning, whatever the others do."""
    others = [s for s in state.acting_seats() if s != seat]
    replies: list[dict[int, int]] = [{}]
    for other in others:
        replies = [{**r, other: b} for r in replies for b in state.legal_actions(other)]
    for reply in replies:
        after = state.apply({seat: action, **reply})
        outcome = after.outcome
        if outcome is None or seat not in outcome.winners:
            return False
    return True


def winning_positions(game: taut.Game, seed: int, wanted: int) -> Iterator[tuple[State, int]]:
    """Up to ``wanted`` (state, seat) pairs where ``seat`` can win now but not with every
    move, from random games seeded by ``seed``."""
    rng = random.Random(seed)
    found = 0
    for _ in range(400):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.kind is not NodeKind.CHANCE:
                for seat in state.acting_seats():
                    legal = state.legal_actions(seat)
                    wins = [a for a in legal if _wins_at_once(state, seat, a)]
                    if wins and len(wins) < len(legal):
                        yield state, seat
                        found += 1
                        if found >= wanted:
                            return
            state = _step(state, rng)


def duel_positions(seed: int) -> list[State]:
    """Distinct Push-Pull duel positions met in seeded random games."""
    game = taut.make("push-pull", max_turns=60)
    rng = random.Random(seed)
    seen: dict[Hashable, State] = {}
    for _ in range(30):
        state = game.new_initial_state()
        while not state.is_terminal():
            seen.setdefault(state.transposition_key(), state)
            state = _step(state, rng)
    return list(seen.values())


def test_no_duel_position_has_a_dominant_move() -> None:
    """Every optimal mix of the duel uses every move, so no move dominates another; the
    searches are judged there by their exact exploitability (``taut analyse``)."""
    from taut.core.registry import plugin_of

    game = taut.make("push-pull")
    exact_policy = plugin_of(game).exact_policy(game)
    assert exact_policy is not None
    for state in duel_positions(seed=3):
        for seat in (0, 1):
            mix = exact_policy(state, seat)
            assert len(mix) == len(state.legal_actions(seat))
            assert min(mix.values()) > 1e-6


def _top(agent_spec: str, state: State, seat: int, seed: int) -> int:
    agent = make_agent(agent_spec)
    mix = agent.strategy(state.view(seat), seat, random.Random(seed))
    return max(mix, key=mix.__getitem__)


CASES = [
    ("pulling-strings", {"max_turns": 60}, "smmcts:select=rm:iterations=3000:rollout=0"),
    ("pulling-strings", {"max_turns": 60}, "smmcts:select=exp3:iterations=3000:rollout=0"),
    ("pulling-strings", {"max_turns": 60}, "smmcts:select=uct:iterations=3000:rollout=0"),
    ("pulling-strings", {"max_turns": 60}, "nash:depth=1"),
    ("tracks", {"size": 4}, "mcts:iterations=400:rollout=0"),
    ("tracks", {"size": 5, "roll": "each"}, "mcts:iterations=400"),
    ("tracks", {"size": 4}, "nash:depth=2"),
]


@pytest.mark.parametrize(("name", "options", "spec"), CASES)
def test_search_takes_the_win(name: str, options: dict[str, object], spec: str) -> None:
    game = taut.make(name, **options)
    positions = list(winning_positions(game, seed=7, wanted=3))
    assert positions, "random play found no position with a win to take"
    for k, (state, seat) in enumerate(positions):
        choice = _top(spec, state, seat, seed=k)
        assert _wins_at_once(state, seat, choice), (spec, state.to_json(), seat, choice)


@pytest.mark.parametrize("name", ["pulling-strings", "tracks"])
def test_hard_level_takes_the_win(name: str) -> None:
    game = taut.make(name)
    state, seat = next(winning_positions(game, seed=11, wanted=1))
    agent = make_agent("hard:think=0.3")
    choice = agent.act(state.view(seat), seat, random.Random(0))
    assert _wins_at_once(state, seat, choice), (state.to_json(), seat, choice)
