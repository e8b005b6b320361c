"""The HTML pages: the games, their rules, a new game's form, the game, its replay, checks.

Pages are Jinja2 templates (autoescaped: a player's name can never become markup) around
static scripts that need no build step. Everything game-specific on them comes from the
plugins: the catalogue from :func:`game_entry`, the board and moves from the WebSocket.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import Field

from taut import __version__
from taut.core.errors import TautError, UnknownGameError
from taut.core.forfeit import drawable
from taut.core.game import Game
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.core.registry import games, plugin
from taut.server.answers import Form, SeatsOffer, refusals
from taut.server.play.catalogue import game_entry
from taut.server.play.frames import boards, result_line
from taut.server.play.hub import Hub
from taut.server.play.table import GameTable
from taut.server.players.pool_names import variant_text
from taut.server.store.games import Store

#: The levels a seat can be given in the browser, weakest first.
LEVELS = ("easy", "medium", "hard")


class SeatsQuestion(Form):
    """What ``POST /api/seats`` takes: a game and its options."""

    game: str
    options: dict[str, Any] = Field(default_factory=dict)


def seats_for(found: GamePlugin, options: dict[str, Any]) -> SeatsOffer:
    """The seats a game has with ``options``, and which levels can play it."""
    from taut.agents import agent_refusal

    game: Game = found.game_class(**options)
    levels = [level for level in LEVELS if agent_refusal(level, game) is None]
    return {
        "seats": [
            {"seat": name, "title": found.seat_title(game, i)}
            for i, name in enumerate(game.info.seats)
        ],
        "levels": levels,
    }


def seek_fields(game: str, config: dict[str, Any]) -> dict[str, Any]:
    """What the lobby shows of an open game besides its title: the variant (its rating
    pool in plain words), whether it is rated, and the maker's rating range."""
    bounds = config.get("rating_range")
    try:
        variant = variant_text(game, config.get("options", {}))
    except TautError:  # options an older version of the game took: the lobby still lists it
        variant = ""
    return {
        "variant": variant,
        "rated": bool(config.get("rated")),
        "rating_range": list(bounds) if bounds else None,
    }


def positions(table: GameTable) -> list[dict[str, Any]]:
    """Every position of a finished game, for the replay page (the game is over: all shown)."""
    record = GameRecord.from_json(table.record().to_json())
    out: list[dict[str, Any]] = []
    before = None
    found = table.plugin
    for joint, state in record.positions(table.game):
        lines: list[str] = (
            []
            if joint is None or before is None or not joint
            else found.narrate(before, joint, state)
        )
        board = drawable(state)
        out.append(
            {
                "move": len(out),
                **boards(found, board, None, []),
                "text": found.render(board),
                "lines": lines,
                "result": result_line(state),
            }
        )
        before = state
    return out


async def watch_links(store: Store, game_id: str) -> dict[str, str]:
    """Where a game still going can be watched: ``tournament``, the page of the tournament
    it was made for, and ``spectator``, its spectators' link, which the tournament page
    shows to everybody. Empty for any other game: the server keeps only the hash of a
    game's spectator token, so its link is known to the game's maker alone."""
    tournament_id = await store.tournaments.of_game(game_id)
    if tournament_id is None:
        return {}
    found = {"tournament": f"/t/{tournament_id}"}
    _, boards = await store.tournaments.entries(tournament_id)
    for board in boards:
        token = board["tokens"].get("spectator")
        if board["game_id"] == game_id and token:
            found["spectator"] = f"/g/{game_id}#{token}"
    return found


def add_pages(app: FastAPI, templates: Jinja2Templates, hub: Hub) -> None:
    """The HTML routes.

    Long by nature: each route is a few lines, registered here over the same objects."""

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        context.update(version=__version__, catalogue=[plugin(n) for n in games()])
        return templates.TemplateResponse(request, name, context)

    def found_or_404(name: str) -> GamePlugin:
        try:
            return plugin(name)
        except UnknownGameError:
            raise HTTPException(status_code=404, detail=f"no game called {name}") from None

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return page(request, "home.html")

    @app.get("/lobby", response_class=HTMLResponse)
    async def lobby(request: Request) -> HTMLResponse:
        return page(request, "lobby.html")

    @app.get(
        "/rules/{name}", response_class=HTMLResponse, responses=refusals({404: "no such game"})
    )
    async def rules(request: Request, name: str) -> HTMLResponse:
        found = found_or_404(name)
        paragraphs = [p for p in found.rules_text().split("\n\n") if p.strip()]
        return page(request, "rules.html", game=found, paragraphs=paragraphs)

    @app.get("/new/{name}", response_class=HTMLResponse, responses=refusals({404: "no such game"}))
    async def new(request: Request, name: str) -> HTMLResponse:
        found = found_or_404(name)
        return page(request, "new.html", game=found, entry=game_entry(found))

    @app.post(
        "/api/seats",
        responses=refusals(
            {400: "the body is not {game, options}, or an option is refused", 404: "no such game"}
        ),
        # The body is read by hand (a malformed one is a 400 that says what to send); the
        # schema still says what it holds.
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": SeatsQuestion.model_json_schema()}},
            }
        },
    )
    async def seats(request: Request) -> SeatsOffer:
        try:
            body = json.loads(await request.body())
        except ValueError:
            raise HTTPException(status_code=400, detail="send {game, options} as JSON") from None
        if not isinstance(body, dict) or not isinstance(body.get("options", {}), dict):
            raise HTTPException(status_code=400, detail="send {game, options}")
        found = found_or_404(str(body.get("game")))
        try:
            return seats_for(found, dict(body.get("options", {})))
        except TautError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None

    @app.get("/g/{game_id}", response_class=HTMLResponse, responses=refusals({404: "no such game"}))
    async def game_page(request: Request, game_id: str) -> HTMLResponse:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        return page(request, "game.html", table=table, game=table.plugin)

    @app.get(
        "/replay/{game_id}", response_class=HTMLResponse, responses=refusals({404: "no such game"})
    )
    async def replay(request: Request, game_id: str) -> HTMLResponse:
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        if table.state.is_terminal():
            return page(request, "replay.html", table=table, game=table.plugin, going=False)
        # A game still being played has no replay and no record yet: the page says so and
        # where to watch it, rather than showing controls that cannot work.
        row = hub.rows.get(game_id)
        open_seat = row is not None and bool(row.free_seats)
        return page(
            request,
            "replay.html",
            table=table,
            game=table.plugin,
            going=True,
            watch=await watch_links(hub.store, game_id),
            open_seat=open_seat,
        )

    @app.get("/verify", response_class=HTMLResponse)
    async def verify(request: Request) -> HTMLResponse:
        return page(request, "verify.html")
