"""``taut play push-pull`` through the command line, and the plugin's ``solve push-pull``
command invoked directly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from taut.cli import cli as app
from taut.core.record import GameRecord
from taut.games.push_pull.commands import solve_command

runner = CliRunner()


def test_solve_json_shape() -> None:
    result = runner.invoke(solve_command, ["--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) == {"values", "strategies"}
    assert len(data["values"]) == 305
    assert abs(data["values"]["2,2,2"]) < 1e-12
    mix = data["strategies"]["W,3,3"]["W"]
    assert abs(sum(mix.values()) - 1) < 1e-12
    assert all(
        set(a.split(",")) <= {f"{p}={c}" for p in "MS" for c in ("pull", "push", "pass")}
        for a in mix
    )


def test_solve_report() -> None:
    result = runner.invoke(solve_command, [])
    assert result.exit_code == 0, result.output
    assert "Value of the start 2,2,2 for West: +0.000000" in result.output
    assert "Least intuitive" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--variant", "duel", "--seat", "W=perfect", "--seat", "E=greedy"],
        [
            "--variant",
            "four",
            "--seat",
            "N=random",
            "--seat",
            "E=random",
            "--seat",
            "S=greedy",
            "--seat",
            "W=random",
        ],
        [
            "--variant",
            "four-teams",
            "--shifts",
            "on",
            "--seat",
            "N=random",
            "--seat",
            "E=random",
            "--seat",
            "S=random",
            "--seat",
            "W=greedy",
            "--teams",
            "NW-SE",
        ],
        ["--variant", "two-teams", "--shifts", "on", "--seat", "NE=greedy", "--seat", "SW=random"],
    ],
)
def test_agents_play_every_variant(args: list[str], tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["play", "push-pull", *args, "--seed", "2", "--max-turns", "6", "--record", str(record)],
    )
    assert result.exit_code == 0, result.output
    assert "Turn 1" in result.output and "Revealed:" in result.output
    final = GameRecord.load(record).replay()
    assert final.is_terminal()


def test_human_seat_by_default() -> None:
    result = runner.invoke(
        app,
        ["play", "push-pull", "--seed", "1", "--max-turns", "3"],
        input="L=pull,M=push,S=pass\nbogus\nhelp\n+-0\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Seats: W human, E greedy." in result.output
    assert "Revealed: W pulls L, pushes M, passes S;" in result.output
    assert "not a choice" in result.output or "gives 1 choices" in result.output
    assert "Pieces on the board: L, M, S" in result.output and "Game stopped." in result.output


def test_two_humans_enter_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    typed: list[str] = []

    def fake_getpass(prompt: str = "") -> str:
        typed.append(prompt)
        return input()

    monkeypatch.setattr("getpass.getpass", fake_getpass)
    result = runner.invoke(
        app,
        ["play", "push-pull", "--seat", "W=human", "--seat", "E=human", "--max-turns", "1"],
        input="\nL=pull\n\nL=pull\n",
    )
    assert result.exit_code == 0, result.output
    assert typed == ["W plays> ", "E plays> "]
    assert "W has chosen (hidden)." in result.output
    assert "W pulls, E pulls; west-east arrows cancel" in result.output


def test_compact_entry_after_a_piece_is_scored(monkeypatch: pytest.MonkeyPatch) -> None:
    """West pulls L off in three turns, then types one symbol per piece: ``+++`` is refused
    (L is gone), ``++`` pulls M and S."""
    monkeypatch.setattr("getpass.getpass", lambda prompt="": input())
    turns = "\n+00\n\n000\n" * 3 + "\n+++\n++\n\n0-\n"
    result = runner.invoke(
        app,
        ["play", "push-pull", "--seat", "W=human", "--seat", "E=human", "--max-turns", "4"],
        input=turns,
    )
    assert result.exit_code == 0, result.output
    assert "Scored: West L, East -" in result.output
    assert "Revealed: W pulls M and S; E passes M, pushes S." in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "Q=human"], "no seat 'Q'"),
        (["--seat", "W=robot"], "unknown agent 'robot'"),
        (["--seat", "W"], "SEAT=WHO"),
        (["--seat", "W=human", "--seat", "W=random"], "given twice"),
        (["--variant", "three"], "option 'variant'"),
        (["--shifts", "on"], "four-sided"),
        (["--variant", "four", "--seat", "N=perfect"], "cannot play Push-Pull"),
        (["--shifts", "maybe", "--variant", "four"], "option 'shifts'"),
    ],
)
def test_bad_input_exits_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "push-pull", *args])
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "duel"},
        {"variant": "four", "shifts": True},
        {"variant": "four-teams"},
        {"variant": "two-teams", "shifts": True},
    ],
)
def test_greedy_evaluations_stay_bounded(options: dict[str, object]) -> None:
    import random

    import taut
    from taut.agents.greedy import MAX_CELLS, SAMPLED_PROFILES, GreedyAgent

    game = taut.make("push-pull", **options)
    state = game.new_initial_state()
    calls = 0

    def counting(s: object) -> tuple[float, ...]:
        nonlocal calls
        calls += 1
        return game.heuristic(s)  # type: ignore[arg-type]

    action = GreedyAgent(evaluator=counting).act(state, 0, random.Random(1))
    assert state.is_legal(0, action)
    mine = len(state.legal_actions(0))
    # Two seats: at most a capped matrix; more seats: each move against sampled profiles.
    assert calls <= max(MAX_CELLS, mine * SAMPLED_PROFILES)


def test_random_reply_refuses_non_finite_weights() -> None:
    for weight in ("nan", "inf", "-1"):
        r = runner.invoke(app, ["analyse", "random-reply", "push-pull", "--loss-weight", weight])
        assert r.exit_code == 2, (weight, r.output)
        assert "--loss-weight" in r.output
