"""The terminal table: hidden entry for humans sharing a screen, bad input never loses a game."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import taut
from taut.arena.match import DrawOffer, QuitGame
from taut.cli.table import HumanAgent, TerminalTable
from taut.core.game import State
from taut.core.presenter import Presenter


class Script:
    """A fake keyboard: returns scripted lines and notes whether each was hidden."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        self.prompts: list[tuple[str, bool]] = []

    def __call__(self, prompt: str, hidden: bool) -> str:
        self.prompts.append((prompt, hidden))
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def table(
    humans: int, script: Script, game: str = "pulling-strings", presenter: Presenter | None = None
) -> tuple[TerminalTable, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    shown = presenter or taut.plugin(game).presenter(taut.make(game))
    return TerminalTable(console, shown, humans, read_line=script), out


def test_two_humans_type_hidden_after_a_pause() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    script = Script("", "c")
    t, out = table(2, script)
    action = HumanAgent(t).act(state, 1, random.Random(0))
    assert action == state.string_to_action(1, "c")
    assert script.prompts[0] == ("Pass the keyboard to O; press Enter when only O can see. ", False)
    assert script.prompts[1] == ("O pulls> ", True)
    assert "O has chosen (hidden)." in out.getvalue()
    assert "pulls> c" not in out.getvalue()


def test_one_human_types_visibly_and_retries_bad_entries() -> None:
    s0 = taut.make("pulling-strings").new_initial_state()
    state = s0.apply({0: 2, 1: 2})  # c breaks
    script = Script("q9", "c", "", "h")
    t, out = table(1, script)
    action = HumanAgent(t).act(state, 0, random.Random(0))
    assert action == state.string_to_action(0, "h")
    assert all(hidden is False for _, hidden in script.prompts)
    text = out.getvalue()
    assert "names no string end" in text and "end c is broken" in text


def test_commands() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    with pytest.raises(DrawOffer):
        HumanAgent(table(1, Script("draw"))[0]).act(state, 0, random.Random(0))
    with pytest.raises(QuitGame):
        HumanAgent(table(1, Script("quit"))[0]).act(state, 0, random.Random(0))
    with pytest.raises(QuitGame):  # end of input
        HumanAgent(table(1, Script())[0]).act(state, 0, random.Random(0))
    assert HumanAgent(table(1, Script("y"))[0]).accept_draw(state, 1) is True
    assert HumanAgent(table(1, Script("n"))[0]).accept_draw(state, 1) is False


def test_report_is_shown_again_after_the_handover() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    t, out = table(2, Script("", "c"))
    t.report = ["Turn 3: X pulled a, O pulled b."]
    HumanAgent(t).act(state, 0, random.Random(0))
    assert "Turn 3: X pulled a, O pulled b." in out.getvalue()


class NoDraws(Presenter):
    """A presentation of a game where "draw" is no command."""

    @property
    def draw_offers(self) -> bool:
        return False


def test_draw_is_an_action_when_offers_are_off() -> None:
    game = taut.make("pulling-strings")
    t, out = table(1, Script("draw", "quit"), presenter=NoDraws(taut.plugin(game.name), game))
    state = game.new_initial_state()
    with pytest.raises(QuitGame):  # "draw" went to the game's parser, then quit
        HumanAgent(t).act(state, 0, random.Random(0))
    assert "names no string end" in out.getvalue()


def test_help_hook_and_long_lists_are_capped() -> None:
    from taut.cli.table import HELP_LIMIT

    game = taut.make("push-pull", variant="two-teams")
    state = game.new_initial_state()
    t, out = table(
        1, Script("help", "quit"), presenter=Presenter(taut.GamePlugin(type(game)), game)
    )
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, 0, random.Random(0))
    assert f"and {len(state.legal_actions(0)) - HELP_LIMIT} more" in out.getvalue()

    class ShortHelp(Presenter):
        def move_help(self, view: State, seat: int) -> str | None:
            return f"short help for seat {seat}"

    t, out = table(1, Script("help", "quit"), presenter=ShortHelp(taut.plugin(game.name), game))
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, 0, random.Random(0))
    assert "short help for seat 0" in out.getvalue()


def play_at_table(
    game: taut.Game, seats: list[str], script: Script, seed: int = 1
) -> tuple[object, str]:
    """Play a game with a scripted human through the table; the result and the screen."""
    from taut.agents import make_agent
    from taut.cli.table import RecordFile, play_in_terminal

    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    presenter = taut.plugin(game.name).presenter(game)
    humans = sum(1 for s in seats if s == "human")
    t = TerminalTable(console, presenter, humans, read_line=script)
    agents = [HumanAgent(t) if s == "human" else make_agent(s, game=game) for s in seats]
    names = dict(zip(game.info.seats, seats, strict=True))
    result = play_in_terminal(console, game, t, agents, seed, RecordFile(console, None), names)
    return result, out.getvalue()


def test_undo_takes_back_the_last_turn_against_the_computer() -> None:
    game = taut.make("pulling-strings", max_turns=4)
    script = Script("c", "undo", "undo", "a", "quit")
    result, text = play_at_table(game, ["human", "random"], script)
    assert result is None  # quit
    assert "X takes back." in text and "Nothing to take back yet." in text
    # After the take-back the game goes on from the start: turn 1 again, with pull a.
    assert text.count("Turn 1") == 2 and "Eks (X) pulled a" in text


def test_undo_is_refused_between_two_people() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    t, out = table(2, Script("", "undo", "c"))
    assert HumanAgent(t).act(state, 0, random.Random(0)) == state.string_to_action(0, "c")
    assert "against the computer alone" in out.getvalue()


def test_rules_and_hint() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    t, out = table(1, Script("rules", "hint", "quit"))
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, 0, random.Random(0))
    text = out.getvalue()
    assert "hard would mix:" in text or "hard would play" in text
    assert len(text.splitlines()) > 3  # the rules were printed


def test_hint_in_a_game_where_one_seat_moves() -> None:
    game = taut.make("tracks", size=3)
    state = game.new_initial_state()
    while state.is_chance():
        state = state.apply(state.chance_outcomes()[0][0])
    t, out = table(1, Script("hint", "quit"), game="tracks")
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, state.acting_seats()[0], random.Random(0))
    assert "hard would play" in out.getvalue()


def test_the_computer_answers_a_draw_offer() -> None:
    # At the start the game is even: the computer accepts, and says so.
    game = taut.make("pulling-strings")
    result, text = play_at_table(game, ["human", "greedy"], Script("draw"))
    assert "O (greedy) accepts the draw." in text
    assert result is not None and result.state.outcome.reason.name == "agreement"


def test_a_computer_ahead_declines_a_draw() -> None:
    from taut.agents import make_agent

    game = taut.make("pulling-strings")
    ahead = game.state_from_json({"stacks": [[0, 3, 4], [2, 2, 1]], "broken": []})  # O's home
    assert make_agent("greedy").accept_draw(ahead, 1) is False
    assert make_agent("greedy").accept_draw(ahead, 0) is True


def test_a_refused_hidden_entry_is_not_repeated() -> None:
    state = taut.make("pulling-strings").new_initial_state()
    t, out = table(2, Script("", "qzq", "c"))
    HumanAgent(t).act(state, 0, random.Random(0))
    assert "qzq" not in out.getvalue() and "Not a legal move here" in out.getvalue()


def test_the_intro_says_which_seat_the_human_plays() -> None:
    game = taut.make("pulling-strings")
    presenter = taut.plugin(game.name).presenter(game)
    text = "\n".join(str(b) for b in presenter.intro(["greedy", "human"]))
    assert "You play O" in text
    text = "\n".join(str(b) for b in presenter.intro(["human", "human"]))
    assert "At this keyboard: X" in text
