"""Tutorials: a short scripted game that explains one rule at a time on the real board.

A game's plugin offers a :class:`Tutorial` (:meth:`taut.core.plugin.GamePlugin.tutorial`):
the options and seed of a small game, and its :class:`Lesson` steps. A lesson says one
thing; where it names a move, the learner makes that move on the board (the other seats'
moves at the same node, and the turns that follow until the next lesson, are scripted too).
Chance nodes are drawn from the tutorial's seed and the node's number, as the server draws
them for a real game, so a tutorial plays the same way every time.

:func:`walk` plays a tutorial through and returns what each lesson shows: the position
before its move and what was narrated since the previous lesson. It checks every scripted
move against the rules, so a tutorial that no longer fits its game fails loudly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from taut.core.chance import derive_seed
from taut.core.errors import ActionError, TautError
from taut.core.game import Game, State
from taut.core.options import OptionValue
from taut.core.terms import CHANCE_SEAT, NodeKind


class Narrator(Protocol):
    """What a tutorial's walk reads of its game's plugin (every
    :class:`~taut.core.plugin.GamePlugin` has it: the plugin offers tutorials, so this
    module names only what it uses)."""

    @property
    def game_class(self) -> type[Game]:
        """The game's class."""
        ...

    def narrate(self, before: State, joint: Mapping[int, int], after: State) -> list[str]:
        """What a node did, in sentences."""
        ...


@dataclass(frozen=True)
class Lesson:
    """One step of a tutorial.

    ``text`` explains one thing about the position shown. ``move`` (notation) is what the
    learner plays there; None makes a step that is read and then passed with "Next".
    ``others`` gives, by seat, the moves of the other seats acting at the same node (a
    simultaneous turn), and ``then`` the nodes played after it before the next lesson
    (each a ``{seat: notation}`` joint; chance nodes between them are drawn by the seed).
    ``hint`` is said when the learner picks another move.
    """

    text: str
    move: str | None = None
    others: Mapping[int, str] = field(default_factory=dict)
    then: tuple[Mapping[int, str], ...] = ()
    hint: str = ""


@dataclass(frozen=True)
class Tutorial:
    """A scripted game that teaches a game (see the module's docstring).

    ``options`` make the game and ``seed`` draws its chance nodes; ``learner`` is the seat
    the learner plays. ``finish`` is said when the script is over; ``play`` holds the
    options of the first real game the page then offers (None: the tutorial's own, less
    anything only a tutorial needs).
    """

    title: str
    options: Mapping[str, OptionValue]
    lessons: tuple[Lesson, ...]
    seed: int = 0
    learner: int = 0
    finish: str = ""
    play: Mapping[str, OptionValue] | None = None


@dataclass(frozen=True)
class Stop:
    """What one lesson shows: the position (a full state; show the learner's view of it),
    the lines narrated since the previous stop, and the lesson (None after the last)."""

    state: State
    lines: tuple[str, ...]
    lesson: Lesson | None


class TutorialError(TautError):
    """A tutorial's script does not fit its game (a move that is not legal, a lesson whose
    move comes where the learner does not act)."""


def walk(plugin: Narrator, tutorial: Tutorial) -> list[Stop]:
    """Play ``tutorial`` through: one :class:`Stop` per lesson and a last one for the end.

    Raises :class:`TutorialError` naming the lesson and the move that does not fit.
    (A little over 60 lines: one loop over the lessons, with chance drawn as it comes.)
    """
    game = plugin.game_class(**dict(tutorial.options))
    state = game.new_initial_state()
    node = 0
    lines: list[str] = []

    def draw() -> None:
        nonlocal state, node
        while state.kind is NodeKind.CHANCE:
            rng = random.Random(derive_seed(tutorial.seed, "chance", node))
            outcome = state.sample_chance(rng)
            before = state
            state = state.apply({CHANCE_SEAT: outcome})
            lines.extend(plugin.narrate(before, {CHANCE_SEAT: outcome}, state))
            node += 1

    def play(joint_text: Mapping[int, str], where: str) -> None:
        nonlocal state, node
        acting = set(state.acting_seats())
        if state.is_terminal() or set(joint_text) != acting:
            raise TutorialError(
                f"{tutorial.title}, {where}: the script moves seats {sorted(joint_text)} "
                f"where seats {sorted(acting)} act"
            )
        joint: dict[int, int] = {}
        for seat, text in joint_text.items():
            try:
                joint[seat] = state.string_to_action(seat, text)
            except ActionError as exc:
                raise TutorialError(f"{tutorial.title}, {where}: {exc}") from None
            if joint[seat] not in state.legal_actions(seat):
                raise TutorialError(
                    f"{tutorial.title}, {where}: {text!r} is not a legal move of seat {seat}"
                )
        before = state
        state = state.apply(joint)
        lines.extend(plugin.narrate(before, joint, state))
        node += 1
        draw()

    draw()
    stops: list[Stop] = []
    for number, lesson in enumerate(tutorial.lessons, 1):
        stops.append(Stop(state, tuple(lines), lesson))
        lines.clear()
        where = f"lesson {number}"
        if lesson.move is not None:
            if tutorial.learner not in state.acting_seats():
                raise TutorialError(
                    f"{tutorial.title}, {where}: the learner (seat {tutorial.learner}) "
                    "does not act here"
                )
            play({tutorial.learner: lesson.move, **lesson.others}, where)
        elif lesson.others:
            raise TutorialError(f"{tutorial.title}, {where}: other seats move without the learner")
        for step, joint_text in enumerate(lesson.then, 1):
            play(joint_text, f"{where}, scripted node {step}")
    stops.append(Stop(state, tuple(lines), None))
    return stops
