"""The Tug of War table the page draws from data is the server's picture, byte for byte.

The server sends :func:`~taut.games.tug_of_war.table_data.table_data` and the page draws it
with ``taut/games/tug_of_war/table.js``. Random games (two to eight players, the options
that change the picture) are played through, and at every position drawn, for the full
state, a spectator and every seat (with its legal moves while it acts), the page's drawing
of both layouts must be :func:`~taut.games.tug_of_war.svg.draw_table`'s. Every position
goes through one ``node`` process. The data itself must be plain JSON without markup,
hold no tile the seat may not see, and stay small.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from taut.core.forfeit import drawable
from taut.core.game import State
from taut.core.registry import make, plugin
from taut.games.tug_of_war.model import BONUS, DEAL, TURN, TugModel
from taut.games.tug_of_war.table_data import table_data
from tests.page_drawing import Drawn, assert_drawn_alike, plain_json

ROOT = Path(__file__).resolve().parents[1]
DRAWER = ROOT / "src/taut/games/tug_of_war/table.js"
#: What goes unchecked without ``node``.
WHAT = "the page's drawing of the Tug of War table"

#: The games played: player counts 2 to 8 and every option that changes the picture (the
#: end and its round points, the sets, hand sizes, tie-breaks among all, stopping when one
#: goes out). A short target or few rounds end a game within a few rounds.
GAMES: tuple[dict[str, Any], ...] = (
    {"players": 2, "target": 10},
    {"players": 2, "set": 12, "end": "rounds", "rounds": 1},
    {"players": 3, "target": 15},
    {"players": 3, "set": 12, "end": "rounds", "rounds": 1},
    {"players": 3, "hand": 3, "target": 8, "out": "stop"},
    {"players": 4, "hand": 2, "target": 5, "tiebreak": "all"},
    {"players": 3, "set": 6, "hand": 8, "end": "rounds", "rounds": 3},
    {"players": 5, "end": "round-points", "rounds": 2},
    {"players": 5, "hand": 3, "end": "round-points", "rounds": 2, "round-score": "total"},
    {"players": 6, "hand": 3, "target": 10},
    {"players": 8, "hand": 3, "end": "rounds", "rounds": 2},
)
SEED = 2
#: Share of the positions of a deal drawn (besides its first two): a deal is many alike.
DEAL_SHARE = 0.2


@dataclass(frozen=True)
class Case:
    """One table drawn: who looks, the data sent and the server's two pictures."""

    game: dict[str, Any]
    state: TugModel
    """The full state (for what the viewer must not see)."""
    seat: int | None
    spectator: bool
    legal: list[str]
    data: dict[str, Any]
    wide: str
    narrow: str

    def who(self) -> str:
        """The case in words, for a failure's message."""
        look = "spectator" if self.spectator else "full state" if self.seat is None else ""
        return f"{self.game} {self.state!r} seat {self.seat} {look}".strip()


def _step(state: State, rng: random.Random) -> State:
    """A random move; at a bonus step half the time the most there is to give (the whole
    leftover), so that seats soon pass the target and go out."""
    if state.kind.name == "CHANCE":
        return state.apply({-1: rng.choice(state.chance_outcomes())[0]})
    legal = state.legal_actions(state.acting_seats()[0])
    assert isinstance(state, TugModel)
    if state.phase == BONUS and rng.random() < 0.5:
        return state.apply(legal[-1])
    return state.apply(rng.choice(legal))


def _positions(game: dict[str, Any], rng: random.Random) -> Iterator[TugModel]:
    """The positions of one random game drawn (a deal's only in part), its end included."""
    state = make("tug-of-war", **game).new_initial_state()
    for _ in range(600):
        assert isinstance(state, TugModel)
        if state.phase != DEAL or state.dealt < 2 or rng.random() < DEAL_SHARE:
            yield state
        if state.is_terminal():
            return
        state = _step(state, rng)


def _view(state: TugModel, seat: int | None, spectator: bool) -> TugModel:
    """What the table is drawn from: ``seat``'s view, a spectator's, or the full state."""
    view = drawable(state.view(seat) if seat is not None or spectator else state)
    assert isinstance(view, TugModel)
    return view


def _cases() -> list[Case]:
    """Every position of :data:`GAMES` as the full state, a spectator and each seat see it."""
    found = plugin("tug-of-war")
    rng = random.Random(SEED)
    out = []
    for game in GAMES:
        for state in _positions(game, rng):
            n = state.game.num_players
            looks: list[tuple[int | None, bool]] = [(None, False), (None, True)]
            for seat, spectator in looks + [(s, False) for s in range(n)]:
                view = _view(state, seat, spectator)
                acting = seat is not None and seat in state.acting_seats()
                moves = state.legal_actions(seat) if acting and seat is not None else ()
                legal = [state.action_to_string(seat, a) for a in moves] if seat is not None else []
                wide = found.svg(view, seat, legal)
                narrow = found.svg_narrow(view, seat, legal)
                assert narrow is not None
                data = table_data(view, seat, legal)
                out.append(Case(game, state, seat, spectator, legal, data, wide, narrow))
    return out


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """Every table of the random games, drawn by the server, with its data."""
    return _cases()


def test_the_page_draws_every_table_as_the_server_does(cases: list[Case]) -> None:
    tables = [Drawn(c.who(), c.data, c.wide, c.narrow) for c in cases]
    assert_drawn_alike(DRAWER, tables, WHAT)


def test_the_games_reach_every_part_of_the_table(cases: list[Case]) -> None:
    # The comparison above holds only for what the games drew: each part is drawn.
    pictures = " ".join(c.wide for c in cases)
    for words in (
        "Still face down",
        "sits out the tie-break",
        "out of the game",
        "no starter yet",
        "Round pts",
        "Game over",
        "drawn just now",
        "Draw a tile",
        "(the drawn tile fits nowhere)",
        "(nothing fits and the boneyard is empty)",
        "Handed out so far",
        'data-compose="{tile}@{end}"',
        'data-compose="-{',
        "Keep all",
        "tow-laid-",
        "(you)",
        "tow-dim",
    ):
        assert words in pictures, words
    assert {c.state.game.dominoes.top for c in cases} == {6, 9, 12}
    assert {c.state.game.num_players for c in cases} >= {2, 3, 5, 8}


def test_the_data_is_plain_json_without_markup(cases: list[Case]) -> None:
    for case in cases:
        sent = orjson.dumps(case.data)
        assert plain_json(case.data), case.who()
        assert orjson.loads(sent) == case.data, case.who()
        assert b"<" not in sent, case.who()
    # Deterministic: the same position gives the same bytes.
    for case in cases[:: len(cases) // 20]:
        again = table_data(_view(case.state, case.seat, case.spectator), case.seat, case.legal)
        assert orjson.dumps(again) == orjson.dumps(case.data), case.who()


def _tiles_sent(data: dict[str, Any]) -> set[tuple[int, int]]:
    """Every tile the data holds (hands, plays, the drawn tile, trains), low half first."""
    found: list[list[int]] = []
    for _, hand in data["h"]:
        found += hand
    found += [entry[:2] for entry in data.get("c", [])]
    if "dr" in data:
        found.append(data["dr"])
    for line in data["t"]:
        if isinstance(line, list):
            starter, side0, side1 = line
            found += [starter, *side0, *side1]
    return {(min(t), max(t)) for t in found}


def _hidden_from(state: TugModel, seat: int | None) -> set[tuple[int, int]]:
    """The tiles of the full state that ``seat`` (None: a spectator) may not see."""
    tiles = state.game.dominoes.tiles
    hidden = {tiles[t] for t in state.stock or ()}
    for s, hand in enumerate(state.hands):
        if s != seat and hand is not None:
            hidden |= {tiles[t] for t in hand}
    return hidden


def test_a_seat_is_sent_no_tile_it_may_not_see(cases: list[Case]) -> None:
    checked = 0
    for case in cases:
        hidden = _hidden_from(case.state, case.seat)
        sent = _tiles_sent(case.data)
        if case.seat is None and not case.spectator:
            # The full state (the replay's) holds every hand: the check sees them.
            if any(h for h in case.state.hands if h) and case.state.phase == TURN:
                assert sent & hidden, case.who()
            continue
        assert not sent & hidden, f"{case.who()} is sent {sorted(sent & hidden)}"
        checked += len(hidden)
        # Another seat's hand is its size only.
        for s, size in enumerate(case.data["n"]):
            assert size == case.state.sizes[s]
    assert checked > 1000


def test_the_data_of_a_table_is_small(cases: list[Case]) -> None:
    seats = [
        len(orjson.dumps(c.data))
        for c in cases
        if c.seat is not None and c.state.phase == TURN and c.state.game.num_players <= 5
    ]
    # A typical position: a seat's table in the middle of a round of a few players.
    assert statistics.median(seats) < 1024, statistics.median(seats)
    assert max(seats) < 2048, max(seats)
    assert max(len(orjson.dumps(c.data)) for c in cases) < 4096
