"""Acknowledgements inside frames: a client that asks for them (``"acks": "in-frames"`` in
its hello) gets each command's acknowledgement in the frame that shows the command, one
message less a command; a command that changes nothing, and every refusal, still gets a
message of its own, and a client that does not ask gets messages as before."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from taut.server.play.clients import Connection
from tests.test_server_kit import Recorder, app_client, new_game, token_of


def _sent(acks_in_frames: bool, queue: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """What a connection writes for ``queue`` (``("frame" | "message" | "ack", data)``),
    queued in one go, as a command queues its frames and then its acknowledgement."""

    async def main() -> list[dict[str, Any]]:
        client = Recorder()
        conn = Connection(client, "g", 0, acks_in_frames=acks_in_frames)
        for kind, data in queue:
            if kind == "ack":
                conn.acknowledge(data)
            else:  # a frame or another message: told apart by its type
                conn.send(data)
        await conn.drained()
        return [json.loads(t) for t in client.texts]

    return asyncio.run(main())


FRAME = {"type": "state", "seq": 1}
NEWER = {"type": "state", "seq": 2}
ACK = {"type": "ack", "ref": 7, "seq": 1, "repeat": False}


def test_an_acknowledgement_rides_in_the_frame_queued_before_it() -> None:
    sent = _sent(True, [("frame", FRAME), ("ack", ACK)])
    assert sent == [{**FRAME, "acks": [{"ref": 7, "seq": 1, "repeat": False}]}]


def test_a_newer_frame_takes_the_waiting_frames_acknowledgements_along() -> None:
    later = {"type": "ack", "ref": 8, "seq": 2}
    sent = _sent(True, [("frame", FRAME), ("ack", ACK), ("frame", NEWER), ("ack", later)])
    assert sent == [
        {**NEWER, "acks": [{"ref": 7, "seq": 1, "repeat": False}, {"ref": 8, "seq": 2}]}
    ]


def test_an_acknowledgement_behind_another_message_or_no_frame_is_a_message() -> None:
    pong = {"type": "pong"}
    assert _sent(True, [("ack", ACK)]) == [ACK]
    assert _sent(True, [("frame", FRAME), ("message", pong), ("ack", ACK)]) == [FRAME, pong, ACK]


def test_a_client_that_did_not_ask_gets_acknowledgements_as_messages() -> None:
    assert _sent(False, [("frame", FRAME), ("ack", ACK)]) == [FRAME, ACK]


def _until(session: Any, test: Any) -> list[dict[str, Any]]:
    """Messages received until one passes ``test`` (that one last)."""
    seen = []
    while True:
        message = json.loads(session.receive_text())
        seen.append(message)
        if test(message):
            return seen


@contextlib.contextmanager
def _hello(tmp_path: Path, acks: str) -> Iterator[Any]:
    """A socket of a new Track Tiles game's first seat that has said hello with ``acks``."""
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        token = token_of(next(iter(made["links"].values())))
        with client.websocket_connect(f"/ws/{made['id']}") as session:
            session.send_text(json.dumps({"type": "hello", "token": token, "acks": acks}))
            yield session


def test_over_a_socket_a_move_is_acknowledged_in_its_frame(tmp_path: Path) -> None:
    with _hello(tmp_path, "in-frames") as session:
        frame = _until(session, lambda m: m["type"] == "state")[-1]
        move = {"type": "move", "move": frame["move"], "action": frame["legal"][0]}
        session.send_text(json.dumps({**move, "ref": 1}))
        session.send_text(json.dumps({"type": "ping"}))
        seen = _until(session, lambda m: m["type"] == "pong")
        frames = [m for m in seen if m["type"] == "state"]
        assert [m for m in seen if m["type"] == "ack"] == []  # no message of its own
        assert frames[-1]["move"] == frame["move"] + 1
        (ack,) = [a for f in frames for a in f.get("acks", [])]
        assert ack == {"ref": 1, "seq": frames[-1]["seq"], "repeat": False}
        # The same move again changes nothing: no frame, so an acknowledgement message.
        session.send_text(json.dumps({**move, "ref": 2}))
        again = _until(session, lambda m: m.get("ref") == 2)[-1]
        assert again == {"type": "ack", "ref": 2, "seq": ack["seq"], "repeat": True}
        # A refusal is an error message as always.
        session.send_text(json.dumps({**move, "move": 99, "ref": 3}))
        refused = _until(session, lambda m: m.get("ref") == 3)[-1]
        assert refused["type"] == "error"


def test_a_hello_with_an_unknown_way_of_acknowledging_is_refused(tmp_path: Path) -> None:
    with _hello(tmp_path, "never") as session:
        refused = json.loads(session.receive_text())
        assert refused["type"] == "error" and "acks" in refused["message"]


class _Full:
    """A client whose socket is full until ``opened`` is set: its first send waits."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.opened = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.opened.wait()
        self.texts.append(text)

    async def close(self, code: int) -> None:
        """Nothing to close."""


def test_a_send_that_waits_is_finished_later_and_the_rest_follow_in_order() -> None:
    async def main() -> list[dict[str, Any]]:
        client = _Full()
        conn = Connection(client, "g", 0)
        conn.send({"type": "chat", "n": 1})
        await asyncio.sleep(0)  # written at once, but the socket is full: it waits
        assert client.texts == [] and conn.waiting == 0
        conn.send(FRAME)
        conn.send({"type": "chat", "n": 2})
        conn.send(NEWER)  # takes the waiting frame's place
        await asyncio.sleep(0)
        assert client.texts == [] and conn.waiting == 2
        client.opened.set()
        await conn.drained()
        return [json.loads(t) for t in client.texts]

    sent = asyncio.run(main())
    assert sent == [{"type": "chat", "n": 1}, NEWER, {"type": "chat", "n": 2}]
