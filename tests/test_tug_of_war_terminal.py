"""Tug of War at a terminal: the notation explained where a player meets it, a human's
tile told as typed, the coloured board, and the plugin's words for rules, seats and
positions."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from click.testing import CliRunner
from rich.text import Text

import taut
from taut.cli import cli as app
from taut.games.tug_of_war import TugOfWar, TugState, position
from taut.games.tug_of_war.plugin import plugin
from taut.games.tug_of_war.presenter import TugPresenter

#: What the legend and help must explain: the marks of the table and how to type a play.
EXPLAINED = ("{5|6} is the starter", "(3) is an open end", "= 9 is the sum", "3-5@1.0", "3-5")


def _game(**options: object) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


def _stuck() -> TugState:
    """P0 to play 5-1 (fits end 1 of its own train only) or 3-3; P1 holds 0-0."""
    return position(
        _game(players=2),
        starters=[(3, 5), (2, 6)],
        hands=[[(5, 1), (3, 3)], [(0, 0)]],
        boneyard=[(4, 4)],
        current=0,
    )


def _plain(blocks: Sequence[object]) -> str:
    return "\n".join(Text.from_markup(str(b)).plain for b in blocks)


def test_the_legend_and_help_explain_the_notation() -> None:
    legend = " ".join(plugin.legend(_game(players=3)))
    for words in EXPLAINED:
        assert words in legend
    assert "how many of the leftover points they lose" in legend
    two = " ".join(plugin.legend(_game(players=2)))
    assert "type keep" in two and "give" in two and "never split" in two
    state = _stuck()
    text = plugin.move_help(state.view(0), 0)
    assert text is not None
    for words in EXPLAINED:
        assert words in text
    assert text.endswith("Legal: 5-1@0.1 3-3@0.0")


def test_two_player_bonus_help_and_hint_offer_keep_or_give() -> None:
    state = _stuck().apply(_stuck().string_to_action(0, "5-1@0.1"))
    state = state.apply(state.string_to_action(1, "draw"))
    assert isinstance(state, TugState)
    state = state.apply(state.random_joint(random.Random(0)))  # P1 draws 4-4
    state = state.apply(state.string_to_action(1, "pass"))
    state = state.apply(state.string_to_action(0, "3-3@0.0"))
    assert isinstance(state, TugState) and state.bonus is not None
    view = state.view(0)
    text = plugin.move_help(view, 0)
    assert text is not None
    assert "type keep to add all 8 points to your score, or give to take all 8 from P1" in text
    assert text.endswith("Legal: +8@0 -8@1")
    presenter = plugin.presenter(state.game)
    assert presenter.forced(view, 0) is None
    prompt = _plain(presenter.prompt(view, 0))
    assert "Type keep (P0 +8) or give (P1 -8)." in prompt
    assert "With two players it is not split: P0 keeps all 8 or P1 loses all 8." in prompt


def test_a_human_s_play_is_told_with_the_tile_as_typed() -> None:
    state = _stuck()
    presenter = plugin.presenter(state.game)
    assert isinstance(presenter, TugPresenter)
    action = state.string_to_action(0, "5-1@0.1")

    def told(typed: str | None) -> str:
        if typed is not None:
            presenter.entered(state.view(0), 0, typed, action)
        after = state.apply(action)
        return _plain(presenter.after(state, {0: action}, after, None))

    assert told(None) == "P0 plays 1-5 on end 1 of own train: P0 +4."
    assert told("5-1@0.1") == "P0 plays 5-1 on end 1 of own train: P0 +4."
    assert told("1-5") == "P0 plays 1-5 on end 1 of own train: P0 +4."
    # What was typed is told once, for that move only.
    assert told(None) == "P0 plays 1-5 on end 1 of own train: P0 +4."
    presenter.entered(state.view(0), 0, "3-3@0.0", state.string_to_action(0, "3-3@0.0"))
    assert "plays 1-5" in told(None)


def test_typed_tiles_leave_the_notation_as_laid() -> None:
    state = _stuck()
    presenter = plugin.presenter(state.game)
    assert isinstance(presenter, TugPresenter)
    action = state.string_to_action(0, "1-5@0.1")
    presenter.entered(state.view(0), 0, "1-5@0.1", action)
    after = state.apply(action)
    assert "plays 1-5" in _plain(presenter.after(state, {0: action}, after, None))
    # Records write moves in notation and plays as laid: the 5 meets the open 5.
    assert state.action_to_string(0, action) == "5-1@0.1"
    assert state.action_to_json(0, action) == {"type": "play", "tile": [5, 1], "train": 0, "end": 1}


def test_the_board_is_coloured_and_plain_without_markup() -> None:
    state = position(
        _game(players=2),
        starters=[(3, 5), (2, 6)],
        hands=[[(5, 1), (0, 2)], [(1, 0), (6, 6)]],
        current=0,
        scores=[-5, 3],
    )
    after = state.apply(state.string_to_action(0, "5-1@0.1"))  # P0 +4
    after = after.apply(after.string_to_action(1, "1-0@0.1"))  # on P0's train: P0 -3
    for view in (after.view(0), after.view(1), after.view(None), after):
        plain = plugin.render(view)
        coloured = plugin.render(view, markup=True)
        assert Text.from_markup(coloured).plain == plain
        assert "[bold #E69F00](0)[/]" in coloured  # an open end
        assert "[#CC79A7]{3|5}[/]" in coloured  # a starter
        assert "[bold #56B4E9]= 8[/]" in coloured  # the open ends' sum
        assert "[#009E73]     3[/]" in coloured and "[#D55E00]    -4[/]" in coloured
    assert "[bold #0072B2]Your hand (P1):[/]" in plugin.render(after.view(1), markup=True)
    assert str(after.view(0)) == plugin.render(after.view(0))


def test_rules_seat_title_and_position_help() -> None:
    rules = plugin.rules_text()
    assert "double-twelve for seven or eight" in rules
    assert "with two players it all goes one way" in rules
    assert "\n\n" in rules and len(rules.split("\n\n")) == 4
    game = _game(players=4)
    assert plugin.seat_title(game, 2) == "P2 (train 2)"
    assert "\n" not in plugin.position_help and '"trains"' in plugin.position_help
    # The JSON shown is the JSON read: a position from --json goes back in.
    data = _stuck().to_json()
    assert json.loads(json.dumps(data))["trains"][0]["starter"] == [3, 5]


def test_playing_at_the_terminal_shows_the_explained_legend() -> None:
    r = CliRunner().invoke(
        app, ["play", "tug-of-war", "--players", "3", "--seed", "2"], input="help\nquit\n"
    )
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    for words in EXPLAINED:
        assert words in out
    assert "Game stopped" in out
