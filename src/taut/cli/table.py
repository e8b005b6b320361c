"""A terminal table: human seats enter actions, with hidden entry when people share a screen.

A human is just another :class:`~taut.agents.base.Agent`. When two or more humans share the
terminal, each entry is typed without echo and the screen is cleared before and after it,
so nobody sees another's choice. A bad entry gets a message and a new prompt; the game is
never lost. Commands at any prompt: ``help`` (legal actions), ``draw`` (offer a draw, unless
the table is made with ``draw_offers=False`` because "draw" is a move of the game), ``quit``
(stop; the record so far is kept).
"""

from __future__ import annotations

import getpass
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from taut.agents.base import Agent
from taut.arena.match import DrawOffer, MatchResult, Observer, QuitGame, play_match
from taut.core.errors import ActionError
from taut.core.game import Game, State
from taut.core.record import GameRecord

#: Legal actions listed by ``help`` at most.
HELP_LIMIT = 60

ReadLine = Callable[[str, bool], str]
"""Reads one line: ``(prompt, hidden) -> text``; raises EOFError at end of input."""


def terminal_read_line(prompt: str, hidden: bool) -> str:
    """Read from the terminal, without echo when ``hidden``."""
    return getpass.getpass(prompt) if hidden else input(prompt)


class TerminalTable:
    """Shared terminal for the human seats of one game."""

    def __init__(
        self,
        console: Console,
        render: Callable[[State], str],
        humans: int,
        read_line: ReadLine = terminal_read_line,
        verb: str = "plays",
        draw_offers: bool = True,
        help_text: Callable[[State, int], str] | None = None,
    ) -> None:
        self.console = console
        self.render = render
        self.cover = humans >= 2
        self.read_line = read_line
        self.verb = verb
        #: Whether typing ``draw`` offers a draw; games where "draw" is a move turn it off.
        self.draw_offers = draw_offers
        #: What ``help`` prints for a seat; by default its legal actions (at most
        #: ``HELP_LIMIT`` of them: some games have thousands).
        self.help_text = help_text
        #: The public account of the last turn, shown again after each handover (the screen
        #: is cleared between people, which would otherwise wipe it before it is read).
        self.report = ""

    def _read(self, prompt: str, hidden: bool) -> str:
        try:
            return self.read_line(prompt, hidden).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitGame() from None

    def ask_action(self, state: State, seat: int) -> int:
        """Prompt the human at ``seat`` until a legal action is entered."""
        name = state.seat_name(seat)
        if self.cover:
            self.console.clear()
            self._read(
                f"Pass the keyboard to {name}; press Enter when only {name} can see. ", False
            )
            if self.report:
                self.console.print(escape(self.report))
            self.console.print(self.render(state))
        while True:
            text = self._read(f"{name} {self.verb}> ", self.cover)
            lowered = text.lower()
            # Only words that are no action in any game: "h" is a Pulling Strings letter.
            if lowered in ("help", "?"):
                self.console.print(escape(self._help(state, seat)))
                if self.help_text is None:  # a game's own help names its commands
                    offer = "draw (offer a draw), " if self.draw_offers else ""
                    self.console.print(f"Commands: help, {offer}quit (stop the game)")
                continue
            if lowered == "quit":
                raise QuitGame()
            if lowered == "draw" and self.draw_offers:
                raise DrawOffer(seat)
            if not text:
                continue
            try:
                action = state.string_to_action(seat, text)
                if not state.is_legal(seat, action):
                    raise ActionError(state.illegal_reason(seat, action))
            except ActionError as exc:
                self.console.print(
                    f"[red]{escape(str(exc))}[/red] (type help for the legal actions)"
                )
                continue
            if self.cover:
                self.console.clear()
                self.console.print(f"{name} has chosen (hidden).")
            return action

    def _help(self, state: State, seat: int) -> str:
        if self.help_text is not None:
            return self.help_text(state, seat)
        legal = list(state.legal_actions(seat))
        shown = " ".join(state.action_to_string(seat, a) for a in legal[:HELP_LIMIT])
        more = f" ... and {len(legal) - HELP_LIMIT} more" if len(legal) > HELP_LIMIT else ""
        return f"Legal: {shown}{more}"

    def ask_draw(self, state: State, seat: int) -> bool:
        """Ask the human at ``seat`` whether to accept a draw."""
        name = state.seat_name(seat)
        answer = self._read(f"A draw is offered. {name}, accept? [y/N] ", False)
        return answer.lower() in ("y", "yes")


class HumanAgent(Agent):
    """A person at the terminal, entering actions in the game's notation."""

    name = "human"

    def __init__(self, table: TerminalTable) -> None:
        self.table = table

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Ask the person for an action."""
        return self.table.ask_action(state, seat)

    def accept_draw(self, state: State, seat: int) -> bool:
        """Ask the person whether to accept."""
        return self.table.ask_draw(state, seat)


def play_in_terminal(
    console: Console,
    game: Game,
    agents: Sequence[Agent],
    seed: int | None,
    observer: Observer,
    record: Path | None,
) -> MatchResult | None:
    """Play a game at the terminal: save the record after every node, say how it ended.

    Returns None when a human stopped the game (the record so far is kept).
    """

    def save(rec: GameRecord) -> None:
        if record is not None:
            rec.save(record)

    try:
        result = play_match(game, agents, seed=seed, observer=observer, on_record=save)
    except QuitGame:
        console.print("Game stopped." + (f" The record so far is in {record}." if record else ""))
        return None
    console.print(f"[bold]{escape(result.state.describe_outcome())}[/bold]")
    if record is not None:
        console.print(f"Record written to {record}.")
    return result
