"""``taut analyse game``: every move of a recorded game judged (taut.agents.analysis).

Exact cases are checked against values computed here independently (the solved values and
an LP of this file's own); search cases against positions whose answer is certain (a win
in one); the hidden-information case against the view property; the command's output
shapes on real records that ``taut selfplay`` writes.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.optimize import linprog

import taut
from taut.agents.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    analyse_node,
    analyse_record,
    label,
    thresholds,
)
from taut.cli import cli
from taut.core.game import Game, State
from taut.core.plugin import GamePlugin, Policy, Values
from taut.core.record import GameRecord
from taut.core.registry import plugin_of, register_plugin, unregister_plugin
from taut.core.terms import NodeKind
from tests.test_import_time import command_imports, heavy_among
from tests.toygames import MatrixGame

#: Row 2 is dominated: whatever the column, it pays less than row 0 or row 1.
DOMINATED = [[2.0, -1.0, 0.5], [-1.0, 1.0, 0.0], [-2.0, -2.0, -1.5]]


def lp_game(payoff: np.ndarray) -> tuple[float, np.ndarray]:
    """The value and the column player's optimal mix of ``payoff`` (row maximises), by an LP
    written here: minimise v subject to payoff @ y <= v, y a mix."""
    m, n = payoff.shape
    c = np.zeros(n + 1)
    c[-1] = 1.0
    a_ub = np.hstack([payoff, -np.ones((m, 1))])
    a_eq = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    res = linprog(
        c,
        A_ub=a_ub,
        b_ub=np.zeros(m),
        A_eq=a_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
    )
    assert res.status == 0
    return float(res.x[-1]), res.x[:n]


# -- labels ------------------------------------------------------------------------------


def test_labels_follow_the_documented_shares_of_the_utility_range() -> None:
    game = taut.make("tracks")
    span = game.info.max_utility - game.info.min_utility
    limits = thresholds(game)
    assert limits == {
        "inaccuracy": INACCURACY * span,
        "mistake": MISTAKE * span,
        "blunder": BLUNDER * span,
    }
    assert INACCURACY < MISTAKE < BLUNDER
    assert label(0.0, limits) is None
    assert label(INACCURACY * span * 0.99, limits) is None
    assert label(INACCURACY * span, limits) == "inaccuracy"
    assert label(MISTAKE * span, limits) == "mistake"
    assert label((MISTAKE + BLUNDER) / 2 * span, limits) == "mistake"
    assert label(BLUNDER * span, limits) == "blunder"
    assert label(span, limits) == "blunder"


# -- exact values: a solved toy game -----------------------------------------------------


class SolvedValues(GamePlugin):
    """The toy matrix game, solved: exact values (the payoffs), optionally a policy."""

    game_class = MatrixGame
    with_policy = False

    def exact_values(self, game: Game) -> Values | None:
        return lambda state: state.returns()

    def exact_policy(self, game: Game) -> Policy | None:
        if not self.with_policy:
            return None
        assert isinstance(game, MatrixGame)
        _, y = lp_game(np.array(game.payoff))
        _, x_neg = lp_game(-np.array(game.payoff).T)

        def policy(state: State, seat: int) -> Mapping[int, float]:
            return dict(enumerate((x_neg if seat == 0 else y).tolist()))

        return policy


@pytest.fixture(params=[False, True], ids=["lp", "policy"])
def solved(request: pytest.FixtureRequest) -> Iterator[SolvedValues]:
    found = SolvedValues()
    found.with_policy = request.param
    register_plugin(found)
    try:
        yield found
    finally:
        unregister_plugin("matrix")


def matrix_record(game: MatrixGame, row: int, col: int) -> GameRecord:
    record = GameRecord.start(game)
    state = game.new_initial_state()
    after = state.apply({0: row, 1: col})
    record.add(state, {0: row, 1: col}, after)
    record.finish(after)
    return record


def test_a_dominated_move_loses_exactly_its_shortfall_against_the_equilibrium(
    solved: SolvedValues,
) -> None:
    game = MatrixGame(DOMINATED)
    payoff = np.array(DOMINATED)
    value, y = lp_game(payoff)
    expected = value - float((payoff @ y)[2])
    span = game.info.max_utility - game.info.min_utility
    assert expected >= BLUNDER * span  # the case is a blunder on the game's scale
    analysis = analyse_record(matrix_record(game, 2, 0), game=game)
    (row, col) = analysis.judgements
    assert (row.seat_name, row.action, row.method) == ("R", "2", "exact")
    assert row.loss == pytest.approx(expected, abs=1e-9)
    assert row.value == pytest.approx(value, abs=1e-9)
    assert row.label == "blunder"
    assert row.best in {"0", "1"}
    # The column's move is in its equilibrium's support: it loses nothing.
    assert y[0] > 1e-6
    assert col.loss == pytest.approx(0.0, abs=1e-9) and col.label is None
    assert col.value == pytest.approx(-value, abs=1e-9)
    summary = {s.seat_name: s for s in analysis.summaries}
    assert summary["R"].counts == {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert summary["R"].average_loss == pytest.approx(expected, abs=1e-9)


# -- exact values: the Push-Pull duel ----------------------------------------------------


def duel_record(seed: int, turns: int) -> GameRecord:
    """A duel played at random for at most ``turns`` turns."""
    game = taut.make("push-pull")
    record = GameRecord.start(game)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(turns):
        if state.is_terminal():
            break
        joint = state.random_joint(rng)
        after = state.apply(joint)
        record.add(state, joint, after)
        state = after
    record.finish(state)
    return record


def test_the_duel_is_judged_exactly_from_its_solution() -> None:
    from taut.games.push_pull.solve.duel_newton import cached_solution
    from taut.games.push_pull.solve.duel_positions import duel_position_key

    record = duel_record(5, 6)
    analysis = analyse_record(record)
    states = [s for _, s in record.positions()]
    solution = cached_solution()
    assert analysis.judgements
    for j in analysis.judgements:
        before = states[j.move - 1]
        assert j.method == "exact"
        west = solution.value(duel_position_key(before))  # type: ignore[arg-type]
        assert j.value == pytest.approx(west if j.seat_name == "W" else -west, abs=1e-12)
        assert j.action == record.moves[j.move - 1][j.seat_name]  # type: ignore[index]


def test_a_duel_move_s_loss_matches_an_independent_lp() -> None:
    """The loss of a move, computed here from the solved values and this file's LP: the
    seat's value minus the chosen move's value against the other seat's optimal mix.

    In the duel every position's optimal mixes use every move (the game is fully mixed),
    so a move loses nothing against optimal play, whatever it is: the exact loss is 0 for
    every move, which this checks move by move along a game."""
    from taut.games.push_pull.solve.duel_newton import cached_solution
    from taut.games.push_pull.solve.duel_positions import duel_position_key

    solution = cached_solution()
    game = taut.make("push-pull")
    policy = plugin_of(game).exact_policy(game)
    assert policy is not None

    def value(state: State) -> float:
        if state.is_terminal():
            return state.returns()[0]
        return solution.value(duel_position_key(state))  # type: ignore[arg-type]

    record = duel_record(11, 8)
    states = [s for _, s in record.positions()]
    analysis = analyse_record(record)
    assert len(analysis.judgements) >= 4
    for j in analysis.judgements:
        state = states[j.move - 1]
        rows, cols = state.legal_actions(0), state.legal_actions(1)
        payoff = np.array([[value(state.apply({0: a, 1: b})) for b in cols] for a in rows])
        lp_value, _ = lp_game(payoff)
        assert lp_value == pytest.approx(value(state), abs=1e-9)
        seat = 0 if j.seat_name == "W" else 1
        other = policy(state, 1 - seat)
        mine = state.string_to_action(seat, j.action)
        if seat == 0:
            got = sum(p * payoff[rows.index(mine), cols.index(b)] for b, p in other.items())
            loss = lp_value - got
        else:
            got = sum(p * payoff[rows.index(a), cols.index(mine)] for a, p in other.items())
            loss = got - lp_value
        assert j.loss == pytest.approx(max(loss, 0.0), abs=1e-9)
        assert j.loss == pytest.approx(0.0, abs=1e-9) and j.label is None


# -- search, one seat choosing: a missed win in one --------------------------------------


def winning_cells(state: State, seat: int) -> set[int]:
    return {
        a
        for a in state.legal_actions(seat)
        if (after := state.apply({seat: a})).is_terminal() and seat in after.outcome.winners  # type: ignore[union-attr]
    }


def missed_win() -> tuple[GameRecord, int, set[str]]:
    """A Track Tiles game where a move misses a win in one and leaves the opponent one: the
    record up to that move, the move's number and the winning cells."""
    game = taut.make("tracks", size=4)
    for seed in range(500):
        rng = random.Random(seed)
        record = GameRecord.start(game)
        state = game.new_initial_state()
        while not state.is_terminal():
            joint = state.random_joint(rng)
            if state.kind is NodeKind.DECISION:
                (seat,) = state.acting_seats()
                wins = winning_cells(state, seat)
                after = state.apply(joint)
                missed = wins and joint[seat] not in wins and not after.is_terminal()
                if missed and winning_cells(after, 1 - seat):
                    record.add(state, joint, after)
                    cells = {state.action_to_string(seat, a) for a in wins}
                    return record, len(record.moves or []), cells
            after = state.apply(joint)
            record.add(state, joint, after)
            state = after
    raise AssertionError("no missed win found")  # pragma: no cover


def test_a_missed_win_in_one_is_a_blunder_and_the_engine_names_the_win() -> None:
    record, move, cells = missed_win()
    analysis = analyse_record(record, iterations=400)
    (judged,) = [j for j in analysis.judgements if j.move == move]
    assert judged.method == "search"
    assert judged.label == "blunder"
    assert judged.best in cells
    assert judged.value == pytest.approx(1.0)  # a win in one is scored exactly
    assert judged.loss >= BLUNDER * 2


def test_the_same_iterations_and_seed_give_the_same_analysis() -> None:
    record, _, _ = missed_win()
    first = analyse_record(record, iterations=60, seed=3)
    assert analyse_record(record, iterations=60, seed=3) == first


# -- hidden information: each seat judged from its own view -----------------------------


def tug_state(seed: int) -> tuple[State, int]:
    """A Tug of War position mid-round where the seat to move has several moves."""
    game = taut.make("tug-of-war", players=3)
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while True:
        if state.kind is NodeKind.DECISION:
            (seat,) = state.acting_seats()
            decisions += 1
            if decisions >= 4 and len(state.legal_actions(seat)) > 2:
                return state, seat
        state = state.apply(state.random_joint(rng))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_seat_s_analysis_never_depends_on_the_hands_it_cannot_see(seed: int) -> None:
    state, seat = tug_state(seed)
    game = state.game
    view = state.view(seat)
    others = [game.determinize(view, seat, random.Random(k)) for k in (10, 20)]
    # The other deals agree with what the seat saw and differ in what it did not.
    for full in others:
        assert full.view(seat).to_json() == view.to_json()
    assert others[0].to_json() != others[1].to_json() != state.to_json()
    judged = [
        analyse_node(full, [seat], iterations=150, rng=random.Random(7))
        for full in (state, *others)
    ]
    assert judged[0] == judged[1] == judged[2]
    (estimate,) = judged[0].values()
    assert estimate.method == "search"
    assert set(estimate.values) == set(state.legal_actions(seat))


# -- the command -------------------------------------------------------------------------

#: Short games of every kind: options that keep a record to a few dozen nodes.
SHORT = {
    "push-pull": ["-O", "max_turns=12"],
    "pulling-strings": ["-O", "max_turns=10"],
    "tracks": ["--size", "4"],
    "tug-of-war": ["-O", "players=2", "-O", "end=rounds", "-O", "rounds=1"],
}
KEYS = {"move", "seat", "action", "value", "loss", "best", "label", "method"}


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = {}
    for name, options in SHORT.items():
        path = tmp_path_factory.mktemp("records") / f"{name}.jsonl"
        args = ["selfplay", name, "-g", "2", "--agents", "random", "--seed", "3", *options]
        result = CliRunner().invoke(cli, [*args, "--record", str(path)])
        assert result.exit_code == 0, result.output
        out[name] = path
    return out


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["analyse", "game", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize("name", sorted(SHORT))
def test_json_output_has_one_object_per_judged_move_and_a_summary(
    records: dict[str, Path], name: str
) -> None:
    code, out = run(str(records[name]), "--json", "--think", "0.01", "--index", "2")
    assert code == 0, out
    data = json.loads(out)
    *moves, summary = data
    record = json.loads(records[name].read_text().splitlines()[1])
    assert moves
    for item in moves:
        assert set(item) == KEYS
        assert item["label"] in (None, "inaccuracy", "mistake", "blunder")
        assert item["method"] in ("exact", "solution", "search")
        assert item["loss"] >= 0 and math.isfinite(item["value"])
        assert record["moves"][item["move"] - 1][item["seat"]] == item["action"]
    assert set(summary) == {"summary", "thresholds", "game"}
    assert summary["game"] == name
    assert set(summary["thresholds"]) == {"inaccuracy", "mistake", "blunder"}
    for seat, row in summary["summary"].items():
        mine = [m for m in moves if m["seat"] == seat]
        assert row["moves"] == len(mine)
        assert row["average_loss"] == pytest.approx(sum(m["loss"] for m in mine) / len(mine))
        for tag in ("inaccuracy", "mistake", "blunder"):
            assert row[tag] == sum(1 for m in mine if m["label"] == tag)


@pytest.mark.parametrize("name", sorted(SHORT))
def test_plain_output_is_a_table_and_a_summary(records: dict[str, Path], name: str) -> None:
    code, out = run(str(records[name]), "--iterations", "10")
    assert code == 0, out
    title = taut.plugin(name).title
    assert f"{title}: every choice judged" in out
    for header in ("Move", "Seat", "Played", "Value", "Loss", "Best", "Label"):
        assert header in out
    assert "Summary per seat" in out and "Average loss" in out
    assert "Loss labels: inaccuracy >= 0.1, mistake >= 0.2, blunder >= 0.4." in out


def test_seat_keeps_only_that_seat_s_moves(records: dict[str, Path]) -> None:
    code, out = run(str(records["tracks"]), "--json", "--iterations", "10", "--seat", "we")
    assert code == 0, out
    *moves, summary = json.loads(out)
    assert moves and {m["seat"] for m in moves} == {"WE"}
    assert set(summary["summary"]) == {"WE"}


def test_progress_is_reported_node_by_node() -> None:
    record, _, _ = missed_win()
    seen: list[tuple[int, int]] = []
    analyse_record(record, iterations=5, progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert seen == [(k, total) for k in range(1, total + 1)]


def test_bad_input_exits_2_with_a_message(records: dict[str, Path], tmp_path: Path) -> None:
    good = records["tracks"]
    lines = good.read_text().splitlines()
    not_json = tmp_path / "a.json"
    not_json.write_text("not json")
    not_record = tmp_path / "b.json"
    not_record.write_text('{"moves": []}')
    unknown = tmp_path / "c.json"
    unknown.write_text(lines[0].replace('"tracks"', '"chess"'))
    corrupt = tmp_path / "d.json"
    data = json.loads(lines[0])
    data["moves"][3] = {"NS": "z9"}
    corrupt.write_text(json.dumps(data))
    cases = [
        ([str(not_json)], "not valid JSON"),
        ([str(not_record)], "record field 'game'"),
        ([str(unknown)], "unknown game 'chess'"),
        ([str(corrupt)], "move 4"),
        ([str(tmp_path / "missing.json")], "cannot read"),
        ([str(good), "--think", "nan"], "--think"),
        ([str(good), "--think", "0"], "--think"),
        ([str(good), "--think", "-1"], "--think"),
        ([str(good), "--index", "3"], "holds 2 record(s)"),
        ([str(good), "--index", "0"], "--index"),
        ([str(good), "--seat", "X"], "no seat 'X'"),
    ]
    for args, message in cases:
        code, out = run(*args)
        assert code == 2, (args, out)
        assert message in out, (args, out)


def test_the_command_imports_nothing_heavy_to_show_its_help() -> None:
    assert heavy_among(command_imports("analyse", "game", "--help")) == []


def test_only_the_duel_offers_exact_values() -> None:
    plugin = taut.plugin("push-pull")
    duel = taut.make("push-pull")
    values = plugin.exact_values(duel)
    assert values is not None
    start = duel.new_initial_state()
    west, east = values(start)
    assert west == pytest.approx(-east) and abs(west) < 1e-9  # the start is symmetric
    for variant in ("two-teams", "four", "four-teams"):
        assert plugin.exact_values(taut.make("push-pull", variant=variant)) is None
    assert taut.plugin("tracks").exact_values(taut.make("tracks")) is None


def test_two_teams_is_judged_on_its_solution_s_one_turn_games() -> None:
    game = taut.make("push-pull", variant="two-teams")
    state = None
    for seed in range(100):  # a position after the first score: its games are small
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            state = state.apply(state.random_joint(rng))
            if not state.is_terminal() and any(s["scored"] for s in scored(state)):
                break
        if not state.is_terminal():
            break
    assert state is not None and not state.is_terminal()
    games = plugin_of(game).one_turn_games(game)
    assert games is not None
    one = games.game(state)
    assert one is not None
    found = analyse_node(state)
    assert {e.method for e in found.values()} == {"solution"}
    assert found[0].value == pytest.approx(one.value, abs=1e-9)
    assert found[1].value == pytest.approx(-one.value, abs=1e-9)
    assert set(found[0].values) == set(state.legal_actions(0))


def scored(state: State) -> list[dict[str, bool]]:
    """Whether each piece has left the board (from the position's JSON)."""
    pieces = state.to_json()["pieces"]
    return [{"scored": isinstance(where, str)} for where in pieces.values()]


def test_the_command_s_default_think_is_the_analysis_default() -> None:
    from taut.agents.analysis import DEFAULT_THINK
    from taut.cli.analyse_game import DEFAULT_THINK as COMMAND_THINK

    assert COMMAND_THINK == DEFAULT_THINK


# -- search, seats choosing at once --------------------------------------------------------


def test_the_search_s_root_matrix_is_solved_by_lp() -> None:
    """Unsolved, the toy game is searched; its root's children are finished games, so the
    root's payoff matrix is the game's own and the loss is the LP's exactly."""
    game = MatrixGame(DOMINATED)
    assert plugin_of(game).exact_values(game) is None
    payoff = np.array(DOMINATED)
    value, y = lp_game(payoff)
    found = analyse_node(game.new_initial_state(), iterations=50, rng=random.Random(1))
    assert {e.method for e in found.values()} == {"search"}
    assert found[0].value == pytest.approx(value, abs=1e-7)
    assert found[0].loss(2) == pytest.approx(value - float((payoff @ y)[2]), abs=1e-7)
    assert found[1].value == pytest.approx(-value, abs=1e-7)
    assert found[0].best in (0, 1)


def test_more_than_two_seats_at_once_are_judged_from_decoupled_statistics() -> None:
    game = taut.make("push-pull", variant="four")
    state = game.new_initial_state()
    found = analyse_node(state, [0, 2], iterations=40, rng=random.Random(2))
    assert set(found) == {0, 2}
    for seat, estimate in found.items():
        assert estimate.method == "search"
        assert set(estimate.values) == set(state.legal_actions(seat))
        assert estimate.best in estimate.values
        assert all(estimate.loss(a) >= 0 for a in estimate.values)
        assert game.info.min_utility <= estimate.value <= game.info.max_utility
