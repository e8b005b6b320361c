"""How a game in progress is shown at a terminal: text to print, and nothing else.

A :class:`Presenter` turns the states of one game into lines of text (Rich markup allowed):
the introduction, what happened at each node, the board a human sees before choosing, and
help for a move. It reads, prints and waits for nothing: the terminal table of the command
line prints what it returns, so a presenter can be tested line by line. Games change what
they need by subclassing it (their plugin's :meth:`~taut.core.plugin.GamePlugin.presenter`);
the default shows the board after every turn and narrates turns with the plugin's
:meth:`~taut.core.plugin.GamePlugin.narrate`.

Only public information may appear in what :meth:`Presenter.after` returns: it is shown
to everybody at the table. Boards are always drawn from a view (``state.view(seat)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from taut.core.game import Game, State
from taut.core.terms import CHANCE_SEAT, NodeKind


class Described(Protocol):
    """What a presenter reads of its game's plugin (every
    :class:`~taut.core.plugin.GamePlugin` has it: the plugin makes presenters, so this
    module names only what it uses)."""

    @property
    def verb(self) -> str:
        """The verb a prompt uses for a move."""
        ...

    @property
    def draw_by_agreement(self) -> bool:
        """Whether players may agree to a draw."""
        ...

    def rules_text(self) -> str:
        """The rules in words."""
        ...

    def seat_title(self, game: Game, seat: int) -> str:
        """A seat's name for people."""
        ...

    def render(self, state: State, markup: bool = False) -> str:
        """The text picture of a position."""
        ...

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """What a node did, in sentences."""
        ...

    def legend(self, game: Game) -> list[str]:
        """The lines that explain the picture."""
        ...

    def move_help(self, state: State, seat: int) -> str | None:
        """How to write a move here."""
        ...


_MARKUP = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def escape(text: str) -> str:
    """``text`` with anything that looks like Rich markup escaped (as ``rich.markup.escape``)."""

    def fix(match: re.Match[str]) -> str:
        backslashes, tag = match.groups()
        return f"{backslashes}{backslashes}\\{tag}"

    return _MARKUP.sub(fix, text)


@dataclass(frozen=True)
class Rule:
    """A horizontal rule with a title, between turns."""

    title: str


Block = str | Rule
"""One thing to print: a line (or several) of Rich markup, or a rule."""


@dataclass(frozen=True)
class Question:
    """A second question an entry needs before it is a whole move.

    ``lines`` are printed, then ``prompt`` asks; ``complete(answer)`` turns the answer into
    the move's whole notation (raising an :class:`~taut.core.errors.ActionError` that names
    what was wrong).
    """

    lines: list[Block]
    prompt: str
    complete: Callable[[str], str]


class Presenter:
    """The terminal presentation of one game (one instance per game played)."""

    def __init__(self, plugin: Described, game: Game) -> None:
        self.plugin = plugin
        self.game = game
        #: Decisions made so far (chance nodes are not counted): the turn number shown.
        self.turns = 0

    @property
    def verb(self) -> str:
        """The verb of the prompt: ``X pulls>``."""
        return self.plugin.verb

    @property
    def draw_offers(self) -> bool:
        """Whether typing ``draw`` at a prompt offers a draw (the game has agreed draws)."""
        return self.plugin.draw_by_agreement

    def intro(self, seats: Sequence[str]) -> list[Block]:
        """What is printed before play: the legend, who sits where and the first board.

        ``seats[i]`` says who plays seat ``i`` (``"human"``, an agent spec).
        """
        state = self.game.new_initial_state()
        names = self.game.info.seats
        who = ", ".join(f"{names[i]} {spec}" for i, spec in enumerate(seats))
        out: list[Block] = [escape(line) for line in self.plugin.legend(self.game)]
        out.append(escape(f"Seats: {who}."))
        humans = [i for i, spec in enumerate(seats) if spec == "human"]
        titles = [self.plugin.seat_title(self.game, i) for i in humans]
        if len(titles) == 1:
            out.append(escape(f"You play {titles[0]}."))
        elif titles:
            out.append(escape(f"At this keyboard: {'; '.join(titles)}. Take turns, one at a time."))
        if state.kind is not NodeKind.CHANCE:
            out.append(self.board(state.view(None)))
        return out

    def board(self, view: State) -> str:
        """The picture of a view, as markup."""
        return self.plugin.render(view, markup=True)

    def redraw(self, before: State, joint: Mapping[int, int], after: State) -> bool:
        """Whether the board is drawn again after this node (default: after every decision)."""
        return CHANCE_SEAT not in joint

    def after(
        self, before: State, joint: Mapping[int, int], after: State, viewer: int | None
    ) -> list[Block]:
        """What to print after a node: a rule and the narration of a turn, then the board
        (seen by ``viewer``: the one human at the table, or None for everybody)."""
        out: list[Block] = []
        if CHANCE_SEAT not in joint:
            self.turns += 1
            out.append(Rule(f"Turn {self.turns}"))
        out.extend(escape(line) for line in self.plugin.narrate(before, joint, after))
        if self.redraw(before, joint, after):
            out.append(self.board(after.view(viewer)))
        return out

    def screen(self, view: State, seat: int) -> list[Block]:
        """What the human at ``seat`` sees on a cleared screen before choosing."""
        return [self.board(view), *self.prompt(view, seat)]

    def prompt(self, view: State, seat: int) -> list[Block]:
        """What is printed before a human chooses on a shared screen (the board was
        already drawn after the last turn, unless the seat holds something hidden)."""
        if self.game.info.perfect_information:
            return []
        return [self.board(view)]

    def entered(self, view: State, seat: int, text: str, action: int) -> None:
        """Note that the human at ``seat`` typed ``text`` for ``action`` (default: nothing;
        a game may narrate the move as it was typed)."""

    def forced(self, view: State, seat: int) -> int | None:
        """A move to make for a human without asking (default: none; always ask)."""
        return None

    def follow_up(self, view: State, seat: int, text: str) -> Question | None:
        """The question that completes entry ``text`` (None, the default: ``text`` is
        the whole move)."""
        return None

    def move_help(self, view: State, seat: int) -> str | None:
        """What ``help`` prints (None: the legal moves, listed by the table)."""
        return self.plugin.move_help(view, seat)

    def summary(self, final: State) -> list[Block]:
        """What is printed when the game is over, before the result line."""
        return []
