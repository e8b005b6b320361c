"""The web application: pages, the JSON API and the WebSocket of live play.

``create_app(settings)`` builds a FastAPI application over a
:class:`~taut.server.store.games.Store`
(SQLite file by default, PostgreSQL by URL). Nothing here names a game: the catalogue,
the forms, the boards and the rules all come from the plugins.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.registry import games
from taut.learn.registry import tile_sets
from taut.server.answers import (
    MALFORMED,
    declare_names,
    declare_not_found,
)
from taut.server.learn.flashcards import add_flashcards
from taut.server.learn.tutorials import add_tutorials
from taut.server.play.analysis import Analyst
from taut.server.play.computer import Computer
from taut.server.play.hub import Hub
from taut.server.play.protocol import problem
from taut.server.players.accounts import Players
from taut.server.players.calibration import Calibrations, add_calibration_routes
from taut.server.players.history import History
from taut.server.players.profile import add_profile
from taut.server.players.ratings import Ratings, add_rating_routes
from taut.server.players.routes import add_player_routes
from taut.server.players.webhooks import Webhooks, add_webhook_routes
from taut.server.store.games import Store
from taut.server.store.notify import Listener
from taut.server.tournaments.director import Tournaments
from taut.server.tournaments.routes import add_tournaments
from taut.server.web import pages
from taut.server.web.collector import tune_for_serving
from taut.server.web.error_pages import add_error_pages, declare_pages, wants_page
from taut.server.web.game_routes import (
    add_analysis_routes,
    add_browser_files,
    add_game_routes,
    add_socket,
)
from taut.server.web.settings import HERE, SETTINGS_VARIABLE, Settings, settings_from_text

log = logging.getLogger("taut.server")


def create_app_from_environment() -> FastAPI:
    """The application of one of several server processes: its settings come from
    :data:`SETTINGS_VARIABLE` (set by ``taut serve --processes``)."""
    text = os.environ.get(SETTINGS_VARIABLE)
    if not text:
        raise RuntimeError(f"{SETTINGS_VARIABLE} is not set: start the server with taut serve")
    app = create_app(settings_from_text(text))
    tune_for_serving()
    return app


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application for ``settings``.

    Long by nature: it builds every domain's objects over one store and hub, wires their
    hooks to one another and registers their routes, in the order they depend on."""
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
    add_browser_files(app, settings)

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
    add_game_routes(app, store, hub)
    add_analysis_routes(app, hub, analyst)
    add_socket(app, hub, settings)
    add_player_routes(app, hub, players)
    add_rating_routes(app, ratings)
    add_profile(app, templates, hub, players, ratings, history)
    add_webhook_routes(app, webhooks)
    add_calibration_routes(app, players, Calibrations(store))
    add_tournaments(app, templates, tournaments, players)
    declare_not_found(app)  # last: every route is added by now
    declare_pages(app)
    declare_names(
        app,
        {
            ("NewGame", "game"): games,
            ("NewTournament", "game"): games,
            ("NextRequest", "set"): lambda: list(tile_sets()),
            ("ReviewRequest", "set"): lambda: list(tile_sets()),
        },
    )
    return app
