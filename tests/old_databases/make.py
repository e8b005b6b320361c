"""Make the old databases the upgrade tests start from, with earlier releases of taut.

Each release is checked out of this repository's history into a temporary worktree and
served (``taut serve`` of that release, on a fresh SQLite file); games are made and played
through its HTTP API and WebSocket as a browser would, then the server is stopped and its
database kept here, one file, with a JSON file of what it holds (game ids, seat tokens,
players' keys) for the tests to play on.

    .venv/bin/python tests/old_databases/make.py

The releases: the first browser server (games, seats, events, secrets); the release before
players (analyses added); the release before tournaments (players, keys, ratings, rated
games, webhooks added).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_server_kit import Remote, Served, free_port, play_remote, token_of  # noqa: E402

#: Each release: its commit, and whether it has players (and so ratings).
RELEASES = {
    "first-browser": ("5c8e3b5", False),
    "before-players": ("97528e4^", False),
    "before-tournaments": ("a8cc789^", True),
}


def start(tree: Path, database: str, log: Path) -> Served:
    """That release's ``taut serve`` on ``database``."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    command = [sys.executable, "-c", "from taut.cli import main; main()", "serve",
               "--port", str(port), "--db", database, "--workers", "0"]  # fmt: skip
    with log.open("ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=out, env=env, cwd=tree)
    served = Served(process, port, database)
    for _ in range(600):
        if process.poll() is not None:
            raise SystemExit(f"serve stopped: {log.read_text()}")
        with contextlib.suppress(OSError):
            urllib.request.urlopen(served.base + "/api/games", timeout=1).read()
            return served
        time.sleep(0.05)
    raise SystemExit("serve did not answer")


def post(served: Served, path: str, body: dict[str, Any], key: str | None = None) -> Any:
    """POST JSON (with a player's key), get JSON."""
    headers = {"Content-Type": "application/json"} | ({"X-Taut-Player": key} if key else {})
    request = urllib.request.Request(served.base + path, json.dumps(body).encode(), headers)
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())


async def fill(served: Served, players: bool) -> dict[str, Any]:
    """Make and play the games a release's database keeps; what the tests need to know."""
    held: dict[str, Any] = {}
    done = post(served, "/api/games", {"game": "tracks", "options": {"size": 3},
                "seats": [{"kind": "me"}, {"kind": "easy"}]})  # fmt: skip
    solo = Remote(served, done["id"], token_of(done["mine"]), random.Random(1))
    await solo.connect()
    await play_remote([solo])
    held["finished"] = {"id": done["id"], "token": token_of(done["mine"])}
    going = post(served, "/api/games", {"game": "pulling-strings", "options": {"max_turns": 12},
                 "seats": [{"kind": "me"}, {"kind": "invite"}]})  # fmt: skip
    tokens = {seat: token_of(link) for seat, link in going["links"].items()}
    pair = [Remote(served, going["id"], t, random.Random(i)) for i, t in enumerate(tokens.values())]
    for person in pair:
        await person.connect()
    await play_remote(pair, until=3)
    held["going"] = {"id": going["id"], "tokens": tokens, "move": pair[0].frame["move"]}
    if players:
        ann = post(served, "/api/players", {"name": "Ann"})
        bob = post(served, "/api/players", {"name": "Bob"})
        rated = post(served, "/api/games", {"game": "tracks", "options": {"size": 3},
                     "seats": [{"kind": "me"}, {"kind": "invite"}], "rated": True},
                     key=ann["key"])  # fmt: skip
        links = list(rated["links"].values())
        post(served, f"/api/games/{rated['id']}/player", {"token": token_of(links[1])},
             key=bob["key"])  # fmt: skip
        people = [Remote(served, rated["id"], token_of(link), random.Random(5 + i))
                  for i, link in enumerate(links)]  # fmt: skip
        for person in people:
            await person.connect()
        await play_remote(people)
        held["players"] = {"Ann": ann["key"], "Bob": bob["key"]}
        held["rated"] = {"id": rated["id"]}
    for person in [solo, *pair]:
        await person.close()
    return held


def make(name: str, commit: str, players: bool) -> None:
    """One release's database and its JSON."""
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), commit],
                       cwd=ROOT, check=True, capture_output=True)  # fmt: skip
        try:
            path = Path(scratch) / "taut.db"
            served = start(tree, f"sqlite+aiosqlite:///{path}", Path(scratch) / "serve.log")
            try:
                held = asyncio.run(fill(served, players))
            finally:
                served.stop()
            with contextlib.closing(sqlite3.connect(path)) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                db.execute("PRAGMA journal_mode=DELETE")
                db.execute("VACUUM")
            target = HERE / f"{name}.db"
            target.write_bytes(path.read_bytes())
            held |= {"release": name, "commit": subprocess.run(
                ["git", "rev-parse", "--short", commit], cwd=ROOT, capture_output=True,
                text=True).stdout.strip()}  # fmt: skip
            (HERE / f"{name}.json").write_text(json.dumps(held, indent=2) + "\n")
            print(f"{target.relative_to(ROOT)}: {target.stat().st_size} bytes")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    for release, (commit, players) in RELEASES.items():
        make(release, commit, players)
