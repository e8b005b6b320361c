"""What compressing frames costs the server, and what it saves: ``taut serve --compress``.

Browsers ask every WebSocket for ``permessage-deflate``. This plays ``serve_path.py``'s
games in this process (the hub, the browser's kind of client), keeps every message each
client is sent, in order, and then sends each client's messages through the extension as
each choice of ``--compress`` would: ``all`` (uvicorn's own protocol, every message
compressed, what ``taut serve`` did before it had the option), ``large`` (the default:
messages of ``COMPRESS_FROM`` bytes or more) and ``none``. Each client keeps its own
compressor, with the context carried from message to message, as on a connection.

Printed, per game and choice: the server's CPU microseconds a message to compress (the
least of three passes over the same messages, from the process's own counter), and the
bytes a message takes on the wire (the frame's payload) for a client's first frame apart
from its later ones; then the ratios to ``all``.

``--pictures`` records clients that take the server's pictures instead of the browser's
kind: their first frames are large enough to be compressed under ``large``.

Run: ``.venv/bin/python benchmarks/serve_deflate.py [--game all] [--nodes 1500] [--pictures]
[--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, ClassVar

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

import serve_path
from taut.server.web.deflate import LargeMessagesDeflate, server_end

#: Each choice's extension for one connection (None: no extension), on the settings
#: ``taut serve`` agrees with a browser.
CHOICES: dict[str, Callable[[], PerMessageDeflate] | None] = {
    "all": lambda: server_end(PerMessageDeflate),
    "large": lambda: server_end(LargeMessagesDeflate),
    "none": None,
}


class Recording(serve_path.Counting):
    """A client of ``serve_path.py`` that keeps every message it is sent, as bytes."""

    streams: ClassVar[list[list[bytes]]] = []

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[bytes] = []
        Recording.streams.append(self.sent)

    async def send_text(self, text: str) -> None:
        """Keep the message, then count it as ``serve_path.py`` does."""
        self.sent.append(text.encode())
        await super().send_text(text)


def recorded(game: str, nodes: int, seed: int, pictures: bool = False) -> list[list[bytes]]:
    """Every client's messages, in order, over ``nodes`` nodes of ``game``; with
    ``pictures``, clients that take the server's pictures (not the browser's kind)."""
    Recording.streams = []
    serve_path.Counting = Recording  # type: ignore[misc]
    args = argparse.Namespace(
        game=game, games=50, nodes=nodes, seed=seed, whole=False, pictures=pictures,
        text=False, rematch=False, profile=False,
    )  # fmt: skip
    asyncio.run(serve_path.run(args))
    return [s for s in Recording.streams if s]


def cost(
    streams: list[list[bytes]], make: Callable[[], PerMessageDeflate] | None
) -> dict[str, float]:
    """CPU µs a message to encode ``streams`` (least of three passes) and bytes a message
    on the wire, first frames and later ones apart."""
    best = float("inf")
    first = later = 0
    for _ in range(3):
        first = later = 0
        start = time.process_time()
        for stream in streams:
            extension = make() if make is not None else None
            for i, message in enumerate(stream):
                frame = Frame(Opcode.TEXT, message)
                if extension is not None:
                    frame = extension.encode(frame)
                if i == 0:
                    first += len(frame.data)
                else:
                    later += len(frame.data)
        best = min(best, time.process_time() - start)
    messages = sum(len(s) for s in streams)
    return {
        "us_per_message": 1e6 * best / messages,
        "first_bytes": first / len(streams),
        "later_bytes": later / max(messages - len(streams), 1),
    }


def main() -> None:
    """Record each game's messages, encode them each way, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=(*serve_path.GAMES, "all"), default="all")
    parser.add_argument("--nodes", type=int, default=1500, help="nodes played a game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument(
        "--pictures", action="store_true",
        help="clients that take the server's pictures (whose first frames are large), "
        "not the browser's kind, which draws the table from its facts",
    )  # fmt: skip
    args = parser.parse_args()
    if args.nodes < 1:
        parser.error("--nodes is at least 1")
    games = list(serve_path.GAMES) if args.game == "all" else [args.game]
    results: dict[str, dict[str, dict[str, float]]] = {}
    for game in games:
        streams = recorded(game, args.nodes, args.seed, args.pictures)
        results[game] = {name: cost(streams, make) for name, make in CHOICES.items()}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'game':<16} {'compress':<8} {'cpu us/msg':>10} {'first B':>8} {'later B':>8}"
          f" {'cpu ratio':>9} {'later ratio':>11}")  # fmt: skip
    for game, choices in results.items():
        base: dict[str, Any] = choices["all"]
        for name, r in choices.items():
            print(
                f"{game:<16} {name:<8} {r['us_per_message']:>10.1f} {r['first_bytes']:>8.0f} "
                f"{r['later_bytes']:>8.0f} {r['us_per_message'] / base['us_per_message']:>9.2f}"
                f" {r['later_bytes'] / base['later_bytes']:>11.2f}"
            )


if __name__ == "__main__":
    main()
