"""Every way a Tug of War game ends: target (out=continue / stop), rounds, round points,
ties played off in extra rounds, and players going out."""

from __future__ import annotations

import random
from typing import Any

import pytest

import taut
from taut.agents import RandomAgent
from taut.arena.match import play_match
from taut.games.tug_of_war import TugOfWar, TugState
from taut.games.tug_of_war.scoring import EndRules, RoundEnd, award_round_points, finish_round

T = (True, True, True)


def _rules(end: str = "target", **kw: object) -> EndRules:
    base: dict[str, object] = {
        "end": end,
        "target": 50,
        "out": "continue",
        "rounds": 10,
        "tiebreak": "tied",
        "round_score": "gain",
    }
    base.update(kw)
    return EndRules(**base)  # type: ignore[arg-type]


def _finish(rules: EndRules, scores: tuple[int, ...], **kw: object) -> RoundEnd:
    n = len(scores)
    args: dict[str, object] = {
        "round_no": 1,
        "start_scores": (0,) * n,
        "points": (0,) * n,
        "in_game": (True,) * n,
        "playing": (True,) * n,
        "pool": None,
    }
    args.update(kw)
    return finish_round(rules, scores=scores, **args)  # type: ignore[arg-type]


def test_target_reached_wins_and_is_checked_at_round_end() -> None:
    res = _finish(_rules(), (55, 10, -20))
    assert res.outcome is not None and res.outcome.winners == (0,)
    assert res.outcome.reason.name == "target"
    assert _finish(_rules(), (49, -49, 0)).outcome is None
    assert _finish(_rules(target=20), (20, 0, 0)).outcome is not None  # "at or above"


def test_two_players_over_the_target_highest_wins_or_they_play_off() -> None:
    res = _finish(_rules(), (60, 55, 0))
    assert res.outcome is not None and res.outcome.winners == (0,)
    res = _finish(_rules(), (55, 55, 0))
    assert res.outcome is None and res.pool == (0, 1)
    after = _finish(_rules(), (58, 61, 0), pool=(0, 1), playing=(True, True, False))
    assert after.outcome is not None and after.outcome.winners == (1,)
    assert after.outcome.reason.name == "tie-break"


def test_out_continue_drops_the_player_and_plays_on_until_one_is_left() -> None:
    res = _finish(_rules(), (10, -50, 0))
    assert res.outcome is None and res.in_game == (True, False, True)
    res = _finish(
        _rules(), (10, -50, -60), in_game=(True, False, True), playing=(True, False, True)
    )
    assert res.outcome is not None and res.outcome.winners == (0,)
    assert res.outcome.reason.name == "last standing"


def test_out_continue_last_players_out_together_least_far_out_wins() -> None:
    res = _finish(
        _rules(), (-55, -70, -60), in_game=(True, False, True), playing=(True, False, True)
    )
    assert res.outcome is not None and res.outcome.winners == (0,)
    assert res.in_game == (False, False, False)


def test_out_stop_ends_with_the_highest_score() -> None:
    res = _finish(_rules(out="stop"), (10, -50, 20))
    assert res.outcome is not None and res.outcome.winners == (2,)
    assert res.outcome.reason.name == "out"
    res = _finish(_rules(out="stop"), (20, -50, 20))
    assert res.outcome is None and res.pool == (0, 2)


def test_rounds_highest_total_wins_after_the_last_round() -> None:
    assert _finish(_rules("rounds", rounds=3), (30, 20, 10), round_no=2).outcome is None
    res = _finish(_rules("rounds", rounds=3), (30, 20, 10), round_no=3)
    assert res.outcome is not None and res.outcome.winners == (0,)
    assert res.outcome.reason.name == "rounds"


def test_rounds_tie_plays_extra_rounds_among_the_tied_or_all() -> None:
    res = _finish(_rules("rounds", rounds=3), (30, 30, 10), round_no=3)
    assert res.outcome is None and res.pool == (0, 1)
    res = _finish(_rules("rounds", rounds=3, tiebreak="all"), (30, 30, 10), round_no=3)
    assert res.outcome is None and res.pool == (0, 1, 2)
    # Still tied after the extra round: another one among the same players.
    res = _finish(_rules("rounds", rounds=3), (35, 35, 10), round_no=4, pool=(0, 1))
    assert res.outcome is None and res.pool == (0, 1)


def test_round_points_go_to_the_best_gain_or_total_and_ties_share() -> None:
    gain = _rules("round-points", rounds=3)
    total = _rules("round-points", rounds=3, round_score="total")
    start, after = (20, 0, 0), (21, 12, 3)
    assert award_round_points(gain, after, start, (0, 0, 0), T) == (0, 1, 0)
    assert award_round_points(total, after, start, (0, 0, 0), T) == (1, 0, 0)
    assert award_round_points(gain, (5, 5, 0), (0, 0, 0), (0, 0, 0), T) == (1, 1, 0)
    # Seats not in the round (a tie-break) get nothing.
    assert award_round_points(gain, (5, 0, 9), (0, 0, 0), (0, 0, 0), (True, True, False)) == (
        1,
        0,
        0,
    )


def test_round_points_most_points_win_and_ties_play_on() -> None:
    rules = _rules("round-points", rounds=3)
    res = _finish(rules, (10, 0, 0), round_no=3, points=(1, 1, 0))
    assert res.outcome is not None and res.outcome.winners == (0,)
    assert res.outcome.reason.name == "round points" and res.points == (2, 1, 0)
    res = _finish(rules, (0, 10, 0), round_no=3, points=(2, 1, 0))
    assert res.outcome is None and res.pool == (0, 1) and res.points == (2, 2, 0)


def _records(game: TugOfWar, seeds: range) -> list[dict[str, Any]]:
    agents = [RandomAgent() for _ in range(game.num_players)]
    out: list[dict[str, Any]] = []
    for seed in seeds:
        data = play_match(game, agents, seed=seed).record.to_json()
        assert isinstance(data, dict)
        out.append(data)
    return out


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def test_engine_out_continue_deals_no_more_to_a_player_who_is_out() -> None:
    game = _game(players=3, target=15)
    found = False
    for rec in _records(game, range(40)):
        rounds = rec["rounds"]
        assert isinstance(rounds, list)
        out: set[int] = set()
        for rnd in rounds:
            dealt = {s for s in range(3) if rnd["starters"][s] is not None}
            assert all((rnd["hands"][s] is not None) == (s in dealt) for s in range(3))
            if dealt & out:
                # Only when the last players all went out together and tied on score do
                # they play a tie-break round.
                assert dealt <= out
            else:
                assert dealt == set(range(3)) - out
                found = found or bool(out)
            out |= {s for s in dealt if rnd["scores_after"][s] <= -15}
    assert found, "no game went on after a player went out"


def test_engine_out_stop_ends_when_someone_goes_out() -> None:
    game = _game(players=3, target=15, out="stop")
    for rec in _records(game, range(20)):
        rounds = rec["rounds"]
        assert isinstance(rounds, list)
        for k, rnd in enumerate(rounds):
            scores = rnd["scores_after"]
            decided = min(scores) <= -15 or max(scores) >= 15
            if k == len(rounds) - 1:
                assert decided or rnd["starters"].count(None) > 0
                continue
            if decided:
                # The game goes on only as a tie-break among those tied for the lead.
                dealt = [s for s in range(3) if rounds[k + 1]["starters"][s] is not None]
                assert dealt == [s for s in range(3) if scores[s] == max(scores)]
                assert len(dealt) > 1
        final = rec["final_scores"]
        last = [s for s in range(3) if rounds[-1]["starters"][s] is not None]
        assert isinstance(final, list) and isinstance(rec["winner"], int)
        assert final[rec["winner"]] == max(final[s] for s in last)


def test_engine_rounds_ties_play_extra_rounds_among_the_tied() -> None:
    game = _game(players=3, end="rounds", rounds=1, hand=2)
    tied = 0
    for rec in _records(game, range(150)):
        rounds = rec["rounds"]
        assert isinstance(rounds, list)
        for k in range(1, len(rounds)):
            before = rounds[k - 1]["scores_after"]
            best = max(before[s] for s in range(3) if rounds[k - 1]["starters"][s] is not None)
            for s in range(3):
                playing = rounds[k]["starters"][s] is not None
                assert playing == (before[s] == best and rounds[k - 1]["starters"][s] is not None)
            tied += 1
        final = rec["final_scores"]
        last = [s for s in range(3) if rounds[-1]["starters"][s] is not None]
        best = max(final[s] for s in last)
        assert isinstance(rec["winner"], int) and final[rec["winner"]] == best
        assert [final[s] for s in last].count(best) == 1
    assert tied > 0, "no tie in 150 games"


@pytest.mark.parametrize("tiebreak", ["tied", "all"])
def test_engine_round_points_ends_with_a_single_leader(tiebreak: str) -> None:
    game = _game(players=2, end="round-points", rounds=2, hand=3, tiebreak=tiebreak)
    for seed in range(30):
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            state = state.apply(state.random_joint(rng))
        assert isinstance(state, TugState)
        points = state.points
        out = state.outcome
        assert out is not None and len(out.winners) == 1
        assert points[out.winners[0]] == max(points) and points.count(max(points)) == 1
        assert state.round >= 2
