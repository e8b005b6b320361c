"""The terminal table: hidden entry for humans sharing a screen, bad input never loses a game."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import taut
from taut.arena.match import DrawOffer, QuitGame
from taut.cli.table import HumanAgent, TerminalTable


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


def table(humans: int, script: Script) -> tuple[TerminalTable, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=100)
    return TerminalTable(console, str, humans, read_line=script, verb="pulls"), out


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
    t.report = "Turn 3: X pulled a, O pulled b."
    HumanAgent(t).act(state, 0, random.Random(0))
    assert "Turn 3: X pulled a, O pulled b." in out.getvalue()


def test_draw_is_an_action_when_offers_are_off() -> None:
    t, out = table(1, Script("draw", "quit"))
    t.draw_offers = False
    state = taut.make("pulling-strings").new_initial_state()
    with pytest.raises(QuitGame):  # "draw" went to the game's parser, then quit
        HumanAgent(t).act(state, 0, random.Random(0))
    assert "names no string end" in out.getvalue()


def test_help_hook_and_long_lists_are_capped() -> None:
    from taut.cli.table import HELP_LIMIT

    state = taut.make("push-pull", variant="two-teams").new_initial_state()
    t, out = table(1, Script("help", "quit"))
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, 0, random.Random(0))
    assert f"and {len(state.legal_actions(0)) - HELP_LIMIT} more" in out.getvalue()
    t, out = table(1, Script("help", "quit"))
    t.help_text = lambda s, seat: f"short help for seat {seat}"
    with pytest.raises(QuitGame):
        HumanAgent(t).act(state, 0, random.Random(0))
    assert "short help for seat 0" in out.getvalue()
