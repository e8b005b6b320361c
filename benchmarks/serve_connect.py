"""What one WebSocket connection costs ``taut serve``: opened, greeted, sent its first frame,
closed.

A page opens a socket for every game it opens (a rematch it follows on the socket it has:
``follow``), so under load the server pays for connections as well as for commands:
``serve_load.py`` counts both in its CPU a command. This measures a connection alone. It
starts the server, makes one game, and opens ``--connections`` sockets to it one after
another, each as the browser's page opens one (``permessage-deflate`` asked for, the
page's hello: acknowledgements in frames, patches with edits, the table drawn by the page,
a desktop's room), waits for its first frame and closes it, with ``--pause`` seconds
between two (so that the server sleeps between them, as it does between pages opened
under a light load).

Printed, per game: the server's CPU milliseconds a connection (its process's user and
system time, read from the system, over the whole series after a warm-up), the first
frame's size, and with ``--src DIR`` or ``--rev REV`` the same for that tree, with the ratios.

Run: ``.venv/bin/python benchmarks/serve_connect.py [--game all] [--connections 400]
[--pause 0.01] [--src DIR | --rev REV] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from serve_load import GAMES, Server, cpu_of_tree, post
from trees import other_tree

#: Connections opened and closed before the series, so that the server has imported and
#: cached what every connection uses.
WARM_UP = 20

#: The hello of the browser's page (its first seat's room on a desktop).
HELLO: dict[str, Any] = {
    "type": "hello",
    "acks": "in-frames",
    "patches": "edits",
    "draws": True,
    "room": 760,
    "text": False,
}


class Refused(Exception):
    """The server refused the hello (an older tree that does not know one of its options)."""


async def _one(url: str, hello: dict[str, Any]) -> int:
    """Open a socket, say ``hello``, wait for the first frame, close; the frame's size."""
    async with connect(url, max_size=2**22, compression="deflate") as ws:
        await ws.send(json.dumps(hello))
        while True:
            message = json.loads(raw := await ws.recv())
            if message["type"] == "state":
                return len(raw)
            if message["type"] == "error":
                raise Refused(str(message.get("message")))


async def _hello_for(url: str, token: str) -> dict[str, Any]:
    """The page's hello, less the options that the server refuses, one at a time, last
    first (a tree from before them)."""
    hello = {**HELLO, "token": token}
    optional = [k for k in HELLO if k != "type"]
    while True:
        try:
            await _one(url, hello)
            return hello
        except Refused:
            if not optional:
                raise
            hello.pop(optional.pop())


async def measure(game: str, connections: int, pause: float, src: str | None) -> dict[str, float]:
    """The server's CPU a connection to a game of ``game`` (from ``src`` when given)."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(database=f"sqlite+aiosqlite:///{tmp}/connect.db", src=src)
        server.start()
        assert server.process is not None
        try:
            body = {
                "game": game,
                "options": GAMES[game],
                "seats": [{"kind": "me"}, {"kind": "invite"}],
            }
            made = post(server.base, "/api/games", body)
            token = next(iter(made["links"].values())).split("#", 1)[1]
            url = server.base.replace("http", "ws", 1) + f"/ws/{made['id']}"
            hello = await _hello_for(url, token)
            for _ in range(WARM_UP):
                await _one(url, hello)
            await asyncio.sleep(0.5)  # the closes of the warm-up are done
            before = cpu_of_tree(server.process.pid)
            start = time.perf_counter()
            size = 0
            for _ in range(connections):
                size = await _one(url, hello)
                await asyncio.sleep(pause)
            await asyncio.sleep(0.5)  # the last close is done
            cpu = cpu_of_tree(server.process.pid) - before
            wall = time.perf_counter() - start
        finally:
            server.stop()
    return {
        "cpu_ms_per_connection": 1000 * cpu / connections,
        "first_frame_bytes": size,
        "connections": connections,
        "wall_s": wall,
    }


def main() -> None:
    """Measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", action="append", choices=[*GAMES, "all"], help="repeatable; default: all"
    )
    parser.add_argument("--connections", type=int, default=400, help="sockets in the series")
    parser.add_argument(
        "--pause", type=float, default=0.01, help="seconds between two sockets (default 0.01)"
    )
    parser.add_argument("--src", metavar="DIR", help="another tree's src folder: measure it too")
    parser.add_argument("--rev", metavar="REV", help="another tree by git revision")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if args.connections < 1:
        parser.error("--connections must be 1 or more")
    chosen = args.game or ["all"]
    games = list(GAMES) if "all" in chosen else list(dict.fromkeys(chosen))
    with tempfile.TemporaryDirectory() as trees:
        other = other_tree(parser, args.src, args.rev, Path(trees))
        label = args.rev or "--src"
        results: dict[str, dict[str, Any]] = {}
        for game in games:
            row: dict[str, Any] = {
                "current": asyncio.run(measure(game, args.connections, args.pause, None))
            }
            if other:
                row[label] = asyncio.run(measure(game, args.connections, args.pause, other))
                row["ratio"] = (
                    row["current"]["cpu_ms_per_connection"] / row[label]["cpu_ms_per_connection"]
                )
            results[game] = row
    if args.json:
        json.dump(results, sys.stdout, indent=1)
        print()
        return
    print(f"{'game':<16} {'tree':<10} {'cpu ms/connection':>18} {'first frame B':>14}")
    for game, row in results.items():
        for tree, figures in row.items():
            if tree == "ratio":
                print(f"{'':<16} {'ratio':<10} {figures:>18.2f}")
                continue
            print(
                f"{game:<16} {tree:<10} {figures['cpu_ms_per_connection']:>18.3f} "
                f"{figures['first_frame_bytes']:>14}"
            )


if __name__ == "__main__":
    main()
