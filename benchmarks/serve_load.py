"""Load on ``taut serve``: WebSocket clients in concurrent games, on SQLite and PostgreSQL.

The server runs as a subprocess on loopback (``--workers 0``); one asyncio process plays
every client. Each game has two human seats, each held by its own WebSocket client:
Pulling Strings games (simultaneous: commit, then reveal) and Track Tiles games
(sequential moves). A client waits a think time (``--think`` seconds on average) before it
commits or moves and reveals at once; when a game ends its first seat asks for a rematch
and both clients go on there, so the load stays level until ``--seconds`` have passed.
Then no new choice is made, the clients finish what they sent and the store is read back.

Measured: nodes played per second (a simultaneous node is two commits and two reveals),
commands per second, and the latency from a command's submission to the first frame at the
*other* client of its game that shows it (p50, p95, p99), and the server's CPU time.
Checked: every acknowledged command is in the store exactly once (else counted lost or
duplicated), no node is stored twice, and every client's last frame shows its game's last
event (else counted undelivered).

``--src DIR`` (repeatable) runs the server from another source tree as well (a copy of
``src`` before a change): the table then gives each run's ratio to the first one.

Run: ``.venv/bin/python benchmarks/serve_load.py [--db sqlite|postgres|both] [--games 100]
[--sequential 10] [--seconds 30] [--think 1.0] [--src DIR ...] [--profile DIR] [--json]``
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

from websockets.asyncio.client import ClientConnection, connect

from taut.server.commit import commitment, new_salt
from taut.server.store import Store

#: The PostgreSQL server the benchmark makes its own database on (and drops after).
POSTGRES = "postgresql://postgres@127.0.0.1"
SIMULTANEOUS: tuple[str, dict[str, Any]] = ("pulling-strings", {})
SEQUENTIAL: tuple[str, dict[str, Any]] = ("tracks", {"size": 6})
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
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

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
        self.process = subprocess.Popen(
            [sys.executable, "-c", run, *args], env=env, stdout=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped ({self.process.returncode})")
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/api/games", timeout=1).read()
                return
            time.sleep(0.1)
        raise RuntimeError("the server did not answer within 30 s")

    def cpu_seconds(self) -> float:
        """User and system CPU time the server has used so far (Linux)."""
        assert self.process is not None
        try:
            stat = Path(f"/proc/{self.process.pid}/stat").read_text()
        except OSError:
            return float("nan")
        fields = stat.rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

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
    commands: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    acked: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    """``(game id, seat, message)`` of every acknowledged command."""
    last_seq: dict[tuple[str, str], int] = field(default_factory=dict)


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

    base: str
    think: float
    rng: random.Random
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    stats: Stats = field(default_factory=Stats)
    pairs: dict[str, Pair] = field(default_factory=dict)

    def pair(self, game_id: str) -> Pair:
        """The pair of clients of ``game_id``."""
        return self.pairs.setdefault(game_id, Pair(game_id))


class Client:
    """One seat's WebSocket client, from game to rematch until the run stops."""

    def __init__(self, load: Load, seat: str, token: str, asks_rematch: bool) -> None:
        self.load, self.seat, self.token, self.asks = load, seat, token, asks_rematch
        self.ws: ClientConnection | None = None
        self.pair = Pair("")
        self.ref = 0
        self.unacked: dict[int, dict[str, Any]] = {}
        self.acted: set[tuple[int, str]] = set()
        self.frame: dict[str, Any] | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, game_id: str) -> None:
        """Play ``game_id`` and its rematches."""
        next_id: str | None = game_id
        while next_id is not None:
            next_id = await self._game(next_id)

    async def _game(self, game_id: str) -> str | None:
        self.pair = self.load.pair(game_id)
        self.unacked.clear()
        self.acted.clear()
        self.frame = None
        url = self.load.base.replace("http", "ws", 1) + f"/ws/{game_id}"
        async with connect(url, max_size=2**22, compression=None) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            while True:
                try:
                    raw = await asyncio.wait_for(ws.recv(), QUIET)
                except TimeoutError:
                    if self.load.stop.is_set() and self._settled():
                        return None
                    continue
                message = json.loads(raw)
                if message["type"] == "state":
                    new_game = await self._frame(message)
                    if new_game is not None:
                        return new_game
                else:
                    self._answer(message)

    def _settled(self) -> bool:
        frame = self.frame
        return not self.unacked and (frame is None or frame["phase"] != "reveal")

    def _answer(self, message: dict[str, Any]) -> None:
        sent = self.unacked.pop(int(message.get("ref") or 0), None)
        if message["type"] == "error":
            self.load.stats.errors[str(message["message"])] += 1
        elif message["type"] == "ack" and sent is not None and sent["type"] != "rematch":
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
            if self.asks and (move, "rematch") not in self.acted and not load.stop.is_set():
                self.acted.add((move, "rematch"))
                await self._send({"type": "rematch"}, timed=False)
        elif frame["to_reveal"] and (move, "reveal") not in self.acted:
            self.acted.add((move, "reveal"))
            action, salt = self.pair.secrets[(self.seat, move)]
            await self._send({"type": "reveal", "move": move, "action": action, "salt": salt})
        elif (
            frame["phase"] in ("play", "commit")
            and self.seat in frame["acting"]
            and self.seat not in frame["committed"]
            and (move, "choose") not in self.acted
            and not load.stop.is_set()
        ):
            self.acted.add((move, "choose"))
            task = asyncio.ensure_future(self._choose(frame))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return None

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
            await self._send({"type": "commit", "move": move, "hash": digest})
        else:
            await self._send({"type": "move", "move": move, "action": action})

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

    def percentile(self, q: float) -> float:
        """The ``q`` quantile of the latencies, in milliseconds."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

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
            "lost": self.lost,
            "duplicated": self.duplicated,
            "undelivered": self.undelivered,
            "errors": self.errors,
        }


async def run_load(server: Server, args: argparse.Namespace, label: str) -> Result:
    """Play ``args.games`` games through ``server`` for ``args.seconds``."""
    load = Load(server.base, args.think, random.Random(args.seed))
    clients: list[tuple[Client, str]] = []
    for g in range(args.games):
        game, options = SEQUENTIAL if g < args.sequential else SIMULTANEOUS
        made = post(server.base, "/api/games", {
            "game": game, "options": options, "seats": [{"kind": "me"}, {"kind": "invite"}],
        })  # fmt: skip
        for i, (seat, link) in enumerate(made["links"].items()):
            clients.append((Client(load, seat, link.split("#", 1)[1], i == 0), made["id"]))
    cpu = server.cpu_seconds()
    start = time.perf_counter()
    tasks = [asyncio.ensure_future(c.run(game_id)) for c, game_id in clients]
    await asyncio.sleep(args.seconds)
    load.stop.set()
    elapsed = time.perf_counter() - start
    done, stuck = await asyncio.wait(tasks, timeout=30)
    for task in stuck:
        task.cancel()
    for task in done:
        if task.exception() is not None:
            load.stats.errors[f"client: {task.exception()!r}"] += 1
    cpu = server.cpu_seconds() - cpu
    nodes, lost, dup, undelivered = await check_store(server.database, load)
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
    )


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
    """Print the runs as a table, each with its ratios to the first run on its database."""
    head = (
        f"{'run':<28} {'clients':>7} {'games':>5} {'nodes/s':>8} {'cmds/s':>7} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'cpu s':>6} {'lost':>4} {'dup':>4} "
        f"{'undeliv':>7}"
    )
    print(head)
    print("-" * len(head))
    firsts: dict[str, Result] = {}
    for r in results:
        db = r.label.split(" ")[0]
        first = firsts.setdefault(db, r)
        j = r.to_json()
        print(
            f"{r.label:<28} {r.clients:>7} {r.games:>5} {j['nodes_per_s']:>8} "
            f"{j['commands_per_s']:>7} {j['p50_ms']:>7} {j['p95_ms']:>7} {j['p99_ms']:>7} "
            f"{j['server_cpu_s']:>6} {r.lost:>4} {r.duplicated:>4} {r.undelivered:>7}"
        )
        if first is not r:
            f = first.to_json()
            ratio = [
                j[k] / f[k] if f[k] else float("nan")
                for k in ("nodes_per_s", "commands_per_s", "p50_ms", "p95_ms", "p99_ms")
            ]
            cpu = (r.server_cpu / max(r.nodes, 1)) / (first.server_cpu / max(first.nodes, 1))
            print(
                f"{'  ratio to ' + first.label:<28} {'':>7} {'':>5} {ratio[0]:>8.2f} "
                f"{ratio[1]:>7.2f} {ratio[2]:>7.2f} {ratio[3]:>7.2f} {ratio[4]:>7.2f} "
                f"{cpu:>6.2f} (cpu per node)"
            )
    for r in results:
        if r.errors:
            print(f"{r.label}: errors {r.errors}")


async def main_async(args: argparse.Namespace) -> list[Result]:
    """Every requested run."""
    results: list[Result] = []
    sources: list[str | None] = [None, *args.src]
    if args.src and not args.current_first:
        sources = [*args.src, None]
    with tempfile.TemporaryDirectory() as tmp:
        for db in ("sqlite", "postgres") if args.db == "both" else (args.db,):
            for k, src in enumerate(sources):
                label = f"{db} {'current' if src is None else Path(src).parent.name or src}"
                profile = None
                if args.profile:
                    Path(args.profile).mkdir(parents=True, exist_ok=True)
                    profile = str(Path(args.profile) / f"{db}-{k}.prof")
                if db == "sqlite":
                    url = f"sqlite+aiosqlite:///{tmp}/load-{k}.db"
                    results.append(await _one(url, src, profile, args, label))
                    continue
                async with postgres_database() as url:
                    if url is None:
                        break
                    results.append(await _one(url, src, profile, args, label))
    return results


async def _one(
    url: str, src: str | None, profile: str | None, args: argparse.Namespace, label: str
) -> Result:
    server = Server(url, src, profile)
    server.start()
    try:
        return await run_load(server, args, label)
    finally:
        server.stop()


def main() -> None:
    """Parse the arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--games", type=int, default=100, help="concurrent games (2 clients each)")
    parser.add_argument("--sequential", type=int, default=10, help="of them Track Tiles games")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the load lasts")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--src", action="append", default=[], help="another source tree")
    parser.add_argument(
        "--current-first", action="store_true", help="ratios to the current tree (default: --src)"
    )
    parser.add_argument("--profile", default=None, help="write the server's cProfile here")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    if args.games < 1 or not 0 <= args.sequential <= args.games or args.seconds <= 0:
        parser.error("--games >= 1, 0 <= --sequential <= --games, --seconds > 0")
    results = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1))
    else:
        show(results)


if __name__ == "__main__":
    main()
