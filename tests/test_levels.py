"""Difficulty levels: every level plays every game and variant; the right algorithm is chosen."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import taut
from taut.agents import (
    GreedyAgent,
    ISMCTSAgent,
    LevelAgent,
    NashSearchAgent,
    PerfectAgent,
    SMMCTSAgent,
    make_agent,
    takes_think,
)
from taut.agents.counter import CounterAgent
from taut.agents.levels import BlunderingAgent, level_agent
from taut.agents.reply import ReplyAgent
from taut.cli import cli as app
from taut.core.errors import InvalidOptionError
from taut.core.terms import CHANCE_SEAT, NodeKind

VARIANTS = [
    ("pulling-strings", {}),
    ("pulling-strings", {"edition": "published", "seed": 3}),
    ("push-pull", {"variant": "duel"}),
    ("push-pull", {"variant": "four"}),
    ("push-pull", {"variant": "four-teams"}),
    ("push-pull", {"variant": "two-teams", "shifts": True}),
    ("tug-of-war", {"players": 2}),
    ("tug-of-war", {"players": 4}),
    ("tracks", {"size": 4, "roll": "each"}),
]


@pytest.mark.parametrize(("name", "options"), VARIANTS)
@pytest.mark.parametrize("level", ["easy", "medium", "hard:think=0.05"])
def test_every_level_plays_legal_moves_everywhere(
    name: str, options: dict[str, object], level: str
) -> None:
    game = taut.make(name, **options)
    state = game.new_initial_state()
    rng = random.Random(1)
    agent = make_agent(level)
    for _ in range(3):  # a few nodes into the game
        while state.kind is NodeKind.CHANCE:
            state = state.apply({CHANCE_SEAT: state.sample_chance(rng)})
        if state.is_terminal():
            break
        joint = {}
        for seat in state.acting_seats():
            action = agent.act(state.view(seat), seat, rng)
            assert state.is_legal(seat, action), (name, level, seat, action)
            joint[seat] = action
        state = state.apply(joint)


def test_hard_picks_the_algorithm_that_fits_the_game() -> None:
    def hard(name: str, **options: object) -> object:
        return level_agent("hard", taut.make(name, **options), think=0.5)

    assert isinstance(hard("push-pull"), PerfectAgent)
    nash = hard("pulling-strings")
    assert isinstance(nash, NashSearchAgent) and nash.depth == 3 and nash.think == 0.5
    for variant in ("four", "four-teams"):  # more than two seats: a modelled reply
        reply = hard("push-pull", variant=variant)
        assert isinstance(reply, ReplyAgent) and reply.think == 0.5, variant
    # Two-teams, solved: the safe best reply to a modelled opponent (either teaming).
    assert isinstance(hard("push-pull", variant="two-teams"), CounterAgent)
    assert isinstance(hard("push-pull", variant="two-teams", teams="NW-SE"), CounterAgent)
    uct = hard("push-pull", variant="two-teams", shifts=True)  # not solved: SM-MCTS
    assert isinstance(uct, SMMCTSAgent) and uct.select == "uct" and uct.prior > 0
    assert uct.final == "mix"  # two seats: a pure choice could be exploited
    ismcts = hard("tug-of-war")
    assert isinstance(ismcts, ISMCTSAgent) and ismcts.bias > 0 and ismcts.think == 0.5
    tracks = hard("tracks")
    assert isinstance(tracks, SMMCTSAgent) and tracks.select == "uct"
    assert isinstance(level_agent("medium", taut.make("tracks")), GreedyAgent)
    easy = level_agent("easy", taut.make("tracks"))
    assert isinstance(easy, BlunderingAgent) and 0 < easy.blunder < 1


def test_think_reaches_the_agents_that_think() -> None:
    hard = make_agent("hard", think=0.7)
    assert isinstance(hard, LevelAgent) and hard.think == 0.7
    spec_wins = make_agent("hard:think=0.2", think=0.7)
    assert isinstance(spec_wins, LevelAgent) and spec_wins.think == 0.2
    assert isinstance(make_agent("greedy", think=0.7), GreedyAgent)  # ignored, no error
    assert takes_think("smmcts") and takes_think("hard") and not takes_think("random")
    with pytest.raises(InvalidOptionError, match="think"):
        make_agent("hard:think=soon")
    with pytest.raises(InvalidOptionError, match="positive"):
        make_agent("hard:think=0")


def test_blundering_mix_blends_the_base_with_uniform() -> None:
    game = taut.make("pulling-strings")
    state = game.new_initial_state()
    base = GreedyAgent()
    exact = base.strategy(state, 0, random.Random(0))
    mix = BlunderingAgent(base, blunder=0.5).strategy(state, 0, random.Random(0))
    assert sum(mix.values()) == pytest.approx(1.0)
    assert len(mix) == len(state.legal_actions(0))
    for action, p in mix.items():
        assert p == pytest.approx(0.5 / 20 + 0.5 * exact.get(action, 0.0))
    assert BlunderingAgent(base, blunder=0.0).strategy(state, 0, random.Random(0)) == exact
    with pytest.raises(InvalidOptionError, match="blunder"):
        BlunderingAgent(base, blunder=1.5)


def test_play_accepts_levels_and_think() -> None:
    args = ["play", "tracks", "--ns", "hard", "--we", "easy", "--size", "3", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--think", "0.05"])
    assert result.exit_code == 0, result.output
    bad = CliRunner().invoke(app, ["play", "tracks", "--ns", "expert", "--we", "easy"])
    assert bad.exit_code == 2 and "easy" in bad.output and "hard" in bad.output
