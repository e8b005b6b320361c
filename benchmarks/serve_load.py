"""Load on ``taut serve``: WebSocket clients in concurrent games, on SQLite and PostgreSQL.

The server runs as a subprocess on loopback (``--workers 0``); one asyncio process plays
every client. Each game has two seats, each held by its own WebSocket client. By default
the load mixes Pulling Strings games (simultaneous: commit, then reveal) and Track Tiles
games (sequential moves; ``--sequential`` of them). ``--game`` plays one game only, as the
browser plays it: ``pulling-strings`` (default options), ``push-pull`` (the duel,
simultaneous like Pulling Strings), ``tug-of-war`` (for two; the server draws its chance
nodes itself), ``tracks`` (6x6); repeat it, or give ``all``, to run the load once per game,
one after the other, each on a fresh server, with a row of the table each. A client takes
its seats from the answer that made its game, waits a think time (``--think`` seconds on
average) before it commits or moves (a move from the frame's ``legal`` list) and reveals
at once; when a game ends its first seat asks for a rematch and both clients go on there,
on the same socket as the page does (``follow``; ``--reconnect``: on a new one), so the
load stays level until ``--seconds`` have passed. Then no new choice is made, the
clients finish what they sent and the store is read back. ``--games`` counts the games
(two clients each); ``--clients N`` gives the clients instead (N / 2 games). Every
client asks for ``permessage-deflate``, as browsers do, so that the server compresses
what it would compress for them (``--no-deflate``: clients that do not ask).

By default every client is a named player (``POST /api/players``): the first makes a rated
game with a clock (``--clock 5+3``) and the second takes its seat with its own key, so
clocks run, chat lines are sent (``--chat``: the chance a client says something with a
choice) and every finished game updates both ratings; after each game the first seat
opens its player page (``GET /api/players/NAME``, timed apart). ``--guests`` runs the
older load instead: seats through links only, no players, clocks, ratings or chat.
``--servers 2`` (PostgreSQL only) starts that many servers on one database, each on its
own port, and deals the games' clients between them: a seat may sit on one process and
its opponent on the other, so frames cross processes through the database's
notifications. ``--processes 2`` starts each server as ``taut serve --processes 2``: two
processes on one address, the system dealing the connections.

Measured: nodes played per second (a simultaneous node is two commits and two reveals),
commands (moves, commits, reveals) per second, the latency from a command's submission to
the first frame at the *other* client of its game that shows it (p50, p95, p99), and the
server's CPU time (its process tree's, read from the system, so the clients' own CPU is
not in it). What a move costs the server: its CPU milliseconds per command (``cpu
ms/cmd``: the CPU its processes used in the measured window, from the moment every client
holds its first frame, so that making players and games and the first connections are
not charged, to the end of ``--seconds``, divided by the commands acknowledged in that
window; a player's page, chat, clocks and ratings are part of the load and so of the
cost) and per player's move (``cpu ms/move``: the same CPU divided by the moves, where a
move is one command in a game played in turns and a commitment with its reveal, sent
together or apart, in a game of choices made at once), and the bytes a client is sent:
its first frame on a connection (the whole game, as a client joining or going to a
rematch gets it; ``first B``, averaged) apart from each later frame (``later B``,
averaged; a frame leaves out what the client kept from the frame before). ``cpu s`` is
the server's CPU over the whole run, the clients' wind-down included.
Checked: every acknowledged command is in the store exactly once (else counted lost or
duplicated), no node is stored twice, every client's last frame shows its game's last
event (else counted undelivered), and with players every finished game changed the ratings
exactly once (else counted under ``rating errors``).

``--src DIR`` (repeatable) runs the server from another source tree as well (a copy of
``src`` before a change): the table then gives each run's ratio to the first one of its
database and game, CPU per node and per command and the frames' bytes among them.
``--rev REV`` (repeatable) does the same for a revision of this repository's history, its
``src`` folder written out by ``git archive`` (``--rev 1920fdd``: the server before its
frames carried what changed).
``--json`` prints every run's numbers (the ones above included) as JSON instead.
``--repeat N`` runs each tree N times, the trees in turn, and keeps each tree's run whose
command cost the least CPU (every run's figure is printed beside it, and every run's lost,
duplicated or undelivered commands are added to the one kept): a shared machine's speed
drifts by a fifth from run to run, and the least of a few runs taken in turn is the
fairest comparison. ``--instructions`` runs each server under valgrind's callgrind and
counts the instructions it carries out in the window, a command and a move: a measure of
the server's work that the machine's speed and its neighbours do not change (though a
cache missed costs time that no instruction count shows). Under callgrind a server runs
about fifty times slower, so a few clients give enough commands (``--clients 20
--seconds 60``), and the CPU and latency figures of such a run mean nothing.

The clients take changed pictures as patches of the ones they hold, as the browser's page
does (``--whole``: whole pictures only, as other clients take them), take the data a game
gives for its table in place of its pictures, as the page draws it (``--pictures``: the
server's pictures), and leave the position as text out, as the page does until its "position
as text" is opened (``--text``: clients that show it).

Run: ``.venv/bin/python benchmarks/serve_load.py [--db sqlite|postgres|both]
[--game pulling-strings|push-pull|tug-of-war|tracks|all ...] [--games 100 | --clients 200]
[--sequential 10] [--seconds 30] [--think 1.0] [--clock 5+3] [--chat 0.05] [--guests]
[--servers 1] [--processes 1] [--src DIR ...] [--rev REV ...] [--repeat N] [--profile DIR] [--whole]
[--pictures] [--text] [--reconnect] [--python PATH] [--instructions] [--json]``

``--python PATH`` runs the servers on another interpreter (the load client stays on this
one): the python of a venv that has taut's server installed (``make serve-venv
SERVE_PYTHON=/usr/bin/python3.11`` makes one in ``.venv-serve``). The CPU a move depends on
how the interpreter was built: docs/server.md, "The interpreter".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select
from websockets.asyncio.client import ClientConnection, connect

from taut.server.play.commit import commitment, new_salt
from taut.server.play.frames import with_kept
from taut.server.store.games import Store
from taut.server.store.schema import rated_games, ratings_table
from trees import UnknownRevision, exported_src

#: The PostgreSQL server the benchmark makes its own database on (and drops after).
POSTGRES = "postgresql://postgres@127.0.0.1"
SIMULTANEOUS: tuple[str, dict[str, Any]] = ("pulling-strings", {})
SEQUENTIAL: tuple[str, dict[str, Any]] = ("tracks", {"size": 6})
#: Each game ``--game`` names, with its options as the browser plays it.
GAMES: dict[str, dict[str, Any]] = {
    "pulling-strings": {},
    "push-pull": {},
    "tug-of-war": {"players": 2},
    "tracks": {"size": 6},
}
#: The game of a run that mixes Pulling Strings and Track Tiles (no ``--game``).
MIXED = "mixed"
#: Seconds a stopping client waits for a quiet connection before it leaves.
QUIET = 2.0


# -- the server ---------------------------------------------------------------------------


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """``taut serve`` in a subprocess (from ``src`` when given, profiled into ``profile``)."""

    database: str
    src: str | None = None
    profile: str | None = None
    processes: int = 1
    """Server processes on this one address (``taut serve --processes``)."""
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    callgrind: str | None = None
    """A folder: run the server under valgrind's callgrind, counting the instructions it
    carries out between :meth:`count_from_here` and :meth:`count_to_here` only."""
    python: str = sys.executable
    """The interpreter the server runs on (``--python``; the load client's own by default)."""

    @property
    def base(self) -> str:
        """The server's address."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        """Start it and wait until it answers."""
        env = dict(os.environ)
        if self.src:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [self.src, env.get("PYTHONPATH")]))
        run = "from taut.cli import main; main()"
        if self.profile:
            run = "import cProfile; from taut.cli import main; "
            run += f"cProfile.run('main()', {self.profile!r})"
        args = ["serve", "--port", str(self.port), "--db", self.database, "--workers", "0"]
        if self.processes > 1:  # an older tree may not have the option
            args += ["--processes", str(self.processes)]
        command = [self.python, "-c", run, *args]
        if self.callgrind:
            out = str(Path(self.callgrind) / f"callgrind.{self.port}.%p")
            command = [*CALLGRIND, f"--callgrind-out-file={out}", *command]
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        # Under callgrind the server starts about fifty times slower.
        deadline = time.monotonic() + (600 if self.callgrind else 30)
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped ({self.process.returncode})")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/api/games", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer in time")

    def count_from_here(self) -> None:
        """Under callgrind: count the server's instructions from now on, from zero."""
        if self.callgrind and self.process is not None:
            for request in ("-z", "-i on"):
                _callgrind_control(request, self.process.pid)

    def count_to_here(self) -> int:
        """Under callgrind: stop counting and say how many instructions the server carried
        out since :meth:`count_from_here` (0 when not under callgrind)."""
        if not self.callgrind or self.process is None:
            return 0
        folder = Path(self.callgrind)
        before = set(folder.iterdir())
        for request in ("-i off", "-d"):
            _callgrind_control(request, self.process.pid)
        dumps = sorted(set(folder.iterdir()) - before, key=lambda p: p.stat().st_mtime)
        if not dumps:
            raise RuntimeError("callgrind wrote no counts")
        for line in dumps[-1].read_text().splitlines():
            if line.startswith("totals:"):
                return int(line.split()[1])
        raise RuntimeError(f"{dumps[-1]} holds no total")

    def cpu_seconds(self) -> float:
        """User and system CPU time the server (and its processes) used so far (Linux)."""
        assert self.process is not None
        return cpu_of_tree(self.process.pid)

    def stop(self) -> None:
        """Stop it as Ctrl-C would (so that a profile is written)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


#: valgrind's callgrind, counting nothing until told to (``--instructions``).
CALLGRIND = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "-q"]


def _callgrind_control(request: str, pid: int) -> None:
    subprocess.run(
        ["callgrind_control", *request.split(), str(pid)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        timeout=120,
    )


def cpu_of_tree(pid: int) -> float:
    """CPU seconds of a process and of its live children, theirs recursively (Linux)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    total = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    with contextlib.suppress(OSError):
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += cpu_of_tree(int(child))
    return total


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON, get JSON."""
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
    return result


# -- the clients --------------------------------------------------------------------------


@dataclass
class Stats:
    """What the clients saw."""

    latencies: list[float] = field(default_factory=list)
    pages: list[float] = field(default_factory=list)
    """Seconds each player page took to load."""
    commands: int = 0
    chats: int = 0
    over: set[str] = field(default_factory=set)
    """Games some client saw finished."""
    errors: Counter[str] = field(default_factory=Counter)
    acked: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    """``(game id, seat, message)`` of every acknowledged command."""
    last_seq: dict[tuple[str, str], int] = field(default_factory=dict)
    first_frames: int = 0
    """Connections that received a first frame (the whole game)."""
    first_bytes: int = 0
    later_frames: int = 0
    """Frames received after the first of their connection."""
    later_bytes: int = 0

    def received(self, raw: str | bytes, first: bool) -> None:
        """Count a frame of ``raw`` (its bytes as sent), the first of its connection or not."""
        size = len(raw.encode()) if isinstance(raw, str) else len(raw)
        if first:
            self.first_frames += 1
            self.first_bytes += size
        else:
            self.later_frames += 1
            self.later_bytes += size


@dataclass
class Pair:
    """One game's two clients: commands waiting to be seen by the other, kept choices."""

    id: str
    pending: list[tuple[str, dict[str, Any], float]] = field(default_factory=list)
    secrets: dict[tuple[str, int], tuple[str, str]] = field(default_factory=dict)

    def seen(self, by: str, frame: dict[str, Any], stats: Stats) -> None:
        """``by`` received ``frame``: the other seat's commands it shows have arrived."""
        now = time.perf_counter()
        keep = []
        for seat, message, sent in self.pending:
            if seat != by and _shows(frame, seat, message):
                stats.latencies.append(now - sent)
            else:
                keep.append((seat, message, sent))
        self.pending = keep


def _shows(frame: dict[str, Any], seat: str, message: dict[str, Any]) -> bool:
    """Whether ``frame`` shows ``seat``'s command ``message``."""
    move = int(message["move"])
    if frame["move"] != move:
        return bool(frame["move"] > move)
    if message["type"] == "commit":
        return seat in frame["committed"]
    if message["type"] == "reveal":
        return seat in frame["revealed"]
    return False


@dataclass
class Load:
    """One run's clients."""

    think: float
    rng: random.Random
    chat: float = 0.0
    http: httpx.AsyncClient | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    stats: Stats = field(default_factory=Stats)
    pairs: dict[str, Pair] = field(default_factory=dict)
    separate_acks: bool = False
    """Ask for each acknowledgement as a message of its own (as clients did before
    acknowledgements rode in frames; set by itself for a server that does not know them)."""
    rooms: bool = True
    """Say the board's room in the hello, as the browser's page does (unset by itself for a
    server that does not know it)."""
    whole: bool = False
    """Ask for whole pictures only (the browser takes changed pictures as patches; set by
    itself for a server that does not know patches)."""
    edits: bool = True
    """Take patches that edit a picture's tokens, as the browser's page does (unset by
    itself for a server that does not know them)."""
    deflate: bool = True
    """Ask for permessage-deflate, as browsers do: the server then compresses the frames it
    chooses to, and the client compresses every command (sizes are counted as JSON text,
    before compression)."""
    reveal_with_commit: bool = True
    """The last seat to commit reveals in the same message, as the browser's page does
    (unset by itself for a server that does not know it)."""
    draws: bool = True
    """Draw a game's table from the data the game gives for it, as the browser's page does
    (``--pictures``: the server's pictures; unset by itself for a server that does not know
    it)."""
    text: bool = False
    """Show the position as text (``--text``; the browser's page shows it only while its
    "position as text" is open, and is sent it only then)."""
    text_known: bool = True
    """The server knows the hello's ``text`` (unset by itself for one that does not: it
    sends the text to every client, as it did)."""
    follows: bool = True
    """Go on to a rematch on the same socket (``follow``), as the browser's page does
    (``--reconnect``: a new socket for each game; unset by itself for a server that does
    not know it)."""
    clients: int = 0
    """Clients of the run (set once they are made)."""
    joined: int = 0
    """Clients that received the first frame of their first game."""
    all_joined: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when every client holds its first frame: the measured window starts."""

    def join(self) -> None:
        """One more client holds its first frame."""
        self.joined += 1
        if self.joined >= self.clients:
            self.all_joined.set()

    def pair(self, game_id: str) -> Pair:
        """The pair of clients of ``game_id``."""
        return self.pairs.setdefault(game_id, Pair(game_id))


#: The board's room, in CSS pixels, on a phone (390 pixels wide) and on a desktop.
PHONE_ROOM = 358
DESKTOP_ROOM = 760


class Client:
    """One seat's WebSocket client, from game to rematch until the run stops."""

    def __init__(
        self, load: Load, base: str, seat: str, token: str, asks_rematch: bool, name: str = ""
    ) -> None:
        self.load, self.base, self.seat, self.token = load, base, seat, token
        self.asks, self.name = asks_rematch, name
        self.ws: ClientConnection | None = None
        self.pair = Pair("")
        self.ref = 0
        self.unacked: dict[int, dict[str, Any]] = {}
        self.acted: set[tuple[int, str]] = set()
        self.frame: dict[str, Any] | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.joined = False

    async def run(self, game_id: str) -> None:
        """Play ``game_id`` and its rematches."""
        next_id: str | None = game_id
        while next_id is not None:
            next_id = await self._socket(next_id)

    def _start(self, game_id: str) -> None:
        """Begin the game ``game_id`` (on a new socket or the same one)."""
        self.pair = self.load.pair(game_id)
        self.unacked.clear()
        self.acted.clear()
        self.frame = None

    async def _socket(self, game_id: str) -> str | None:
        """Play on one socket from ``game_id`` on, following its rematches on it as the
        page does; the game to open a new socket for (a server that cannot follow), or
        None once the run is over."""
        self._start(game_id)
        first = True
        following: str | None = None  # the rematch asked for, until the server says followed
        url = self.base.replace("http", "ws", 1) + f"/ws/{game_id}"
        compression = "deflate" if self.load.deflate else None
        async with connect(url, max_size=2**22, compression=compression) as ws:
            self.ws = ws
            hello: dict[str, Any] = {"type": "hello", "token": self.token}
            if not self.load.separate_acks:
                hello["acks"] = "in-frames"  # as the browser's page asks
            if not self.load.whole:
                # As the browser's page asks.
                hello["patches"] = "edits" if self.load.edits else True
                if self.load.draws:
                    hello["draws"] = True  # as the page does where the game gives a table
            if self.load.rooms:
                # As the browser's page does: a game's first seat on a phone, the other on
                # a desktop.
                hello["room"] = PHONE_ROOM if self.asks else DESKTOP_ROOM
            if self.load.text_known and not self.load.text:
                hello["text"] = False  # as the page says while its text is closed
            await ws.send(json.dumps(hello))
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), QUIET)
                except TimeoutError:
                    if self.load.stop.is_set() and self._settled():
                        return None
                    continue
                message = json.loads(raw)
                if message["type"] == "state":
                    self.load.stats.received(raw, first)
                    first = False
                    if following is not None:
                        continue  # the game left: the page no longer shows it
                    if not self.joined:
                        self.joined = True
                        self.load.join()
                    acks = message.pop("acks", [])
                    message = with_kept(self.frame, message)
                    new_game = await self._frame(message)
                    for ack in acks:
                        self._answer({"type": "ack", **ack})
                    if new_game is not None:
                        if not self.load.follows:
                            return new_game
                        following = new_game
                        await ws.send(json.dumps({"type": "follow"}))  # as the page does
                elif message["type"] == "followed":
                    self._start(str(message["game"]))
                    following = None
                    first = True  # the rematch's first frame is whole
                elif message["type"] == "error" and following and not message.get("ref"):
                    # A server from before rematches followed on the socket: a new one.
                    self.load.follows = False
                    return following
                elif message["type"] == "error" and "draws" in str(message.get("message")):
                    # A server from before tables drawn by the page: its pictures.
                    self.load.draws = False
                    return game_id
                elif message["type"] == "error" and "hello.text" in str(message.get("message")):
                    # A server from before the text was sent only where shown: it sends it.
                    self.load.text_known = False
                    return game_id
                elif message["type"] == "error" and "room" in str(message.get("message")):
                    # A server from before rooms: both pictures, as it sent them.
                    self.load.rooms = False
                    return game_id
                elif message["type"] == "error" and "patches" in str(message.get("message")):
                    # (What this hello asked: both clients of a game may be refused.)
                    if hello.get("patches") == "edits":
                        # A server from before edits of tokens: patches as it made them.
                        self.load.edits = False
                    else:
                        # A server from before patches: whole pictures, as it sent them.
                        self.load.whole = True
                    return game_id
                elif message["type"] == "error" and "acks" in str(message.get("message")):
                    # A server from before acknowledgements in frames: say hello as before.
                    self.load.separate_acks = True
                    return game_id
                else:
                    self._answer(message)

    def _settled(self) -> bool:
        frame = self.frame
        return not self.unacked and (frame is None or frame["phase"] != "reveal")

    def _answer(self, message: dict[str, Any]) -> None:
        sent = self.unacked.pop(int(message.get("ref") or 0), None)
        if (
            message["type"] == "error"
            and sent is not None
            and "reveal" in sent
            and "reveal" in str(message["message"])
            and "Extra" in str(message["message"])
        ):
            # A server from before reveals with commitments: the commitment alone, and
            # the reveal apart.
            self.load.reveal_with_commit = False
            self._spawn(self._send({k: v for k, v in sent.items() if k not in ("reveal", "ref")}))
            return
        if message["type"] == "error":
            self.load.stats.errors[str(message["message"])] += 1
        elif message["type"] == "ack" and sent is not None and "move" in sent:
            self.load.stats.acked.append((self.pair.id, self.seat, sent))

    async def _frame(self, frame: dict[str, Any]) -> str | None:
        load = self.load
        self.frame = frame
        load.stats.last_seq[(self.pair.id, self.seat)] = frame["seq"]
        self.pair.seen(self.seat, frame, load.stats)
        if frame["rematch"] and not load.stop.is_set():
            return str(frame["rematch"])
        move = int(frame["move"])
        if frame["phase"] == "over":
            load.stats.over.add(self.pair.id)
            if self.asks and (move, "rematch") not in self.acted and not load.stop.is_set():
                self.acted.add((move, "rematch"))
                if self.name and load.http is not None:
                    self._spawn(self._page())
                await self._send({"type": "rematch"}, timed=False)
        elif frame["to_reveal"] and (move, "reveal") not in self.acted:
            self.acted.add((move, "reveal"))
            action, salt = self.pair.secrets[(self.seat, move)]
            await self._send({"type": "reveal", "move": move, "action": action, "salt": salt})
        elif (
            frame["phase"] in ("play", "commit")
            and self.seat in frame["acting"]
            and self.seat not in frame["committed"]
            and frame["legal"]
            and (move, "choose") not in self.acted
            and not load.stop.is_set()
        ):
            self.acted.add((move, "choose"))
            self._spawn(self._choose(frame))
        return None

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _page(self) -> None:
        """Open this player's page, as a player does after a game."""
        assert self.load.http is not None
        start = time.perf_counter()
        try:
            answer = await self.load.http.get(f"{self.base}/api/players/{self.name}")
        except httpx.HTTPError as exc:
            self.load.stats.errors[f"page: {exc!r}"] += 1
            return
        if answer.status_code != 200:
            self.load.stats.errors[f"page: HTTP {answer.status_code}"] += 1
            return
        self.load.stats.pages.append(time.perf_counter() - start)

    async def _choose(self, frame: dict[str, Any]) -> None:
        load = self.load
        if load.think > 0:
            await asyncio.sleep(load.rng.uniform(0.5, 1.5) * load.think)
        if load.stop.is_set():
            return
        action = load.rng.choice(frame["legal"])
        move = int(frame["move"])
        if frame["phase"] == "commit":
            salt = new_salt()
            self.pair.secrets[(self.seat, move)] = (action, salt)
            digest = commitment(self.pair.id, move, self.seat, action, salt)
            message: dict[str, Any] = {"type": "commit", "move": move, "hash": digest}
            latest = self.frame or frame
            others = [s for s in latest["acting"] if s != self.seat]
            last = latest["move"] == move and all(s in latest["committed"] for s in others)
            if load.reveal_with_commit and last:
                # The last to commit reveals with it, as the page does.
                message["reveal"] = {"action": action, "salt": salt}
            await self._send(message)
        else:
            await self._send({"type": "move", "move": move, "action": action})
        if load.chat and load.rng.random() < load.chat:
            load.stats.chats += 1
            await self._send({"type": "chat", "text": "good move"}, timed=False)

    async def _send(self, body: dict[str, Any], timed: bool = True) -> None:
        assert self.ws is not None
        self.ref += 1
        body["ref"] = self.ref
        self.unacked[self.ref] = body
        if timed:
            self.pair.pending.append((self.seat, body, time.perf_counter()))
            self.load.stats.commands += 1
        await self.ws.send(json.dumps(body))


# -- one run ------------------------------------------------------------------------------


@dataclass
class Result:
    """One run's numbers."""

    label: str
    games: int
    clients: int
    seconds: float
    nodes: int
    commands: int
    latencies: list[float]
    server_cpu: float
    lost: int
    duplicated: int
    undelivered: int
    errors: dict[str, int]
    pages: list[float] = field(default_factory=list)
    client_cpu: float = 0.0
    """CPU seconds of this process (every client) while the load ran."""
    finished: int = 0
    rating_errors: int = 0
    game: str = MIXED
    """The game played (``mixed``: Pulling Strings with ``--sequential`` Track Tiles)."""
    window_seconds: float = 0.0
    """The measured window: from every client holding its first frame to the stop."""
    window_cpu: float = 0.0
    """The server's CPU seconds in the measured window."""
    window_commands: int = 0
    """Commands acknowledged in the measured window."""
    window_moves: int = 0
    """Players' moves acknowledged in the measured window: a move in a game played in
    turns, a commitment (with its reveal or not) in one of choices made at once; a reveal
    alone is the second half of a move already counted."""
    window_instructions: int = 0
    """With ``--instructions``: the instructions the server carried out in the window."""
    first_frames: int = 0
    first_bytes: int = 0
    later_frames: int = 0
    later_bytes: int = 0
    runs_cpu_ms_per_command: list[float] = field(default_factory=list)
    """With ``--repeat``: the CPU milliseconds a command of every run of this tree, of which
    this one is the least."""

    @property
    def cpu_ms_per_command(self) -> float:
        """The server's CPU milliseconds per command carried out in the measured window."""
        if not self.window_commands:
            return float("nan")
        return 1000 * self.window_cpu / self.window_commands

    @property
    def cpu_ms_per_move(self) -> float:
        """The server's CPU milliseconds per player's move in the measured window (its
        commitment and its reveal together, in a game of choices made at once)."""
        if not self.window_moves:
            return float("nan")
        return 1000 * self.window_cpu / self.window_moves

    @property
    def instructions_per_command(self) -> float:
        """With ``--instructions``: the server's instructions (millions) a command in the
        window; NaN without."""
        if not self.window_instructions or not self.window_commands:
            return float("nan")
        return self.window_instructions / self.window_commands / 1e6

    @property
    def instructions_per_move(self) -> float:
        """With ``--instructions``: the server's instructions (millions) a player's move in
        the window; NaN without."""
        if not self.window_instructions or not self.window_moves:
            return float("nan")
        return self.window_instructions / self.window_moves / 1e6

    @property
    def first_frame_bytes(self) -> float:
        """The average bytes of a connection's first frame."""
        return self.first_bytes / self.first_frames if self.first_frames else float("nan")

    @property
    def later_frame_bytes(self) -> float:
        """The average bytes of each frame after a connection's first."""
        return self.later_bytes / self.later_frames if self.later_frames else float("nan")

    @staticmethod
    def quantile(values: list[float], q: float) -> float:
        """The ``q`` quantile of ``values`` (seconds), in milliseconds."""
        if not values:
            return float("nan")
        ordered = sorted(values)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def percentile(self, q: float) -> float:
        """The ``q`` quantile of the latencies, in milliseconds."""
        return self.quantile(self.latencies, q)

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON."""
        return {
            "label": self.label,
            "games": self.games,
            "clients": self.clients,
            "seconds": round(self.seconds, 2),
            "nodes_per_s": round(self.nodes / self.seconds, 1),
            "commands_per_s": round(self.commands / self.seconds, 1),
            "p50_ms": round(self.percentile(0.5), 2),
            "p95_ms": round(self.percentile(0.95), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "server_cpu_s": round(self.server_cpu, 2),
            "client_cpu_s": round(self.client_cpu, 2),
            "lost": self.lost,
            "duplicated": self.duplicated,
            "undelivered": self.undelivered,
            "errors": self.errors,
            "page_p95_ms": round(self.quantile(self.pages, 0.95), 2),
            "pages": len(self.pages),
            "finished": self.finished,
            "rating_errors": self.rating_errors,
            "game": self.game,
            "window_s": round(self.window_seconds, 2),
            "window_cpu_s": round(self.window_cpu, 3),
            "window_commands": self.window_commands,
            "cpu_ms_per_command": round(self.cpu_ms_per_command, 4),
            "window_moves": self.window_moves,
            "cpu_ms_per_move": round(self.cpu_ms_per_move, 4),
            "window_instructions": self.window_instructions,
            "minstr_per_command": round(self.instructions_per_command, 4),
            "minstr_per_move": round(self.instructions_per_move, 4),
            "first_frame_bytes": round(self.first_frame_bytes, 1),
            "later_frame_bytes": round(self.later_frame_bytes, 1),
            "first_frames": self.first_frames,
            "later_frames": self.later_frames,
            "frames_per_command": round(self.later_frames / max(self.commands, 1), 3),
            "later_bytes_per_command": round(self.later_bytes / max(self.commands, 1), 1),
            "runs_cpu_ms_per_command": [round(c, 4) for c in self.runs_cpu_ms_per_command],
        }


async def make_games(
    servers: list[Server], load: Load, args: argparse.Namespace, game: str = MIXED
) -> list[tuple[Client, str]]:
    """The games and their clients: guests through links, or two named players a game who
    make (and take) a rated game with a clock. Each client is given one of ``servers``.
    ``game``: every game is that one (``mixed``: ``args.sequential`` Track Tiles games, the
    others Pulling Strings). The seats are those the game-making answer lists."""
    clients: list[tuple[Client, str]] = []
    http = load.http
    assert http is not None

    async def ask(base: str, path: str, body: dict[str, Any], key: str = "") -> Any:
        headers = {"X-Taut-Player": key} if key else {}
        answer = await http.post(base + path, json=body, headers=headers)
        if answer.status_code >= 300:
            raise RuntimeError(f"{path}: HTTP {answer.status_code} {answer.text[:200]}")
        return answer.json()

    for g in range(args.games):
        if game == MIXED:
            name, options = SEQUENTIAL if g < args.sequential else SIMULTANEOUS
        else:
            name, options = game, GAMES[game]
        bases = [load.rng.choice(servers).base for _ in range(2)]
        body: dict[str, Any] = {
            "game": name, "options": options, "seats": [{"kind": "me"}, {"kind": "invite"}],
        }  # fmt: skip
        if args.guests:
            made = await ask(bases[0], "/api/games", body)
            tokens = [link.split("#", 1)[1] for link in made["links"].values()]
            for i, seat in enumerate(made["links"]):
                clients.append((Client(load, bases[i], seat, tokens[i], i == 0), made["id"]))
            continue
        names = [f"load{g}a", f"load{g}b"]
        keys = [(await ask(bases[i], "/api/players", {"name": names[i]}))["key"] for i in (0, 1)]
        body.update(rated=True, time_control=args.clock)
        made = await ask(bases[0], "/api/games", body, keys[0])
        seats = list(made["links"])
        tokens = [link.split("#", 1)[1] for link in made["links"].values()]
        await ask(bases[1], f"/api/games/{made['id']}/player", {"token": tokens[1]}, keys[1])
        for i, seat in enumerate(seats):
            client = Client(load, bases[i], seat, tokens[i], i == 0, names[i])
            clients.append((client, made["id"]))
    return clients


async def run_load(
    servers: list[Server], args: argparse.Namespace, label: str, game: str = MIXED
) -> Result:
    """Play ``args.games`` games of ``game`` through ``servers`` for ``args.seconds``."""
    limits = httpx.Limits(max_connections=100, max_keepalive_connections=100)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        load = Load(args.think, random.Random(args.seed), 0.0 if args.guests else args.chat, http)
        load.separate_acks = args.separate_acks
        load.whole = args.whole
        load.deflate = args.deflate
        load.draws = not args.pictures
        load.text = args.text
        load.follows = not args.reconnect
        clients = await make_games(servers, load, args, game)
        load.clients = len(clients)

        def server_cpu() -> float:
            return sum(server.cpu_seconds() for server in servers)

        cpu = server_cpu()
        own = time.process_time()
        start = time.perf_counter()
        tasks = [asyncio.ensure_future(c.run(game_id)) for c, game_id in clients]
        # The measured window opens once every client holds its first frame (the set-up
        # is over) and closes at the stop, before the clients wind down.
        # (Were some client never to get a frame, the window is the whole load.)
        window_cpu, window_start, opened = cpu, start, 0
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(load.all_joined.wait(), args.seconds)
            for server in servers:
                await asyncio.to_thread(server.count_from_here)
            window_cpu, window_start = server_cpu(), time.perf_counter()
            opened = len(load.stats.acked)
        await asyncio.sleep(max(0.0, args.seconds - (window_start - start)))
        instructions = 0
        for server in servers:
            instructions += await asyncio.to_thread(server.count_to_here)
        load.stop.set()
        window_cpu = server_cpu() - window_cpu
        in_window = load.stats.acked[opened:]
        window_acks = len(in_window)
        window_moves = sum(1 for _, _, sent in in_window if sent["type"] != "reveal")
        elapsed = time.perf_counter() - start
        window = time.perf_counter() - window_start
        done, stuck = await asyncio.wait(tasks, timeout=30)
        for task in stuck:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                load.stats.errors[f"client: {task.exception()!r}"] += 1
        cpu = sum(server.cpu_seconds() for server in servers) - cpu
        own = time.process_time() - own
    nodes, lost, dup, undelivered = await check_store(servers[0].database, load)
    finished, rating_errors = (0, 0) if args.guests else await check_ratings(servers, load)
    return Result(
        label=label,
        games=args.games,
        clients=len(clients),
        seconds=elapsed,
        nodes=nodes,
        commands=load.stats.commands,
        latencies=load.stats.latencies,
        server_cpu=cpu,
        lost=lost,
        duplicated=dup,
        undelivered=undelivered + len(stuck),
        errors=dict(load.stats.errors),
        pages=load.stats.pages,
        client_cpu=own,
        finished=finished,
        rating_errors=rating_errors,
        game=game,
        window_seconds=window,
        window_cpu=window_cpu,
        window_commands=window_acks,
        window_moves=window_moves,
        window_instructions=instructions,
        first_frames=load.stats.first_frames,
        first_bytes=load.stats.first_bytes,
        later_frames=load.stats.later_frames,
        later_bytes=load.stats.later_bytes,
    )


async def check_ratings(servers: list[Server], load: Load) -> tuple[int, int]:
    """Finished games, and how far the ratings are from one change per finished game: a
    finished game with no rated row, a rated row of a game not seen finished, and every
    rating whose count of games differs from the player's finished games."""
    # A finished game is rated as its last event is processed; give the servers a moment.
    await asyncio.sleep(1.0)
    store = Store(servers[0].database)
    try:
        async with store.engine.connect() as conn:
            rows = (await conn.execute(select(rated_games.c.game_id, rated_games.c.rated))).all()
            counted = (
                await conn.execute(
                    select(func.coalesce(func.sum(ratings_table.c.games), 0)).where(
                        ratings_table.c.subject.not_like("computer:%")
                    )
                )
            ).scalar_one()
    finally:
        await store.close()
    rated = {game_id for game_id, flag in rows if flag}
    unrated = len(rows) - len(rated)
    finished = load.stats.over
    errors = len(finished - rated) + len(rated - finished) + unrated
    errors += abs(int(counted) - 2 * len(rated))
    return len(finished), errors


async def check_store(database: str, load: Load) -> tuple[int, int, int, int]:
    """Read every game back: nodes played by the players, and the acknowledged commands
    missing from the store, the events stored twice and the frames never delivered."""
    store = Store(database)
    nodes = lost = duplicated = undelivered = 0
    try:
        stored: dict[str, list[Any]] = {}
        for game_id in load.pairs:
            stored[game_id] = await store.events_after(game_id, -1)
    finally:
        await store.close()
    keys: dict[str, Counter[tuple[Any, ...]]] = {}
    for game_id, events in stored.items():
        seen: Counter[tuple[Any, ...]] = Counter()
        for event in events:
            p = event.payload
            if event.kind == "move":
                seen[("move", p["move"])] += 1
                nodes += "chance" not in p["joint"]
                for seat, action in p["joint"].items():
                    seen[("played", p["move"], seat, action)] += 1
            elif event.kind in ("commit", "reveal"):
                seen[(event.kind, p["move"], p["seat"])] += 1
                seen[(event.kind, p["move"], p["seat"], p.get("hash") or p.get("salt"))] += 1
        duplicated += sum(n - 1 for k, n in seen.items() if n > 1 and len(k) <= 3)
        keys[game_id] = seen
        last = events[-1].seq if events else -1
        for (gid, _seat), seq in load.stats.last_seq.items():
            undelivered += gid == game_id and seq != last
    for game_id, seat, message in load.stats.acked:
        seen = keys.get(game_id, Counter())
        kind, move = message["type"], message["move"]
        if kind == "move":
            key: tuple[Any, ...] = ("played", move, seat, message["action"])
        else:
            key = (kind, move, seat, message.get("hash") or message.get("salt"))
        lost += seen[key] == 0
    return nodes, lost, duplicated, undelivered


# -- PostgreSQL -----------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def postgres_database() -> Any:
    """A database of its own on the local PostgreSQL (dropped after); None if unreachable."""
    import asyncpg

    name = f"taut_bench_{secrets.token_hex(4)}"
    try:
        admin = await asyncpg.connect(POSTGRES + "/postgres", timeout=5)
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"PostgreSQL at 127.0.0.1 cannot be reached ({exc}); its runs are skipped.")
        yield None
        return
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield f"postgresql+asyncpg://postgres@127.0.0.1/{name}"
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


# -- the table ------------------------------------------------------------------------------


def show(results: list[Result]) -> None:
    """Print the runs as a table, each with its ratios to the first run of its database and
    game."""
    labels = [r.label for r in results]
    wide = max([28, *(len(label) + 11 for label in labels)])
    head = (
        f"{'run':<{wide}} {'game':<15} {'clients':>7} {'games':>5} {'nodes/s':>8} "
        f"{'cmds/s':>7} {'cpu ms/cmd':>10} {'cpu ms/move':>11} {'first B':>8} {'later B':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'cpu s':>6} {'lost':>4} {'dup':>4} "
        f"{'undeliv':>7} {'page p95':>8} {'over':>5} {'rating err':>10} {'client cpu':>10}"
    )
    print(head)
    print("-" * len(head))
    firsts: dict[tuple[str, str], Result] = {}
    for r in results:
        db = r.label.split(" ")[0]
        first = firsts.setdefault((db, r.game), r)
        j = r.to_json()
        print(
            f"{r.label:<{wide}} {r.game:<15} {r.clients:>7} {r.games:>5} "
            f"{j['nodes_per_s']:>8} {j['commands_per_s']:>7} {r.cpu_ms_per_command:>10.3f} "
            f"{r.cpu_ms_per_move:>11.3f} "
            f"{r.first_frame_bytes:>8.0f} {r.later_frame_bytes:>8.0f} "
            f"{j['p50_ms']:>7} {j['p95_ms']:>7} {j['p99_ms']:>7} "
            f"{j['server_cpu_s']:>6} {r.lost:>4} {r.duplicated:>4} {r.undelivered:>7} "
            f"{j['page_p95_ms']:>8} {r.finished:>5} {r.rating_errors:>10} {j['client_cpu_s']:>10}"
        )
        if first is not r:
            f = first.to_json()
            keys = (
                "nodes_per_s",
                "commands_per_s",
                "cpu_ms_per_command",
                "cpu_ms_per_move",
                "first_frame_bytes",
                "later_frame_bytes",
                "p50_ms",
                "p95_ms",
                "p99_ms",
            )
            ratio = [j[k] / f[k] if f[k] else float("nan") for k in keys]
            cpu = (r.server_cpu / max(r.nodes, 1)) / (first.server_cpu / max(first.nodes, 1))
            print(
                f"{'  ratio to ' + first.label:<{wide}} {'':<15} {'':>7} {'':>5} "
                f"{ratio[0]:>8.2f} {ratio[1]:>7.2f} {ratio[2]:>10.2f} {ratio[3]:>11.2f} "
                f"{ratio[4]:>8.2f} {ratio[5]:>8.2f} {ratio[6]:>7.2f} {ratio[7]:>7.2f} "
                f"{ratio[8]:>7.2f} "
                f"{cpu:>6.2f} (cpu s: per node)"
            )
    counted = [r for r in results if r.window_instructions]
    if counted:
        print()
        title = "instructions (callgrind)"
        print(f"{title:<{wide}} {'game':<15} {'M a command':>11} {'M a move':>9}")
        bases: dict[tuple[str, str], Result] = {}
        for r in counted:
            base = bases.setdefault((r.label.split(" ")[0], r.game), r)
            line = (
                f"{r.label:<{wide}} {r.game:<15} {r.instructions_per_command:>11.3f} "
                f"{r.instructions_per_move:>9.3f}"
            )
            if base is not r:
                line += (
                    f"  ratio to {base.label}: "
                    f"{r.instructions_per_command / base.instructions_per_command:.3f} a command, "
                    f"{r.instructions_per_move / base.instructions_per_move:.3f} a move"
                )
            print(line)
    for r in results:
        if len(r.runs_cpu_ms_per_command) > 1:
            each = ", ".join(f"{c:.3f}" for c in r.runs_cpu_ms_per_command)
            print(f"{r.label} {r.game}: cpu ms a command in each run {each} (the least kept)")
    for r in results:
        if r.errors:
            print(f"{r.label} {r.game}: errors {r.errors}")


async def main_async(args: argparse.Namespace) -> list[Result]:
    """Every requested run: with ``--repeat N``, each tree's least costly of N runs."""
    results: list[Result] = []
    sources: list[str | None] = [None, *args.src]
    if args.src and not args.current_first:
        sources = [*args.src, None]
    games: list[str] = getattr(args, "games_played", [MIXED])
    with tempfile.TemporaryDirectory() as tmp:
        args.callgrind = None
        if args.instructions:
            args.callgrind = str(Path(tmp) / "callgrind")
            Path(args.callgrind).mkdir()
        for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
            for g, game in enumerate(games):
                runs: list[list[Result]] = [[] for _ in sources]
                # The trees take turns, so that a drift in the machine's speed falls on all.
                for n in range(args.repeat):
                    for k, src in enumerate(sources):
                        run = await _run_of(args, tmp, db, game, src, (g, k, n))
                        if run is None:
                            return results  # said once: the database's runs are skipped
                        runs[k].append(run)
                results.extend(least_costly(tree) for tree in runs)
    return results


async def _run_of(
    args: argparse.Namespace,
    tmp: str,
    db: str,
    game: str,
    src: str | None,
    numbers: tuple[int, int, int],
) -> Result | None:
    """One run of the tree ``src`` on ``db`` (None: PostgreSQL cannot be reached), its
    files (a new server, a new store) named apart by ``numbers``: the game's, the tree's
    and the repeat's."""
    g, k, n = numbers
    label = f"{db} {'current' if src is None else Path(src).parent.name or src}"
    tag = f"{k}" if game == MIXED else f"{game}-{k}"
    tag += f"-{n}" if args.repeat > 1 else ""
    profile = None
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        profile = str(Path(args.profile) / f"{db}-{tag}.prof")
    if db == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp}/load-{g}-{k}-{n}.db"
        return await _one(url, src, profile, args, label, game)
    async with postgres_database() as url:
        if url is None:
            return None
        return await _one(url, src, profile, args, label, game)


def least_costly(runs: list[Result]) -> Result:
    """Of one tree's runs, the one whose command cost the server the least CPU (a shared
    machine's speed drifts from run to run, and the least of a few is the fairest figure),
    with every run's CPU a command beside it and every run's failures added to it, so that
    no lost or undelivered command is hidden by a run that had none."""
    # Under callgrind the instructions are the cost (the CPU then means nothing).
    kept = min(
        runs,
        key=lambda r: r.instructions_per_command if r.window_instructions else r.cpu_ms_per_command,
    )
    kept.runs_cpu_ms_per_command = [r.cpu_ms_per_command for r in runs]
    for r in runs:
        if r is kept:
            continue
        kept.lost += r.lost
        kept.duplicated += r.duplicated
        kept.undelivered += r.undelivered
        kept.rating_errors += r.rating_errors
        for kind, count in r.errors.items():
            kept.errors[kind] = kept.errors.get(kind, 0) + count
    return kept


async def _one(
    url: str,
    src: str | None,
    profile: str | None,
    args: argparse.Namespace,
    label: str,
    game: str = MIXED,
) -> Result:
    postgres = url.startswith("postgresql")
    count = args.servers if postgres else 1
    processes = args.processes if postgres else 1
    servers = [
        Server(
            url,
            src,
            None if profile is None else f"{profile.removesuffix('.prof')}-{i}.prof",
            processes,
            callgrind=args.callgrind,
            python=args.python or sys.executable,
        )
        for i in range(count)
    ]
    try:
        for server in servers:
            server.start()
        if count > 1:
            label = f"{label} x{count}"
        if processes > 1:
            label = f"{label} {processes} processes"
        return await run_load(servers, args, label, game)
    finally:
        for server in servers:
            server.stop()


def run_fast(work: Any) -> Any:
    """Run ``work`` on uvloop's event loop where it is installed (it comes with the server):
    the clients then take less of the machine they share with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(work)


def check_python(parser: argparse.ArgumentParser, python: str) -> str:
    """Refuse ``--python`` unless that interpreter imports taut's server (and say why); its
    version."""
    try:
        found = subprocess.run(
            [python, "-c", "import sys, taut.server.web.app; print(sys.version.split()[0])"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except OSError as exc:
        parser.error(f"--python {python}: cannot run it ({exc.strerror})")
    if found.returncode != 0:
        last = (found.stderr.strip().splitlines() or ["no output"])[-1]
        parser.error(
            f"--python {python} cannot import taut's server ({last}); give the python of a "
            "venv with taut installed with its server extras (make serve-venv)"
        )
    return found.stdout.strip()


def main() -> None:
    """Parse the arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument(
        "--game",
        action="append",
        choices=(*GAMES, "all"),
        default=None,
        help="play only this game (repeatable; all: each in turn, a run each); "
        "default: Pulling Strings with --sequential Track Tiles games",
    )
    parser.add_argument(
        "--games", type=int, default=None, help="concurrent games (2 clients each; default 100)"
    )
    parser.add_argument(
        "--clients", type=int, default=None, help="WebSocket clients in all (instead of --games)"
    )
    parser.add_argument(
        "--sequential",
        type=int,
        default=None,
        help="of them Track Tiles games, without --game (default 10, at most --games)",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load lasts")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--clock", default="5+3", help="the players' time control")
    parser.add_argument(
        "--chat", type=float, default=0.05, help="chance a player says something with a choice"
    )
    parser.add_argument(
        "--guests", action="store_true", help="seats through links only: no players or clocks"
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="servers on PostgreSQL (one database), apart"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="processes of each server on one address"
    )
    parser.add_argument(
        "--python",
        default=None,
        help="the interpreter the servers run on (one that imports taut's server: a venv of "
        "its own; default: this one). The CPU a move depends on how the interpreter was "
        "built: docs/server.md, 'The interpreter'",
    )
    parser.add_argument("--src", action="append", default=[], help="another source tree")
    parser.add_argument(
        "--rev",
        action="append",
        default=[],
        help="another tree by git revision (its src folder written out of the history), "
        "measured as a --src tree and labelled by the revision",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each tree N times, in turn, and keep each one's least costly run",
    )
    parser.add_argument(
        "--current-first",
        action="store_true",
        help="ratios to the current tree (default: to the --src or --rev tree)",
    )
    parser.add_argument("--profile", default=None, help="write the server's cProfile here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--instructions", action="store_true",
        help="run the server under valgrind's callgrind and count the instructions it "
        "carries out in the window, a command and a move: a measure of its work that the "
        "machine's speed does not change (about fifty times slower: use few clients, "
        "such as --clients 20 --seconds 60; the CPU and latency figures mean nothing then)",
    )  # fmt: skip
    parser.add_argument(
        "--whole", action="store_true",
        help="clients that take whole pictures only (the browser takes patches)",
    )  # fmt: skip
    parser.add_argument(
        "--pictures", action="store_true",
        help="clients that take the server's pictures of a game whose table the browser "
        "draws from data (every game but a learning one)",
    )  # fmt: skip
    parser.add_argument(
        "--text", action="store_true",
        help="clients that show the position as text (the page does once it is opened)",
    )  # fmt: skip
    parser.add_argument(
        "--deflate", action=argparse.BooleanOptionalAction, default=True,
        help="clients that ask for permessage-deflate, as browsers do (the server then "
        "compresses what it chooses to; --no-deflate: clients that do not ask)",
    )  # fmt: skip
    parser.add_argument(
        "--separate-acks",
        action="store_true",
        help="clients ask for acknowledgements as messages of their own, not inside frames",
    )
    parser.add_argument(
        "--reconnect",
        action="store_true",
        help="clients open a new socket for each rematch (the page follows it on the same "
        "socket; a server that cannot is met with a new socket anyway)",
    )
    args = parser.parse_args()
    if args.python is not None:
        version = check_python(parser, args.python)
        if not args.json:
            print(f"servers on {args.python} (Python {version})")
    if args.clients is not None:
        if args.games is not None:
            parser.error("give --games or --clients, not both")
        if args.clients < 2 or args.clients % 2:
            parser.error("--clients is an even number, at least 2 (two clients a game)")
        args.games = args.clients // 2
    elif args.games is None:
        args.games = 100
    if args.sequential is None:
        args.sequential = min(10, args.games)
    if args.games < 1 or not 0 <= args.sequential <= args.games or args.seconds <= 0:
        parser.error("--games >= 1, 0 <= --sequential <= --games, --seconds > 0")
    chosen: list[str] = args.game or [MIXED]
    args.games_played = list(GAMES) if "all" in chosen else list(dict.fromkeys(chosen))
    if not 1 <= args.servers <= 8 or not 0 <= args.chat <= 1:
        parser.error("--servers is 1 to 8 and --chat a chance from 0 to 1")
    if (args.servers > 1 or args.processes > 1) and args.db == "sqlite":
        parser.error("--servers or --processes > 1 need --db postgres (they share PostgreSQL)")
    if not 1 <= args.processes <= 8:
        parser.error("--processes is 1 to 8")
    if args.repeat < 1:
        parser.error(f"--repeat is a number of runs, at least 1 (not {args.repeat})")
    with tempfile.TemporaryDirectory() as trees:
        for rev in args.rev:
            try:
                args.src.append(exported_src(rev, Path(trees)))
            except UnknownRevision as exc:
                parser.error(str(exc))
        results = run_fast(main_async(args))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        show(results)


if __name__ == "__main__":
    main()
