"""PettingZoo adapters: PettingZoo's own API and seed tests on every game and variant,
whole-episode determinism, masks, rewards, illegal actions and hidden information."""

from __future__ import annotations

import itertools
import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

import taut  # noqa: E402
from taut.core.registry import register_plugin, unregister_plugin  # noqa: E402
from taut.core.terms import NodeKind  # noqa: E402
from taut.interop.encoding import (  # noqa: E402
    action_mask,
    observation_fields,
    observation_shape,
    observe,
)
from taut.interop.pettingzoo import TautParallelEnv, env, parallel_env  # noqa: E402
from tests.test_interop_encoding import SitOutPlugin  # noqa: E402

#: Every game and every variant, with options that keep episodes short where needed.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("pulling-strings", {}),
    ("pulling-strings", {"edition": "published", "seed": 3}),
    ("pulling-strings", {"break": "string", "corner": "keep", "max_turns": 30}),
    ("push-pull", {"variant": "duel"}),
    ("push-pull", {"variant": "four"}),
    ("push-pull", {"variant": "four-teams", "teams": "NW-SE"}),
    ("push-pull", {"variant": "two-teams"}),
    ("push-pull", {"variant": "four", "shifts": True, "max_turns": 20}),
    ("tug-of-war", {"players": 2, "end": "rounds", "rounds": 1}),
    ("tug-of-war", {"players": 3, "end": "round-points", "rounds": 1}),
    ("tug-of-war", {"players": 4, "set": 6, "hand": 4, "end": "rounds", "rounds": 1}),
    ("tug-of-war", {"players": 2, "set": 9, "target": 10, "out": "stop"}),
    ("tracks", {"size": 3}),
    ("tracks", {"size": 5, "first": "random", "roll": "each"}),
    ("tracks", {"size": 4, "first": "WE"}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # PettingZoo's tests warn about naming conventions and dict observations by design.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_pettingzoo_api_tests(game: str, options: dict[str, Any]) -> None:
    pettingzoo_test.parallel_api_test(parallel_env(game, **options), num_cycles=40)
    pettingzoo_test.api_test(env(game, **options), num_cycles=40)
    pettingzoo_test.seed_test(lambda: env(game, **options), num_cycles=40)
    # parallel_seed_test steps with actions drawn without the masks: illegal ones must not
    # raise there, so it runs with illegal="lose".
    pettingzoo_test.parallel_seed_test(
        lambda: parallel_env(game, illegal="lose", **options), num_cycles=40
    )


def _play_parallel(e: TautParallelEnv, seed: int, picks: int) -> list[tuple[dict[str, Any], ...]]:
    """One whole episode with actions drawn from the masks by a seeded generator."""
    rng = np.random.default_rng(picks)
    obs, infos = e.reset(seed=seed)
    trace: list[tuple[dict[str, Any], ...]] = [(obs, infos)]
    while e.agents:
        actions = {}
        for a in e.agents:
            legal = np.flatnonzero(obs[a]["action_mask"])
            actions[a] = int(rng.choice(legal)) if legal.size else 0
        obs, rewards, terms, truncs, infos = e.step(actions)
        trace.append((actions, obs, rewards, terms, truncs, infos))
    return trace


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, dict):
        return isinstance(y, dict) and x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, tuple | list):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and x.dtype == y.dtype and np.array_equal(x, y)
    return bool(x == y)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_whole_episodes_repeat_from_their_seed(game: str, options: dict[str, Any]) -> None:
    one = _play_parallel(parallel_env(game, **options), seed=7, picks=1)
    two = _play_parallel(parallel_env(game, **options), seed=7, picks=1)
    assert _same(one, two)
    final_rewards = one[-1][2]
    assert any(one[-1][3].values()), "the episode ends by the game's rules"
    g = taut.make(game, **options)
    assert set(final_rewards) == set(g.info.seats)
    if g.info.zero_sum:
        assert abs(sum(final_rewards.values())) < 1e-9
    # A reused environment replays the same episode from the same seed.
    e = parallel_env(game, **options)
    _play_parallel(e, seed=3, picks=5)
    assert _same(_play_parallel(e, seed=7, picks=1), one)


def test_chance_depends_on_the_seed() -> None:
    seen = set()
    for seed in range(6):
        e = parallel_env("tug-of-war", players=2)
        obs, _ = e.reset(seed=seed)
        seen.add(obs["P0"]["observation"].tobytes())
    assert len(seen) > 1


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_aec_and_parallel_play_the_same_game(game: str, options: dict[str, Any]) -> None:
    par = parallel_env(game, **options)
    aec = env(game, **options)
    rng = random.Random(5)
    obs, _ = par.reset(seed=11)
    aec.reset(seed=11)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    while par.agents:
        state = par.game_state
        assert state.to_json() == aec.game_state.to_json()
        acting = [par.possible_agents[s] for s in state.acting_seats()]
        actions = {a: rng.choice(list(np.flatnonzero(obs[a]["action_mask"]))) for a in acting}
        # The AEC environment asks exactly the acting seats, in seat order.
        for a in acting:
            assert aec.agent_selection == a
            o, _, term, trunc, _ = aec.last()
            assert not (term or trunc)
            assert np.array_equal(o["action_mask"], obs[a]["action_mask"])
            assert np.array_equal(o["observation"], obs[a]["observation"])
            aec.step(int(actions[a]))
            for name, r in aec.rewards.items():
                totals[name] += r
        obs, rewards, *_ = par.step(actions)
    assert totals == pytest.approx(rewards)
    while aec.agents:
        assert aec.terminations[aec.agent_selection] or aec.truncations[aec.agent_selection]
        aec.step(None)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_masks_and_observations_follow_the_state(game: str, options: dict[str, Any]) -> None:
    e = parallel_env(game, **options)
    g = e.game
    obs, _ = e.reset(seed=2)
    rng = random.Random(2)
    space = e.observation_space(e.possible_agents[0])
    while e.agents:
        state = e.game_state
        assert state.kind in (NodeKind.DECISION, NodeKind.SIMULTANEOUS), "chance is resolved"
        for seat, a in enumerate(e.possible_agents):
            mask = obs[a]["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (g.info.num_distinct_actions,)
            assert list(np.flatnonzero(mask)) == list(state.legal_actions(seat))
            assert np.array_equal(obs[a]["observation"], observe(g, state, seat))
            assert np.array_equal(mask, action_mask(g, state, seat))
            assert space.contains(obs[a])
        acting = state.acting_seats()
        # Non-acting agents' entries are ignored, whatever they hold.
        actions: dict[str, Any] = {a: 10**9 for a in e.possible_agents}
        for s in acting:
            actions[e.possible_agents[s]] = rng.choice(state.legal_actions(s))
        obs, *_ = e.step(actions)
    for a in e.possible_agents:
        assert not obs[a]["action_mask"].any(), "nobody acts once the game is over"
        assert obs[a]["observation"][observation_fields(g)[2].offset] == 1.0  # "over"


def test_sequential_games_mask_only_the_acting_seat() -> None:
    e = parallel_env("tracks", size=4)
    obs, _ = e.reset(seed=0)
    masks = {a: int(obs[a]["action_mask"].sum()) for a in e.agents}
    assert masks == {"NS": 16, "WE": 0}
    obs, *_ = e.step({"NS": 5})
    assert int(obs["NS"]["action_mask"].sum()) == 0
    assert int(obs["WE"]["action_mask"].sum()) == 15
    assert obs["WE"]["action_mask"][5] == 0


def test_simultaneous_aec_hides_the_first_choice() -> None:
    aec = env("pulling-strings")
    aec.reset(seed=0)
    before = aec.observe("O")["observation"].copy()
    assert aec.agent_selection == "X"
    assert not aec.observe("O")["action_mask"].any(), "only the selected agent may act"
    aec.step(2)
    assert aec.agent_selection == "O"
    assert aec.game_state.turn == 0, "nothing is applied until O has chosen"
    assert np.array_equal(aec.observe("O")["observation"], before)
    assert not aec.observe("X")["action_mask"].any()
    aec.step(7)
    assert aec.game_state.turn == 1 and aec.agent_selection == "X"


@pytest.mark.parametrize("maker", [parallel_env, env])
def test_illegal_action_raises_naming_it(maker: Any) -> None:
    e = maker("tracks", size=3)
    e.reset(seed=0)
    if isinstance(e, TautParallelEnv):
        e.step({"NS": 4})
        with pytest.raises(ValueError, match=r"action 4 is not legal for WE.*b2.*legal: 0 \(a1\)"):
            e.step({"WE": 4})
        with pytest.raises(ValueError, match=r"outside the action ids 0\.\.8"):
            e.step({"WE": 9})
        with pytest.raises(ValueError, match="no action for WE"):
            e.step({"NS": 0})
        with pytest.raises(ValueError, match="unknown agent"):
            e.step({"WE": 0, "XX": 1})
        e.step({"WE": 0})  # the environment is unchanged by the refused actions
        assert e.game_state.placed() == 2
    else:
        e.step(4)
        with pytest.raises(ValueError, match=r"action 4 is not legal for WE"):
            e.step(4)
        with pytest.raises(ValueError, match="must be an integer id"):
            e.step("a1")
        e.step(np.int64(0))
        assert e.game_state.placed() == 2


def test_illegal_action_can_lose_instead() -> None:
    e = parallel_env("pulling-strings", illegal="lose")
    e.reset(seed=0)
    e.step({"X": 3, "O": 3})  # both pull end 3: it breaks
    obs, rewards, terms, truncs, infos = e.step({"X": 3, "O": 4})
    assert not obs["X"]["action_mask"].any()
    assert rewards == {"X": -1.0, "O": 0.0}
    assert all(terms.values()) and not any(truncs.values())
    assert infos["X"] == {"illegal_action": 3} and infos["O"] == {}
    assert e.agents == []
    with pytest.raises(ValueError, match="episode is over"):
        e.step({"X": 0, "O": 0})
    aec = env("tug-of-war", players=2, illegal="lose")
    aec.reset(seed=0)
    loser = aec.agent_selection
    aec.step(aec.game.info.num_distinct_actions - 1)  # "keep" is never legal at a turn
    assert aec.rewards[loser] == -1.0 and all(aec.terminations.values())


def test_max_steps_truncates() -> None:
    e = parallel_env("pulling-strings", max_steps=2)
    e.reset(seed=0)
    e.step({"X": 0, "O": 1})
    _, rewards, terms, truncs, _ = e.step({"X": 0, "O": 1})
    assert all(truncs.values()) and not any(terms.values())
    assert set(rewards.values()) == {0.0}
    aec = env("pulling-strings", max_steps=1)
    aec.reset(seed=0)
    aec.step(0)
    aec.step(1)
    assert all(aec.truncations.values()) and not any(aec.terminations.values())


def test_options_and_errors() -> None:
    game = taut.make("push-pull", variant="two-teams")
    e = parallel_env(game)
    assert e.possible_agents == ["NE", "SW"]
    assert e.action_space("NE").n == 729
    assert e.observation_space("NE")["observation"].shape == observation_shape(game)
    assert parallel_env("push-pull", variant="four").possible_agents == ["N", "E", "S", "W"]
    assert env("tug-of-war", players=5).possible_agents == [f"P{i}" for i in range(5)]
    with pytest.raises(ValueError, match="illegal must be one of raise, lose"):
        parallel_env("tracks", illegal="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        env("tracks", render_mode="rgb_array")
    with pytest.raises(ValueError, match="tracks has no option 'colour'"):
        parallel_env("tracks", colour="red")
    with pytest.raises(ValueError, match="reset"):
        parallel_env("tracks").step({"NS": 0})
    text = parallel_env("tracks", size=3, render_mode="ansi")
    text.reset(seed=0)
    rendered = text.render()
    assert isinstance(rendered, str) and "NS" in rendered


def _midgame(players: int, seed: int, decisions: int) -> Any:
    game = taut.make("tug-of-war", players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen = 0
    while seen < decisions and not state.is_terminal():
        if state.kind is NodeKind.DECISION:
            seen += 1
        state = state.apply(state.random_joint(rng))
    return game, state


@pytest.mark.parametrize(("players", "seed", "decisions"), [(2, 1, 3), (3, 2, 8), (4, 3, 20)])
def test_observations_never_depend_on_hidden_tiles(players: int, seed: int, decisions: int) -> None:
    game, state = _midgame(players, seed, decisions)
    rng = random.Random(seed)
    for seat in range(players):
        view = state.view(seat)
        mine = observe(game, state, seat)
        others = [game.determinize(view, seat, rng) for _ in range(4)]
        # The sampled states really differ from the truth in what this seat cannot see ...
        assert any(
            o.hands[s] != state.hands[s] or o.stock != state.stock
            for o in others
            for s in range(players)
            if s != seat
        )
        # ... yet this seat's observation is the same in all of them.
        for other in others:
            assert other.hands[seat] == state.hands[seat]
            assert np.array_equal(observe(game, other, seat), mine)
    # The encoding does see the seat's own hand: changing it changes the observation.
    seat = state.acting_seats()[0] if state.kind is NodeKind.DECISION else 0
    hand = state.hands[seat]
    assert hand
    swapped = state._with(
        hands=tuple(frozenset() if s == seat else h for s, h in enumerate(state.hands))
    )
    assert not np.array_equal(observe(game, swapped, seat), observe(game, state, seat))


def test_environment_observations_come_from_the_view() -> None:
    e = parallel_env("tug-of-war", players=3)
    obs, _ = e.reset(seed=4)
    state = e.game_state
    g = e.game
    hand_field = next(f for f in observation_fields(g) if f.name == "hand")
    for seat, a in enumerate(e.possible_agents):
        hand = obs[a]["observation"][hand_field.offset : hand_field.stop]
        assert set(np.flatnonzero(hand)) == set(state.hands[seat])


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_encoding_fields_tile_the_vector_and_hold_their_bounds(
    game: str, options: dict[str, Any]
) -> None:
    g = taut.make(game, **options)
    fields = observation_fields(g)
    assert [f.name for f in fields[:3]] == ["seat", "acting", "over"]
    assert fields[0].offset == 0
    for a, b in itertools.pairwise(fields):
        assert a.stop == b.offset and a.size > 0 and a.low <= a.high
    assert fields[-1].stop == observation_shape(g)[0]
    rng = random.Random(0)
    state = g.new_initial_state()
    for _ in range(400):
        for seat in range(g.info.num_seats):
            vec = observe(g, state, seat)
            assert vec.dtype == np.float32 and vec.shape == observation_shape(g)
            for f in fields:
                part = vec[f.offset : f.stop]
                assert ((part >= f.low) & (part <= f.high)).all(), (f.name, part)
            assert vec[seat] == 1.0 and vec[: g.info.num_seats].sum() == 1.0
        if state.is_terminal():
            break
        state = state.apply(state.random_joint(rng))


def test_encoding_of_start_positions() -> None:
    ps = taut.make("pulling-strings")
    vec = observe(ps, ps.new_initial_state(), 1)
    lay = {f.name: f for f in observation_fields(ps)}
    assert list(vec[:5]) == [0, 1, 1, 1, 0]  # seat O; X and O both act; not over
    stacks = vec[lay["stacks"].offset : lay["stacks"].stop]
    assert stacks[12] == 5 and stacks.sum() == 5

    pp = taut.make("push-pull", variant="duel")
    vec = observe(pp, pp.new_initial_state(), 0)
    lay = {f.name: f for f in observation_fields(pp)}
    pieces = vec[lay["pieces"].offset : lay["pieces"].stop].reshape(3, 13)
    assert pieces.argmax(axis=1).tolist() == [2, 2, 2] and pieces.sum() == 3

    tr = taut.make("tracks", size=3)
    state = tr.new_initial_state().apply(0).apply(1)  # NS rolls 1 (kind 2), WE rolls 2
    lay = {f.name: f for f in observation_fields(tr)}
    vec = observe(tr, state, 1)
    board = vec[lay["board"].offset : lay["board"].stop].reshape(9, 4)
    assert (board[:, 0] == 1).all()
    kinds = vec[lay["kinds"].offset : lay["kinds"].stop].reshape(2, 4)
    assert kinds.argmax(axis=1).tolist() == list(state.kinds)
    assert vec[lay["acting"].offset] == 1.0  # NS places first


def test_a_game_registered_later_is_an_environment() -> None:
    found = register_plugin(SitOutPlugin())
    try:
        e = parallel_env("sit-out", render_mode="ansi")
        assert e.possible_agents == ["A", "B"]  # the game's seat names
        obs, _ = e.reset(seed=0)
        assert obs["B"]["observation"].tolist() == [0, 1, 1, 1, 0, -1, -1, -1]
        obs, *_ = e.step({"A": 1, "B": 1})
        assert obs["B"]["action_mask"].tolist() == [0, 0], "B sits out"
        assert e.render() == "moves: bb"
        pettingzoo_test.parallel_api_test(parallel_env("sit-out"), num_cycles=10)
        pettingzoo_test.api_test(env("sit-out"), num_cycles=10)
    finally:
        unregister_plugin(found.name)
