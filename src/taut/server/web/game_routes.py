"""The routes of games at the server: the JSON API of games, their files for the browser,
their analyses and the WebSocket of live play."""

from __future__ import annotations

import json
import logging
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.routing import WebSocketRoute

from taut.core.errors import TautError
from taut.core.registry import games, plugin
from taut.server.answers import (
    MadeGame,
    OpenSeats,
    SeatLink,
    refusals,
)
from taut.server.play.analysis import Analyst
from taut.server.play.catalogue import game_entry
from taut.server.play.clocks import time_control_text
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, make_game, new_token
from taut.server.play.session import serve_socket
from taut.server.play.table import GameTable
from taut.server.play.verify import verify_record
from taut.server.players.accounts import Players, current
from taut.server.players.pools import seat_refusal
from taut.server.store.database import StoreFailure, token_hash
from taut.server.store.games import Store
from taut.server.web import pages
from taut.server.web.settings import Settings, mediapipe_folder

log = logging.getLogger("taut.server")


def add_game_routes(app: FastAPI, store: Store, hub: Hub) -> None:
    """The JSON routes of games: the catalogue, making one, the lobby, claiming an open seat,
    a game's record and positions, and checking a record.

    Long by nature: each route is a few lines, registered here over the same hub."""

    @app.get("/api/games")
    async def catalogue() -> list[dict[str, Any]]:
        return [game_entry(plugin(name)) for name in games()]

    players: Players = app.state.players

    async def player_id(key: str | None, needed: bool) -> str | None:
        """The id of the player whose key came (a stale key is a guest's, unless the
        request needs a player)."""
        try:
            found = await current(players, key)
        except HTTPException:
            if needed:
                raise
            return None
        return None if found is None else found[0].id

    @app.post(
        "/api/games",
        responses=refusals(
            {
                400: "the game, its options or its seats are refused (the sentence says why)",
                401: "a rated game with a player key that is not known",
                503: "the storage refused the game",
            }
        ),
    )
    async def new_game(
        request: NewGame, x_taut_player: Annotated[str | None, Header()] = None
    ) -> MadeGame:
        maker = await player_id(x_taut_player, request.rated)
        try:
            made = await make_game(store, request, player=maker)
        except StoreFailure as exc:  # not the request's fault: the storage refused it
            raise HTTPException(status_code=503, detail=str(exc)) from None
        except TautError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return {
            "id": made.id,
            "links": {seat: f"/g/{made.id}#{token}" for seat, token in made.links.items()},
            "spectator": f"/g/{made.id}#{made.spectator}",
            "mine": None if made.mine is None else f"/g/{made.id}#{made.mine}",
        }

    @app.get("/api/lobby")
    async def lobby() -> list[dict[str, Any]]:
        out = []
        for game_id, name, open_seats, created, config in await store.open_games_with_settings():
            out.append({"id": game_id, "game": name, "title": plugin(name).title,
                        "open_seats": open_seats, "created": created,
                        "time_control": time_control_text(config),
                        **pages.seek_fields(name, config)})  # fmt: skip
        return out

    @app.get("/api/games/{game_id}/open-seats", responses=refusals({404: "no such game"}))
    async def open_seats(game_id: str) -> OpenSeats:
        row = await store.load_game(game_id)
        if row is None:
            raise HTTPException(status_code=404, detail="no such game")
        names = plugin(row.game).game_class(**row.config["options"]).info.seats
        return {"seats": [names[i] for i in row.free_seats]}

    @app.post(
        "/api/games/{game_id}/claim/{seat}",
        responses=refusals(
            {
                403: "the taker's rating is outside the maker's rating range",
                404: "no such game, or the game has no such seat",
                409: "the seat is taken",
            }
        ),
    )
    async def claim(
        game_id: str, seat: str, x_taut_player: Annotated[str | None, Header()] = None
    ) -> SeatLink:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        try:
            index = table.game.seat_index(seat)
        except TautError as exc:  # a name in the path that names nothing
            raise HTTPException(status_code=404, detail=str(exc)) from None
        taker = await player_id(x_taut_player, False)
        row = hub.rows.get(game_id)
        refused = None if row is None else await seat_refusal(store, row, taker)
        if refused is not None:  # the maker's rating range
            raise HTTPException(status_code=403, detail=refused)
        token = new_token()
        if not await store.claim_seat(game_id, index, token_hash(token)):
            raise HTTPException(status_code=409, detail=f"seat {seat} is taken")
        if taker is not None:
            await store.seat_holders.attach(game_id, index, taker)
        await hub.refresh_row(game_id)
        await hub.seated(game_id, index)  # the clocks wait for every seat
        return {"link": f"/g/{game_id}#{token}"}

    @app.get(
        "/api/games/{game_id}/record",
        responses=refusals({404: "no such game", 409: "the game is not over"}),
    )
    async def record(game_id: str) -> Response:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        if not table.state.is_terminal():
            raise HTTPException(status_code=409, detail="the record is shown when the game is over")
        body = json.dumps(table.record().to_json(), indent=1) + "\n"
        headers = {"Content-Disposition": f'attachment; filename="taut-{game_id}.json"'}
        return Response(body, media_type="application/json", headers=headers)

    @app.get(
        "/api/games/{game_id}/positions",
        responses=refusals({404: "no such game", 409: "the game is not over"}),
    )
    async def positions(game_id: str) -> list[dict[str, Any]]:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        if not table.state.is_terminal():
            raise HTTPException(status_code=409, detail="a game is replayed once it is over")
        return pages.positions(table)

    @app.post("/api/verify", responses=refusals({413: "a record of more than 5 MB"}))
    async def verify(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > 5_000_000:
            raise HTTPException(status_code=413, detail="a record of at most 5 MB")
        report = verify_record(raw)
        return report.to_json()


#: What the games' page modules share, served beside their own files: a game's module at
#: ``/game-files/GAME/NAME`` imports one as ``../FILE`` (the file lies in the games'
#: package, beside the games' folders, so that the same path reads it from the disk).
SHARED_GAME_FILES = ("page_text.js",)


def add_browser_files(app: FastAPI, settings: Settings) -> None:
    """The games' own files for the browser, and MediaPipe Hands when it is installed."""

    """The files a game's plugin gives its pages, and the vendored MediaPipe Hands: every
    script a page loads comes from this server, never from elsewhere."""

    @app.get(
        "/game-files/{name}/{file}",
        response_class=FileResponse,
        responses={
            # Whatever kind of file the plugin gives (a script, JSON, a picture).
            200: {"description": "the file", "content": {"*/*": {"schema": {}}}},
            **refusals({404: "no such game, or no such file"}),
        },
    )
    async def game_file(name: str, file: str) -> FileResponse:
        """One of the files of :meth:`GamePlugin.static_files`."""
        if name not in games():
            raise HTTPException(status_code=404, detail=f"no game called {name}")
        path = plugin(name).static_files().get(file)
        if path is None or not path.is_file():
            raise HTTPException(status_code=404, detail=f"{name} has no file called {file}")
        return FileResponse(path)

    @app.get(
        "/game-files/{file}",
        response_class=FileResponse,
        responses={
            200: {"description": "the module", "content": {"text/javascript": {"schema": {}}}},
            **refusals({404: "no such file"}),
        },
    )
    async def shared_game_file(file: str) -> FileResponse:
        """A module the games' own page modules share (:data:`SHARED_GAME_FILES`)."""
        if file not in SHARED_GAME_FILES:
            shared = ", ".join(SHARED_GAME_FILES)
            raise HTTPException(
                status_code=404, detail=f"no shared game file called {file} (there is {shared})"
            )
        return FileResponse(Path(str(resources.files("taut.games") / file)))

    hands = mediapipe_folder(settings.vendor)
    app.state.mediapipe = hands
    if hands is not None:
        app.mount("/vendor/mediapipe", StaticFiles(directory=str(hands)), name="mediapipe")
        return

    @app.get("/vendor/mediapipe/{file:path}")
    async def no_mediapipe(file: str) -> JSONResponse:
        """Say why the camera cannot read hands here."""
        return JSONResponse(
            {
                "error": "MediaPipe Hands is not installed on this server (make vendor installs "
                "it; taut serve --vendor DIR says where it is)"
            },
            status_code=404,
        )


def add_analysis_routes(app: FastAPI, hub: Hub, analyst: Analyst) -> None:
    """A finished game's analysis: read it, or ask for it."""

    async def finished(game_id: str) -> GameTable:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        if not table.state.is_terminal():
            raise HTTPException(status_code=409, detail="a game is analysed once it is over")
        return table

    @app.get(
        "/api/games/{game_id}/analysis",
        responses=refusals({404: "no such game", 409: "the game is not over"}),
    )
    async def analysis(game_id: str) -> dict[str, Any]:
        """Where the game's analysis stands (see taut.server.play.analysis)."""
        return await analyst.status(await finished(game_id))

    @app.post(
        "/api/games/{game_id}/analysis",
        responses=refusals({404: "no such game", 409: "the game is not over"}),
    )
    async def analyse(game_id: str) -> dict[str, Any]:
        """Start the game's analysis unless it is done or under way; where it stands."""
        return await analyst.status(await finished(game_id), start=True)


def add_socket(app: FastAPI, hub: Hub, settings: Settings) -> None:
    """The WebSocket of live play: a plain Starlette route, first of the application's.
    Each game's end opens two sockets (its rematch's), and a route of FastAPI's would be
    found after every other route's pattern was tried and solve its parameters' dependencies
    for every socket; this one takes its one parameter from the path."""

    async def play(socket: WebSocket) -> None:
        await serve_socket(socket, socket.path_params["game_id"], hub, settings.origins)

    app.router.routes.insert(0, WebSocketRoute("/ws/{game_id}", play, name="play"))
