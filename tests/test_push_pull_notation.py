"""Push-Pull move entry: the compact form before and after pieces are scored, the examples
the game prints, the suggestions in its error messages, and round trips of every form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taut
from taut.core.errors import ActionError, IllegalActionError, MalformedActionError
from taut.games.push_pull import PushPull, PushPullState
from taut.games.push_pull.board import OFF
from taut.games.push_pull.guide import help_examples, legend_examples
from taut.games.push_pull.notation import SYMBOLS, compact_action
from taut.games.push_pull.plugin import plugin
from taut.games.push_pull.variants import NUM_PIECES

#: Every combination of options that changes how moves are written or read.
OPTION_SETS: list[dict[str, Any]] = [
    {"variant": "duel"},
    {"variant": "four"},
    {"variant": "four", "shifts": True},
    {"variant": "four-teams"},
    {"variant": "four-teams", "teams": "NW-SE", "shifts": True},
    {"variant": "two-teams"},
    {"variant": "two-teams", "teams": "NW-SE"},
    {"variant": "two-teams", "shifts": True},
]
#: Which pieces are on the board (bit p for piece p): the start, then after scoring.
MASKS = [0b111, 0b110, 0b101, 0b011, 0b100, 0b010, 0b001]


def make(**options: Any) -> PushPull:
    game = taut.make("push-pull", **options)
    assert isinstance(game, PushPull)
    return game


def scored(game: PushPull, mask: int) -> PushPullState:
    """A game in progress with the pieces outside ``mask`` scored, each by another unit (so
    that no unit has won), the others on the starting square."""
    lay = game.layout
    locs, unit = [], 0
    for p in range(NUM_PIECES):
        if mask >> p & 1:
            locs.append(lay.start)
        else:
            side = next(s for s in lay.sides if lay.side_unit[s] == unit)
            locs.append(OFF + side)
            unit += 1
    state = PushPullState(game, tuple(locs), (0,) * NUM_PIECES, 1)
    assert not state.is_terminal()
    return state


def read(state: PushPullState, seat: int, text: str) -> int:
    """Parse ``text`` and check the action is legal here."""
    action = state.string_to_action(seat, text)
    assert state.is_legal(seat, action), (text, state.illegal_reason(seat, action))
    return action


# -- the compact form ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pieces", "text", "expected"),
    [
        ({"L": "W", "M": 2, "S": 3}, "+-", "M=pull,S=push"),
        ({"L": "W", "M": 2, "S": 3}, "0+-", "M=pull,S=push"),
        ({"L": "W", "M": 2, "S": 3}, ".+-", "M=pull,S=push"),
        ({"L": "W", "M": 2, "S": 3}, "++", "M=pull,S=pull"),
        ({"L": "W", "M": 2, "S": 3}, "+", "M=pull,S=pull"),
        ({"L": "W", "M": 2, "S": 3}, "pass pull push", "M=pull,S=push"),
        ({"L": "W", "M": 2, "S": 3}, "0 + -", "M=pull,S=push"),
        ({"L": 1, "M": "E", "S": 3}, "-+", "L=push,S=pull"),
        ({"L": 1, "M": "E", "S": 3}, "-0+", "L=push,S=pull"),
        ({"L": 1, "M": "E", "S": "W"}, "-", "L=push"),
        ({"L": 1, "M": "E", "S": "W"}, "-00", "L=push"),
    ],
)
def test_compact_after_scoring(pieces: dict[str, Any], text: str, expected: str) -> None:
    state = make().state_from_json({"pieces": pieces})
    assert state.action_to_string(0, read(state, 0, text)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("+++", r"pieces on the board only \(\+\+\), or 0 for a scored piece \(0\+\+\)"),
        ("++0", r"\(\+0\).*\(0\+0\)"),
        ("-+-", r"piece L is off the board \(scored by W\)"),
    ],
)
def test_compact_choice_for_a_scored_piece_is_refused(text: str, message: str) -> None:
    state = make().state_from_json({"pieces": {"L": "W", "M": 2, "S": 3}})
    with pytest.raises(IllegalActionError, match=message):
        state.string_to_action(0, text)


@pytest.mark.parametrize(
    ("pieces", "text", "message"),
    [
        ({"L": "W", "M": 2, "S": 3}, "+-0-", r"4 symbols.*on the board \(M, S\) or one for each"),
        ({"L": 2, "M": 2, "S": 3}, "+-", r"2 symbols.*\(L, M, S\) \(choices"),
        ({"L": 2, "M": 2, "S": 3}, "+-0/0", "W writes one run of symbols"),
        ({"L": 2, "M": 2, "S": 3}, "+<0", "shifts=on"),
    ],
)
def test_compact_errors(pieces: dict[str, Any], text: str, message: str) -> None:
    state = make().state_from_json({"pieces": pieces})
    with pytest.raises(MalformedActionError, match=message):
        state.string_to_action(0, text)


@pytest.mark.parametrize(
    ("pieces", "text", "expected"),
    [
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+-0/0-0", "L=pull/pass,M=push/push,S=pass/pass"),
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+/0", "L=pull/pass,M=pull/pass,S=pull/pass"),
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+-0/-", "L=pull/push,M=push/push,S=pass/push"),
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+0-000", "L=pull/pass,M=push/pass,S=pass/pass"),
        (
            {"L": [2, 2], "M": [2, 2], "S": [2, 2]},
            "+0 -0 00",
            "L=pull/pass,M=push/pass,S=pass/pass",
        ),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "+-/0-", "M=pull/pass,S=push/push"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "0+-/00-", "M=pull/pass,S=push/push"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "+-/00-", "M=pull/pass,S=push/push"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "+0-0", "M=pull/pass,S=push/pass"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "00+0-0", "M=pull/pass,S=push/pass"),
    ],
)
def test_two_sided_compact(pieces: dict[str, Any], text: str, expected: str) -> None:
    state = make(variant="two-teams").state_from_json({"pieces": pieces})
    assert state.action_to_string(0, read(state, 0, text)) == expected


@pytest.mark.parametrize(
    ("pieces", "text", "error", "message"),
    [
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+-0", MalformedActionError, r"e\.g\. \+-0/\+-0"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "+-", None, ""),  # a pair for every piece
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "0+-", MalformedActionError, r"e\.g\. 0\+-/0\+-"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "++-", MalformedActionError, r"e\.g\. \+-/0\+$"),
        ({"L": "N", "M": [2, 2], "S": [1, 1]}, "+-0/0-0", IllegalActionError, r"\(-0/-0\)"),
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+-/0", MalformedActionError, "'\\+-' has 2"),
        ({"L": [2, 2], "M": [2, 2], "S": [2, 2]}, "+/0/0", MalformedActionError, "per side"),
    ],
)
def test_two_sided_compact_errors(
    pieces: dict[str, Any], text: str, error: type[ActionError] | None, message: str
) -> None:
    state = make(variant="two-teams").state_from_json({"pieces": pieces})
    if error is None:
        assert state.action_to_string(0, read(state, 0, text)) == "M=pull/push,S=pull/push"
        return
    with pytest.raises(error, match=message):
        state.string_to_action(0, text)


# -- every example and suggestion the game prints ----------------------------------------------


@pytest.mark.parametrize("options", OPTION_SETS)
def test_legend_examples_parse_and_are_legal(options: dict[str, Any]) -> None:
    game = make(**options)
    text = " ".join(plugin.legend(game))
    examples = legend_examples(game.layout)
    assert len(examples) == 2
    start = game.new_initial_state()
    for example in examples:
        assert f" {example}" in text
        for seat in range(game.info.num_seats):
            read(start, seat, example)
    # After scoring, help shows examples for the pieces left (tested below); a legend
    # example whose scored piece passes still reads, in the long form or with its 0.
    for mask in MASKS[1:]:
        state = scored(game, mask)
        for example in examples:
            action = start.string_to_action(0, example)
            if state.is_legal(0, action):
                assert state.string_to_action(0, example) == action


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("mask", MASKS)
def test_help_examples_parse_and_are_legal(options: dict[str, Any], mask: int) -> None:
    game = make(**options)
    state = scored(game, mask)
    for seat in range(game.info.num_seats):
        text = plugin.move_help(state, seat)
        assert text is not None
        examples = help_examples(state, seat)
        assert len(examples) == (2 if mask == 0b111 else 3)
        actions = set()
        for example in examples:
            assert f" {example}" in text
            actions.add(read(state, seat, example))
        assert len(actions) == 1  # the same move, written each way
        assert state.action_to_string(seat, actions.pop()) == examples[0]


BAD_INPUTS = ["", "bogus", "L=pish", "Q=pull", "pull push pull push", "+-0+", "+-0/0-0/00", "+-0"]


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("mask", [0b111, 0b110, 0b001])
def test_suggestions_in_errors_parse_and_are_legal(options: dict[str, Any], mask: int) -> None:
    """Whatever an error message offers after ``e.g.`` is a legal move here."""
    game = make(**options)
    state = scored(game, mask)
    suggested = 0
    for seat in range(game.info.num_seats):
        for text in BAD_INPUTS:
            try:
                state.string_to_action(seat, text)
            except ActionError as exc:
                for example in re.findall(r"e\.g\. ([^\s()]+)", str(exc)):
                    read(state, seat, example)
                    suggested += 1
    assert suggested > 0


# -- round trips -------------------------------------------------------------------------------


def forms(state: PushPullState, seat: int, action: int) -> list[str]:
    """Compact spellings of ``action``, written here independently of the notation module:
    a symbol run per side (pieces on the board, or all three), and for two sides also a run
    of pairs and pairs apart."""
    lay = state.game.layout
    live = [p for p in range(NUM_PIECES) if state.mask >> p & 1]
    m = len(lay.seat_sides[seat])
    per_piece = lay.decode(seat, action)
    out = []
    for pieces in (live, list(range(NUM_PIECES))):
        runs = ["".join(SYMBOLS[per_piece[p][t]] for p in pieces) for t in range(m)]
        out.append("/".join(runs))
        out.append("/".join(runs).replace("0", "."))
        pairs = ["".join(SYMBOLS[c] for c in per_piece[p]) for p in pieces]
        if m == 2:
            out.append("".join(pairs))
        out.append(" ".join(pairs))
    return out


option_sets = st.sampled_from(OPTION_SETS)
masks = st.sampled_from(MASKS)


@settings(max_examples=300, deadline=None)
@given(option_sets, masks, st.data())
def test_every_form_round_trips(options: dict[str, Any], mask: int, data: st.DataObject) -> None:
    game = make(**options)
    state = scored(game, mask)
    seat = data.draw(st.integers(0, game.info.num_seats - 1))
    action = data.draw(st.sampled_from(list(state.legal_actions(seat))))
    text = state.action_to_string(seat, action)
    assert state.string_to_action(seat, text) == action
    assert state.string_to_action(seat, text.lower().replace(",", " ")) == action
    assert state.action_from_json(seat, state.action_to_json(seat, action)) == action
    lay = game.layout
    for full in (False, True):
        assert state.string_to_action(seat, compact_action(lay, seat, action, mask, full)) == action
    for form in forms(state, seat, action):
        assert state.string_to_action(seat, form) == action, form


@pytest.mark.parametrize(
    "options", [{"variant": "duel"}, {"variant": "four", "shifts": True}, {"variant": "two-teams"}]
)
@pytest.mark.parametrize("mask", MASKS)
def test_every_action_round_trips(options: dict[str, Any], mask: int) -> None:
    """Every legal action of the smaller move sets (a two-teams player has 729 without
    shifts), in every written form."""
    game = make(**options)
    state = scored(game, mask)
    for seat in range(game.info.num_seats):
        for action in state.legal_actions(seat):
            for form in [state.action_to_string(seat, action), *forms(state, seat, action)]:
                assert state.string_to_action(seat, form) == action, form
