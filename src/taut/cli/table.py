"""A terminal table: human seats enter actions, with hidden entry when people share a screen.

A human is just another :class:`~taut.agents.base.Agent`. What is shown comes from the
game's :class:`~taut.core.presenter.Presenter`; this module only prints it and reads
answers. A bad entry gets a message and a new prompt; the game is never lost.

When two or more humans share the terminal, what one seat may see (its hand, its screen,
what it types) is shown on the terminal's alternate screen, which is wiped (scrollback
included) before play goes back to the shared screen; entries are typed without echo, and
an entry that is refused is not repeated in the message. So nobody can scroll back to
another player's hand or choice.

Commands at any prompt: ``help`` (the move's help), ``rules``, ``hint`` (what the strongest
level would play here), ``undo`` (take back your last turn, when you play against the
computer alone), ``draw`` (offer a draw, where the game has agreed draws), ``quit`` (stop;
the record so far is kept).
"""

from __future__ import annotations

import getpass
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from taut.agents import make_agent
from taut.agents.base import Agent
from taut.arena.match import DrawOffer, MatchEvents, MatchResult, QuitGame, Undo, play_match
from taut.core.errors import ActionError, RecordError, TautError
from taut.core.game import Game, State
from taut.core.presenter import Block, Presenter, Rule
from taut.core.record import GameRecord
from taut.core.terms import NodeKind

#: Legal actions listed by ``help`` at most.
HELP_LIMIT = 60
#: Seconds the strongest level thinks for a ``hint``.
HINT_THINK = 1.0
#: Moves a hint lists at most.
HINT_MOVES = 5

#: Terminal controls: the alternate screen, and wiping the screen with its scrollback.
ALT_SCREEN_ON = "\x1b[?1049h"
ALT_SCREEN_OFF = "\x1b[?1049l"
WIPE = "\x1b[H\x1b[2J\x1b[3J"

ReadLine = Callable[[str, bool], str]
"""Reads one line: ``(prompt, hidden) -> text``; raises EOFError at end of input."""


def terminal_read_line(prompt: str, hidden: bool) -> str:
    """Read from the terminal, without echo when ``hidden``."""
    return getpass.getpass(prompt) if hidden else input(prompt)


def show(console: Console, blocks: Sequence[Block]) -> None:
    """Print a presenter's blocks: rules as rules, text as Rich markup."""
    for block in blocks:
        if isinstance(block, Rule):
            console.rule(escape(block.title))
        else:
            console.print(block)


class TerminalTable:
    """Shared terminal for the human seats of one game."""

    def __init__(
        self,
        console: Console,
        presenter: Presenter,
        humans: int,
        read_line: ReadLine = terminal_read_line,
    ) -> None:
        self.console = console
        self.presenter = presenter
        self.cover = humans >= 2
        self.read_line = read_line
        #: The public account of the last turn, shown again after each handover (the screen
        #: is cleared between people, which would otherwise wipe it before it is read).
        self.report: list[Block] = []
        self._hint_agent: Agent | None = None

    def _read(self, prompt: str, hidden: bool) -> str:
        try:
            return self.read_line(prompt, hidden).strip()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise QuitGame() from None

    def _control(self, code: str) -> None:
        """Send a terminal control (only to a real terminal)."""
        if self.console.is_terminal:
            self.console.file.write(code)
            self.console.file.flush()

    def ask_action(self, state: State, seat: int) -> int:
        """Prompt the human at ``seat`` (``state`` is that seat's view) until a legal action
        is entered; a move the presenter makes for the human is announced instead."""
        name = state.seat_name(seat)
        forced = self.presenter.forced(state, seat)
        if forced is not None:
            text = state.action_to_string(seat, forced)
            self.console.print(escape(f"{name}: {text} (the only move)."))
            return forced
        if not self.cover:
            show(self.console, self.presenter.prompt(state, seat))
            return self._ask(state, seat)
        self._read(f"Pass the keyboard to {name}; press Enter when only {name} can see. ", False)
        self._control(ALT_SCREEN_ON + WIPE)
        try:
            show(self.console, self.report)
            show(self.console, self.presenter.screen(state, seat))
            action = self._ask(state, seat)
        finally:
            self._control(WIPE + ALT_SCREEN_OFF)
        self.console.print(escape(f"{name} has chosen (hidden)."))
        return action

    def _ask(self, state: State, seat: int) -> int:
        """Read entries until one is a legal action (commands are carried out on the way)."""
        prompt = f"{state.seat_name(seat)} {self.presenter.verb}> "
        while True:
            text = self._read(prompt, self.cover)
            if self._command(text.lower(), state, seat) or not text:
                continue
            try:
                question = self.presenter.follow_up(state, seat, text)
                if question is not None:
                    show(self.console, question.lines)
                    answer = self._read(question.prompt, self.cover)
                    if self._command(answer.lower(), state, seat) or not answer:
                        continue
                    text = question.complete(answer)
                action = state.string_to_action(seat, text)
                if not state.is_legal(seat, action):
                    raise ActionError(state.illegal_reason(seat, action))
            except ActionError as exc:
                # A hidden entry is never repeated: the message would show what was typed.
                why = "Not a legal move here" if self.cover else escape(str(exc))
                self.console.print(f"[red]{why}[/red] (type help for the legal moves)")
                continue
            self.presenter.entered(state, seat, text, action)
            return action

    def _command(self, word: str, state: State, seat: int) -> bool:
        """Carry out a command typed at the prompt; False when ``word`` is none (only words
        that are no move in any game are commands: "h" may be a move)."""
        if word in ("help", "?"):
            self._help(state, seat)
        elif word == "rules":
            text = (
                self.presenter.plugin.rules_text() or "The rules are in the game's documentation."
            )
            self.console.print(escape(text))
        elif word == "hint":
            self._hint(state, seat)
        elif word == "undo":
            if self.cover:
                self.console.print("Take-backs are for a game against the computer alone.")
                return True
            raise Undo(seat)
        elif word == "quit":
            raise QuitGame()
        elif word == "draw" and self.presenter.draw_offers:
            raise DrawOffer(seat)
        else:
            return False
        return True

    def _help(self, state: State, seat: int) -> None:
        text = self.presenter.move_help(state, seat)
        if text is None:
            legal = list(state.legal_actions(seat))
            shown = " ".join(state.action_to_string(seat, a) for a in legal[:HELP_LIMIT])
            more = f" ... and {len(legal) - HELP_LIMIT} more" if len(legal) > HELP_LIMIT else ""
            text = f"Legal: {shown}{more}"
        self.console.print(escape(text))
        offer = "draw (offer a draw), " if self.presenter.draw_offers else ""
        undo = "" if self.cover else "undo (take back your last turn), "
        self.console.print(f"Commands: help, rules, hint, {undo}{offer}quit (stop the game)")

    def _hint(self, state: State, seat: int) -> None:
        """What the strongest level would play here, with its mix where moves are secret."""
        try:
            if self._hint_agent is None:
                self._hint_agent = make_agent("hard", think=HINT_THINK, game=state.game)
            with self.console.status("thinking about a hint"):
                mix = self._hint_agent.strategy(state, seat, random.Random(0))
        except TautError as exc:
            self.console.print(escape(f"No hint here: {exc}"))
            return
        best = sorted(mix.items(), key=lambda kv: -kv[1])[:HINT_MOVES]
        if state.kind is NodeKind.SIMULTANEOUS and len(best) > 1:
            moves = ", ".join(f"{state.action_to_string(seat, a)} {p:.0%}" for a, p in best)
            text = f"hard would mix: {moves}"
        else:
            text = f"hard would play {state.action_to_string(seat, best[0][0])}"
        self.console.print(escape(text + "."))

    def ask_draw(self, state: State, seat: int) -> bool:
        """Ask the human at ``seat`` whether to accept a draw."""
        name = state.seat_name(seat)
        answer = self._read(f"A draw is offered. {name}, accept? [y/N] ", False)
        return answer.lower() in ("y", "yes")

    def events(self, seats: Sequence[str], viewer: int | None) -> MatchEvents:
        """What the table shows about draw offers and take-backs."""

        def draw(offering: int, answers: dict[int, bool]) -> None:
            names = self.presenter.game.info.seats
            for s, yes in sorted(answers.items()):
                if seats[s] != "human":
                    verb = "accepts the draw" if yes else "declines the draw; play goes on"
                    self.console.print(escape(f"{names[s]} ({seats[s]}) {verb}."))

        def undo(seat: int, state: State) -> None:
            self.presenter.turns = max(0, self.presenter.turns - 1)
            self.console.print(escape(f"{self.presenter.game.info.seats[seat]} takes back."))
            self.console.print(self.presenter.board(state.view(viewer)))

        def refused(seat: int) -> None:
            self.console.print("Nothing to take back yet.")

        return MatchEvents(on_draw=draw, on_undo=undo, on_refused_undo=refused)


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


class RecordFile:
    """Where a game's record is saved as the game goes on (nothing when no path is given).

    A save that fails (a full disk, a file-size limit, a read-only file system) leaves the
    file as it was, since records are written whole or not at all; the player is told at
    once, play goes on, and :attr:`error` stays set until a later save succeeds, so the end
    of the game can say what the file really holds and the command can exit non-zero.
    """

    def __init__(self, console: Console, path: Path | None) -> None:
        # ``console`` is where failures are told: standard error, so that a game's output
        # sent to a file or a pipe never hides them.
        self.console = console
        self.path = path
        self.saved = False
        #: Why the latest save failed (None: the file holds the game as far as it went).
        self.error: str | None = None
        #: Moves in the record last written successfully.
        self.moves_saved = 0
        self._warned = False

    def save(self, record: GameRecord) -> None:
        """Write the record; a failure is reported once and play goes on."""
        if self.path is None:
            return
        try:
            record.save(self.path)
        except RecordError as exc:
            self.error = str(exc)
            if not self._warned:
                self.console.print(
                    f"[bold red]error:[/bold red] [red]The record cannot be saved: "
                    f"{escape(str(exc))}. The game goes on; the file keeps its last complete "
                    "record.[/red]"
                )
                self._warned = True
            return
        if self.error is not None:
            self.console.print("The record is saved again.")
        self.saved, self.error, self._warned = True, None, False
        self.moves_saved = len(record.moves or [])

    def failure(self) -> str | None:
        """What to tell the player when the latest save failed, else None."""
        if self.error is None:
            return None
        held = (
            f"{self.path} holds the game up to move {self.moves_saved} only"
            if self.saved
            else f"nothing was written to {self.path}"
        )
        return f"The record could not be saved ({self.error}): {held}."


def play_in_terminal(
    console: Console,
    game: Game,
    table: TerminalTable,
    agents: Sequence[Agent],
    seed: int | None,
    record_file: RecordFile,
    seats: Mapping[str, str],
    viewer: int | None = None,
    state: State | None = None,
    record: GameRecord | None = None,
) -> MatchResult | None:
    """Play a game at the terminal: show every node, save the record after every decision,
    say how it ended. ``viewer`` is the seat whose view boards between turns show (the one
    human at the table; None: what everybody sees). ``state`` and ``record`` continue a
    game. Returns None when a human stopped the game (or Ctrl-C did).
    """
    presenter = table.presenter

    def observe(before: State, joint: dict[int, int], after: State) -> None:
        blocks = presenter.after(before, joint, after, viewer)
        if blocks:
            table.report = blocks
        show(console, blocks)

    try:
        result = play_match(
            game,
            agents,
            seed=seed,
            observer=observe,
            on_record=record_file.save,
            state=state,
            record=record,
            seats=seats,
            events=table.events([seats[name] for name in game.info.seats], viewer),
        )
    except (QuitGame, KeyboardInterrupt):
        lost = record_file.failure()
        if lost is not None:
            console.print("Game stopped.")
            record_file.console.print(f"[bold red]error:[/bold red] {escape(lost)}")
        else:
            where = f" The record so far is in {record_file.path}." if record_file.saved else ""
            console.print("Game stopped." + escape(where))
        return None
    show(console, presenter.summary(result.state))
    console.print(f"[bold]{escape(result.state.describe_outcome())}[/bold]")
    lost = record_file.failure()
    if lost is not None:
        record_file.console.print(f"[bold red]error:[/bold red] {escape(lost)}")
    elif record_file.saved:
        console.print(escape(f"Record written to {record_file.path}."))
    return result
