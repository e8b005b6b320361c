"""A new game costs one folder: Rope (tests/toygame/) gets every shared layer from its plugin.

Nothing outside ``tests/toygame/`` knows Rope. Registered at run time (and, in the last test,
through the ``taut.games`` entry point group of an installed distribution), it gets the
command line (play, resume, replay, selfplay, arena, bench), the levels, the conformance
checks and the PettingZoo, Gymnasium and OpenSpiel adapters.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import taut
from taut.agents import make_agent
from taut.arena.match import play_match
from taut.cli import cli
from taut.core.registry import register_plugin, unregister_plugin
from tests.conformance import check_conformance
from tests.toygame.plugin import plugin as rope_plugin

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def rope() -> Iterator[None]:
    register_plugin(rope_plugin)
    yield
    unregister_plugin("rope")


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), input=input)
    return result.exit_code, result.output


def test_registered_games_include_the_toy() -> None:
    assert "rope" in taut.games()
    assert taut.plugin("rope") is rope_plugin
    code, out = run("games")
    assert code == 0 and "Rope (rope)" in out and "goal" in out


def test_conformance() -> None:
    check_conformance(taut.make("rope", max_turns=30), games=10)


def test_print_shows_the_plugin_picture() -> None:
    assert str(taut.make("rope").new_initial_state()) == "L |--o--| R   turn 0"


@pytest.mark.parametrize("level", ["easy", "medium", "hard:think=0.05"])
def test_levels_play_it(level: str) -> None:
    game = taut.make("rope", max_turns=20)
    agents = [make_agent(level, game=game), make_agent("random", game=game)]
    result = play_match(game, agents, seed=3)
    assert result.state.is_terminal()


def test_play_record_replay_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    code, out = run(
        "play", "rope", "--l", "greedy", "--r", "random", "--seed", "4", "--record", str(path)
    )
    assert code == 0, out
    assert "L |" in out and f"Record written to {path}" in out
    record = json.loads(path.read_text())
    assert record["format"] == 1 and record["game"] == "rope" and record["result"] is not None
    code, out = run("replay", "rope", str(path))
    assert code == 0 and "1 record(s) checked: all replay exactly." in out
    # A human stops after one pull; the game resumes from the record.
    part = tmp_path / "part.json"
    code, out = run(
        "play", "rope", "--r", "random", "--seed", "1", "--record", str(part), input="3\nquit\n"
    )
    assert code == 0 and f"The record so far is in {part}." in out
    assert json.loads(part.read_text())["result"] is None
    code, out = run("play", "rope", "--resume", str(part), "--l", "greedy")
    assert code == 0, out
    assert "Resuming the game" in out and json.loads(part.read_text())["result"] is not None
    code, out = run("replay", "rope", str(part), "--at", "0", "--json")
    assert code == 0 and json.loads(out.splitlines()[0]) == {"marker": 0, "turn": 0, "coin": False}


def test_replay_turns_and_options() -> None:
    code, out = run("replay", "rope", "--goal", "1", "--turns", "3/1", "--json")
    assert code == 0, out
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[-1]["marker"] == -1
    code, out = run("replay", "rope", "--goal", "9", "--turns", "1/1")
    assert code == 2 and "goal" in out


def test_selfplay_arena_and_bench(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    code, out = run(
        "selfplay", "rope", "--agents", "greedy,random", "--games", "4", "--record", str(games)
    )
    assert code == 0, out
    assert len(games.read_text().splitlines()) == 4
    code, out = run("replay", "rope", str(games))
    assert code == 0 and "4 record(s) checked" in out
    arena = tmp_path / "arena.jsonl"
    code, out = run(
        "arena",
        "rope",
        "--agents",
        "random,medium",
        "--games",
        "4",
        "--workers",
        "1",
        "--json",
        "--record",
        str(arena),
    )
    assert code == 0, out
    assert json.loads(out)["games"] == 4 and len(arena.read_text().splitlines()) == 4
    code, out = run("bench", "rope", "--seconds", "0.1", "--json")
    assert code == 0 and json.loads(out)["games"] > 0


def test_adapters() -> None:
    pytest.importorskip("pettingzoo")
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import parallel_api_test

    from taut.interop import gymnasium as tg
    from taut.interop import openspiel as tos
    from taut.interop.pettingzoo import parallel_env

    parallel_api_test(parallel_env("rope", max_turns=20), num_cycles=50)
    check_env(tg.make("rope", illegal="lose", max_turns=20).unwrapped, skip_render_check=True)
    import pyspiel

    tos.register("rope")
    game = pyspiel.load_game("taut_rope")
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_actions([state.legal_actions(p)[0] for p in range(2)])
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_an_installed_distribution_adds_the_game(tmp_path: Path) -> None:
    """The entry point group alone: a distribution's metadata names the plugin."""
    dist = tmp_path / "rope_game-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: rope-game\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[taut.games]\nrope = tests.toygame.plugin:plugin\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    main = "from taut.cli import main; main()"
    listed = subprocess.run(
        [sys.executable, "-c", main, "games"], env=env, capture_output=True, text=True
    )
    assert listed.returncode == 0 and "Rope (rope)" in listed.stdout
    played = subprocess.run(
        [sys.executable, "-c", main, "play", "rope", "--l", "random", "--r", "random"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert played.returncode == 0 and ("L won" in played.stdout or "R won" in played.stdout)
