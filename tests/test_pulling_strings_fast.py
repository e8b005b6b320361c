"""The fast paths of Pulling Strings search against plain, readable versions of the rules.

Search spends its time making children (``PullingStringsState.pull``) and scoring them
(``heuristic.evaluate``). Both are written for speed; here every move of many seeded random
games is checked against the plain turn of ``reference.py`` and a judge written from the
rules, and the evaluation against the formula it implements written out plainly, exactly
(the same floats): a search over the fast evaluation must choose the same mixes.
"""

from __future__ import annotations

import math
import random

import pytest

import taut
from taut.agents.nash import NashSearchAgent
from taut.core.game import State
from taut.games.pulling_strings import PullingStringsState
from taut.games.pulling_strings.board import (
    HOME_CELLS,
    NUM_ENDS,
    SIZE,
    cell_ends,
    end_name,
    opposite,
    step,
)
from taut.games.pulling_strings.heuristic import EDGE, SCALE, THREAT, evaluate
from taut.games.pulling_strings.reference import reference_turn
from taut.games.pulling_strings.rules import PullingStrings
from taut.games.pulling_strings.state import move_stacks

OPTIONS: list[dict[str, object]] = [
    {},
    {"break": "string"},
    {"corner": "keep"},
    {"max_turns": 12},
    {"repeat": 3},
    {"edition": "published", "seed": 4, "corner": "keep", "break": "string"},
]


def plain_evaluate(state: PullingStringsState) -> float:
    """The evaluation written out plainly: a gain per end for each side, the best unbroken
    one floored at 0, added to closeness in the order of the stacks."""
    if state.outcome is not None:
        return state.returns()[0]
    homes = (set(HOME_CELLS[0]), set(HOME_CELLS[1]))
    score = 0.0
    gains = [[0] * NUM_ENDS, [0] * NUM_ENDS]
    for cell, n in state.stacks.items():
        score += n * EDGE[cell]
        for end in cell_ends(cell):
            dest = step(cell, end)
            for seat in (0, 1):
                gains[seat][end] += n * ((dest in homes[seat]) - (cell in homes[seat]))
    unbroken = [e for e in range(NUM_ENDS) if not state.broken >> e & 1]
    best = [max(0, max(g[e] for e in unbroken)) for g in gains]
    score += THREAT * (best[0] - best[1])
    return 0.95 * math.tanh(score / SCALE)


def plain_home(stacks: dict[int, int]) -> tuple[int, int]:
    """Disks on X's homes and on O's homes."""
    return (
        sum(stacks.get(c, 0) for c in HOME_CELLS[0]),
        sum(stacks.get(c, 0) for c in HOME_CELLS[1]),
    )


def plain_judge(stacks: dict[int, int], broken: int, turn: int, max_turns: int | None) -> str:
    """The outcome from the rules: a win home, a stuck board, the turn limit or nothing."""
    hx, ho = plain_home(stacks)
    if max(hx, ho) >= 5 and hx != ho:
        return "X" if hx > ho else "O"
    if broken and all(all(broken >> e & 1 for e in cell_ends(c)) for c in stacks):
        return "stuck"
    if max_turns is not None and turn >= max_turns:
        return "max_turns"
    return ""


def judged(state: PullingStringsState) -> str:
    """What the state says its outcome is, in the words of :func:`plain_judge`."""
    out = state.outcome
    if out is None:
        return ""
    if out.winners:
        return "X" if out.winners[0] == 0 else "O"
    return out.reason.name if out.reason.name != "repetition" else ""


def games(options: dict[str, object], count: int, seed: int) -> list[list[PullingStringsState]]:
    """``count`` seeded random games, each as its list of positions."""
    game = taut.make("pulling-strings", **options)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        assert isinstance(state, PullingStringsState)
        seen = [state]
        while not state.is_terminal() and state.turn < 80:
            legal = state.legal_actions(0)
            state = state.pull(rng.choice(legal), rng.choice(legal))
            seen.append(state)
        out.append(seen)
    return out


@pytest.mark.parametrize("options", OPTIONS)
def test_every_pull_matches_the_plain_rules(options: dict[str, object]) -> None:
    game = taut.make("pulling-strings", **options)
    assert isinstance(game, PullingStrings)
    corner_keep = options.get("corner") == "keep"
    max_turns = game.max_turns
    rng = random.Random(11)
    checked = ends_seen = 0
    for played in games(options, 40, 5):
        for state in played[:-1]:
            # Every pair of pulls from some positions, one random pair from the others.
            legal = list(state.legal_actions(0))
            pairs = (
                [(p, q) for p in legal for q in legal]
                if rng.random() < 0.05
                else [(rng.choice(legal), rng.choice(legal))]
            )
            for p, q in pairs:
                child = state.pull(p, q)
                stacks = dict(child.stacks)
                # The same stacks, in the same order as the plain table walk.
                assert list(stacks.items()) == list(
                    move_stacks(state.stacks, game.plans[p * NUM_ENDS + q]).items()
                )
                by_rc = {divmod(c, SIZE): n for c, n in state.stacks.items()}
                want = reference_turn(by_rc, end_name(p), end_name(q), corner_keep)
                assert {divmod(c, SIZE): n for c, n in stacks.items()} == want
                broken = state.broken
                if p == q:
                    broken |= 1 << p
                    if options.get("break") == "string":
                        broken |= 1 << opposite(p)
                assert child.broken == broken
                assert child.turn == state.turn + 1
                assert child.home() == plain_home(stacks)
                verdict = plain_judge(stacks, broken, child.turn, max_turns)
                if options.get("repeat") is None or verdict:
                    assert judged(child) == verdict
                assert child.is_terminal() == (child.outcome is not None)
                returns = {"X": (1.0, -1.0), "O": (-1.0, 1.0)}.get(verdict, (0.0, 0.0))
                if verdict or options.get("repeat") is None:
                    assert child.returns() == returns
                assert evaluate(child) == plain_evaluate(child)
                checked += 1
                ends_seen += bool(verdict)
    assert checked > 1000
    assert ends_seen > 10


@pytest.mark.parametrize("options", OPTIONS)
def test_evaluation_is_the_plain_formula_exactly(options: dict[str, object]) -> None:
    game = taut.make("pulling-strings", **options)
    for played in games(options, 30, 8):
        for state in played:
            v = plain_evaluate(state)
            assert evaluate(state) == v
            assert game.heuristic(state) == (v, -v)


def test_evaluation_counts_only_unbroken_threats() -> None:
    # Three disks at (0, 2): W0 (letter y) pulls them onto X's home (0, 1), E0 onto O's
    # home (0, 3). With W0 broken only O's threat is left and X's evaluation drops.
    game = taut.make("pulling-strings")
    open_ = game.state_from_json({"stacks": [[0, 2, 3], [4, 4, 1]], "broken": []})
    shut = game.state_from_json({"stacks": [[0, 2, 3], [4, 4, 1]], "broken": ["y"]})
    assert isinstance(open_, PullingStringsState) and isinstance(shut, PullingStringsState)
    assert evaluate(open_) == plain_evaluate(open_)
    assert evaluate(shut) == plain_evaluate(shut)
    assert evaluate(shut) < evaluate(open_)


def _plain_evaluator(state: State) -> tuple[float, ...]:
    assert isinstance(state, PullingStringsState)
    v = plain_evaluate(state)
    return (v, -v)


def test_search_is_the_same_over_the_plain_evaluation() -> None:
    game = taut.make("pulling-strings")
    rng = random.Random(2)
    state = game.new_initial_state()
    compared = 0
    while compared < 4:
        legal = state.legal_actions(0)
        state = state.apply({0: rng.choice(legal), 1: rng.choice(legal)})
        assert isinstance(state, PullingStringsState)
        if state.is_terminal():
            state = game.new_initial_state()
            continue
        if state.turn % 3:
            continue
        fast = NashSearchAgent(depth=2).search(state)
        plain = NashSearchAgent(depth=2, evaluator=_plain_evaluator).search(state)
        assert fast.value == plain.value
        assert fast.policy == plain.policy
        assert fast.nodes == plain.nodes
        compared += 1
