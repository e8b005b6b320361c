"""What a learning game says after each turn: both faces of every tile involved, what each
player gave and whether it was right, and each player's summary at the end."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from taut.core.errors import MalformedActionError
from taut.core.game import Game, State
from taut.core.numbers import whole
from taut.core.presenter import Block, Presenter, Question, escape
from taut.games.pulling_strings.learning import Answer, LearningState
from taut.games.pulling_strings.state import O, X
from taut.learn.tileset import Face

if TYPE_CHECKING:
    from taut.core.plugin import GamePlugin


def _given(face: Face) -> str:
    """A face as said in a sentence: a picture by its name, text as itself."""
    return f"the {face.name}" if face.is_picture else face.text


def answer_line(state: LearningState, seat: int, answer: Answer) -> str:
    """``Squares (X) meant D and gave the ASL handshape for D: right.``"""
    game = state.game
    tiles = state.tiles.tiles
    who = f"{game.seat_titles[seat]} ({state.seat_name(seat)})"
    meant = game.letters[answer.meant]
    gave = _given(tiles[answer.gave].other)
    if answer.right:
        return f"{who} meant {meant} and gave {gave}: right."
    expected = _given(tiles[answer.asked].other)
    text = f"{who} meant {meant} and gave {gave}: wrong, the answer for {meant} is {expected}"
    if answer.pulled is not None:
        other = game.letters[answer.pulled]
        return f"{text}; that answer is {other}'s, so {other} is pulled."
    if game.learning == "slip":
        other = tiles[answer.gave].board.text
        where = "its end is broken" if other in game.letters else "that tile is not on the board"
        return f"{text}; that answer is {other}'s and {where}: no pull."
    return f"{text}: no pull."


def reveal_lines(state: LearningState) -> list[str]:
    """Both players' answers of the turn that led to ``state`` (none at the start)."""
    if state.answers is None:
        return []
    return [answer_line(state, seat, a) for seat, a in zip((X, O), state.answers, strict=True)]


def summary_lines(state: LearningState) -> list[str]:
    """Each player's answers so far: ``X: 12 of 14 signs right; mixed up M and N twice.``"""
    return [
        f"{state.seat_name(seat)}: {tally.summary(state.tiles)}."
        for seat, tally in zip((X, O), state.tallies, strict=True)
    ]


class LearningPresenter(Presenter):
    """Terminal play of a learning game: a player types the string meant, then gives the
    answer (types it, or for pictures picks one from a numbered, unlabelled palette of
    descriptions); ``END=ANSWER`` at once works too."""

    def __init__(self, plugin: GamePlugin, game: Game) -> None:
        super().__init__(plugin, game)
        # The palette's order changes every turn, so a number never gives a tile away.
        self._rng = random.Random()

    def follow_up(self, view: State, seat: int, text: str) -> Question | None:
        """Ask for the answer when only a string was typed."""
        assert isinstance(view, LearningState)
        if "=" in text:
            return None
        end = view.game.end_index(text)
        if end is None or view.broken >> end & 1:
            return None  # the move's own error explains it
        tiles = view.tiles
        label = view.game.letters[end]
        if tiles.picker == "type":
            return Question(
                [],
                f"Give the {tiles.other_kind} for {label}: ",
                lambda answer: f"{label}={answer}",
            )
        order = list(range(len(tiles)))
        self._rng.shuffle(order)
        lines: list[Block] = [f"Which {tiles.other_kind} is {escape(label)}?"]
        lines += [
            f"{n:>2}. {escape(tiles.describe_other(t))}" for n, t in enumerate(order, start=1)
        ]

        def complete(answer: str) -> str:
            picked = answer.strip()
            number = whole(picked)
            if number is None or not 1 <= number <= len(order):
                raise MalformedActionError(
                    f"{picked!r} is not a choice; type a number 1..{len(order)}"
                )
            return f"{label}={tiles.tiles[order[number - 1]].other.text}"

        return Question(lines, f"Your {tiles.other_kind} (1-{len(order)}): ", complete)

    def move_help(self, view: State, seat: int) -> str | None:
        """How to choose a string and give its answer."""
        assert isinstance(view, LearningState)
        tiles = view.tiles
        ends = " ".join(view.game.letters[e] for e in view.game.legal_ends(view.broken))
        rule = (
            "a wrong answer pulls nothing"
            if view.game.learning == "strict"
            else "the string whose tile your answer belongs to is pulled instead"
        )
        return (
            f"Type the string you mean ({ends}), then give the {tiles.other_kind} of its "
            f"tile ({rule}); or type both at once as END=ANSWER."
        )
