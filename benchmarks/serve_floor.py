"""The floor under a command's cost: the same transport with no game behind it.

``serve_load.py`` measures what a command costs ``taut serve``. Part of that is the
transport every Python server of this kind pays whatever it serves: uvicorn on uvloop,
WebSocket frames parsed and written (websockets' sans-I/O protocol), the socket reads and
writes, the event loop's waking, and a commit to SQLite. This starts a server of a few
lines on that same stack (Starlette, as FastAPI is) that does nothing else: a client's
message is read as JSON, written to a SQLite file in WAL mode in a transaction of its own
(``--no-db``: not written), and answered with a frame of ``--frame-bytes`` to both
clients of its pair, as a move is. Each client sends a message every two ``--think``
seconds on average (a seat of a game played in turns moves every other turn), so that 200
clients send about 100 messages a second, as ``serve_load.py``'s clients of Tug of War and
Track Tiles send commands.

Printed, per client count: messages a second, the server's CPU milliseconds a message
(its process's user and system time, read from the system, over a window that opens once
every client is connected), and, with and without the commit, what the commit adds. The
floor is what a game server on this stack cannot go under on this machine at that rate;
``serve_load.py``'s CPU a command less the floor is what the game, its frames and its
store cost. Both fall as the rate rises: each waking of the loop then serves several
messages, and the caches stay warm.

Run: ``.venv/bin/python benchmarks/serve_floor.py [--clients 200 --clients 1000]
[--seconds 15] [--think 1.0] [--no-db] [--frame-bytes 900] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from typing import Any

import orjson

from serve_load import cpu_of_tree, free_port, run_fast

#: The server: its port, whether it commits, and the frame's size are filled in.
SERVER = r"""
import os, sqlite3, tempfile
import orjson, uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute

COMMITS = {commits}
FRAME = "x" * {frame_bytes}
folder = tempfile.mkdtemp()
db = sqlite3.connect(os.path.join(folder, "floor.db"), isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE events (pair TEXT, seq INTEGER, payload TEXT, PRIMARY KEY (pair, seq))")
seqs = {{}}
pairs = {{}}

async def ready(request):
    return PlainTextResponse("ready")

async def play(ws):
    await ws.accept()
    pair = ws.path_params["pair"]
    peers = pairs.setdefault(pair, [])
    peers.append(ws)
    try:
        while True:
            text = await ws.receive_text()
            message = orjson.loads(text)
            if COMMITS:
                seq = seqs[pair] = seqs.get(pair, 0) + 1
                db.execute("BEGIN")
                db.execute("INSERT INTO events VALUES (?, ?, ?)", (pair, seq, text))
                db.execute("COMMIT")
            frame = orjson.dumps({{"type": "state", "n": message["n"], "table": FRAME}}).decode()
            for peer in peers:
                await peer.send_text(frame)
    except Exception:
        peers.remove(ws)

app = Starlette(routes=[Route("/ready", ready), WebSocketRoute("/ws/{{pair}}", play)])
uvicorn.run(app, host="127.0.0.1", port={port}, log_level="warning", ws_max_size=16_384)
"""


@dataclass
class Floor:
    """One run's numbers."""

    clients: int
    commits: bool
    messages_per_s: float
    cpu_ms_per_message: float

    def to_json(self) -> dict[str, Any]:
        """The numbers as JSON."""
        return {
            "clients": self.clients,
            "commits": self.commits,
            "messages_per_s": round(self.messages_per_s, 1),
            "cpu_ms_per_message": round(self.cpu_ms_per_message, 4),
        }


def _start(commits: bool, frame_bytes: int) -> tuple[subprocess.Popen[bytes], int]:
    """The floor's server in a subprocess, once it answers."""
    port = free_port()
    code = SERVER.format(commits=commits, frame_bytes=frame_bytes, port=port)
    process = subprocess.Popen([sys.executable, "-c", code])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the floor's server stopped ({process.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=1).read()
            return process, port
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the floor's server did not answer within 30 s")


async def _run(clients: int, seconds: float, think: float, commits: bool, size: int) -> Floor:
    """Load a fresh server with ``clients`` clients for ``seconds``."""
    import websockets

    process, port = _start(commits, size)
    stop = asyncio.Event()
    connected = 0
    everyone = asyncio.Event()
    sent = 0
    rng = random.Random(1)

    async def client(i: int) -> None:
        nonlocal connected, sent
        url = f"ws://127.0.0.1:{port}/ws/{i // 2}"
        async with websockets.connect(url, compression=None, open_timeout=60) as ws:
            connected += 1
            if connected == clients:
                everyone.set()

            async def read() -> None:
                async for _ in ws:
                    pass

            reader = asyncio.ensure_future(read())
            n = 0
            # Every two ``think`` seconds on average: a seat moves every other turn.
            while not stop.is_set():
                await asyncio.sleep(rng.uniform(1.0, 3.0) * think)
                n += 1
                await ws.send(orjson.dumps({"type": "move", "n": n}).decode())
                sent += 1
            reader.cancel()

    tasks = [asyncio.ensure_future(client(i)) for i in range(clients)]
    try:
        await asyncio.wait_for(everyone.wait(), 60)
        await asyncio.sleep(2)  # the first messages of every client
        cpu, count, start = cpu_of_tree(process.pid), sent, time.perf_counter()
        await asyncio.sleep(seconds)
        cpu = cpu_of_tree(process.pid) - cpu
        count, elapsed = sent - count, time.perf_counter() - start
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        process.terminate()
        process.wait()
    return Floor(clients, commits, count / elapsed, 1000 * cpu / max(count, 1))


def main() -> None:
    """Measure the floor for each client count, with and without the commit."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, action="append", help="repeatable")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a choice")
    parser.add_argument("--no-db", action="store_true", help="only the runs without commits")
    parser.add_argument("--frame-bytes", type=int, default=900, help="a frame's table")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    counts = args.clients or [200, 1000]
    runs: list[Floor] = []
    for clients in counts:
        for commits in [False] if args.no_db else [False, True]:
            work = _run(clients, args.seconds, args.think, commits, args.frame_bytes)
            runs.append(run_fast(work))
    if args.json:
        print(json.dumps([r.to_json() for r in runs], indent=2))
        return
    print(f"{'clients':>7} {'commits':>7} {'msgs/s':>8} {'cpu ms/msg':>10}")
    for r in runs:
        print(
            f"{r.clients:>7} {'yes' if r.commits else 'no':>7} "
            f"{r.messages_per_s:>8.1f} {r.cpu_ms_per_message:>10.3f}"
        )
    for clients in counts:
        pair = [r for r in runs if r.clients == clients]
        if len(pair) == 2:
            ratio = pair[1].cpu_ms_per_message / pair[0].cpu_ms_per_message
            print(f"{clients} clients: the commit adds {ratio:.2f}x the CPU a message")


if __name__ == "__main__":
    main()
