"""Pulling Strings rules beyond the figures: editions, options, endings, properties."""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taut
from taut.core import GameRecord
from taut.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    PositionError,
)
from taut.games.pulling_strings import PullingStrings, PullingStringsState
from taut.games.pulling_strings.board import CLASSIC_LETTERS, end_name
from taut.games.pulling_strings.reference import reference_turn


def classic(**options: object) -> PullingStrings:
    game = taut.make("pulling-strings", **options)
    assert isinstance(game, PullingStrings)
    return game


def position(
    game: PullingStrings, stacks: list[list[int]], broken: list[str] = ()
) -> PullingStringsState:  # type: ignore[assignment]
    return game.state_from_json({"stacks": stacks, "broken": list(broken)})


def pull(state: PullingStringsState, x: str, o: str) -> PullingStringsState:
    out = state.apply({0: state.string_to_action(0, x), 1: state.string_to_action(1, o)})
    assert isinstance(out, PullingStringsState)
    return out


# A published board whose letters match the published rules' examples: T and U are the two
# ends of the middle row, C the top of the middle column, G its bottom, Y and N the right
# end of the bottom row and the bottom of the right column.
PUBLISHED = "ABCDE" + "FHUJY" + "KLGMN" + "OPTQR"


def published() -> PullingStrings:
    game = taut.make("pulling-strings", edition="published", letters=PUBLISHED)
    assert isinstance(game, PullingStrings)
    return game


class TestPublishedExamples:
    def test_pull_right(self) -> None:
        s = pull(published().new_initial_state(), "U", "U")
        assert s.stack_list() == [[2, 3, 5]]
        assert s.broken_letters() == ["U"]

    def test_both_g_moves_down_and_breaks(self) -> None:
        s = pull(published().new_initial_state(), "G", "G")
        assert s.stack_list() == [[3, 2, 5]]
        assert s.broken_letters() == ["G"]
        assert not s.is_legal(0, s.string_to_action(0, "G"))

    def test_split_both_ends_of_a_row(self) -> None:
        s = pull(published().new_initial_state(), "T", "U")
        assert s.stack_list() == [[2, 1, 3], [2, 3, 3]]

    def test_split_at_crossing(self) -> None:
        s = pull(published().new_initial_state(), "U", "C")
        assert s.stack_list() == [[1, 2, 3], [2, 3, 3]]

    def test_edge_stack_splits_and_half_stays(self) -> None:
        s = pull(position(published(), [[2, 4, 3]]), "U", "T")
        assert s.stack_list() == [[2, 3, 2], [2, 4, 2]]

    def test_corner_stack_splits_in_place(self) -> None:
        s = pull(position(published(), [[4, 4, 4]]), "Y", "N")
        assert s.stack_list() == [[4, 4, 4]]

    def test_odd_corner_stack_gains_a_disk_or_is_kept(self) -> None:
        s = pull(position(published(), [[4, 4, 3]]), "Y", "N")
        assert s.stack_list() == [[4, 4, 4]]
        keep = taut.make("pulling-strings", edition="published", letters=PUBLISHED, corner="keep")
        assert isinstance(keep, PullingStrings)
        s = pull(position(keep, [[4, 4, 3]]), "Y", "N")
        assert s.stack_list() == [[4, 4, 3]]

    def test_stacks_combine(self) -> None:
        # Two stacks of 2 pulled onto one intersection from a column and a row.
        s = pull(position(published(), [[1, 3, 2], [2, 4, 2]]), "H", "U")
        # H is the right end of row 1: the (1,3) stack moves right to (1,4);
        # U pulls row 2 right: (2,4) stays at the edge.
        assert s.stack_list() == [[1, 4, 2], [2, 4, 2]]
        s = pull(position(published(), [[2, 3, 2], [1, 4, 2]]), "Y", "U")
        # Y pulls row 4 (empty), U pulls row 2: (2,3) -> (2,4).
        assert s.stack_list() == [[1, 4, 2], [2, 4, 2]]
        s = pull(position(published(), [[1, 4, 2], [3, 4, 2]]), "N", "Y")
        # N pulls column 4 down: (1,4)->(2,4), (3,4)->(4,4); Y pulls row 4 right: stays.
        assert s.stack_list() == [[2, 4, 2], [4, 4, 2]]
        s = pull(position(published(), [[2, 3, 2], [3, 4, 2]]), "U", "E")
        # U moves (2,3) right onto (2,4); E (top of column 4) moves (3,4) up onto (2,4).
        assert s.stack_list() == [[2, 4, 4]]

    def test_letters_from_seed_are_stable(self) -> None:
        a = taut.make("pulling-strings", edition="published", seed=7)
        b = taut.make("pulling-strings", edition="published", seed=7)
        c = taut.make("pulling-strings", edition="published", seed=8)
        assert isinstance(a, PullingStrings) and isinstance(b, PullingStrings)
        assert isinstance(c, PullingStrings)
        assert a.letters == b.letters != c.letters
        assert len(set(a.letters)) == 20
        assert a.info.seats == ("X", "O") and a.seat_titles == ("Squares", "Circles")


class TestOptions:
    def test_break_string_breaks_both_ends(self) -> None:
        s = pull(classic(**{"break": "string"}).new_initial_state(), "c", "c")
        assert s.broken_letters() == ["c", "o"]
        s2 = pull(classic().new_initial_state(), "c", "c")
        assert s2.broken_letters() == ["c"]
        assert s2.is_legal(0, s2.string_to_action(0, "o"))

    def test_unknown_option_names_the_allowed_ones(self) -> None:
        with pytest.raises(InvalidOptionError, match="its options are: edition"):
            taut.make("pulling-strings", colour="red")

    def test_bad_value_lists_choices(self) -> None:
        with pytest.raises(InvalidOptionError, match=re.escape("classic | published")):
            taut.make("pulling-strings", edition="deluxe")

    def test_letters_need_published(self) -> None:
        with pytest.raises(InvalidOptionError, match="published"):
            taut.make("pulling-strings", letters=PUBLISHED)
        with pytest.raises(InvalidOptionError, match="20 distinct"):
            taut.make("pulling-strings", edition="published", letters="AB")

    def test_unknown_game(self) -> None:
        with pytest.raises(taut.core.UnknownGameError, match=r"known games: .*pulling-strings"):
            taut.make("pulling-string")


class TestEndings:
    def test_home_win(self) -> None:
        game = classic()
        s = position(game, [[1, 2, 5]])  # pulled right twice along row x -> (1,4), an X home
        s = pull(s, "g", "h")  # h pulls row w, which is empty
        assert s.stack_list() == [[1, 3, 5]] and s.outcome is None
        s = pull(s, "g", "i")
        assert s.home() == (5, 0)
        assert s.outcome is not None and s.outcome.winners == (0,)
        assert s.returns() == (1.0, -1.0)
        with pytest.raises(GameOverError):
            pull(s, "a", "b")

    def test_tie_at_five_continues(self) -> None:
        game = classic()
        # 5 on (0,2) and 5 on (2,2)... build equal homes: X home (0,1) and O home (0,3).
        s = position(game, [[0, 2, 10]])
        s = pull(s, "y", "f")  # row 0 both ends: split 5 west to (0,1) and 5 east to (0,3)
        assert s.home() == (5, 5)
        assert s.outcome is None
        s = pull(s, "b", "t")  # b pulls column 1 up (stays), t pulls row 4: nothing moves
        assert s.outcome is None
        s = pull(s, "r", "t")  # r pulls column 1 down: X's home stack leaves
        assert s.home() == (0, 5) and s.outcome is not None and s.outcome.winners == (1,)

    def test_stuck_draw_when_every_end_is_broken(self) -> None:
        game = classic()
        s = position(game, [[2, 4, 3]], broken=["e", "m", "w"])
        assert s.outcome is None
        s = pull(s, "h", "h")
        assert s.outcome is not None and s.outcome.is_draw and s.outcome.reason.name == "stuck"
        assert s.returns() == (0.0, 0.0)

    def test_pressed_against_edge_is_not_stuck(self) -> None:
        game = classic()
        s = position(game, [[0, 0, 2]], broken=["a", "y", "s"])
        assert s.outcome is None  # t (row 0's east end is f) - f still pulls it
        assert s.legal_actions(0)

    def test_max_turns_draw(self) -> None:
        game = classic(max_turns=2)
        s = pull(pull(game.new_initial_state(), "a", "e"), "a", "e")
        assert s.outcome is not None and s.outcome.reason.name == "max_turns" and s.outcome.is_draw

    def test_agreement(self) -> None:
        s = classic().new_initial_state().end_by_agreement()
        assert s.outcome is not None and s.outcome.reason.name == "agreement"
        with pytest.raises(IllegalActionError):
            s.end_by_agreement()


class TestErrors:
    def test_unknown_letter(self) -> None:
        s = classic().new_initial_state()
        with pytest.raises(MalformedActionError, match="ends are a b c"):
            s.string_to_action(0, "z")

    def test_broken_end(self) -> None:
        s = pull(classic().new_initial_state(), "c", "c")
        with pytest.raises(IllegalActionError, match="end c is broken"):
            pull(s, "c", "h")

    def test_missing_seat(self) -> None:
        s = classic().new_initial_state()
        with pytest.raises(IllegalActionError, match="X, O"):
            s.apply({0: 1})
        with pytest.raises(IllegalActionError, match="mapping"):
            s.apply(3)

    @pytest.mark.parametrize(
        "bad",
        [
            [],
            {"stacks": [[5, 0, 1]]},
            {"stacks": [[0, 0, 0]]},
            {"stacks": [[0, 0]]},
            {"stacks": [[1, 1, 1], [1, 1, 2]]},
            {"broken": ["z"]},
            {"stack": []},
        ],
    )
    def test_bad_positions(self, bad: object) -> None:
        with pytest.raises(PositionError):
            classic().state_from_json(bad)

    def test_geometric_names_accepted(self) -> None:
        s = classic().new_initial_state()
        for end in range(20):
            assert s.string_to_action(0, end_name(end)) == end
            assert s.string_to_action(0, CLASSIC_LETTERS[end].upper()) == end


# -- properties ---------------------------------------------------------------------------

cells = st.integers(0, 24)
stacks_st = st.dictionaries(cells, st.integers(1, 12), min_size=1, max_size=8)
ends = st.integers(0, 19)


@settings(max_examples=300, deadline=None)
@given(stacks_st, ends, ends, st.booleans())
def test_engine_matches_reference(stacks: dict[int, int], p: int, q: int, keep: bool) -> None:
    game = classic(corner="keep" if keep else "split")
    state = PullingStringsState(game, dict(stacks), 0, 0)
    got = {(c // 5, c % 5): n for c, n in state.pull(p, q).stacks.items()}
    ref = reference_turn(
        {(c // 5, c % 5): n for c, n in stacks.items()}, end_name(p), end_name(q), keep
    )
    assert got == ref


@settings(max_examples=300, deadline=None)
@given(stacks_st, ends, ends)
def test_disks_grow_by_odd_splits(stacks: dict[int, int], p: int, q: int) -> None:
    game = classic()
    state = PullingStringsState(game, dict(stacks), 0, 0)
    plan = game.plans[p * 20 + q]
    odd_splits = sum(1 for c, n in stacks.items() if isinstance(plan[c], tuple) and n % 2)
    assert state.pull(p, q).total_disks() == state.total_disks() + odd_splits


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "published"]))
def test_same_seed_same_game_and_record_replays(seed: int, edition: str) -> None:
    game = (
        classic(max_turns=200)
        if edition == "classic"
        else taut.make("pulling-strings", edition="published", seed=seed % 100, max_turns=200)
    )

    def play(rng: random.Random) -> tuple[PullingStringsState, GameRecord]:
        s = game.new_initial_state()
        rec = GameRecord.start(game)
        while not s.is_terminal():
            joint = s.random_joint(rng)
            rec.add(s, joint)
            s = s.apply(joint)
        rec.finish(s)
        assert isinstance(s, PullingStringsState)
        return s, rec

    a, rec = play(random.Random(seed))
    b, _ = play(random.Random(seed))
    assert a == b
    assert a.turn <= 200
    replayed = GameRecord.from_json(json.loads(json.dumps(rec.to_json()))).replay()
    assert replayed == a


@pytest.mark.parametrize("options", [{}, {"break": "string"}, {"corner": "keep"}])
def test_fast_playout_matches_protocol(options: dict[str, str]) -> None:
    game = classic(max_turns=120, **options)
    for seed in range(200):
        turns, outcome = game.random_playout(random.Random(seed))
        rng = random.Random(seed)
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            legal = s.legal_actions(0)
            p = rng.choice(legal)
            q = rng.choice(legal)
            s = s.apply({0: p, 1: q})
            n += 1
        assert (n, s.outcome) == (turns, outcome), seed


def test_record_with_wrong_outcome_is_refused() -> None:
    game = classic()
    s = game.new_initial_state()
    rec = GameRecord.start(game)
    rec.add(s, {0: 2, 1: 7})
    rec.result = {"winners": ["X"], "reason": "home"}
    with pytest.raises(taut.core.RecordError, match="result"):
        rec.replay()
    rec.outcome = None
    rec.moves.append({"X": "zz", "O": "c"})
    with pytest.raises(taut.core.RecordError, match="move 2"):
        rec.replay()


def test_rollout_matches_protocol_from_a_midgame_position() -> None:
    game = classic(max_turns=150)
    start = game.state_from_json(
        {"stacks": [[0, 0, 3], [2, 2, 4], [4, 1, 1]], "broken": ["c", "h"], "turn": 10}
    )
    for seed in range(100):
        for limit in (1, 5, 1000):
            fast = game.rollout(start, random.Random(seed), limit)
            rng = random.Random(seed)
            s: PullingStringsState = start
            for _ in range(limit):
                if s.is_terminal():
                    break
                legal = s.legal_actions(0)
                p = rng.choice(legal)
                q = rng.choice(legal)
                s = s.pull(p, q)
            assert fast == s, (seed, limit)


def test_integer_option_choices() -> None:
    from taut.core.options import OptionSpec, OptionText

    spec = OptionSpec("set", int, 6, "domino set", choices=(6, 9))
    assert spec.coerce(OptionText("9")) == 9 and spec.coerce(9) == 9
    with pytest.raises(InvalidOptionError, match=re.escape("allowed: 6 | 9")):
        spec.coerce(7)
