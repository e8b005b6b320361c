"""The server's cost per command, without the network: the hub of one process.

Where ``serve_load.py`` measures latency from outside (and so also measures its own load
generator on the same cores), this measures what one command costs the server itself: a
:class:`~taut.server.play.hub.Hub` on a SQLite file, ``--games`` games of two seats each with
a client that only counts what it is sent, and every command carried out by the same
``handle`` the WebSocket serves, until ``--nodes`` nodes have been played (the garbage
collector set as ``taut serve`` sets it). A game over is replaced by a new one, whose making
(not a command) is left out of the CPU counted, as the clients' reading of frames is; with
``--rematch`` its first seat asks for a rematch instead and both clients go there, as the
page does, on the hub ``taut serve`` builds (with the hooks a finished game sets off): the
rematch is a command, and what a game's end and its rematch cost (the hooks, the rematch,
the new game looked up and each client's first frame) is printed apart
(``cpu_ms_per_rematch``). Pulling Strings games commit and reveal (three commands a node:
the last to commit reveals with it, as the page does; four on a tree from before that);
Track Tiles games move in turn.
Printed: CPU milliseconds per command and per node, frames and bytes sent per command,
and with ``--profile`` the functions that take the most time.

Every game can be measured (``--game all`` runs the four, each on a board as the browser
plays it: Track Tiles 6x6, Tug of War for two). Besides the CPU, the bytes of the first
frame a client gets and of the frames after it are printed apart. The clients take changed
pictures as patches, as the browser does; ``--whole`` measures clients that take whole
pictures only. Where a game gives the data its table is drawn from (every game), the clients
take that data and not the pictures, as the browser's page does (``--pictures``: the
server's pictures, as other clients take them). They leave the position as text out, as the
page does until its "position as text" is opened; ``--text`` measures clients that show it.
``--src DIR`` runs the same measure on another tree's ``src`` folder (an earlier commit
checked out elsewhere) in a process of its own and prints the ratios, this tree's to that
one's; ``--rev REV`` does so for a revision of this repository's history (its ``src``
folder written out by ``git archive``).

``--repeat N`` runs each tree N times, in turn with the other tree, and keeps each tree's
run with the least CPU: a shared machine's speed drifts by a fifth from run to run, and the
least of a few runs taken in turn is the fairest comparison.

Run: ``.venv/bin/python benchmarks/serve_path.py [--games 50] [--nodes 2000]
[--game pulling-strings|push-pull|tug-of-war|tracks|all] [--src DIR | --rev REV] [--repeat N]
[--whole] [--pictures] [--text] [--rematch] [--profile]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from trees import other_tree

try:
    from taut.server.play.clients import Connection
    from taut.server.play.commit import commitment, new_salt
    from taut.server.play.computer import Computer
    from taut.server.play.frames import with_kept
    from taut.server.play.hub import Hub
    from taut.server.play.making import NewGame, make_game
    from taut.server.play.session import handle
    from taut.server.store.games import Store
except ImportError:  # a tree from before the server was laid out by domain (--src)
    from taut.server.clients import Connection  # type: ignore[no-redef]
    from taut.server.commit import commitment, new_salt  # type: ignore[no-redef]
    from taut.server.computer import Computer  # type: ignore[no-redef]
    from taut.server.frames import with_kept  # type: ignore[no-redef]
    from taut.server.hub import Hub  # type: ignore[no-redef]
    from taut.server.service import NewGame, make_game  # type: ignore[no-redef]
    from taut.server.session import handle  # type: ignore[no-redef]

    from taut.server.store import Store  # type: ignore[no-redef]

try:
    from taut.server.play.protocol import Opening

    #: Whether the server takes a reveal with the last commitment, as the page sends it.
    REVEALS_WITH_COMMIT = Opening is not None
except ImportError:  # a tree from before (--src): the last to commit reveals apart
    REVEALS_WITH_COMMIT = False

try:
    from taut.server.web.app import create_app
    from taut.server.web.settings import Settings
except ImportError:  # a tree from before the server was laid out by domain (--src)
    from taut.server.app import create_app  # type: ignore[no-redef]
    from taut.server.settings import Settings  # type: ignore[no-redef]

try:
    from taut.server.web.collector import tune_for_serving
except ImportError:  # a tree whose server left the collector as it was

    def tune_for_serving() -> None:
        """Nothing to tune."""


#: Each game as the browser plays it.
GAMES = {
    "pulling-strings": {},
    "push-pull": {},
    "tug-of-war": {"players": 2},
    "tracks": {"size": 6},
}


class Counting:
    """A client that keeps the last frame and counts what it is sent (and the time it
    takes to read it, which is the client's, not the server's)."""

    #: Seconds every client spent reading frames.
    reading = 0.0

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0
        self.first = 0
        """The bytes of the first frame (the whole game, as a client joining gets it)."""
        self.later = 0
        """The bytes of every frame after the first."""
        self.last: dict[str, Any] | None = None

    async def send_text(self, text: str) -> None:
        """Count one message (and keep it when it is a frame)."""
        start = time.perf_counter()
        self.bytes += len(text)
        if text.startswith('{"type":"state"'):
            self.frames += 1
            if self.frames == 1:
                self.first += len(text)
            else:
                self.later += len(text)
            self.last = with_kept(self.last, json.loads(text))
        Counting.reading += time.perf_counter() - start

    async def close(self, code: int) -> None:
        """Nothing to close."""


#: The board's room, in CSS pixels, on a phone (390 pixels wide) and on a desktop: a game's
#: first seat is on a phone, the other on a desktop.
ROOMS = (358, 760)


def connection(
    client: Counting, game_id: str, seat: int, patches: bool, text: bool = False, draws: bool = True
) -> Connection:
    """A client's connection; with ``patches``, one that takes changed pictures as patches
    with edits of their tokens (as the browser does), where the tree measured knows them; it
    draws the board in the room of :data:`ROOMS`, where the tree knows rooms, shows the
    position as text only with ``text`` (the page does once it is opened), where the tree
    draws it only for those that show it, and with ``draws`` draws a game's table from its
    data where the game gives it (as the page does), where the tree knows that."""
    try:
        conn = Connection(client, game_id, seat, patches=patches, edits=patches)  # type: ignore[arg-type, call-arg]
    except TypeError:  # a tree from before edits of tokens, or before patches
        try:
            conn = Connection(client, game_id, seat, patches=patches)  # type: ignore[arg-type, call-arg]
        except TypeError:
            return Connection(client, game_id, seat)  # type: ignore[arg-type]
    if hasattr(conn, "room"):
        conn.room = ROOMS[seat % 2]
    if hasattr(conn, "text"):
        conn.text = text
    if hasattr(conn, "draws"):
        conn.draws = draws and patches
    return conn


async def run(args: argparse.Namespace) -> dict[str, float]:
    """Play until ``args.nodes`` nodes are done; the costs per command and per node."""
    rng = random.Random(args.seed)
    options = GAMES[args.game]
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/path.db"
        if args.rematch:
            # The server's own hub, with every hook a finished game sets off (ratings, the
            # players' histories, tournaments, webhooks).
            app = create_app(Settings(database=url, computer_workers=0))
            store, hub = app.state.store, app.state.hub
        else:
            store = Store(url)
            hub = Hub(store, Computer(0))
        await store.create_tables()

        async def new_game() -> tuple[str, list[Connection], list[Counting]]:
            request = NewGame(
                game=args.game, options=options, seats=[{"kind": "me"}, {"kind": "invite"}]
            )
            made = await make_game(store, request)
            await hub.table(made.id)
            clients = [Counting(), Counting()]
            conns = [
                connection(c, made.id, i, not args.whole, args.text, not args.pictures)
                for i, c in enumerate(clients)
            ]
            for conn in conns:
                hub.join(conn)
            return made.id, conns, clients

        seats = [await new_game() for _ in range(args.games)]
        tune_for_serving()  # the garbage collector as a serving process sets it
        done: list[Counting] = []
        await asyncio.sleep(0.1)  # the first frames go out
        secrets: dict[tuple[str, int, int], tuple[str, str]] = {}
        profile = cProfile.Profile() if args.profile else None
        commands = nodes = 0
        made_cpu = 0.0
        rematches, rematch_cpu = 0, 0.0
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
                if table.state.is_terminal() and args.rematch:
                    # What the end sets off (ratings, histories, tournaments), then the first
                    # seat asks for a rematch, and both go there, as the page does.
                    ending = time.process_time()
                    await hub.settle()
                    await handle(hub, conns[0], json.dumps({"type": "rematch", "ref": 1}))
                    commands += 1
                    seats[k] = await rematched(hub, game_id, conns, args)
                    done.extend(clients)
                    rematches += 1
                    rematch_cpu += time.process_time() - ending
                elif table.state.is_terminal():  # a new game in its place
                    for conn in conns:
                        hub.leave(conn)
                    done.extend(clients)
                    # Making a game is not a command: its cost is left out.
                    making = time.process_time()
                    seats[k] = await new_game()
                    made_cpu += time.process_time() - making
        if profile is not None:
            profile.disable()
        cpu = time.process_time() - start_cpu - Counting.reading - made_cpu
        wall = time.perf_counter() - start
        every = done + [c for _, _, cs in seats for c in cs]
        frames, sent = sum(c.frames for c in every), sum(c.bytes for c in every)
        firsts = sum(1 for c in every if c.frames)
        first_kb = sum(c.first for c in every) / 1000 / max(firsts, 1)
        later_kb = sum(c.later for c in every) / 1000 / max(frames - firsts, 1)
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
        "first_frame_kb": first_kb,
        "later_frame_kb": later_kb,
        "wall_s": wall,
        **(
            {"cpu_ms_per_rematch": 1000 * rematch_cpu / max(rematches, 1), "rematches": rematches}
            if args.rematch
            else {}
        ),
    }


async def rematched(
    hub: Hub, game_id: str, conns: list[Connection], args: argparse.Namespace
) -> tuple[str, list[Connection], list[Counting]]:
    """The clients of a finished game gone to its rematch: each leaves, and a new
    connection finds the game (as its hello does) and joins it."""
    new_id = hub.tables[game_id].rematch
    assert new_id is not None, "the rematch was not made"
    for conn in conns:
        hub.leave(conn)
    await hub.table(new_id)
    clients = [Counting(), Counting()]
    fresh = [
        connection(c, new_id, i, not args.whole, args.text, not args.pictures)
        for i, c in enumerate(clients)
    ]
    for conn in fresh:
        hub.join(conn)
    await asyncio.sleep(0)  # the first frames go out
    return new_id, fresh, clients


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
        message: dict[str, Any] = {"type": "commit", "move": move, "hash": digest}
        if REVEALS_WITH_COMMIT and all(
            s in frame["committed"] for s in frame["acting"] if s != you
        ):
            # The last to commit reveals with it, as the page does.
            message["reveal"] = {"action": action, "salt": salt}
        return message
    return {"type": "move", "move": move, "action": action}


def measured(args: argparse.Namespace, game: str) -> dict[str, Any]:
    """One game's numbers, in this process or (``--src``) on the other tree."""
    if args.src is None:
        return asyncio.run(run(argparse.Namespace(**{**vars(args), "game": game})))
    command = [sys.executable, __file__, "--game", game, "--games", str(args.games),
               "--nodes", str(args.nodes), "--seed", str(args.seed), "--json",
               *(["--whole"] if args.whole else []),
               *(["--pictures"] if args.pictures else []),
               *(["--text"] if args.text else []),
               *(["--rematch"] if args.rematch else [])]  # fmt: skip
    env = dict(os.environ, PYTHONPATH=str(Path(args.src).resolve()))
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the tree at {args.src} could not be measured: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main() -> None:
    """Parse the arguments, run, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games played side by side")
    parser.add_argument("--nodes", type=int, default=2000, help="nodes to play in all")
    parser.add_argument("--game", choices=(*GAMES, "all"), default="pulling-strings")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--src", default=None, metavar="DIR",
        help="another tree's src folder: measure it too and print the ratios",
    )  # fmt: skip
    parser.add_argument(
        "--rev", default=None, metavar="REV",
        help="another tree by git revision (its src folder written out of the history), "
        "measured as a --src tree",
    )  # fmt: skip
    parser.add_argument("--profile", action="store_true", help="print where the time goes")
    parser.add_argument("--profile-lines", type=int, default=40)
    parser.add_argument(
        "--sort",
        choices=("cumulative", "tottime"),
        default="cumulative",
        help="order the profile by time with callees (cumulative) or without (tottime)",
    )
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
        "--rematch", action="store_true",
        help="a finished game's players ask for a rematch and go there, as the page does, "
        "on the server's own hub with its hooks (counted as a command: a game's start and "
        "end are charged); without it a new game is made for them, not counted",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", type=int, default=1, metavar="N",
        help="run each tree N times, in turn with the --src tree, and keep each tree's run "
        "with the least CPU (a shared machine's speed drifts from run to run)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    if args.games < 1 or args.nodes < 1 or args.repeat < 1:
        parser.error("--games, --nodes and --repeat are at least 1")
    with tempfile.TemporaryDirectory() as trees:
        args.src = other_tree(parser, args.src, args.rev, Path(trees))
        report(args)


def report(args: argparse.Namespace) -> None:
    """Measure every game asked for (and the other tree, where one is given); print."""
    games = list(GAMES) if args.game == "all" else [args.game]
    if args.json and len(games) == 1 and args.src is None:
        print(json.dumps(asyncio.run(run(args)), indent=1))
        return
    for game in games:
        runs: list[dict[str, Any]] = []
        others: list[dict[str, Any]] = []
        for _ in range(args.repeat):
            runs.append(asyncio.run(run(argparse.Namespace(**{**vars(args), "game": game}))))
            if args.src is not None:
                others.append(measured(args, game))
        here = min(runs, key=lambda r: float(r["cpu_ms_per_command"]))
        least = f" (the least CPU of {args.repeat} runs each, in turn)" if args.repeat > 1 else ""
        print(f"== {game}{least}")
        if args.src is None:
            for key, value in here.items():
                shown = f"{value:,.3f}" if isinstance(value, float) else f"{value:,}"
                print(f"{key:<22} {shown}")
            continue
        there = min(others, key=lambda r: float(r["cpu_ms_per_command"]))
        label = args.rev or "--src"  # the revision's name, where it was given by one
        print(f"{'':<22} {'this tree':>12} {label:>12} {'ratio':>8}")
        for key, value in here.items():
            other = there.get(key)
            ratio = f"{value / other:.2f}" if isinstance(other, (int, float)) and other else "-"
            shown = "-" if other is None else f"{other:,.3f}"
            print(f"{key:<22} {value:>12,.3f} {shown:>12} {ratio:>8}")


if __name__ == "__main__":
    main()
