"""Tug of War records: written from games, replayed exactly, corrupted ones rejected."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.arena.match import play_match
from taut.games.tug_of_war import TugOfWar, TugState
from taut.games.tug_of_war.match import play_game
from taut.games.tug_of_war.record import RecordBuilder, ReplayError, replay_lines, replay_record

ALL_SIX = [[a, b] for a in range(7) for b in range(a, 7)]


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _tiny() -> dict[str, Any]:
    """A one-round game written by hand: P0 goes out at once and keeps the 6 leftover."""
    used = [[6, 5], [4, 3], [5, 1], [3, 3]]
    boneyard = [t for t in ALL_SIX if sorted(t) not in [sorted(u) for u in used]]
    return {
        "game": "tug-of-war",
        "options": {"players": 2, "set": 6, "hand": 1, "end": "rounds", "rounds": 1},
        "players": 2,
        "seed": None,
        "rounds": [
            {
                "starters": [[6, 5], [4, 3]],
                "hands": [[[5, 1]], [[3, 3]]],
                "boneyard": boneyard,
                "first": 0,
                "events": [
                    {"seat": 0, "type": "play", "tile": [5, 1], "train": 0, "end": 1},
                    {"seat": 0, "type": "bonus", "allocation": {"0": 6, "1": 0}},
                ],
                "scores_after": [13, 0],
            }
        ],
        "final_scores": [13, 0],
        "winner": 0,
    }


def test_a_hand_written_record_replays() -> None:
    state = replay_record(_tiny())
    assert state.scores == (13, 0)
    assert state.outcome is not None and state.outcome.winners == (0,)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "target": 25},
        {"players": 3, "target": 20, "out": "stop"},
        {"players": 4, "end": "rounds", "rounds": 2},
        {"players": 3, "end": "round-points", "rounds": 3, "round-score": "total"},
    ],
)
def test_records_of_played_games_replay_exactly(options: dict[str, Any]) -> None:
    game = _game(**options)
    agents = [GreedyAgent(), *[RandomAgent() for _ in range(game.num_players - 1)]]
    for seed in range(4):
        final, rec = play_game(game, agents, seed)
        text = json.dumps(rec)
        again = replay_record(json.loads(text))
        assert again.to_json() == final.to_json()
        assert rec["final_scores"] == list(final.scores)
        assert set(rec["options"]) >= {"set", "hand", "players", "end"}
        # The same seed plays the same game.
        assert play_game(game, agents, seed)[1] == rec


def test_records_do_not_depend_on_the_driver() -> None:
    # A record written by observing the generic match loop (chance sampled node by node)
    # replays just the same.
    game = _game(players=3, target=20)
    builder = RecordBuilder(game, 11)
    result = play_match(game, [RandomAgent()] * 3, seed=11, observer=builder.observe)
    final = result.state
    assert isinstance(final, TugState)
    rec = builder.finish(final)
    assert replay_record(json.loads(json.dumps(rec))).scores == final.scores


def _played(seed: int = 3) -> dict[str, Any]:
    game = _game(players=3, target=25)
    rec = play_game(game, [GreedyAgent(), RandomAgent(), RandomAgent()], seed)[1]
    data: dict[str, Any] = json.loads(json.dumps(rec))
    return data


def _find(rec: dict[str, Any], pred: Any) -> tuple[int, int]:
    """(round index, event index) of the first event where ``pred(events, k)`` holds."""
    for r, rnd in enumerate(rec["rounds"]):
        for k in range(len(rnd["events"])):
            if pred(rnd["events"], k):
                return r, k
    raise AssertionError("no such event in the record")


def _rejects(rec: dict[str, Any], where: tuple[int | None, int | None], text: str) -> None:
    with pytest.raises(ReplayError) as info:
        replay_record(rec, 7)
    err = info.value
    assert err.record == 7
    assert (err.round, err.event) == where, str(err)
    assert text in str(err), str(err)


def test_corrupt_play_tile_not_in_hand() -> None:
    rec = _tiny()
    rec["rounds"][0]["events"][0]["tile"] = [1, 6]
    _rejects(rec, (1, 1), "does not hold 1-6")


def test_corrupt_play_on_an_end_that_does_not_match() -> None:
    rec = _tiny()
    rec["rounds"][0]["events"][0]["end"] = 0
    _rejects(rec, (1, 1), "end 0 of train 0 shows 6")


def test_corrupt_wrong_seat() -> None:
    rec = _played()
    r, k = _find(rec, lambda ev, k: ev[k]["type"] == "play")
    rec["rounds"][r]["events"][k]["seat"] = (rec["rounds"][r]["events"][k]["seat"] + 1) % 3
    _rejects(rec, (r + 1, k + 1), "move, not seat")


def test_corrupt_draw_when_a_play_was_possible() -> None:
    rec = _played()
    r, k = _find(
        rec, lambda ev, k: ev[k]["type"] == "play" and (k == 0 or ev[k - 1]["type"] != "draw")
    )
    event = rec["rounds"][r]["events"][k]
    rec["rounds"][r]["events"][k] = {"seat": event["seat"], "type": "draw", "tile": [0, 0]}
    _rejects(rec, (r + 1, k + 1), "may not draw")


def test_corrupt_pass_instead_of_the_forced_draw() -> None:
    rec = _played()
    r, k = _find(rec, lambda ev, k: ev[k]["type"] == "draw")
    seat = rec["rounds"][r]["events"][k]["seat"]
    rec["rounds"][r]["events"][k] = {"seat": seat, "type": "pass"}
    _rejects(rec, (r + 1, k + 1), "must draw")


def test_corrupt_drawn_tile_not_the_next_in_the_boneyard() -> None:
    rec = _played()
    r, k = _find(rec, lambda ev, k: ev[k]["type"] == "draw")
    drawn = rec["rounds"][r]["events"][k]["tile"]
    other = next(t for t in rec["rounds"][r]["boneyard"] if sorted(t) != sorted(drawn))
    rec["rounds"][r]["events"][k]["tile"] = other
    _rejects(rec, (r + 1, k + 1), "next boneyard tile is")


def test_corrupt_drawn_tile_that_fits_is_not_played() -> None:
    for seed in range(3, 40):
        rec = _played(seed)
        try:
            r, k = _find(
                rec,
                lambda ev, k: (
                    ev[k]["type"] == "draw" and k + 1 < len(ev) and ev[k + 1]["type"] == "play"
                ),
            )
        except AssertionError:
            continue
        seat = rec["rounds"][r]["events"][k]["seat"]
        rec["rounds"][r]["events"][k + 1] = {"seat": seat, "type": "pass"}
        _rejects(rec, (r + 1, k + 2), "must play it")
        return
    pytest.fail("no forced play of a drawn tile found")


def test_corrupt_bonus_that_does_not_add_up() -> None:
    rec = _tiny()
    rec["rounds"][0]["events"][1]["allocation"] = {"0": 5, "1": 0}
    _rejects(rec, (1, 2), "add up to 5")
    rec["rounds"][0]["events"][1]["allocation"] = {"0": 7, "1": -1}
    _rejects(rec, (1, 2), "whole number >= 0")
    rec["rounds"][0]["events"][1]["allocation"] = {"0": 6, "5": 0}
    _rejects(rec, (1, 2), "not a seat of this round")


def test_corrupt_bonus_by_the_wrong_seat_or_missing() -> None:
    rec = _tiny()
    rec["rounds"][0]["events"][1]["seat"] = 1
    _rejects(rec, (1, 2), "not seat 1's")
    rec = _tiny()
    rec["rounds"][0]["events"][1] = {"seat": 1, "type": "pass"}
    _rejects(rec, (1, 2), "must be its bonus")
    rec = _tiny()
    del rec["rounds"][0]["events"][1]
    _rejects(rec, (1, 1), "events stop before the round is over")


def test_corrupt_event_after_the_round_is_over() -> None:
    rec = _tiny()
    rec["rounds"][0]["events"].append({"seat": 1, "type": "pass"})
    _rejects(rec, (1, 3), "already over")


def test_corrupt_scores_after_final_scores_and_winner() -> None:
    rec = _tiny()
    rec["rounds"][0]["scores_after"] = [12, 0]
    _rejects(rec, (1, None), "scores_after [12, 0] but the events give [13, 0]")
    rec = _tiny()
    rec["final_scores"] = [13, 1]
    _rejects(rec, (None, None), "final_scores")
    rec = _tiny()
    rec["winner"] = 1
    _rejects(rec, (None, None), "winner 1 but the rules give 0")


def test_corrupt_deal() -> None:
    rec = _tiny()
    rec["rounds"][0]["hands"][1] = [[5, 1]]
    _rejects(rec, (1, None), "already dealt")
    rec = _tiny()
    rec["rounds"][0]["boneyard"].append([7, 7])
    _rejects(rec, (1, None), "not a tile of the double-six set")
    rec = _tiny()
    rec["rounds"][0]["boneyard"].pop()
    _rejects(rec, (1, None), "missing: 6-6")
    rec = _tiny()
    rec["rounds"][0]["hands"][0] = [[5, 1], [2, 2]]
    _rejects(rec, (1, None), "must be dealt 1 tiles")
    rec = _tiny()
    rec["rounds"][0]["first"] = 1
    _rejects(rec, (1, None), "highest starter")


def test_corrupt_rounds_count() -> None:
    rec = _tiny()
    rec["rounds"].append(copy.deepcopy(rec["rounds"][0]))
    _rejects(rec, (2, None), "already over")
    rec = _played()
    rec["rounds"].pop()
    _rejects(rec, (None, None), "not over")


def test_corrupt_header() -> None:
    rec = _tiny()
    rec["options"]["set"] = 8
    _rejects(rec, (None, None), "options")
    rec = _tiny()
    rec["players"] = 3
    _rejects(rec, (None, None), "'players'")


def test_out_seat_must_have_no_starter() -> None:
    game = _game(players=3, target=15)
    for seed in range(40):
        rec = json.loads(json.dumps(play_game(game, [RandomAgent()] * 3, seed)[1]))
        for r, rnd in enumerate(rec["rounds"]):
            if None in rnd["starters"]:
                s = rnd["starters"].index(None)
                rnd["starters"][s] = [0, 0]
                with pytest.raises(ReplayError) as info:
                    replay_record(rec, 1)
                assert info.value.round == r + 1
                return
    pytest.fail("no game with a player out")


def test_json_lines_name_the_bad_record() -> None:
    good = json.dumps(_tiny())
    bad = _tiny()
    bad["rounds"][0]["events"][0]["train"] = 1
    lines = [good, "", good, json.dumps(bad)]
    with pytest.raises(ReplayError) as info:
        replay_lines(lines)
    assert (info.value.record, info.value.round, info.value.event) == (3, 1, 1)
    with pytest.raises(ReplayError, match="record 2: not valid JSON"):
        replay_lines([good, "{oops"])


def test_random_corruptions_never_slip_through_silently() -> None:
    # Changing any single number in a record's events or scores makes replay fail, or
    # (when the change happens to be another legal history) replay to different scores.
    rec = _played(5)
    rng = random.Random(0)
    rounds = rec["rounds"]
    for _ in range(30):
        bad = copy.deepcopy(rec)
        r = rng.randrange(len(rounds))
        events = bad["rounds"][r]["events"]
        k = rng.randrange(len(events))
        event = events[k]
        key = rng.choice([key for key in ("seat", "train", "end") if key in event] or ["seat"])
        event[key] = (event[key] + 1) % 2 if key == "end" else (event[key] + 1) % 3
        with pytest.raises(ReplayError):
            replay_record(bad)
