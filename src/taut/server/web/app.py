"""The web application: pages, the JSON API and the WebSocket of live play.

``create_app(settings)`` builds a FastAPI application over a
:class:`~taut.server.store.games.Store`
(SQLite file by default, PostgreSQL by URL). Nothing here names a game: the catalogue,
the forms, the boards and the rules all come from the plugins.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.errors import TautError
from taut.core.registry import games, plugin
from taut.server.answers import (
    MALFORMED,
    MadeGame,
    OpenSeats,
    SeatLink,
    declare_not_found,
    refusals,
)
from taut.server.learn.flashcards import add_flashcards
from taut.server.learn.tutorials import add_tutorials
from taut.server.play.analysis import ANALYSIS_THINK, Analyst
from taut.server.play.clocks import time_control_text
from taut.server.play.computer import Computer
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, make_game, new_token
from taut.server.play.protocol import problem
from taut.server.play.session import serve_socket
from taut.server.play.table import GameTable
from taut.server.play.verify import verify_record
from taut.server.players.accounts import Players, current
from taut.server.players.calibration import Calibrations, add_calibration_routes
from taut.server.players.history import History
from taut.server.players.pools import seat_refusal
from taut.server.players.profile import add_profile
from taut.server.players.ratings import Ratings, add_rating_routes
from taut.server.players.routes import add_player_routes
from taut.server.players.webhooks import Webhooks, add_webhook_routes
from taut.server.store.database import StoreFailure, token_hash
from taut.server.store.games import Store
from taut.server.store.notify import Listener
from taut.server.tournaments.director import Tournaments
from taut.server.tournaments.routes import add_tournaments
from taut.server.web import pages
from taut.server.web.collector import tune_for_serving
from taut.server.web.error_pages import add_error_pages, declare_pages, wants_page

log = logging.getLogger("taut.server")
HERE = Path(__file__).parent


@dataclass
class Settings:
    """How the server runs."""

    database: str = "sqlite+aiosqlite:///taut.db"
    """A SQLAlchemy URL: ``sqlite+aiosqlite:///PATH`` or ``postgresql+asyncpg://...``."""
    origins: tuple[str, ...] = ()
    """Origins allowed to open a WebSocket besides the server's own."""
    computer_workers: int = 2
    """Processes choosing the computer's moves (0: threads)."""
    analysis_think: float = ANALYSIS_THINK
    """Seconds of search per judged move when a finished game is analysed."""
    listen: bool = True
    """On PostgreSQL, listen for other processes' events."""
    vendor: Path | None = None
    """The folder ``make vendor`` fills (``npm install --prefix DIR @mediapipe/hands``), or
    the ``@mediapipe/hands`` package folder itself; None: :func:`default_vendor`."""
    webhook_loopback: bool = False
    """Whether players' webhooks may go to this machine (a loopback address)."""
    public_url: str = ""
    """The server's address as players reach it (``https://host``), for links sent out."""
    extra: dict[str, Any] = field(default_factory=dict)


#: The environment variable that hands each server process its settings (``taut serve
#: --processes``).
SETTINGS_VARIABLE = "TAUT_SERVE_SETTINGS"


def settings_to_text(settings: Settings) -> str:
    """``settings`` as JSON text, for processes started apart."""
    return json.dumps(
        {
            "database": settings.database,
            "origins": list(settings.origins),
            "computer_workers": settings.computer_workers,
            "analysis_think": settings.analysis_think,
            "listen": settings.listen,
            "vendor": None if settings.vendor is None else str(settings.vendor),
            "webhook_loopback": settings.webhook_loopback,
            "public_url": settings.public_url,
        }
    )


def settings_from_text(text: str) -> Settings:
    """The settings :func:`settings_to_text` wrote."""
    data = json.loads(text)
    return Settings(
        database=str(data["database"]),
        origins=tuple(data["origins"]),
        computer_workers=int(data["computer_workers"]),
        analysis_think=float(data["analysis_think"]),
        listen=bool(data["listen"]),
        vendor=None if data["vendor"] is None else Path(data["vendor"]),
        webhook_loopback=bool(data["webhook_loopback"]),
        public_url=str(data["public_url"]),
    )


def create_app_from_environment() -> FastAPI:
    """The application of one of several server processes: its settings come from
    :data:`SETTINGS_VARIABLE` (set by ``taut serve --processes``)."""
    text = os.environ.get(SETTINGS_VARIABLE)
    if not text:
        raise RuntimeError(f"{SETTINGS_VARIABLE} is not set: start the server with taut serve")
    app = create_app(settings_from_text(text))
    tune_for_serving()
    return app


#: Where ``make vendor`` installs the browser's third-party packages, from the repository.
VENDOR = Path("build") / "vendor"
#: The MediaPipe Hands package inside a vendor folder.
HANDS_PACKAGE = Path("node_modules") / "@mediapipe" / "hands"


def default_vendor() -> Path:
    """The vendor folder: ``build/vendor`` of the current folder where it exists, else that
    of the repository this package runs from."""
    here = Path.cwd() / VENDOR
    return here if here.is_dir() else HERE.parents[3] / VENDOR


def mediapipe_folder(vendor: Path | None) -> Path | None:
    """The folder of MediaPipe Hands (the one holding ``hands.js``) in ``vendor`` (None:
    :func:`default_vendor`), or None when it is not installed there."""
    vendor = default_vendor() if vendor is None else vendor
    for folder in (vendor, vendor / HANDS_PACKAGE):
        if (folder / "hands.js").is_file():
            return folder
    return None


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings``."""
    settings = settings or Settings()
    store = Store(settings.database)
    computer = Computer(settings.computer_workers)
    hub = Hub(store, computer)
    players = Players(store)
    ratings = Ratings(store, players)
    hub.when_over.append(ratings.settle)
    history = History(store)
    hub.when_over.append(history.record_end)  # the player pages list finished games from it
    tournaments = Tournaments(store, hub, players)
    hub.when_over.append(tournaments.game_over)  # a round moves on when its games end
    webhooks = Webhooks(store, players, settings.webhook_loopback, settings.public_url)
    hub.when_changed.append(webhooks.changed)
    analyst = Analyst(store, computer, settings.analysis_think)
    listener = (
        Listener(settings.database, hub.notified, hub.catch_up_all)
        if store.postgres and settings.listen
        else None
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await store.create_tables()
        if listener is not None:
            await listener.start()
        await hub.resume_clocks()  # the time the server was down is charged to nobody
        tournaments.start()
        hub.start_releasing()  # finished games nobody watches leave memory
        yield
        await tournaments.stop()
        if listener is not None:
            await listener.stop()
        await analyst.close()
        await hub.close()
        await store.close()

    app = FastAPI(
        title="taut",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        responses=MALFORMED,
    )
    app.state.hub = hub
    app.state.store = store
    app.state.players = players
    app.state.ratings = ratings
    app.state.settings = settings
    app.state.webhooks = webhooks
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    _add_browser_files(app, settings)

    error_pages = add_error_pages(app, templates)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ())[1:]) or "request"
        if first.get("type") == "json_invalid":
            return JSONResponse({"error": "the request's body is not JSON"}, status_code=422)
        said = f"{where}: {problem(first)}"
        if wants_page(request):  # a person typed or followed a wrong address
            return error_pages.refusal(request, 422, said)
        return JSONResponse({"error": said}, status_code=422)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s", request.url.path)
        said = "something went wrong on the server"
        if wants_page(request):
            return error_pages.refusal(request, 500, said)
        return JSONResponse({"error": said}, status_code=500)

    pages.add_pages(app, templates, hub)
    add_flashcards(app, templates)
    add_tutorials(app, templates)
    _add_api(app, store, hub)
    _add_analysis(app, hub, analyst)
    _add_socket(app, hub, settings)
    add_player_routes(app, hub, players)
    add_rating_routes(app, ratings)
    add_profile(app, templates, hub, players, ratings, history)
    add_webhook_routes(app, webhooks)
    add_calibration_routes(app, players, Calibrations(store))
    add_tournaments(app, templates, tournaments, players)
    declare_not_found(app)  # last: every route is added by now
    declare_pages(app)
    return app


def _add_api(app: FastAPI, store: Store, hub: Hub) -> None:
    @app.get("/api/games")
    async def catalogue() -> list[dict[str, Any]]:
        return [pages.game_entry(plugin(name)) for name in games()]

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
                400: "the game has no such seat",
                403: "the taker's rating is outside the maker's rating range",
                404: "no such game",
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
        except TautError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
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


def _add_browser_files(app: FastAPI, settings: Settings) -> None:
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


def _add_analysis(app: FastAPI, hub: Hub, analyst: Analyst) -> None:
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


def _add_socket(app: FastAPI, hub: Hub, settings: Settings) -> None:
    @app.websocket("/ws/{game_id}")
    async def play(socket: WebSocket, game_id: str) -> None:
        await serve_socket(socket, game_id, hub, settings.origins)
