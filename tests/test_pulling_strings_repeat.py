"""Draws by repetition (option ``repeat=N``): drawn at the N-th occurrence and not before,
counted by position (stacks and broken ends), and nothing at all without the option."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import taut
from taut.cli import cli as app
from taut.core import GameRecord
from taut.core.errors import GameOverError, InvalidOptionError, PositionError
from taut.core.game import State
from taut.games.pulling_strings import PullingStrings, PullingStringsState
from taut.games.pulling_strings.narrate import describe_turn
from taut.games.pulling_strings.repeats import RepeatingState
from tests.conformance import check_conformance

# Up one intersection and back down: the start position comes back every second turn
# (column a, pulled by O, is empty).
CYCLE = ["c/a", "o/a"]


def make(**options: object) -> PullingStrings:
    game = taut.make("pulling-strings", **options)
    assert isinstance(game, PullingStrings)
    return game


def pull(state: PullingStringsState, turn: str) -> PullingStringsState:
    x, o = turn.split("/")
    out = state.apply({0: state.string_to_action(0, x), 1: state.string_to_action(1, o)})
    assert isinstance(out, PullingStringsState)
    return out


def counted(state: PullingStringsState) -> RepeatingState:
    assert isinstance(state, RepeatingState)
    return state


def play(state: PullingStringsState, turns: list[str]) -> list[PullingStringsState]:
    states = [state]
    for turn in turns:
        states.append(pull(states[-1], turn))
    return states


@pytest.mark.parametrize("n", [2, 3, 5])
def test_drawn_at_the_nth_occurrence_and_not_before(n: int) -> None:
    game = make(repeat=n)
    states = play(game.new_initial_state(), CYCLE * (n - 1))
    # The start occurs at turns 0, 2, 4...: its n-th occurrence is turn 2(n - 1).
    last = 2 * (n - 1)
    assert all(s.outcome is None for s in states[:last])
    final = states[last]
    assert final.outcome is not None and final.outcome.is_draw
    assert final.outcome.reason.name == "repetition" and final.returns() == (0.0, 0.0)
    assert final.describe_outcome() == "draw (repetition)"
    # The position in between occurred n - 1 times so far: not yet a draw.
    assert counted(final).times == n and counted(states[last - 1]).times == n - 1
    with pytest.raises(GameOverError):
        pull(final, "c/a")


def test_the_turn_does_not_count_but_broken_ends_do() -> None:
    game = make(repeat=2)
    start = game.state_from_json({"stacks": [[2, 2, 5]], "broken": [], "turn": 40})
    assert pull(pull(start, "c/a"), "o/a").outcome is not None
    # The same stacks with an end broken since are a new position.
    s = play(game.new_initial_state(), ["c/a", "o/a"])[1]  # 1: (c,x)
    s = counted(pull(s, "e/e"))  # breaks e, moves nothing: stacks as before
    assert s.stack_list() == [[1, 2, 5]] and s.times == 1 and s.outcome is None
    assert s.seen() == {}
    s = counted(play(s, ["o/a", "c/a"])[-1])  # back to (c,x): second time with e broken
    assert s.times == 2 and s.outcome is not None


def test_a_gained_disk_starts_the_count_afresh() -> None:
    game = make(repeat=3)
    s = counted(play(game.new_initial_state(), ["c/a", "o/a", "c/h"])[-1])  # odd split: 6
    assert s.total_disks() == 6 and s.seen() == {}


def test_without_the_option_nothing_changes() -> None:
    game = make()
    assert game.repeat is None and game.options["repeat"] is None
    states = play(game.new_initial_state(), CYCLE * 20)
    assert all(type(s) is PullingStringsState for s in states)
    assert all(s.outcome is None for s in states)
    assert "seen" not in states[-1].to_json()
    assert states[-1].transposition_key() == states[0].transposition_key() == states[0].key()
    # A position printed under the option reads back without it (its counts ignored).
    counted = play(make(repeat=9).new_initial_state(), CYCLE)[-1]
    plain = game.state_from_json(counted.to_json())
    assert type(plain) is PullingStringsState and plain.stack_list() == counted.stack_list()


def test_option_values() -> None:
    assert make(repeat=3).repeat == 3
    with pytest.raises(InvalidOptionError, match=r"integer 2\.\."):
        make(repeat=1)
    with pytest.raises(InvalidOptionError):
        make(repeat="three")


def test_json_round_trip_keeps_the_counts() -> None:
    game = make(repeat=3)
    states = play(game.new_initial_state(), [*CYCLE, "c/a"])
    s = states[-1]
    data = json.loads(json.dumps(s.to_json()))
    assert data["seen"] == [
        {"stacks": [[1, 2, 5]], "times": 1},
        {"stacks": [[2, 2, 5]], "times": 2},
    ]
    again = game.state_from_json(data)
    assert again == s and again.to_json() == s.to_json()
    assert pull(again, "o/a").outcome is not None  # the start's third time
    # Without "seen" the count starts at the given position.
    fresh = game.state_from_json({"stacks": data["stacks"], "broken": []})
    assert fresh != s and pull(fresh, "o/a").outcome is None


@pytest.mark.parametrize(
    "seen",
    [
        {"stacks": []},
        [{"stacks": [[2, 2, 5]]}],
        [{"stacks": [[2, 2, 5]], "times": 0}],
        [{"stacks": [[9, 2, 5]], "times": 1}],
        [{"stacks": [[2, 2, 5]], "times": True}],
    ],
)
def test_bad_seen_is_refused(seen: object) -> None:
    with pytest.raises(PositionError, match=r"seen|stack"):
        make(repeat=3).state_from_json({"stacks": [[2, 2, 5]], "seen": seen})


def test_transposition_key_tells_counts_apart() -> None:
    game = make(repeat=3)
    once = game.new_initial_state()
    twice = play(once, CYCLE)[-1]
    assert once.key() == twice.key()
    assert once.transposition_key() != twice.transposition_key()
    assert once != twice
    again = play(game.new_initial_state(), CYCLE)[-1]
    assert again.transposition_key() == twice.transposition_key() and again == twice
    limited = make(repeat=3, max_turns=50)
    a, b = play(limited.new_initial_state(), CYCLE)[::2]
    assert a.transposition_key() != b.transposition_key()


def test_agreement_keeps_the_counts() -> None:
    s = counted(play(make(repeat=3).new_initial_state(), CYCLE)[-1])
    agreed = s.end_by_agreement()
    assert isinstance(agreed, RepeatingState) and agreed.seen() == s.seen()
    assert agreed.outcome is not None and agreed.outcome.reason.name == "agreement"


def test_narration_counts_the_repetition() -> None:
    game = make(repeat=3)
    before = play(game.new_initial_state(), CYCLE[:1])[-1]
    after = pull(before, CYCLE[1])
    lines = describe_turn(before, 12, 0, after)
    assert lines[-1] == "This position has now occurred 2 times (the game is drawn at 3)."
    plain = make().new_initial_state()
    assert not any("occurred" in ln for ln in describe_turn(plain, 2, 0, pull(plain, "c/a")))


def test_fast_playout_and_rollout_match_the_protocol() -> None:
    game = make(repeat=2, max_turns=120)
    ended = set()
    for seed in range(100):
        turns, outcome = game.random_playout(random.Random(seed))
        rng = random.Random(seed)
        s: State = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            legal = s.legal_actions(0)
            p = rng.choice(legal)
            q = rng.choice(legal)
            s = s.apply({0: p, 1: q})
            n += 1
        assert (n, s.outcome) == (turns, outcome), seed
        assert outcome is not None
        ended.add(outcome.reason.name)
    assert "repetition" in ended


def test_conformance_under_the_option() -> None:
    check_conformance(make(repeat=2, max_turns=60), games=6)
    check_conformance(make(repeat=3, edition="published", seed=2, max_turns=60), games=4)


def test_record_of_a_repetition_replays() -> None:
    game = make(repeat=2)
    s = game.new_initial_state()
    rec = GameRecord.start(game)
    for turn in CYCLE:
        after = pull(s, turn)
        x, o = turn.split("/")
        rec.add(s, {0: s.string_to_action(0, x), 1: s.string_to_action(1, o)}, after)
        s = after
    rec.finish(s)
    again = GameRecord.from_json(json.loads(json.dumps(rec.to_json()))).replay()
    assert again == s and again.outcome is not None
    assert again.outcome.reason.name == "repetition"


def test_command_line_option() -> None:
    r = CliRunner().invoke(
        app, ["replay", "pulling-strings", "--repeat", "2", "--turns", "c/a o/a", "--json"]
    )
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout.splitlines()[-1])
    assert last["result"] == "draw" and last["seen"][-1] == {"stacks": [[2, 2, 5]], "times": 1}
    r = CliRunner().invoke(app, ["replay", "pulling-strings", "--turns", "c/a o/a", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout.splitlines()[-1])["result"] is None
    r = CliRunner().invoke(app, ["replay", "pulling-strings", "--repeat", "1", "--turns", "c/a"])
    assert r.exit_code == 2 and "repeat" in r.stderr


def test_agents_play_under_the_option() -> None:
    r = CliRunner().invoke(
        app,
        [
            "play",
            "pulling-strings",
            "--x",
            "greedy",
            "--o",
            "greedy",
            "--seed",
            "2",
            "--repeat",
            "3",
            "--max-turns",
            "60",
        ],
    )
    assert r.exit_code == 0, r.output
