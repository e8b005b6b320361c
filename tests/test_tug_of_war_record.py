"""Tug of War records: written from games, replayed exactly, corrupted ones rejected.

A record holds the moves and the game's own fields (the rounds as dealt and played); both
are checked by replay. Records of the older form (the rounds alone) still replay.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

import taut
from taut.agents import GreedyAgent, RandomAgent
from taut.agents.base import Agent
from taut.arena.match import play_match
from taut.core.errors import RecordError
from taut.core.record import GameRecord
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war import TugOfWar, TugState
from taut.games.tug_of_war.record import ReplayError, TugRecordPart, replay_lines, replay_record

GOLDEN = Path(__file__).parent / "golden"
#: The fields of the older record form (the game's own fields with its header).
LEGACY = ("game", "options", "players", "seed", "rounds", "final_scores", "winner")

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
        final, rec = _play(game, agents, seed)
        text = json.dumps(rec)
        again = replay_record(json.loads(text))
        assert again.to_json() == final.to_json()
        assert GameRecord.from_json(json.loads(text)).replay().to_json() == final.to_json()
        assert rec["final_scores"] == list(final.scores)
        assert set(rec["options"]) >= {"set", "hand", "players", "end"}
        # The same seed plays the same game.
        assert _play(game, agents, seed)[1] == rec


def _play(game: TugOfWar, agents: list[Agent], seed: int) -> tuple[TugState, dict[str, Any]]:
    """The final state and the record (as JSON) of a game played by the match loop."""
    result = play_match(game, agents, seed=seed)
    assert isinstance(result.state, TugState)
    data: dict[str, Any] = json.loads(json.dumps(result.record.to_json()))
    return result.state, data


def _legacy(data: dict[str, Any]) -> dict[str, Any]:
    """A record in the older form: the game's own fields with its header, no moves."""
    return {key: data[key] for key in LEGACY}


def _played(seed: int = 3) -> dict[str, Any]:
    game = _game(players=3, target=25)
    return _legacy(_play(game, [GreedyAgent(), RandomAgent(), RandomAgent()], seed)[1])


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
        rec = _legacy(_play(game, [RandomAgent()] * 3, seed)[1])
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


# -- the record part in the common format --------------------------------------------------


def _joints(record: GameRecord) -> list[dict[int, int]]:
    return [dict(joint) for joint, _ in record.positions() if joint]


def test_the_record_part_writes_the_rounds_beside_the_moves() -> None:
    game = _game(players=3, target=20)
    final, data = _play(game, [GreedyAgent(), RandomAgent(), RandomAgent()], 11)
    assert data["format"] == 1 and data["game"] == "tug-of-war" and data["seed"] == 11
    assert data["players"] == 3 and data["final_scores"] == list(final.scores)
    out = final.outcome
    assert out is not None and data["winner"] == out.winners[0]
    assert data["result"] == {"winners": [f"P{out.winners[0]}"], "reason": out.reason.name}
    assert len(data["rounds"]) == final.round
    ds = game.dominoes
    for rnd in data["rounds"]:
        # The boneyard: the tiles drawn, in the order drawn, then the others by tile id.
        drawn = [ev["tile"] for ev in rnd["events"] if ev["type"] == "draw"]
        assert rnd["boneyard"][: len(drawn)] == drawn
        rest = [ds.index(*t) for t in rnd["boneyard"][len(drawn) :]]
        assert rest == sorted(rest)
    # The fields stand for exactly the moves.
    record = GameRecord.from_json(data)
    part = TugRecordPart(game)
    assert part.replay(data) == _joints(record)


def test_a_record_replays_with_and_without_its_moves() -> None:
    game = _game(players=4, hand=5, end="rounds", rounds=2)
    for seed in range(3):
        final, data = _play(game, [RandomAgent()] * 4, seed)
        again = GameRecord.from_json(json.loads(json.dumps(data))).replay()
        assert again.to_json() == final.to_json()
        alone = {k: v for k, v in data.items() if k != "moves"}
        record = GameRecord.from_json(alone)
        assert record.moves is None
        assert record.replay().to_json() == final.to_json()


def test_moves_and_rounds_must_agree() -> None:
    game = _game(players=2, end="rounds", rounds=1)
    _, data = _play(game, [RandomAgent()] * 2, 4)
    # A play moved to another train in the rounds, the moves unchanged.
    bad = copy.deepcopy(data)
    event = next(ev for ev in bad["rounds"][0]["events"] if ev["type"] == "play")
    event["train"] = 1 - event["train"]
    with pytest.raises(RecordError):
        GameRecord.from_json(bad).replay()
    # One move fewer than the rounds stand for.
    bad = copy.deepcopy(data)
    bad["moves"].pop()
    with pytest.raises(RecordError, match="the moves stop"):
        GameRecord.from_json(bad).replay()
    # A chance outcome in the moves that the rounds do not deal.
    bad = copy.deepcopy(data)
    first_hand = bad["rounds"][0]["hands"][0][0]
    boneyard = bad["rounds"][0]["boneyard"][-1]
    moves = bad["moves"]
    k = next(
        i for i, m in enumerate(moves) if m.get("chance") == f"{first_hand[0]}-{first_hand[1]}"
    )
    moves[k] = {"chance": f"{min(boneyard)}-{max(boneyard)}"}
    with pytest.raises(RecordError, match=f"move {k + 1}"):
        GameRecord.from_json(bad).replay()


def _snapshots(game: TugOfWar, seed: int) -> tuple[TugState, list[dict[str, Any]]]:
    """The final state and the record as saved after every decision of one game."""
    saved: list[dict[str, Any]] = []

    def save(record: GameRecord) -> None:
        saved.append(json.loads(json.dumps(record.to_json())))

    result = play_match(game, [RandomAgent()] * game.num_players, seed=seed, on_record=save)
    assert isinstance(result.state, TugState)
    return result.state, saved


def test_an_unfinished_game_replays_to_where_it_was_left() -> None:
    game = _game(players=3, target=20)
    final, saved = _snapshots(game, 2)
    full = GameRecord.from_json(saved[-1])
    assert full.finished and full.replay().to_json() == final.to_json()
    states = [state for _, state in full.positions()]
    # (The record saved after the last decision already has the final scores; the result
    # follows in the next save.)
    unfinished = [s for s in saved if s["final_scores"] is None]
    assert unfinished and all(s["result"] is None and s["winner"] is None for s in unfinished)
    # Before the first round is over, in the middle of a later one.
    early = unfinished[0]
    later = next(s for s in unfinished if len(s["rounds"]) == 1 and len(s["moves"]) > 60)
    for data in (early, later):
        record = GameRecord.from_json(data)
        at = record.replay()
        assert at.to_json() == states[len(data["moves"])].to_json()
        assert not at.is_terminal()
        # The rounds alone replay the complete rounds.
        alone = GameRecord.from_json({k: v for k, v in data.items() if k != "moves"}).replay()
        assert isinstance(alone, TugState)
        assert alone.round == len(data["rounds"]) + 1 and alone.dealt == 0
    assert len(early["rounds"]) == 0
    # Its rounds must still be right.
    bad = copy.deepcopy(later)
    bad["rounds"][0]["scores_after"][0] += 1
    with pytest.raises(ReplayError, match="scores_after"):
        GameRecord.from_json(bad).replay()


def test_an_unfinished_record_of_the_older_form_is_reported() -> None:
    game = _game(players=3, target=20)
    _, saved = _snapshots(game, 2)
    data = next(s for s in saved if len(s["rounds"]) == 1)
    legacy = _legacy(data)
    with pytest.raises(ReplayError, match="the record ends after round 1 but the game is not over"):
        GameRecord.from_json(legacy).replay()
    with pytest.raises(ReplayError, match="record 3: the record ends after round 1"):
        replay_record(legacy, 3)


# -- records of the older form -------------------------------------------------------------


def test_a_record_of_the_older_form_replays_through_the_common_reader() -> None:
    record = GameRecord.from_json(_tiny())
    assert record.legacy and record.moves is None
    final = record.replay()
    assert isinstance(final, TugState) and final.scores == (13, 0)
    assert final.outcome is not None and final.outcome.winners == (0,)
    joints = _joints(record)
    assert joints[0] == {CHANCE_SEAT: final.game.dominoes.oriented(6, 5)}
    assert joints[-2:] == [{0: final.game.give_id(0)}, {0: final.game.KEEP}]
    bad = _tiny()
    bad["rounds"][0]["events"][0]["end"] = 0
    with pytest.raises(ReplayError) as info:
        GameRecord.from_json(bad).replay()
    assert (info.value.record, info.value.round, info.value.event) == (None, 1, 1)
    assert str(info.value).startswith("round 1, event 1: ")
    assert str(info.value.numbered(4)).startswith("record 4, round 1, event 1: ")
    with pytest.raises(ReplayError, match="record 9, round 1, event 1: "):
        TugRecordPart(_game(**bad["options"]), record=9).replay(bad)


@pytest.mark.parametrize("name", ["legacy-tug-of-war-selfplay-1", "legacy-tug-of-war-selfplay-2"])
def test_golden_records_of_the_older_form_replay_to_the_same_positions(name: str) -> None:
    golden = json.loads((GOLDEN / f"{name}.json").read_text())
    states = [state for _, state in GameRecord.from_json(golden["record"]).positions()]
    assert len(states) == golden["positions"]
    assert states[-1].to_json() == golden["final"]
    text = "".join(json.dumps(s.to_json(), sort_keys=True) + "\n" for s in states)
    assert hashlib.sha256(text.encode()).hexdigest() == golden["positions_sha256"]
    assert replay_record(golden["record"]).to_json() == golden["final"]
