"""The WebSocket of live play is a plain route, tried first: each game's end opens two
sockets (its rematch's), and a route of FastAPI's is found only after every other route's
pattern was tried and solves its parameters' dependencies for every socket (about a sixth
of a socket's cost, measured by ``benchmarks/serve_connect.py``). Through it, each socket
serves the game its path names."""

from __future__ import annotations

from pathlib import Path

from fastapi.routing import APIWebSocketRoute
from starlette.routing import WebSocketRoute

from taut.core.registry import plugin
from tests.test_server_kit import app_client, new_game, socket_of, token_of


def test_the_socket_of_play_is_the_first_route_and_a_plain_one(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        routes = client.app.router.routes  # type: ignore[attr-defined]
        first = routes[0]
        assert isinstance(first, WebSocketRoute) and not isinstance(first, APIWebSocketRoute)
        assert first.path == "/ws/{game_id}"
        sockets = [r for r in routes if getattr(r, "path", None) == "/ws/{game_id}"]
        assert sockets == [first], "the socket of play is served by one route"


def test_each_socket_serves_the_game_its_path_names(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        for name in ("tracks", "push-pull"):
            made = new_game(client, name, ["me", "invite"])
            seat, link = next(iter(made["links"].items()))
            with socket_of(client, made["id"], token_of(link)) as ws:
                assert ws.frame is not None
                assert ws.frame["you"] == seat
                names = [s["seat"] for s in ws.frame["seats"]]
                assert names == list(plugin(name).game_class().info.seats)
