"""What the server tests share (this module holds no tests of its own).

* :func:`app_client`: the application in this process on a SQLite file
  (``fastapi.testclient.TestClient``), and :class:`Socket`, a WebSocket of it that waits
  for a message with a time limit (a test fails, never hangs).
* :class:`Bench`: the hub itself with :class:`Recorder` clients that keep every message
  they are sent, driven through the same message handler as a WebSocket; it plays random
  games (:meth:`Bench.play`) for the tests that look at every frame.
* :func:`sample_options`: random option values read from a game's declared options.
* :func:`serve` and :class:`Served`: ``taut serve`` in a subprocess, for the tests about
  processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from taut.core.errors import TautError
from taut.core.options import OptionSpec
from taut.core.plugin import GamePlugin
from taut.server.play.clients import Connection
from taut.server.play.commit import commitment, new_salt
from taut.server.play.computer import Computer
from taut.server.play.frames import with_kept
from taut.server.play.hub import Hub
from taut.server.play.making import Made, NewGame, SeatChoice, make_game
from taut.server.play.session import handle
from taut.server.store.games import Store
from taut.server.web.app import create_app
from taut.server.web.settings import Settings

#: Longest wait for one message, in seconds.
WAIT = 20.0


def sqlite_url(folder: Path, name: str = "taut.db") -> str:
    """A SQLite database in ``folder``."""
    return f"sqlite+aiosqlite:///{folder / name}"


@contextlib.contextmanager
def app_client(folder: Path, raise_errors: bool = True, **settings: Any) -> Iterator[TestClient]:
    """The application on a SQLite file in ``folder``, started (one event loop for all its
    requests and sockets)."""
    app = create_app(Settings(database=sqlite_url(folder), computer_workers=0, **settings))
    with TestClient(app, raise_server_exceptions=raise_errors) as client:
        yield client


def token_of(link: str) -> str:
    """The capability token in a link's fragment."""
    return link.split("#", 1)[1]


def next_state(session: Any) -> dict[str, Any]:
    """The next ``state`` message a test client's socket receives (others are passed)."""
    while True:
        message = session.receive_json()
        if message["type"] == "state":
            return dict(message)


def new_game(
    client: TestClient,
    game: str,
    seats: list[str],
    options: dict[str, Any] | None = None,
    name: str = "",
    **extra: Any,
) -> dict[str, Any]:
    """Make a game through the API (it must succeed)."""
    body = {"game": game, "options": options or {}, "seats": [{"kind": k} for k in seats]}
    body.update(name=name, **extra)
    response = client.post("/api/games", json=body)
    assert response.status_code == 200, response.text
    made: dict[str, Any] = response.json()
    return made


class Socket:
    """A WebSocket of a :class:`TestClient`: every message received is kept in ``seen``."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.seen: list[str] = []
        self.frame: dict[str, Any] | None = None

    def send(self, **message: Any) -> None:
        """Send one message."""
        self.session.send_text(json.dumps(message))

    def send_raw(self, raw: str | bytes) -> None:
        """Send text or bytes as they are."""
        if isinstance(raw, bytes):
            self.session.send_bytes(raw)
        else:
            self.session.send_text(raw)

    def recv(self, wait: float = WAIT) -> dict[str, Any]:
        """The next message; fails the test after ``wait`` seconds."""

        async def receive() -> Any:
            with anyio.fail_after(wait):
                return await self.session._send_rx.receive()

        try:
            message = self.session.portal.call(receive)
        except TimeoutError:
            pytest.fail(f"no message within {wait} s")
        if message["type"] == "websocket.close":
            raise Closed(int(message.get("code", 1000)))
        text = message.get("text")
        assert text is not None, f"a message that is not text: {message!r}"
        self.seen.append(text)
        data: dict[str, Any] = json.loads(text)
        if data["type"] == "state":
            self.frame = with_kept(self.frame, data)
        return data

    def until(self, test: Callable[[dict[str, Any]], bool], wait: float = WAIT) -> dict[str, Any]:
        """Receive until a message passes ``test``; that message."""
        deadline = time.monotonic() + wait
        while True:
            message = self.recv(max(0.01, deadline - time.monotonic()))
            if test(message):
                return message

    def answer(self, ref: int, wait: float = WAIT) -> dict[str, Any]:
        """The ``ack`` or ``error`` answering the message numbered ``ref``."""
        return self.until(lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref, wait)

    def state(self, test: Callable[[dict[str, Any]], bool], wait: float = WAIT) -> dict[str, Any]:
        """Receive until a state frame passes ``test`` (the latest frame may already)."""
        if self.frame is not None and test(self.frame):
            return self.frame
        return self.until(lambda m: m["type"] == "state" and test(m), wait)


class Closed(Exception):
    """The server closed the socket."""

    def __init__(self, code: int) -> None:
        super().__init__(f"closed with code {code}")
        self.code = code


@contextlib.contextmanager
def socket_of(
    client: TestClient, game_id: str, token: str | None, **headers: str
) -> Iterator[Socket]:
    """A WebSocket of ``game_id`` that has said hello with ``token`` and got its first frame."""
    with client.websocket_connect(f"/ws/{game_id}", headers=headers) as session:
        ws = Socket(session)
        ws.send(type="hello", token=token)
        first = ws.recv()
        assert first["type"] == "state", first
        yield ws


class Person:
    """Somebody at one seat through a :class:`Socket`: sends numbered messages and does
    what the latest frame asks (a random legal choice; commit, then reveal, where several
    seats choose at once)."""

    def __init__(
        self, ws: Socket, game_id: str, rng: random.Random, reveal_last: bool = False
    ) -> None:
        self.ws, self.game_id, self.rng = ws, game_id, rng
        self.ref = 0
        self.secrets: dict[int, tuple[str, str]] = {}
        self.reveal_last = reveal_last
        """Whether the person, when last to commit, reveals with the commitment (as the
        page does)."""

    def send(self, **message: Any) -> dict[str, Any]:
        """Send a message with the next ``ref``; its answer (``ack`` or ``error``)."""
        self.ref += 1
        self.ws.send(ref=self.ref, **message)
        return self.ws.answer(self.ref)

    def commit(self, move: int, action: str, reveal: bool = False) -> dict[str, Any]:
        """Commit to ``action`` at ``move`` (a fresh salt, kept for the reveal); with
        ``reveal``, reveal it in the same message."""
        salt = new_salt()
        self.secrets[move] = (action, salt)
        seat = self.frame()["you"]
        digest = commitment(self.game_id, move, seat, action, salt)
        if reveal:
            opening = {"action": action, "salt": salt}
            return self.send(type="commit", move=move, hash=digest, reveal=opening)
        return self.send(type="commit", move=move, hash=digest)

    def frame(self) -> dict[str, Any]:
        """The latest frame."""
        assert self.ws.frame is not None
        return self.ws.frame

    def turn(self) -> dict[str, Any] | None:
        """Do what the latest frame asks; the answer, or None when nothing is asked."""
        f = self.frame()
        move, you = f["move"], f["you"]
        if f["to_reveal"]:
            action, salt = self.secrets[move]
            return self.send(type="reveal", move=move, action=action, salt=salt)
        if not f["legal"] or you not in f["acting"] or you in f["committed"]:
            return None
        action = self.rng.choice(f["legal"])
        if f["phase"] == "commit":
            last = all(s in f["committed"] for s in f["acting"] if s != you)
            return self.commit(move, action, reveal=self.reveal_last and last)
        return self.send(type="move", move=move, action=action)


@contextlib.contextmanager
def two_people(
    client: TestClient, made: dict[str, Any], seeds: tuple[int, int] = (1, 2)
) -> Iterator[tuple[Person, Person]]:
    """The two people invited to a new game of two seats (``made``, with its ``links``),
    each at its socket, choosing with the random ``seeds``."""
    a_token, b_token = (token_of(link) for link in made["links"].values())
    with (
        socket_of(client, made["id"], a_token) as a,
        socket_of(client, made["id"], b_token) as b,
    ):
        yield (
            Person(a, made["id"], random.Random(seeds[0])),
            Person(b, made["id"], random.Random(seeds[1])),
        )


def stored_events(client: TestClient, game_id: str) -> list[Any]:
    """Every event of a game, as the store keeps it."""
    store = client.app.state.store  # type: ignore[attr-defined]
    found: list[Any] = client.portal.call(store.events_after, game_id, -1)  # type: ignore[union-attr]
    return found


def play_out(people: list[Person], steps: int = 2000) -> dict[str, Any]:
    """Play until the game is over (computer seats move by themselves); the last frame."""
    seq = 0
    for _ in range(steps):
        for p in people:
            p.ws.state(lambda f, seq=seq: f["seq"] >= seq)
        if people[0].frame()["phase"] == "over":
            return people[0].frame()
        for p in people:
            answer = p.turn()
            if answer is not None:
                assert answer["type"] == "ack", answer
                seq = max(seq, answer["seq"])
                break
        else:  # the computer is to choose: wait for what it does
            now = people[0].frame()["seq"]
            seq = people[0].ws.state(lambda f, now=now: f["seq"] > now)["seq"]
    raise AssertionError(f"the game did not end within {steps} steps")


# -- the hub, without sockets ------------------------------------------------------------


class Recorder:
    """A client that keeps every message it is sent, as the browser would receive it."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        """Keep one message."""
        self.texts.append(text)

    async def close(self, code: int) -> None:
        """Note the close."""
        self.closed = code

    def messages(self) -> list[dict[str, Any]]:
        """Every message, read (each frame made whole from the one before, as the page
        does)."""
        out: list[dict[str, Any]] = []
        frame: dict[str, Any] | None = None
        for text in self.texts:
            message = json.loads(text)
            if message["type"] == "state":
                message = frame = with_kept(frame, message)
            out.append(message)
        return out

    def frames(self) -> list[dict[str, Any]]:
        """Every state frame."""
        return [m for m in self.messages() if m["type"] == "state"]

    def last(self) -> dict[str, Any]:
        """The latest frame."""
        return self.frames()[-1]


@dataclass
class Player:
    """A seat (or a spectator) connected to the hub."""

    conn: Connection
    recorder: Recorder
    secrets: dict[int, tuple[str, str]] = field(default_factory=dict)
    """Per move, the action and salt this player committed to."""
    refs: int = 0


def composed_move(board: str, rng: random.Random) -> str:
    """A move made from the picture's parts, as a page does where moves are not listed (a
    learning game): a random value for every slot of the root's ``data-compose``."""
    template = re.search(r'data-compose="([^"]+)"', board)
    assert template is not None, "moves are neither listed nor composed from the picture"
    parts: dict[str, list[str]] = {}
    for slot, value in re.findall(r'data-part="([^"=]+)=([^"]*)"', board):
        parts.setdefault(slot, []).append(html.unescape(value))
    return re.sub(
        r"\{([^{}]+)\}", lambda m: rng.choice(parts[m.group(1)]), html.unescape(template[1])
    )


@dataclass
class Bench:
    """The hub with recorded clients, on a SQLite file."""

    store: Store
    hub: Hub
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    players: list[Player] = field(default_factory=list)

    async def make(
        self, game: str, seats: list[str], options: dict[str, Any] | None = None, **kw: Any
    ) -> Made:
        """Make a game (``seats``: kinds as the API takes them)."""
        request = NewGame(
            game=game,
            options=options or {},
            seats=[SeatChoice(kind=k) for k in seats],
            **kw,  # type: ignore[arg-type]
        )
        return await make_game(self.store, request, seed=self.rng.randrange(2**62))

    async def join(
        self, game_id: str, seat: int | None, patches: bool | str = False, draws: bool = False
    ) -> Player:
        """Connect a recorded client at ``seat`` (None: a spectator); with ``patches``, one
        that takes changed pictures as patches (``"edits"``: whose tokens may be edited, as
        the browser's are); with ``draws``, one that draws a game's table from its data (as
        the browser does where the game gives it)."""
        assert await self.hub.table(game_id) is not None
        recorder = Recorder()
        conn = Connection(
            recorder, game_id, seat, patches=bool(patches), edits=patches == "edits", draws=draws
        )
        player = Player(conn, recorder)
        self.hub.join(player.conn)
        self.players.append(player)
        await self.quiet()
        return player

    async def say(self, player: Player, **message: Any) -> dict[str, Any]:
        """Send a message from ``player`` through the message handler; its answer."""
        if message.get("type") not in ("hello", "ping"):
            player.refs += 1
            message.setdefault("ref", player.refs)
        before = len(player.recorder.texts)
        await handle(self.hub, player.conn, json.dumps(message))
        await self.quiet()
        answers = [
            m for m in (json.loads(t) for t in player.recorder.texts[before:])
            if m["type"] != "state"
        ]  # fmt: skip
        assert answers, f"no answer to {message}"
        return answers[-1]

    async def quiet(self) -> None:
        """Wait until the computer seats have moved and every message is written."""
        for _ in range(100):
            await self.hub.settle()
            for player in self.players:
                await player.conn.drained()
            await asyncio.sleep(0)
            if not self.hub.busy:
                return
        raise AssertionError("the hub does not settle")

    async def step(self, player: Player) -> bool:
        """Let ``player`` do what its latest frame asks (reveal, or a random choice); False
        when it has nothing to do."""
        frame = player.recorder.last()
        seat = frame["you"]
        move = frame["move"]
        if seat is None or frame["phase"] == "over":
            return False
        if frame["to_reveal"]:
            action, salt = player.secrets[move]
            answer = await self.say(player, type="reveal", move=move, action=action, salt=salt)
        elif (
            (frame["legal"] or frame["legal_count"])
            and seat in frame["acting"]
            and seat not in frame["committed"]
        ):
            action = (
                self.rng.choice(frame["legal"])
                if frame["legal"]
                else composed_move(frame["board"], self.rng)
            )
            if frame["phase"] == "commit":
                salt = new_salt()
                player.secrets[move] = (action, salt)
                digest = commitment(player.conn.game_id, move, seat, action, salt)
                message: dict[str, Any] = {"type": "commit", "move": move, "hash": digest}
                last = all(s in frame["committed"] for s in frame["acting"] if s != seat)
                if last and move % 2:
                    # The last to commit reveals with it (as the page does) at every other
                    # node, so that both ways are played.
                    message["reveal"] = {"action": action, "salt": salt}
                answer = await self.say(player, **message)
            else:
                answer = await self.say(player, type="move", move=move, action=action)
        else:
            return False
        assert answer["type"] == "ack", answer
        return True

    async def play(self, players: list[Player], nodes: int = 400) -> None:
        """Play on with random choices until the game is over or ``nodes`` steps passed."""
        table = self.hub.tables[players[0].conn.game_id]
        still = 0
        for _ in range(nodes):
            if table.phase == "over":
                return
            moved = False
            for player in players:
                moved = await self.step(player) or moved
            if moved:
                still = 0
                continue
            await self.quiet()
            still += 1
            if still > 3 and table.phase != "over":
                raise AssertionError(f"the game stands still ({table.phase}, seq {table.seq})")


@contextlib.asynccontextmanager
async def bench(folder: Path, seed: int = 0) -> AsyncIterator[Bench]:
    """A :class:`Bench` on a SQLite file in ``folder``."""
    store = Store(sqlite_url(folder, "hub.db"))
    await store.create_tables()
    hub = Hub(store, Computer(0))
    try:
        yield Bench(store, hub, random.Random(seed))
    finally:
        await hub.settle()
        await hub.close()
        await store.close()


def run(coroutine: Any) -> Any:
    """Run a coroutine to its end (tests are plain functions)."""
    return asyncio.run(coroutine)


# -- options ------------------------------------------------------------------------------


def _value(spec: OptionSpec, rng: random.Random) -> Any:
    if spec.nullable and rng.random() < 0.3:
        return None
    if spec.choices:
        return rng.choice(spec.choices)
    if spec.kind is bool:
        return rng.random() < 0.5
    if spec.kind is int:
        low = spec.minimum if spec.minimum is not None else 0
        high = spec.maximum if spec.maximum is not None else low + 20
        return rng.randint(low, min(high, low + 20))
    return spec.default


def sample_options(found: GamePlugin, rng: random.Random, tries: int = 50) -> dict[str, Any]:
    """Random values for a few of the game's declared options that the game accepts."""
    for _ in range(tries):
        specs = [s for s in found.game_class.OPTIONS if rng.random() < 0.5]
        options = {s.name: _value(s, rng) for s in specs}
        try:
            found.game_class(**options)
        except (TautError, ValueError):
            continue
        return options
    return {}


# -- ``taut serve`` in a subprocess ------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Served:
    """A running ``taut serve`` process."""

    process: subprocess.Popen[bytes]
    port: int
    database: str

    @property
    def base(self) -> str:
        """Its address."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        """Its WebSocket address."""
        return f"ws://127.0.0.1:{self.port}"

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST JSON, get JSON."""
        request = urllib.request.Request(
            self.base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            result: dict[str, Any] = json.loads(answer.read())
        return result

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to tidy anything."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(20)

    def stop(self) -> None:
        """Stop it (Ctrl-C), killing it if it does not stop."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(
    database: str,
    log: Path,
    port: int | None = None,
    processes: int = 1,
    options: Sequence[str] = (),
) -> Served:
    """Start ``taut serve --workers 0`` on ``database`` (its messages into ``log``; with
    ``processes`` on one address; with ``options``, more of its options) and wait until
    it answers."""
    port = port or free_port()
    command = [
        sys.executable, "-c", "from taut.cli import main; main()",
        "serve", "--port", str(port), "--db", database, "--workers", "0",
        "--processes", str(processes), *options,
    ]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out, env=dict(os.environ))
    served = Served(process, port, database)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"taut serve stopped: {log.read_text(errors='replace')}")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(served.base + "/api/games", timeout=1).read()
            return served
        time.sleep(0.05)
    served.kill()
    raise AssertionError("taut serve did not answer within 30 s")


@contextlib.contextmanager
def serve(database: str, log: Path, options: Sequence[str] = ()) -> Iterator[Served]:
    """A running ``taut serve`` (with ``options``, more of its options), stopped
    afterwards."""
    served = start_server(database, log, options=options)
    try:
        yield served
    finally:
        served.stop()


class Remote:
    """Somebody at one seat of a game on a :class:`Served` process, through a real WebSocket
    (``websockets``): does what its frames ask, as :class:`Person` does in this process."""

    def __init__(self, served: Served, game_id: str, token: str, rng: random.Random) -> None:
        self.served, self.game_id, self.token, self.rng = served, game_id, token, rng
        self.ws: Any = None
        self.frame: dict[str, Any] = {}
        self.ref = 0
        self.secrets: dict[int, tuple[str, str]] = {}
        self.acked: list[dict[str, Any]] = []
        """Every command the server acknowledged (and did not call a repeat)."""

    async def connect(self, served: Served | None = None) -> dict[str, Any]:
        """Open the socket (to ``served``, by default the same process), say hello; the
        first frame."""
        from websockets.asyncio.client import connect

        self.served = served or self.served
        self.ws = await connect(f"{self.served.ws}/ws/{self.game_id}", max_size=2**22)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token}))
        return await self.state(lambda f: True)

    async def close(self) -> None:
        """Close the socket."""
        if self.ws is not None:
            await self.ws.close()

    async def recv(self, wait: float = WAIT) -> dict[str, Any]:
        """The next message (a frame is kept as the latest)."""
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), wait))
        if message["type"] == "state":
            self.frame = with_kept(self.frame, message)
        return message

    async def state(
        self, test: Callable[[dict[str, Any]], bool], wait: float = WAIT
    ) -> dict[str, Any]:
        """Receive until a frame passes ``test`` (the latest may already)."""
        if self.frame and test(self.frame):
            return self.frame
        deadline = time.monotonic() + wait
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == "state" and test(message):
                return message

    async def send(self, **message: Any) -> dict[str, Any]:
        """Send with the next ``ref``; the answer."""
        self.ref += 1
        ref = self.ref
        await self.ws.send(json.dumps({**message, "ref": ref}))
        while True:
            answer = await self.recv()
            if answer["type"] in ("ack", "error") and answer.get("ref") == ref:
                if answer["type"] == "ack" and not answer.get("repeat"):
                    self.acked.append(message)
                return answer

    async def commit(self, action: str) -> dict[str, Any]:
        """Commit to ``action`` at the frame's move."""
        move, seat = self.frame["move"], self.frame["you"]
        salt = new_salt()
        self.secrets[move] = (action, salt)
        digest = commitment(self.game_id, move, seat, action, salt)
        return await self.send(type="commit", move=move, hash=digest)

    async def turn(self) -> dict[str, Any] | None:
        """Do what the latest frame asks; the answer, or None when nothing is asked."""
        f = self.frame
        move, you = f["move"], f["you"]
        if f["to_reveal"]:
            action, salt = self.secrets[move]
            return await self.send(type="reveal", move=move, action=action, salt=salt)
        if not f["legal"] or you not in f["acting"] or you in f["committed"]:
            return None
        action = self.rng.choice(f["legal"])
        if f["phase"] == "commit":
            return await self.commit(action)
        return await self.send(type="move", move=move, action=action)


async def play_remote(people: list[Remote], steps: int = 2000, until: int | None = None) -> None:
    """Play until the game is over (or its move number reaches ``until``)."""
    for _ in range(steps):
        frame = people[0].frame
        if frame["phase"] == "over" or (until is not None and frame["move"] >= until):
            return
        for p in people:
            answer = await p.turn()
            if answer is not None:
                assert answer["type"] == "ack", answer
                for q in people:
                    await q.state(lambda f, seq=answer["seq"]: f["seq"] >= seq)
                break
        else:
            now = frame["seq"]
            await people[0].state(lambda f, now=now: f["seq"] > now)
    raise AssertionError(f"the game did not end within {steps} steps")
