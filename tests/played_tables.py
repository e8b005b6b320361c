"""Random games of a game whose seats choose at once (Pulling Strings, Push-Pull), every
node drawn by the server as it draws it for each client, with the data its page is sent:
what the tests of a page's drawing compare (:mod:`tests.page_drawing`).

:func:`played_cases` plays the games; each node gives the full state, a spectator's view
and each seat's, with the seat's legal moves while it chooses and without them once it has
chosen, and now and then the position forfeited (drawn as it stood).
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from taut.core.forfeit import drawable, forfeit
from taut.core.game import State
from taut.core.registry import make, plugin
from tests.page_drawing import Drawn, plain_json

#: A game's options, how many games to play with them, and the position they start from
#: (None: the start).
Games = Sequence[tuple[dict[str, Any], int, dict[str, Any] | None]]
#: A seat's legal moves in notation, as the server lists them.
LegalOf = Callable[[State, int], list[str]]
#: The data a page is sent for a view, a seat and its moves.
TableData = Callable[[Any, int | None, Sequence[str]], dict[str, Any] | None]


@dataclass(frozen=True)
class Case:
    """One picture: whose, the full state it is of, the server's picture and the data."""

    what: str
    state: State
    seat: int | None
    legal: list[str]
    picture: str
    data: dict[str, Any]

    def drawn(self) -> Drawn:
        """The case as :func:`tests.page_drawing.assert_drawn_alike` compares it (one
        picture for every width)."""
        return Drawn(self.what, self.data, self.picture, None)


def legal_moves(state: State, seat: int) -> list[str]:
    """``seat``'s legal moves in notation, as the server lists them."""
    return [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


def looks(
    state: State, rng: random.Random, legal_of: LegalOf = legal_moves
) -> Iterator[tuple[str, State, int | None, list[str]]]:
    """What the server draws of one node: the full state, a spectator's view, and each
    seat's view with its moves (while it chooses) and without (once it has chosen); now
    and then the position forfeited, drawn as it stood."""
    yield "full state", drawable(state), None, []
    yield "spectator", drawable(state.view(None)), None, []
    for seat in range(state.game.info.num_seats):
        view = drawable(state.view(seat))
        if seat in state.acting_seats():
            yield "choosing", view, seat, legal_of(state, seat)
        yield "chosen", view, seat, []
    if state.acting_seats() and rng.random() < 0.1:
        yield "forfeit", drawable(forfeit(state, 0)), None, []


def positions(
    name: str, games: Games, rng: random.Random, most_turns: int
) -> Iterator[tuple[str, State]]:
    """Every node of every random game of ``games`` of the game ``name`` (its end
    included, each game cut after ``most_turns``)."""
    for options, count, start in games:
        game = make(name, **options)
        for number in range(count):
            state = game.new_initial_state() if start is None else game.state_from_json(start)
            for turn in range(most_turns):
                yield f"{options} game {number} turn {turn}", state
                if state.is_terminal():
                    break
                state = state.apply(state.random_joint(rng))


def played_cases(
    name: str,
    games: Games,
    seed: int,
    most_turns: int,
    table_data: TableData,
    legal_of: LegalOf = legal_moves,
) -> list[Case]:
    """Every picture of the random games, drawn by the server, with its data."""
    found = plugin(name)
    rng = random.Random(seed)
    out = []
    for what, state in positions(name, games, rng, most_turns):
        for look, view, seat, legal in looks(state, rng, legal_of):
            picture = found.svg(view, seat, legal)
            data = table_data(view, seat, legal)
            assert data is not None, what
            out.append(Case(f"{what} seat {seat} ({look})", state, seat, legal, picture, data))
    return out


def assert_plain_and_the_same_again(
    cases: Sequence[Case], again: Callable[[Case], dict[str, Any] | None]
) -> None:
    """Every case's data is plain JSON without markup, and (for a sample) ``again``, the
    data made anew for the same position, is the same to the byte."""
    for case in cases:
        sent = orjson.dumps(case.data)
        assert plain_json(case.data), case.what
        assert orjson.loads(sent) == case.data, case.what
        assert b"<" not in sent, case.what
    for case in cases[:: max(1, len(cases) // 40)]:
        assert orjson.dumps(again(case)) == orjson.dumps(case.data), case.what


def assert_small(cases: Sequence[Case], median: int, most: int) -> None:
    """A seat's data as it plays is ``median`` bytes or fewer in the middle, and no data
    is larger than ``most``."""
    seats = [
        len(orjson.dumps(c.data)) for c in cases if c.seat is not None and not c.state.is_terminal()
    ]
    assert statistics.median(seats) < median, statistics.median(seats)
    assert max(len(orjson.dumps(c.data)) for c in cases) < most


def assert_a_seat_is_sent_what_it_may_know(
    name: str,
    games: Games,
    seed: int,
    most_turns: int,
    table_data: TableData,
    own: Sequence[str],
    legal_of: LegalOf = legal_moves,
) -> list[tuple[str, dict[str, Any]]]:
    """A seat's data is a function of what it may know: the same from its view, from the
    position told anew (its public JSON, sent to all) and from a full state drawn among
    those it cannot tell apart; beyond what a spectator is sent, it holds only the keys
    ``own`` (its own moves). Checked at about a third of the nodes of random games; returns
    each seat's data there, with what it is, for the game's own checks."""
    rng = random.Random(seed)
    checked = []
    for what, state in positions(name, games, rng, most_turns):
        if rng.random() > 0.3:
            continue
        game = state.game
        public = table_data(state.view(None), None, [])
        assert public is not None, what
        for seat in range(game.info.num_seats):
            view = state.view(seat)
            legal = legal_of(state, seat) if seat in state.acting_seats() else []
            data = table_data(view, seat, legal)
            assert data is not None, what
            told = game.state_from_json(view.to_json())
            sampled = game.determinize(view, seat, rng)
            for other in (told, sampled):
                assert table_data(other, seat, legal) == data, what
            assert {k: v for k, v in data.items() if k not in own} == public, what
            checked.append((f"{what} seat {seat}", data))
    assert len(checked) > 50
    return checked
