"""``taut analyse balance``: the statistics by hand, real runs of every game, sweeps, resumed
runs, the HTML report and the refusal of bad input."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from click.testing import CliRunner

import taut
from taut.arena.backends import LocalBackend
from taut.arena.balance import (
    BalanceSettings,
    BalanceTask,
    ResultsFile,
    Variant,
    play_balance_task,
    run_balance,
    seating,
)
from taut.arena.balance_report import table
from taut.arena.balance_stats import (
    lead_changes,
    leader,
    mean_interval,
    quantile,
    rate,
    settled_at,
    summarise,
    trailed,
)
from taut.cli import cli
from taut.core.plugin import GamePlugin

T = TypeVar("T")
R = TypeVar("R")


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["analyse", "balance", *args])
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> dict[str, Any]:
    code, out, err = run(*args, "--workers", "1", "--json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


# -- statistics, against numbers worked out by hand ------------------------------------------


def test_wilson_rate_by_hand() -> None:
    # 3 of 10, z = 1.96: centre (0.3 + 0.192) / 1.384 = 0.3555, half
    # 1.96 * sqrt(0.021 + 0.0096) / 1.384 = 0.2477 -> 0.1078 .. 0.6032.
    est = rate(3, 10)
    assert est is not None
    assert est.value == pytest.approx(0.3)
    assert est.low == pytest.approx(0.1078, abs=1e-4)
    assert est.high == pytest.approx(0.6032, abs=1e-4)
    assert rate(0, 0) is None
    zero = rate(0, 20)
    assert zero is not None and zero.low == 0.0 and zero.high == pytest.approx(0.1611, abs=1e-4)


def test_mean_interval_by_hand() -> None:
    # 1..5: mean 3, s = sqrt(2.5), s/sqrt(5) = 0.7071, t(0.975, 4) = 2.7764 -> 3 -+ 1.9632.
    est = mean_interval([1, 2, 3, 4, 5])
    assert est is not None
    assert est.value == 3.0
    assert est.low == pytest.approx(1.0368, abs=1e-4)
    assert est.high == pytest.approx(4.9632, abs=1e-4)
    clipped = mean_interval([1, 2, 3, 4, 5], bounds=(2.0, 4.5))
    assert clipped is not None and (clipped.low, clipped.high) == (2.0, 4.5)
    one = mean_interval([7.0])
    assert one is not None and (one.value, one.low, one.high) == (7.0, None, None)
    assert mean_interval([]) is None
    flat = mean_interval([2.0, 2.0, 2.0])
    assert flat is not None and flat.low == flat.high == 2.0


def test_quantiles_by_hand() -> None:
    values = [4, 1, 3, 2]  # sorted 1 2 3 4: position q * 3
    assert quantile(values, 0.0) == 1
    assert quantile(values, 0.25) == pytest.approx(1.75)
    assert quantile(values, 0.5) == pytest.approx(2.5)
    assert quantile(values, 0.9) == pytest.approx(3.7)
    assert quantile(values, 1.0) == 4
    assert quantile([5], 0.3) == 5
    with pytest.raises(ValueError, match="between 0 and 1"):
        quantile(values, 1.5)
    with pytest.raises(ValueError, match="no values"):
        quantile([], 0.5)


def test_leader() -> None:
    solo = [(0,), (1,)]
    assert leader([0.2, 0.5], solo) == 1
    assert leader([0.5, 0.5], solo) is None
    assert leader([0.5, 0.5 + 1e-12], solo) is None  # within the tolerance: a tie
    # Teams are led by their best seat.
    assert leader([1.0, 3.0, 2.0, 0.0], [(0, 1), (2, 3)]) == 0
    assert leader([1.0, 2.0, 3.0], [(0,), (1,), (2,)]) == 2


def test_lead_changes_settled_and_comebacks_by_hand() -> None:
    leaders = [None, 0, None, 0, 1, 1, None, 1, 1]
    assert lead_changes(leaders) == 1  # 0 ... 0 -> 1 (ties skipped)
    assert lead_changes([0, 1, 0, 1]) == 3
    assert lead_changes([None, None]) == 0
    assert settled_at(leaders, 1) == 7  # position 6 is a tie
    assert settled_at(leaders, 0) is None  # the winner does not lead at the end
    assert settled_at([1, 1, 1], 1) == 0
    assert settled_at([0, 0, 1], 1) == 2
    assert settled_at(leaders, None) is None
    assert trailed(leaders, 1) and not trailed([None, 1, 1], 1) and not trailed(leaders, None)


def _game(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "seats": [0, 1],
        "winners": [0],
        "reason": "win",
        "turns": 10,
        "first": 0,
        "returns": [1.0, -1.0],
        "changes": 0,
        "settled": 0,
        "trailed": False,
    }
    base.update(fields)
    return base


def test_summarise_hand_made_games() -> None:
    games = [
        _game(turns=10, settled=5, changes=1, trailed=True),
        _game(seats=[1, 0], winners=[1], turns=20, first=0, returns=[-1.0, 1.0], settled=0),
        _game(winners=[], reason="max_turns", turns=30, returns=[0.0, 0.0], settled=None),
        _game(seats=[1, 0], turns=40, first=1, settled=10, changes=2),
    ]
    out = summarise(games, ["A", "B"], ["x", "y"], start_value=[0.25, -0.25], utility=(-1, 1))
    a, b = out["seats"]
    assert (a["wins"], a["draws"], a["losses"]) == (2, 1, 1)
    assert (b["wins"], b["draws"], b["losses"]) == (1, 1, 2)
    assert a["win_rate"]["value"] == 0.5 and a["exact_value"] == 0.25
    assert a["mean_result"]["value"] == 0.25  # (1 - 1 + 0 + 1) / 4
    first = out["first_mover"]
    # First movers: seat 0 won, seat 0 lost, a draw, seat 1 lost.
    assert (first["games"], first["wins"], first["draws"], first["losses"]) == (4, 1, 1, 2)
    assert out["draws"] == {
        "count": 1,
        "reasons": {"max_turns": 1},
        "rate": rate(1, 4).to_json(),  # type: ignore[union-attr]
    }
    length = out["length"]
    assert length["mean"]["value"] == 25.0 and length["median"] == 25.0
    assert (length["min"], length["q25"], length["max"]) == (10.0, 17.5, 40.0)
    lead = out["lead"]
    # Settled at 5/10, 0/20 and 10/40 of the decisive games.
    assert lead["settled_share"]["value"] == pytest.approx((0.5 + 0.0 + 0.25) / 3)
    assert lead["settled_median"] == 0.25
    assert lead["changes"]["value"] == 0.75
    assert lead["comebacks"] == 1 and lead["decisive_games"] == 3
    # Agent x won games 1 (seat A) and 2 (seat B), drew game 3 and lost game 4 (seat B).
    x, y = out["agents"]
    assert (x["wins"], x["draws"], x["losses"]) == (2, 1, 1)
    assert (y["wins"], y["draws"], y["losses"]) == (1, 1, 2)
    assert x["score"]["value"] == pytest.approx(2.5 / 4)


def test_summarise_without_a_first_mover_or_decisive_game() -> None:
    games = [_game(winners=[], first=None, returns=[0.0, 0.0], settled=None)] * 3
    out = summarise(games, ["A", "B"], ["x"])
    assert out["first_mover"] is None and out["agents"] == []
    assert out["lead"]["settled_share"] is None and out["lead"]["comeback_rate"] is None
    assert "exact_value" not in out["seats"][0]


def test_seating_rotates_agents_through_seats() -> None:
    two = [(0,), (1,)]
    assert [seating(two, 2, g) for g in range(3)] == [(0, 1), (1, 0), (0, 1)]
    assert seating(two, 1, 5) == (0, 0)
    three = [(0,), (1,), (2,)]
    # Over three games each of three agents sits in each seat once.
    rows = [seating(three, 3, g) for g in range(3)]
    assert all(sorted(col) == [0, 1, 2] for col in zip(*rows, strict=True))
    # A team's seats share an agent.
    assert seating([(0, 2), (1, 3)], 2, 1) == (1, 0, 1, 0)


# -- the plugin hooks ----------------------------------------------------------------------


def test_lead_hook_defaults_to_the_evaluation_and_solved_games_give_a_start_value() -> None:
    game = taut.make("pulling-strings")
    state = game.new_initial_state()
    assert tuple(GamePlugin.lead(taut.plugin("pulling-strings"), state)) == game.heuristic(state)
    assert taut.plugin("tracks").start_value(taut.make("tracks")) is None
    duel = taut.make("push-pull")
    assert tuple(taut.plugin("push-pull").start_value(duel) or ()) == (0.0, 0.0)
    assert taut.plugin("push-pull").start_value(taut.make("push-pull", variant="four")) is None
    teams = taut.make("push-pull", variant="two-teams")
    assert tuple(taut.plugin("push-pull").start_value(teams) or ()) == (0.0, 0.0)


def test_natural_leads_ignore_whose_turn_it_is() -> None:
    # The start of Track Tiles is even (neither player needs fewer cells) although the
    # evaluation favours the side to move; Tug of War starts with every score at zero.
    tracks = taut.make("tracks").new_initial_state()
    first, second = taut.plugin("tracks").lead(tracks)
    assert first == second
    tug = taut.make("tug-of-war").new_initial_state()
    assert list(taut.plugin("tug-of-war").lead(tug)) == [0.0, 0.0, 0.0]


#: Options that keep a game short, where it has them.
SHORT = {"tracks": {"size": 4}, "tug-of-war": {"players": 2, "target": 20}}


@pytest.mark.parametrize("name", taut.games())
def test_one_game_summary_is_consistent(name: str) -> None:
    game = taut.make(name, **SHORT.get(name, {}))
    n = len(game.info.seats)
    task = BalanceTask(name, dict(game.options), 0, 3, (0,) * n, ("random",) * n, 11)
    summary = play_balance_task(task)
    assert summary == play_balance_task(task)  # the seed fixes the game
    assert summary["turns"] >= 1 and summary["changes"] >= 0
    assert len(summary["returns"]) == n
    if summary["winners"]:
        assert summary["settled"] is not None and 0 <= summary["settled"] <= summary["turns"]
        # The winner leads at the end: it trailed exactly when the lead ever changed.
        assert summary["trailed"] == (summary["changes"] > 0)
    else:
        assert summary["settled"] is None and summary["trailed"] is False


# -- runs through the command line ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("tracks", ["--size", "4"]),
        ("pulling-strings", []),
        ("push-pull", []),
        ("tug-of-war", ["--players", "2", "--target", "20"]),
    ],
)
def test_a_small_run_of_every_game(name: str, args: list[str]) -> None:
    data = run_json(name, *args, "--agents", "random", "--games", "6")
    (variant,) = data["variants"]
    assert data["game"] == name and variant["games"] == 6
    for seat in variant["seats"]:
        assert seat["wins"] + seat["draws"] + seat["losses"] == 6
        rates = [seat[k]["value"] for k in ("win_rate", "draw_rate", "loss_rate")]
        assert math.isclose(sum(rates), 1.0)
    assert variant["length"]["min"] <= variant["length"]["median"] <= variant["length"]["max"]
    info = taut.make(name, **variant["options"]).info
    # Sequential games have a first mover; where everybody moves at once there is none.
    assert (variant["first_mover"] is None) == info.simultaneous
    solved = all("exact_value" in s for s in variant["seats"])
    assert solved == (name == "push-pull")


def test_the_text_table_and_a_sweep_side_by_side() -> None:
    code, out, _ = run(
        "tracks", "--sweep", "size=3,4", "--agents", "random,easy", "--games", "4", "--workers", "1"
    )
    assert code == 0
    header = next(line for line in out.splitlines() if "measure" in line)
    assert header.index("size=3") < header.index("size=4")
    for row in ("NS wins", "WE wins", "first mover wins", "draws", "lead changes", "easy score"):
        assert row in out
    data = run_json("tracks", "--sweep", "size=3,4", "--agents", "random,easy", "--games", "4")
    assert [v["options"]["size"] for v in data["variants"]] == [3, 4]
    assert data["sweep"] == "size"
    header_cells, rows = table(data)
    assert header_cells == ["measure", "size=3", "size=4"]
    assert all(len(row) == 3 for row in rows)


def test_the_same_seed_gives_the_same_report_and_another_seed_another() -> None:
    a = run_json("tracks", "--size", "4", "--agents", "random", "--games", "8")
    assert a == run_json("tracks", "--size", "4", "--agents", "random", "--games", "8")
    b = run_json("tracks", "--size", "4", "--agents", "random", "--games", "8", "--seed", "1")
    assert a != b


class ReversedBackend:
    """Plays everything here, then yields the results last first."""

    name = "reversed"

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        done = [(i, fn(item)) for i, item in enumerate(items)]
        yield from reversed(done)


def test_results_do_not_depend_on_the_order_games_finish() -> None:
    game = taut.make("tracks", size=4)
    settings = BalanceSettings(
        "tracks", game.info.version, (Variant("", dict(game.options)),), ("random", "easy"), 3
    )
    ordered = run_balance(settings, 6, LocalBackend(1))
    assert run_balance(settings, 6, ReversedBackend()).summaries == ordered.summaries


# -- resumed runs --------------------------------------------------------------------------


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_an_interrupted_run_continues_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    base = ["tracks", "--sweep", "size=3,4", "--agents", "random,easy"]
    first = run_json(*base, "--games", "3", "--out", str(out))
    lines = _lines(out)
    assert lines[0]["kind"] == "taut-balance" and len(lines) == 1 + 2 * 3
    assert first["variants"][0]["games"] == 3
    # A run cut off in the middle of writing a line: the partial line is dropped.
    with out.open("a") as f:
        f.write('{"variant": 1, "ind')
    resumed = run_json(*base, "--games", "5", "--resume", str(out))
    assert len(_lines(out)) == 1 + 2 * 5
    fresh = run_json(*base, "--games", "5")
    assert resumed == fresh
    # Asking for fewer games than the file holds uses the first ones, playing nothing.
    before = out.read_text()
    assert run_json(*base, "--games", "3", "--out", str(out)) == first
    assert out.read_text() == before


def test_a_results_file_of_other_settings_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    run_json("tracks", "--size", "4", "--agents", "random", "--games", "2", "--out", str(out))
    before = out.read_text()
    for other in (
        ["--size", "5", "--agents", "random"],
        ["--size", "4", "--agents", "easy"],
        ["--size", "4", "--agents", "random", "--seed", "9"],
    ):
        code, _, err = run("tracks", *other, "--games", "3", "--out", str(out))
        assert code == 2 and "other settings" in err, err
    code, _, err = run("push-pull", "--agents", "random", "--games", "3", "--resume", str(out))
    assert code == 2 and "game: the file has" in err
    assert out.read_text() == before  # nothing was appended


def test_resume_needs_a_results_file(tmp_path: Path) -> None:
    code, _, err = run("tracks", "--resume", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "no such results file" in err
    other = tmp_path / "notes.txt"
    other.write_text("hello\n")
    code, _, err = run("tracks", "--out", str(other))
    assert code == 2 and "not a balance results file" in err
    with pytest.raises(Exception, match="nothing to resume"):
        ResultsFile(tmp_path / "none.jsonl").open(
            BalanceSettings("tracks", "1", (), ("random",), 0), must_exist=True
        )


# -- the report ------------------------------------------------------------------------------


def test_the_html_report_holds_the_table_and_its_images(tmp_path: Path) -> None:
    where = tmp_path / "out" / "report"
    code, out, err = run(
        "tracks", "--sweep", "size=3,4", "--agents", "random", "--games", "4",
        "--workers", "1", "--report", str(where),
    )  # fmt: skip
    assert code == 0, err
    page = (where / "index.html").read_text()
    assert "Report written to" in out
    assert page.startswith("<!DOCTYPE html>") and "<table>" in page
    assert "size=3" in page and "NS wins" in page and "first mover wins" in page
    assert page.count('src="data:image/png;base64,') == 3
    # Self-contained: nothing is fetched from elsewhere.
    assert "http://" not in page and "https://" not in page and "<link" not in page


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tracks", "--games", "0"], "0 is not in the range"),
        (["tracks", "--games", "many"], "not a valid integer"),
        (["tracks", "--sweep", "colour=1,2"], "no option 'colour'; its options: size"),
        (["tracks", "--sweep", "size"], "OPTION=V1,V2"),
        (["tracks", "--sweep", "size=4,,5"], "none empty"),
        (["tracks", "--sweep", "size=4,4"], "given twice"),
        (["tracks", "--sweep", "size=1,4"], "size=1"),
        (["tracks", "--sweep", "size=4,5", "--size", "6"], "also set on its own"),
        (["tracks", "--size", "99"], "size"),
        (["tracks", "-O", "colour=red"], "colour"),
        (["tracks", "--agents", "wizard"], "unknown agent 'wizard'"),
        (["tracks", "--agents", "random,,easy"], "none empty"),
        (["tracks", "--agents", "random,random"], "given twice"),
        (["tracks", "--agents", "perfect"], "cannot play"),
        (["tracks", "--backend", "cloud"], "unknown backend 'cloud'"),
        (["tracks", "--address", "auto"], "needs --backend ray"),
        (["tracks", "--workers", "0"], "0 is not in the range"),
        (["chess"], "unknown game 'chess'"),
        (["--games", "3"], "No such option"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2, (out, err)
    assert message in err, err


def test_an_unwritable_report_or_results_file_is_refused_before_play(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("")
    code, _, err = run("tracks", "--report", str(a_file / "sub"))
    assert code == 2 and "cannot write a report there" in err
    code, _, err = run("tracks", "--report", str(a_file))
    assert code == 2 and "is a file" in err
    code, _, err = run("tracks", "--out", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert code == 2 and "does not exist" in err
    code, _, err = run("tracks", "--out", str(tmp_path), "--games", "1")
    assert code == 2 and "not a regular file" in err
    code, _, err = run("tracks", "--out", str(tmp_path / "a"), "--resume", str(tmp_path / "b"))
    assert code == 2 and "not both" in err


def test_the_command_imports_nothing_heavy_until_it_runs() -> None:
    code = (
        "import sys\n"
        "from taut.cli import cli\n"
        "try:\n"
        "    cli.main(['analyse', 'balance', 'tracks', '--help'], prog_name='taut')\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = ('numpy', 'scipy', 'matplotlib', 'ray', 'openskill')\n"
        "print('LOADED', ' '.join(m for m in sorted(sys.modules) if m.split('.')[0] in heavy "
        "or m.startswith(('taut.arena', 'taut.agents'))))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert "--sweep" in proc.stdout  # the help was printed
    assert proc.stdout.splitlines()[-1].strip() == "LOADED"


def test_a_game_option_named_like_a_flag_is_set_with_dash_o(tmp_path: Path) -> None:
    # Tug of War has an option "out": --out stays the results file, -O and --sweep set it.
    out = tmp_path / "tug.jsonl"
    short = ["--players", "2", "--target", "15", "--agents", "random", "--games", "2"]
    data = run_json("tug-of-war", *short, "-O", "out=stop", "--out", str(out))
    assert data["variants"][0]["options"]["out"] == "stop"
    assert _lines(out)[0]["variants"][0]["options"]["out"] == "stop"
    swept = run_json("tug-of-war", *short, "--sweep", "out=continue,stop")
    assert [v["options"]["out"] for v in swept["variants"]] == ["continue", "stop"]


def test_a_game_registered_at_run_time_gets_the_analysis() -> None:
    # The analysis names no game: a toy game with only the default hooks works too.
    from taut.core.registry import register_plugin, unregister_plugin
    from tests.toygame.plugin import plugin as rope

    register_plugin(rope)
    try:
        data = run_json("rope", "--goal", "1", "--agents", "random,easy", "--games", "4")
    finally:
        unregister_plugin("rope")
    (variant,) = data["variants"]
    assert variant["games"] == 4 and variant["options"]["goal"] == 1
    assert sum(s["wins"] for s in variant["seats"]) + variant["draws"]["count"] == 4


def test_a_report_of_drawn_games_only(tmp_path: Path) -> None:
    # No game decided: nothing settles, the plots and the table still come out.
    code, out, err = run(
        "pulling-strings", "--max-turns", "1", "--agents", "random", "--games", "3",
        "--workers", "1", "--report", str(tmp_path),
    )  # fmt: skip
    assert code == 0, err
    assert "max_turns 3" in out and "100.0%" in out
    assert (tmp_path / "index.html").read_text().count("data:image/png;base64,") == 3


# -- a game whose answer is known exactly ----------------------------------------------------


def _exact_random_play(state: Any, memo: dict[Any, tuple[float, ...]]) -> tuple[float, ...]:
    """Each seat's chance of winning, then the chance of a draw, when every seat plays
    uniformly at random: the whole game tree, chance weighted by its odds. Positions are
    shared whatever order they were reached in: the key leaves out Track Tiles' ``last``
    placement, which only marks the board and changes nothing that follows."""
    position = {k: v for k, v in state.to_json().items() if k != "last"}
    key = json.dumps(position, sort_keys=True)
    if key in memo:
        return memo[key]
    seats = state.game.info.num_seats
    if state.is_terminal():
        winners = state.outcome.winners
        wins = [1.0 if s in winners else 0.0 for s in range(seats)]
        out = (*wins, 0.0 if winners else 1.0)
    else:
        if state.is_chance():
            branches = [({-1: o}, p) for o, p in state.chance_outcomes()]
        else:
            acting = state.acting_seats()
            joints = [
                dict(zip(acting, combo, strict=True))
                for combo in itertools.product(*(state.legal_actions(s) for s in acting))
            ]
            branches = [(j, 1.0 / len(joints)) for j in joints]
        total = [0.0] * (seats + 1)
        for joint, p in branches:
            child = _exact_random_play(state.apply(joint), memo)
            total = [t + p * c for t, c in zip(total, child, strict=True)]
        out = tuple(total)
    memo[key] = out
    return out


# The 3x3 tree has 856,713 positions (minutes in Python): the slow set walks it; the 2x2
# tree (684 positions, rates 2/9, 23/81 and 40/81) keeps the check in every run.
@pytest.mark.parametrize("size", [2, pytest.param(3, marks=pytest.mark.slow)])
def test_random_play_on_a_tiny_board_matches_the_whole_game_tree(size: int) -> None:
    """Track Tiles with both dice on a tiny board: the seat win rates of uniformly random
    play are worked out over the whole game tree, and the measured rates must hold them in
    their 95% intervals (the seed fixes the games, so this cannot flicker)."""
    options = {"size": size, "roll": "each"}
    exact = _exact_random_play(taut.make("tracks", **options).new_initial_state(), {})
    assert math.isclose(sum(exact), 1.0)
    data = run_json("tracks", "--size", str(size), "--roll", "each", "--agents", "random",
                    "--games", "600", "--seed", "3")  # fmt: skip
    (variant,) = data["variants"]
    ns, we = variant["seats"]
    for seat, p in ((ns, exact[0]), (we, exact[1])):
        low, high = seat["win_rate"]["low"], seat["win_rate"]["high"]
        assert low <= p <= high, (seat["win_rate"], p)
        assert high - low < 0.09  # 600 games: the interval is narrow enough to mean something
    draws = ns["draw_rate"]
    assert draws["low"] <= exact[2] <= draws["high"], (draws, exact[2])
