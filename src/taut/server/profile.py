"""What the site shows of players: the player page, the leaderboards, signing in.

``/players/{name}`` (and ``/api/players/{name}``): the name, the games in progress with
whose move it is (marked where it is the player's), the finished games with their results
and ratings, and the player's ratings. ``/leaderboard/{game}`` shows a pool's ratings
(``/api/leaderboard/{game}`` in :mod:`taut.server.ratings`). ``/signin`` and ``/me`` are
pages the browser's ``player.js`` completes: nothing on them depends on the key, which
never leaves the browser but in a header.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.game import CHANCE_SEAT
from taut.core.registry import games, plugin
from taut.server.answers import refusals
from taut.server.hub import Hub
from taut.server.players import Players
from taut.server.ratings import COMPUTER, Ratings, leaderboard, pool_query
from taut.server.table import GameTable


def waiting_on(table: GameTable) -> list[int]:
    """The seats the game waits for now (none when it is over)."""
    phase = table.phase
    if phase == "over":
        return []
    if phase == "reveal":
        return [s for s in sorted(table.commits) if s not in table.reveals]
    acting = [s for s in table.state.acting_seats() if s != CHANCE_SEAT]
    if phase == "commit":
        return [s for s in acting if s not in table.commits]
    return acting


def result_for(table: GameTable, seat: int) -> str:
    """``won``, ``lost`` or ``drew``: how a finished game went for ``seat`` (the best
    return won, shared by all: drew)."""
    returns = table.state.returns()
    mine, best = returns[seat], max(returns)
    if all(r == best for r in returns):
        return "drew"
    return "won" if mine == best else "lost"


def deadline_text(at: float) -> str:
    """A deadline as a person reads it on the player page (UTC, to the minute)."""
    return datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


async def player_json(hub: Hub, players: Players, ratings: Ratings, name: str) -> dict[str, Any]:
    """A player's page as JSON (raises 404 for an unknown name)."""
    player = await players.by_name(name)
    if player is None:
        raise HTTPException(status_code=404, detail=f"no player called {name}")
    playing: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    for game_id, seat in await players.games_of(player.id):
        table = await hub.table(game_id)
        if table is None:
            continue
        held = await players.seat_players(game_id)
        names = await players.names(sorted(set(held.values())))
        entry: dict[str, Any] = {
            "id": game_id,
            "game": table.plugin.name,
            "title": table.plugin.title,
            "page": f"/g/{game_id}",
            "seat": table.seat_name(seat),
            "rated": bool(table.config.get("rated")),
            "seats": [
                {
                    "seat": table.seat_name(i),
                    "player": names.get(held[i]) if i in held else None,
                    "computer": s.agent if s.kind == "computer" else None,
                }
                for i, s in enumerate(table.seats)
            ],
        }
        if table.state.is_terminal():
            entry["result"] = result_for(table, seat)
            entry["outcome"] = table.state.describe_outcome()
            counted = await ratings.outcome(game_id) if entry["rated"] else None
            entry["rating"] = None
            if counted is not None:
                mine = [c for c in counted["changes"] if c["subject"] == player.id]
                entry["rating"] = {"rated": counted["rated"], "note": counted["note"],
                                   "change": mine[0] if mine else None}  # fmt: skip
            finished.append(entry)
        else:
            waits = waiting_on(table)
            entry["to_move"] = [table.seat_name(s) for s in waits]
            entry["your_move"] = seat in waits
            # When this seat loses on time unless it chooses (seconds since the epoch).
            due = entry["deadline"] = table.clock_deadline(seat)
            entry["deadline_text"] = None if due is None else deadline_text(due)
            playing.append(entry)
    rated = []
    for game, pool, rating in await ratings.of(player.id):
        rated.append(
            {"game": game, "title": plugin(game).title, "pool": pool,
             "leaderboard": f"/leaderboard/{game}?{pool_query(pool)}", **rating.to_json()}
        )  # fmt: skip
    return {
        "id": player.id,
        "name": player.name,
        "page": f"/players/{player.name}",
        "playing": playing,
        "finished": finished,
        "ratings": rated,
    }


def add_profile(
    app: FastAPI, templates: Jinja2Templates, hub: Hub, players: Players, ratings: Ratings
) -> None:
    """The routes of player pages, leaderboards and signing in."""

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        context.update(version=__version__, catalogue=[plugin(n) for n in games()])
        return templates.TemplateResponse(request, name, context)

    @app.get("/api/players/{name}", responses=refusals({404: "no such player"}))
    async def player_api(name: str) -> dict[str, Any]:
        return await player_json(hub, players, ratings, name)

    @app.get(
        "/players/{name}", response_class=HTMLResponse, responses=refusals({404: "no such player"})
    )
    async def player_page(request: Request, name: str) -> HTMLResponse:
        data = await player_json(hub, players, ratings, name)
        return page(request, "player.html", player=data)

    @app.get(
        "/leaderboard/{name}",
        response_class=HTMLResponse,
        responses=refusals({400: "an option is refused", 404: "no such game"}),
    )
    async def board_page(request: Request, name: str) -> HTMLResponse:
        data = await leaderboard(ratings, name, dict(request.query_params))
        return page(request, "leaderboard.html", board=data, computer=COMPUTER)

    @app.get("/signin", response_class=HTMLResponse)
    async def signin_page(request: Request) -> HTMLResponse:
        return page(request, "signin.html")

    @app.get("/me", response_class=HTMLResponse)
    async def me_page(request: Request) -> HTMLResponse:
        return page(request, "me.html")
