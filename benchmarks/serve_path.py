"""The server's cost per command, without the network: the hub of one process.

Where ``serve_load.py`` measures latency from outside (and so also measures its own load
generator on the same cores), this measures what one command costs the server itself: a
:class:`~taut.server.play.hub.Hub` on a SQLite file, ``--games`` games of two seats each with
a client that only counts what it is sent, and every command carried out by the same
``handle`` the WebSocket serves, until ``--nodes`` nodes have been played. Pulling
Strings games commit and reveal (four commands a node); Track Tiles games move in turn.
Printed: CPU milliseconds per command and per node, frames and bytes sent per command,
and with ``--profile`` the functions that take the most time.

Run: ``.venv/bin/python benchmarks/serve_path.py [--games 50] [--nodes 2000]
[--game pulling-strings|tracks] [--profile]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import tempfile
import time
from typing import Any

from taut.server.play.clients import Connection
from taut.server.play.commit import commitment, new_salt
from taut.server.play.computer import Computer
from taut.server.play.frames import with_kept
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, make_game
from taut.server.play.session import handle
from taut.server.store.games import Store


class Counting:
    """A client that keeps the last frame and counts what it is sent (and the time it
    takes to read it, which is the client's, not the server's)."""

    #: Seconds every client spent reading frames.
    reading = 0.0

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self.last: dict[str, Any] | None = None

    async def send_text(self, text: str) -> None:
        """Count one message (and keep it when it is a frame)."""
        start = time.perf_counter()
        self.bytes += len(text)
        if text.startswith('{"type":"state"'):
            self.frames += 1
            self.last = with_kept(self.last, json.loads(text))
        Counting.reading += time.perf_counter() - start

    async def close(self, code: int) -> None:
        """Nothing to close."""


async def run(args: argparse.Namespace) -> dict[str, float]:
    """Play until ``args.nodes`` nodes are done; the costs per command and per node."""
    rng = random.Random(args.seed)
    options = {"size": 6} if args.game == "tracks" else {}
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(f"sqlite+aiosqlite:///{tmp}/path.db")
        await store.create_tables()
        hub = Hub(store, Computer(0))

        async def new_game() -> tuple[str, list[Connection], list[Counting]]:
            request = NewGame(
                game=args.game, options=options, seats=[{"kind": "me"}, {"kind": "invite"}]
            )
            made = await make_game(store, request)
            await hub.table(made.id)
            clients = [Counting(), Counting()]
            conns = [Connection(c, made.id, i) for i, c in enumerate(clients)]
            for conn in conns:
                hub.join(conn)
            return made.id, conns, clients

        seats = [await new_game() for _ in range(args.games)]
        done: list[Counting] = []
        await asyncio.sleep(0.1)  # the first frames go out
        secrets: dict[tuple[str, int, int], tuple[str, str]] = {}
        profile = cProfile.Profile() if args.profile else None
        commands = nodes = 0
        Counting.reading = 0.0
        start_cpu, start = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        while nodes < args.nodes:
            for k, (game_id, conns, clients) in enumerate(seats):
                table = hub.tables[game_id]
                for seat, (conn, client) in enumerate(zip(conns, clients, strict=True)):
                    frame = client.last
                    if frame is None or frame["seq"] != table.seq:
                        continue
                    message = _choice(rng, game_id, seat, frame, secrets)
                    if message is None:
                        continue
                    before = table.node
                    await handle(hub, conn, json.dumps(message))
                    commands += 1
                    await asyncio.sleep(0)  # the frames go out
                    nodes += table.node != before
                if table.state.is_terminal():  # a new game in its place
                    for conn in conns:
                        hub.leave(conn)
                    done.extend(clients)
                    seats[k] = await new_game()
        if profile is not None:
            profile.disable()
        cpu = time.process_time() - start_cpu - Counting.reading
        wall = time.perf_counter() - start
        every = done + [c for _, _, cs in seats for c in cs]
        frames, sent = sum(c.frames for c in every), sum(c.bytes for c in every)
        await hub.close()
        await store.close()
    if profile is not None:
        pstats.Stats(profile).sort_stats(args.sort).print_stats(args.profile_lines)
    return {
        "commands": commands,
        "nodes": nodes,
        "cpu_ms_per_command": 1000 * cpu / max(commands, 1),
        "cpu_ms_per_node": 1000 * cpu / max(nodes, 1),
        "commands_per_cpu_s": commands / cpu if cpu else float("nan"),
        "frames_per_command": frames / max(commands, 1),
        "kb_per_command": sent / 1000 / max(commands, 1),
        "wall_s": wall,
    }


def _choice(
    rng: random.Random,
    game_id: str,
    seat: int,
    frame: dict[str, Any],
    secrets: dict[tuple[str, int, int], tuple[str, str]],
) -> dict[str, Any] | None:
    """What the player at ``seat`` sends on seeing ``frame`` (None: nothing now)."""
    move = int(frame["move"])
    if frame["phase"] == "over":
        return None
    if frame["to_reveal"]:
        action, salt = secrets[(game_id, move, seat)]
        return {"type": "reveal", "move": move, "action": action, "salt": salt}
    you = frame["you"]
    if frame["phase"] not in ("play", "commit") or you not in frame["acting"]:
        return None
    if you in frame["committed"] or not frame["legal"]:
        return None
    action = rng.choice(frame["legal"])
    if frame["phase"] == "commit":
        salt = new_salt()
        secrets[(game_id, move, seat)] = (action, salt)
        digest = commitment(game_id, move, you, action, salt)
        return {"type": "commit", "move": move, "hash": digest}
    return {"type": "move", "move": move, "action": action}


def main() -> None:
    """Parse the arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played side by side")
    parser.add_argument("--nodes", type=int, default=2000, help="nodes to play in all")
    parser.add_argument("--game", choices=("pulling-strings", "tracks"), default="pulling-strings")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--profile-lines", type=int, default=40)
    parser.add_argument(
        "--sort",
        choices=("cumulative", "tottime"),
        default="cumulative",
        help="order the profile by time with callees (cumulative) or without (tottime)",
    )
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1:
        parser.error("--games and --nodes are at least 1")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for key, value in result.items():
        print(f"{key:<22} {value:,.3f}" if isinstance(value, float) else f"{key:<22} {value:,}")


if __name__ == "__main__":
    main()
