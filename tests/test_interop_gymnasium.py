"""The Gymnasium adapter: env_checker on every game, whole episodes against fixed agents,
illegal actions, seeding, the registered ids and a game registered later."""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import taut  # noqa: E402
from taut.agents import RandomAgent  # noqa: E402
from taut.core.registry import register_plugin, unregister_plugin  # noqa: E402
from taut.interop.encoding import observe  # noqa: E402
from taut.interop.gymnasium import TautEnv, env_ids, make, register  # noqa: E402
from tests.test_interop_encoding import SitOutPlugin  # noqa: E402

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("pulling-strings", {}),
    ("pulling-strings", {"edition": "published", "seed": 5, "max_turns": 40}),
    ("push-pull", {"variant": "duel"}),
    ("push-pull", {"variant": "four"}),
    ("push-pull", {"variant": "four-teams"}),
    ("push-pull", {"variant": "two-teams", "shifts": True, "max_turns": 20}),
    ("tug-of-war", {"players": 2, "end": "rounds", "rounds": 1}),
    ("tug-of-war", {"players": 3, "end": "rounds", "rounds": 1}),
    ("tug-of-war", {"players": 4, "end": "rounds", "rounds": 1}),
    ("tracks", {"size": 3}),
    ("tracks", {"size": 5, "first": "random", "roll": "each"}),
]
IDS = [f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}" for g, o in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    # env_checker warns about unbounded counts and the missing spec by design.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_env_checker_passes(game: str, options: dict[str, Any]) -> None:
    # check_env steps with actions drawn without the mask: an illegal one ends the episode.
    check_env(make(game, illegal="lose", **options), skip_render_check=True)
    check_env(make(game, seat=1, illegal="lose", render_mode="ansi", **options))


def test_every_game_has_its_id() -> None:
    assert {
        "taut/PullingStrings-v0": "pulling-strings",
        "taut/PushPull-v0": "push-pull",
        "taut/TugOfWar-v0": "tug-of-war",
        "taut/Tracks-v0": "tracks",
    }.items() <= env_ids().items()
    assert set(env_ids().values()) >= set(taut.games())
    assert all(env_id in gymnasium.registry for env_id in env_ids())


@pytest.mark.parametrize("env_id", sorted(env_ids()))
def test_registered_ids(env_id: str) -> None:
    e = gymnasium.make(env_id, illegal="lose")
    assert isinstance(e.unwrapped, TautEnv)
    assert e.unwrapped.game.info.name == env_ids()[env_id]
    check_env(e.unwrapped, skip_render_check=True)
    obs, _ = e.reset(seed=0)
    assert obs["action_mask"].any()


def _episode(e: TautEnv, seed: int, picks: int) -> list[Any]:
    rng = np.random.default_rng(picks)
    obs, info = e.reset(seed=seed)
    trace: list[Any] = [obs, info]
    done = False
    while not done:
        assert e.observation_space.contains(obs)
        assert np.array_equal(obs["action_mask"], e.action_masks())
        assert list(np.flatnonzero(obs["action_mask"])) == e.legal_actions()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, terminated, truncated, info = e.step(action)
        done = terminated or truncated
        trace += [action, obs, reward, terminated, truncated, info]
    return trace


def _same(x: Any, y: Any) -> bool:
    if isinstance(x, dict):
        return isinstance(y, dict) and x.keys() == y.keys() and all(_same(x[k], y[k]) for k in x)
    if isinstance(x, list | tuple):
        return len(x) == len(y) and all(_same(a, b) for a, b in zip(x, y, strict=True))
    if isinstance(x, np.ndarray):
        return isinstance(y, np.ndarray) and np.array_equal(x, y) and x.dtype == y.dtype
    return bool(x == y)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_full_episode_against_random(game: str, options: dict[str, Any]) -> None:
    e = make(game, **options)
    trace = _episode(e, seed=1, picks=1)
    reward, terminated = trace[-4], trace[-3]
    assert terminated and e.state.is_terminal()
    assert reward == e.state.returns()[0]
    assert trace[-1]["outcome"] == e.state.describe_outcome()
    assert all(r == 0.0 for r in trace[4:-4:6]), "no reward before the end"
    assert not trace[-5]["action_mask"].any()
    assert np.array_equal(trace[-5]["observation"], observe(e.game, e.state, 0))
    with pytest.raises(ValueError, match="episode is over"):
        e.step(0)


@pytest.mark.parametrize(("game", "options"), CONFIGS, ids=IDS)
def test_same_seed_same_episode(game: str, options: dict[str, Any]) -> None:
    one = _episode(make(game, seat=1, **options), seed=9, picks=3)
    two = _episode(make(game, seat=1, **options), seed=9, picks=3)
    assert _same(one, two)
    e = make(game, seat=1, **options)
    _episode(e, seed=4, picks=4)
    assert _same(_episode(e, seed=9, picks=3), one), "a reused env replays from the seed"


def test_different_seeds_give_different_games() -> None:
    starts = set()
    for seed in range(5):
        obs, _ = make("tug-of-war", players=3).reset(seed=seed)
        starts.add(obs["observation"].tobytes())
    assert len(starts) > 1
    finals = {_episode(make("push-pull"), seed=seed, picks=0)[-1]["outcome"] for seed in range(8)}
    assert len(finals) > 1, "random opponents follow the seed"


def test_illegal_action_raises_naming_it() -> None:
    e = make("pulling-strings")
    e.reset(seed=0)
    e.step(3)
    while 3 in e.legal_actions():  # pull end d until it breaks (the opponent pulls it too)
        e.reset(seed=int(e.np_random.integers(1000)))
        e.step(3)
    with pytest.raises(
        ValueError, match=r"action 3 is not legal for X now: end d is broken.*legal: 0 \(a\)"
    ):
        e.step(3)
    with pytest.raises(ValueError, match=r"action 20 for X is outside the action ids 0\.\.19"):
        e.step(20)
    with pytest.raises(ValueError, match="must be an integer id"):
        e.step(1.5)
    turn = e.state.turn
    e.step(np.int64(e.legal_actions()[0]))  # refused actions left the game as it was
    assert e.state.turn == turn + 1 or e.state.is_terminal()


def test_illegal_action_can_lose_instead() -> None:
    e = make("tracks", size=3, illegal="lose")
    obs, _ = e.reset(seed=0)
    cell = e.legal_actions()[0]
    e.step(cell)
    obs, reward, terminated, truncated, info = e.step(cell)  # the cell is taken now
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info == {"illegal_action": cell}
    assert not obs["action_mask"].any()


def test_opponents_seats_and_truncation() -> None:
    e = make("push-pull", seat="E", opponents="greedy", variant="duel")
    assert e.seat == 1 and type(e.opponents[0]).__name__ == "GreedyAgent"
    _episode(e, seed=0, picks=0)
    e = make(
        "tug-of-war",
        seat="P2",
        opponents=["greedy", RandomAgent()],
        players=3,
        end="rounds",
        rounds=1,
    )
    assert set(e.opponents) == {0, 1} and isinstance(e.opponents[1], RandomAgent)
    trace = _episode(e, seed=2, picks=2)
    assert trace[-3] is True
    with pytest.raises(ValueError, match="2 opponent"):
        make("push-pull", opponents=["random", "random"])
    with pytest.raises(ValueError, match="no seat 'Q'; seats are W, E"):
        make("push-pull", seat="Q")
    with pytest.raises(ValueError, match="unknown agent"):
        make("tracks", opponents="nobody")
    e = make("pulling-strings", max_steps=2)
    e.reset(seed=0)
    e.step(0)
    _, reward, terminated, truncated, _ = e.step(1)
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_learner_sees_only_its_view() -> None:
    e = make("tug-of-war", seat=1, players=3)
    obs, _ = e.reset(seed=6)
    rng = random.Random(0)
    view = e.state.view(1)
    for _ in range(3):
        other = e.game.determinize(view, 1, rng)
        assert np.array_equal(observe(e.game, other, 1), obs["observation"])
    text = e.render()
    assert text is None  # no render mode
    shown = make("tug-of-war", seat=1, players=3, render_mode="ansi")
    shown.reset(seed=6)
    picture = shown.render()
    assert isinstance(picture, str) and picture == str(shown.state.view(1))


def test_game_object_and_options() -> None:
    game = taut.make("tracks", size=4)
    e = make(game)
    assert e.action_space.n == 16
    assert e.observation_space["observation"].shape == (4 * 16 + 8 + 2 + 16 + 1 + 5,)
    with pytest.raises(ValueError, match="game options"):
        make(game, size=5)
    with pytest.raises(ValueError, match="reset"):
        make("tracks").step(0)


def test_a_game_registered_later() -> None:
    found = register_plugin(SitOutPlugin())
    try:
        assert register("sit-out") == "taut/SitOut-v0" == found.env_id
        assert env_ids()["taut/SitOut-v0"] == "sit-out"
        e = gymnasium.make("taut/SitOut-v0", seat=1, render_mode="ansi").unwrapped
        assert isinstance(e, TautEnv)
        obs, _ = e.reset(seed=0)
        assert obs["observation"].tolist() == [0, 1, 1, 1, 0, -1, -1, -1]  # its own observer
        assert e.render() == "moves: none"
        check_env(e, skip_render_check=True)
    finally:
        unregister_plugin(found.name)
