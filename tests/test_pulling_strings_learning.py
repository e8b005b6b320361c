"""The published edition's learning variants: both rules on hand-made positions, tallies,
notation, options, agents through the proxy, and every front end's view of them."""

from __future__ import annotations

import random
import string

import pytest

import taut
from taut.agents import ProxiedAgent, agents_for, make_agent
from taut.core.errors import InvalidOptionError, MalformedActionError
from taut.core.registry import plugin_of
from taut.games.pulling_strings.learning import LearningState, Tally
from taut.games.pulling_strings.rules import PullingStrings
from tests.conformance import check_conformance

# The ends of this layout: N0..N4, E0..E4, S0..S4, W0..W4.
LETTERS = "ABCDEFGHIJKLMNOPQRST"  # U..Z are out of the game


def learning(rule: str, **options: object) -> PullingStrings:
    game = taut.make(
        "pulling-strings", edition="published", learning=rule, letters=LETTERS, **options
    )
    assert isinstance(game, PullingStrings)
    return game


def position(game: PullingStrings, stacks: list[list[int]], broken: list[str]) -> LearningState:
    state = game.state_from_json({"stacks": stacks, "broken": broken})
    assert isinstance(state, LearningState)
    return state


def play(state: LearningState, x: str, o: str) -> LearningState:
    after = state.apply({0: state.string_to_action(0, x), 1: state.string_to_action(1, o)})
    assert isinstance(after, LearningState)
    return after


# A stack of 2 in the middle of column C (N2/S2) and row H... : (row 2, col 2).
MIDDLE = [[2, 2, 2]]


@pytest.mark.parametrize("rule", ["strict", "slip"])
def test_right_answers_pull_as_in_the_plain_game(rule: str) -> None:
    game = learning(rule)
    state = position(game, MIDDLE, [])
    after = play(state, "C=C", "M=M")  # X pulls N2 (up), O pulls S2 (down): opposite ends
    plain = taut.make("pulling-strings", edition="published", letters=LETTERS)
    base = plain.state_from_json({"stacks": MIDDLE, "broken": []})
    expected = base.apply({0: base.string_to_action(0, "C"), 1: base.string_to_action(1, "M")})
    assert after.stack_list() == expected.to_json()["stacks"]
    assert after.answers is not None and all(a.right for a in after.answers)


def test_strict_wrong_answer_pulls_nothing() -> None:
    game = learning("strict")
    state = position(game, MIDDLE, [])
    after = play(state, "C=D", "H=H")  # X meant C but gave D's face: no pull; O pulls E2
    assert after.answers is not None
    ax, ao = after.answers
    assert not ax.right and ax.pulled is None
    assert ao.right and ao.pulled == game.end_index("H")
    # Only O's pull moved the stack: one step toward the right side.
    assert after.stack_list() == [[2, 3, 2]]
    assert after.broken == 0


def test_strict_both_wrong_moves_nothing_and_breaks_nothing() -> None:
    game = learning("strict")
    state = position(game, MIDDLE, [])
    after = play(state, "C=D", "C=E")
    assert after.stack_list() == [[2, 2, 2]]
    assert after.broken == 0
    assert after.turn == 1


def test_slip_pulls_the_string_the_answer_names() -> None:
    game = learning("slip")
    state = position(game, MIDDLE, [])
    after = play(state, "C=H", "B=B")  # X meant C, gave H's face: H (E2) is pulled instead
    assert after.answers is not None
    assert after.answers[0].pulled == game.end_index("H")
    # X's slip pulls the row right while O pulls column B (nothing on it).
    assert after.stack_list() == [[2, 3, 2]]


def test_slip_onto_a_broken_end_pulls_nothing() -> None:
    game = learning("slip")
    state = position(game, MIDDLE, ["H"])
    after = play(state, "C=H", "B=B")
    assert after.answers is not None
    assert after.answers[0].pulled is None
    assert after.stack_list() == [[2, 2, 2]]


def test_slip_onto_a_tile_not_on_the_board_pulls_nothing() -> None:
    game = learning("slip")
    state = position(game, MIDDLE, [])
    after = play(state, "C=Z", "B=B")  # Z is one of the six tiles out of the game
    assert after.answers is not None
    assert after.answers[0].pulled is None and not after.answers[0].right
    assert after.stack_list() == [[2, 2, 2]]


def test_slip_and_right_answer_on_the_same_end_break_it() -> None:
    game = learning("slip")
    state = position(game, MIDDLE, [])
    after = play(state, "A=H", "H=H")
    assert after.broken == 1 << game.end_index("H")  # type: ignore[operator]


def test_a_meant_end_must_be_unbroken() -> None:
    game = learning("strict")
    state = position(game, MIDDLE, ["C"])
    action = state.string_to_action(0, "C=C")
    assert not state.is_legal(0, action)
    assert "broken" in state.illegal_reason(0, action)


def test_tallies_count_answers_and_mixups() -> None:
    game = learning("strict")
    state = position(game, MIDDLE, [])
    for x in ("M=N", "N=M", "C=C"):
        state = play(state, x, "B=B")
    tx, to = state.tallies
    assert (tx.right, tx.total) == (1, 3)
    assert (to.right, to.total) == (3, 3)
    assert game.tileset is not None
    assert tx.summary(game.tileset) == "1 of 3 signs right; mixed up M and N twice"
    assert Tally().summary(game.tileset) == "0 of 0 signs right"
    data = state.to_json()
    assert data["tally"] == {
        "X": {"right": 1, "total": 3, "mixups": [["M", "N", 2]]},
        "O": {"right": 3, "total": 3, "mixups": []},
    }
    assert data["answers"]["X"]["right"] is True
    assert game.state_from_json(data) == state


def test_notation_round_trips_and_accepts_aliases() -> None:
    game = taut.make("pulling-strings", edition="published", tiles="kana", learning="slip", seed=1)
    state = game.new_initial_state()
    assert isinstance(state, LearningState)
    for action in list(state.legal_actions(0))[::37]:
        text = state.action_to_string(0, action)
        assert state.string_to_action(0, text) == action
        assert state.action_from_json(0, state.action_to_json(0, action)) == action
    first = game.letters[0]
    tiles = state.tiles
    index = tiles.find_board(first)
    assert index is not None
    romaji = tiles.tiles[index].other.aliases[0]
    assert state.string_to_action(0, f"{first}={romaji.upper()}") == state.right_action(0)
    with pytest.raises(MalformedActionError, match="names the string and the answer"):
        state.string_to_action(0, first)
    with pytest.raises(MalformedActionError, match="is not a katakana"):
        state.string_to_action(0, f"{first}=zz")
    with pytest.raises(MalformedActionError, match="names no string end"):
        state.string_to_action(0, "zz")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"learning": "strict"}, "applies only to edition=published"),
        ({"tiles": "roman"}, "applies only to edition=published"),
        ({"edition": "published", "mistakes": 0.2}, "only with learning"),
        ({"edition": "published", "learning": "slip", "repeat": 3}, "cannot be combined"),
        ({"edition": "published", "learning": "slip", "mistakes": 1.5}, "number 0..1"),
        ({"edition": "published", "tiles": "roman", "letters": "1 2 3"}, "20 distinct"),
        ({"edition": "published", "tiles": "roman", "letters": "A B"}, "not a number"),
    ],
)
def test_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        taut.make("pulling-strings", **options)


def test_seeded_layouts_are_unchanged_for_letters() -> None:
    for seed in range(5):
        game = taut.make("pulling-strings", edition="published", seed=seed)
        expected = "".join(random.Random(seed).sample(string.ascii_uppercase, 20))
        assert "".join(game.letters) == expected


def test_other_tile_sets_label_the_board() -> None:
    roman = taut.make("pulling-strings", edition="published", tiles="roman", seed=2)
    assert all(label.isdigit() and 1 <= int(label) <= 26 for label in roman.letters)
    again = taut.make(
        "pulling-strings", edition="published", tiles="roman", letters=roman.options["letters"]
    )
    assert list(again.letters) == list(roman.letters)
    state = roman.new_initial_state()
    end = roman.letters[7]
    assert state.string_to_action(0, end) == 7


@pytest.mark.parametrize("tiles", ["asl", "roman", "kana"])
@pytest.mark.parametrize("rule", ["strict", "slip"])
def test_learning_games_conform(tiles: str, rule: str) -> None:
    game = taut.make(
        "pulling-strings",
        edition="published",
        tiles=tiles,
        learning=rule,
        seed=5,
        max_turns=30,
    )
    check_conformance(game, games=2)


def test_agents_answer_right_unless_told_to_err() -> None:
    game = learning("strict")
    agent = make_agent("greedy", game=game)
    assert isinstance(agent, ProxiedAgent)
    rng = random.Random(3)
    state = game.new_initial_state()
    assert isinstance(state, LearningState)
    for _ in range(10):
        action = agent.act(state, 0, rng)
        end, tile = state.decode(action)
        assert tile == game.tile_of_end[end]
    erring = learning("strict", mistakes=1.0)
    agent = make_agent("random", game=erring)
    state = erring.new_initial_state()
    assert isinstance(state, LearningState)
    for _ in range(10):
        end, tile = state.decode(agent.act(state, 1, rng))
        assert tile != erring.tile_of_end[end]
    mix = make_agent("greedy", game=learning("slip", mistakes=0.25)).strategy(state, 0, rng)
    assert sum(mix.values()) == pytest.approx(1.0)
    assert "perfect" not in agents_for(game) and "hard" in agents_for(game)


def test_mistakes_are_a_share_of_answers() -> None:
    game = learning("strict", mistakes=0.3)
    agent = make_agent("random", game=game)
    state = game.new_initial_state()
    assert isinstance(state, LearningState)
    rng = random.Random(11)
    wrong = 0
    for _ in range(2000):
        end, tile = state.decode(agent.act(state, 0, rng))
        wrong += tile != game.tile_of_end[end]
    assert 0.25 < wrong / 2000 < 0.35


def test_narration_reveals_both_faces_and_ends_with_a_summary() -> None:
    game = learning("strict", max_turns=2)
    state = position(game, MIDDLE, [])
    plugin = plugin_of(game)
    joint = {0: state.string_to_action(0, "C=D"), 1: state.string_to_action(1, "H=H")}
    after = state.apply(joint)
    lines = plugin.narrate(state, joint, after)
    assert lines[0].startswith("Squares (X) meant C and gave the ")
    assert "wrong, the answer for C is the " in lines[0] and lines[0].endswith("no pull.")
    assert lines[1].endswith(": right.")
    final = after.apply(joint)
    assert final.is_terminal()
    closing = plugin.narrate(after, joint, final)
    assert closing[-2] == "X: 0 of 2 signs right; mixed up C and D twice."
    assert closing[-1] == "O: 2 of 2 signs right."


def test_the_board_offers_an_unlabelled_palette_only_to_the_player_to_move() -> None:
    game = learning("strict")
    state = game.new_initial_state()
    plugin = plugin_of(game)
    legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    svg = plugin.svg(state, 0, legal)
    assert 'data-compose="{end}={answer}"' in svg
    assert svg.count('data-part="answer=') == 26
    assert svg.count('data-part="end=') == 20
    assert "ASL handshape for" not in svg  # the palette never names a handshape's letter
    watching = plugin.svg(state, None, [])
    assert 'data-part="' not in watching and 'data-compose="' not in watching
    assert plugin.hides_moves(game) and not plugin.hides_moves(taut.make("pulling-strings"))


def test_the_terminal_asks_for_the_answer_after_the_string(tmp_path: object) -> None:
    from click.testing import CliRunner

    from taut.cli import cli

    runner = CliRunner()
    args = [
        "--no-color",
        "play",
        "pulling-strings",
        "--edition",
        "published",
        "-O",
        "learning=strict",
        "-O",
        "tiles=roman",
        "-O",
        f"letters={' '.join(str(n) for n in range(1, 21))}",
        "--x",
        "human",
        "--o",
        "greedy",
    ]
    result = runner.invoke(cli, args, input="help\n3\nIV\n7\nVII\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Give the Roman numeral for 3:" in out
    assert "X (Squares) meant 3" not in out  # narration names seats by title first
    assert "Squares (X) meant 3 and gave IV: wrong, the answer for 3 is III: no pull." in out
    assert "Squares (X) meant 7 and gave VII: right." in out
    assert "then give the Roman numeral of its tile" in out


def test_an_answer_named_by_its_place_in_the_palette() -> None:
    # The page names answers only by their place in this turn's shuffled palette (@N);
    # the rules read the place back to the tile, and refuse a place the palette lacks.
    game = PullingStrings(edition="published", learning="strict", seed=3)
    state = game.new_initial_state()
    order = state.palette_order(0)
    assert sorted(order) == list(range(len(state.tiles))) and order != sorted(order)
    end = state.game.letters[0]
    for place in (0, 5, len(order) - 1):
        by_place = state.string_to_action(0, f"{end}=@{place}")
        by_face = state.string_to_action(0, f"{end}={state.tiles.tiles[order[place]].other.text}")
        assert by_place == by_face
    with pytest.raises(MalformedActionError, match="@0 to @"):
        state.string_to_action(0, f"{end}=@{len(order)}")
    # Another turn shuffles the palette anew.
    later = state.apply({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[0]})
    if not later.is_terminal():
        assert later.palette_order(0) != order


def test_the_reveal_names_the_seat_by_its_title() -> None:
    # "X meant X, gave ..." read as a riddle where a seat and a letter share a name.
    from taut.games.pulling_strings.svg_learning import reveal

    game = PullingStrings(edition="published", learning="strict", seed=3)
    state = game.new_initial_state()
    after = state.apply({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[0]})
    drawn, height = reveal(after.view(0), 0, 420)
    assert height > 0
    assert "Squares meant " in drawn and "Circles meant " in drawn
    assert ">X meant" not in drawn and ">O meant" not in drawn
