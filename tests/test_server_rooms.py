"""One picture of two: a client that says the width it draws the board in (its room) is sent,
of a game's wide and narrow pictures, only the one it would draw, as the page chooses; when
its room changes it says so and is sent the other picture whole. A client that says no room
gets both, as before."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taut.server.play.frames import FrameParts, unfit, with_kept
from tests.test_server_kit import app_client, new_game, next_state, token_of

WIDE = '<svg data-touch-width="400" viewBox="0 0 600 300">' + "<rect/>" * 30 + "</svg>"
NARROW = '<svg viewBox="0 0 320 600">' + "<circle/>" * 30 + "</svg>"


def parts(seq: int, wide: str = WIDE, narrow: str = NARROW) -> FrameParts:
    """A frame with both pictures."""
    pictures = {"board": wide, "board_narrow": narrow}
    return FrameParts(f'{{"seq":{seq}}}', {k: json.dumps(v) for k, v in pictures.items()}, pictures)


def test_the_picture_that_fits_is_chosen_as_the_page_chooses() -> None:
    pictures = {"board": WIDE, "board_narrow": NARROW}
    assert unfit(pictures, 399) == "board"
    assert unfit(pictures, 400) == "board_narrow"
    assert unfit(pictures, None) is None
    assert unfit({"board": WIDE}, 300) is None
    # A wide picture that names no touch width fits every room: both go.
    assert unfit({"board": "<svg><rect/></svg>", "board_narrow": NARROW}, 300) is None
    # Only the root's attribute counts, not one further in.
    late = '<svg viewBox="0 0 1 1"><g data-touch-width="400"/></svg>'
    assert unfit({"board": late, "board_narrow": NARROW}, 300) is None


def test_a_frame_carries_the_picture_that_fits_and_the_other_whole_when_the_room_changes() -> None:
    sent: dict[str, str] = {}
    held: dict[str, str] = {}
    phone = json.loads(parts(1).text(sent, held, 358))
    assert phone == {"seq": 1, "board_narrow": NARROW}
    assert set(held) == {"board_narrow"}
    # Turned sideways: the wide picture comes whole (it was never held), the narrow not at all.
    turned = json.loads(parts(2).text(sent, held, 760))
    assert turned == {"seq": 2, "board": WIDE}
    assert set(held) == {"board"} and set(sent) == {"board"}
    # Back on the phone's width with a new position: the narrow picture whole again.
    narrow = NARROW.replace("<circle/>", "<circle r='1'/>", 1)
    back = json.loads(parts(3, narrow=narrow).text(sent, held, 358))
    assert back == {"seq": 3, "board_narrow": narrow}
    # What the client makes of its frames has the one picture it draws.
    assert with_kept(with_kept(phone, turned), back) == back
    # No room said: both, as before.
    assert set(json.loads(parts(4).text({}, {}, None))) == {"seq", "board", "board_narrow"}


@contextlib.contextmanager
def _socket(tmp_path: Path, hello: dict[str, Any]) -> Iterator[Any]:
    """A socket of a new Tug of War game's seat that has said ``hello`` (its token added)."""
    with app_client(tmp_path) as client:
        made = new_game(client, "tug-of-war", ["me", "invite"], {"players": 2})
        token = token_of(next(iter(made["links"].values())))
        with client.websocket_connect(f"/ws/{made['id']}") as session:
            session.send_text(json.dumps({"type": "hello", "token": token, **hello}))
            yield session


def test_over_a_socket_the_room_chooses_the_picture(tmp_path: Path) -> None:
    with _socket(tmp_path, {"room": 300, "patches": True}) as session:
        first = next_state(session)
        assert "board_narrow" in first and "board" not in first
        session.send_text(json.dumps({"type": "room", "room": 1200}))
        wider = next_state(session)
        assert "board" in wider and "board_patch" not in wider and "board_narrow" not in wider
        assert wider["board"].startswith("<svg")
        # A room that is no width is refused, and the socket goes on.
        session.send_text(json.dumps({"type": "room", "room": -5}))
        refused = session.receive_json()
        assert refused["type"] == "error" and "room" in refused["message"]
        session.send_text(json.dumps({"type": "ping"}))
        assert session.receive_json()["type"] == "pong"
    (tmp_path / "plain").mkdir()
    with _socket(tmp_path / "plain", {}) as session:
        both = next_state(session)
        assert "board" in both and "board_narrow" in both


class _Client:
    """A connection's far end that keeps what it is sent."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(with_kept(self.frames[-1] if self.frames else None, json.loads(text)))

    async def close(self, code: int) -> None:
        """Nothing to close."""


def test_a_picture_no_client_draws_is_not_drawn(monkeypatch: Any) -> None:
    """Clients that said their rooms are drawn only the picture each draws: a seat whose
    clients are all on phones costs no wide picture, and a room that changes draws the other
    one then."""
    import asyncio

    from taut.core.registry import plugin
    from taut.server.play.audience import Audience
    from taut.server.play.clients import Connection
    from taut.server.play.position import Seat
    from taut.server.play.table import GameTable

    found = plugin("tug-of-war")
    drawn: list[tuple[str, int | None]] = []
    wide, narrow = found.svg, found.svg_narrow
    monkeypatch.setattr(found, "svg", lambda v, s, m: drawn.append(("board", s)) or wide(v, s, m))
    monkeypatch.setattr(
        found, "svg_narrow", lambda v, s, m: drawn.append(("narrow", s)) or narrow(v, s, m)
    )
    config = {"options": {"players": 2}, "seats": [{}, {}], "seed": 1}
    table = GameTable("g", found, found.game_class(players=2), config, [Seat("human")] * 2)

    async def play() -> list[_Client]:
        audience = Audience()
        clients = [_Client(), _Client(), _Client()]
        conns = [
            Connection(clients[0], "g", 0, patches=True),
            Connection(clients[1], "g", 1, patches=True),
            Connection(clients[2], "g", 1, patches=True),  # the same seat, on a desktop too
        ]
        for conn, room in zip(conns, (358, 760, 1200), strict=True):
            conn.room = room
        # The first frame draws both (the wide one says which room it needs).
        audience.join(conns[0], table, 0.0)
        for conn in conns[1:]:
            audience.join(conn, table, 0.0)
        await asyncio.sleep(0)
        drawn.clear()
        rng = random.Random(3)
        while not table.state.is_terminal() and len(drawn) < 12:
            state = table.state
            if state.is_chance():
                table.state = state.apply(state.sample_chance(rng))
                continue
            seat = state.acting_seats()[0]
            table.state = state.apply({seat: rng.choice(list(state.legal_actions(seat)))})
            audience.broadcast(table, 0.0)
            await asyncio.sleep(0)
        assert drawn, "no move was drawn"
        # The phone's seat gets its narrow picture only, the desktops' seat its wide one.
        assert {("narrow", 0), ("board", 1)} >= set(drawn) > set()
        assert ("board", 0) not in drawn and ("narrow", 1) not in drawn
        # The phone turned sideways: the wide picture is drawn for it then, and sent whole.
        conns[0].room = 900
        drawn.clear()
        audience.send_to(conns[0], table, 0.0)
        await asyncio.sleep(0)
        assert drawn == [("board", 0)]
        return clients

    clients = asyncio.run(play())
    for client in clients:
        assert all(("board" in f) != ("board_narrow" in f) for f in client.frames[1:])
    assert "board" in clients[0].frames[-1]
