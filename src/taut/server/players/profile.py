"""What the site shows of players: the player page, the leaderboards, signing in.

``/players/{name}`` (and ``/api/players/{name}``): the name, the games in progress with
whose move it is (marked where it is the player's), the finished games with their results
and ratings, and the player's ratings. ``/leaderboard/{game}`` shows a pool's ratings
(``/api/leaderboard/{game}`` in :mod:`taut.server.players.ratings`). ``/signin`` and ``/me`` are
pages the browser's ``player.js`` completes: nothing on them depends on the key, which
never leaves the browser but in a header.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.core.registry import games, plugin
from taut.core.terms import CHANCE_SEAT
from taut.server.answers import refusals
from taut.server.play.clocks import time_control_text
from taut.server.play.frames import result_line
from taut.server.play.hub import Hub
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players
from taut.server.players.history import (
    PER_PAGE,
    PLAYING_LISTED,
    GameLine,
    History,
    line_seat_names,
    result_of,
)
from taut.server.players.pool_names import pool_query, pool_words
from taut.server.players.ratings import COMPUTER, Ratings, leaderboard

#: Which page of a player's finished games to list (1: the newest).
Page = Annotated[int, Query(ge=1, le=100_000, description="page of finished games, 1 the newest")]


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


def deadline_text(at: float) -> str:
    """A deadline as a person reads it on the player page (UTC, to the minute)."""
    return datetime.fromtimestamp(at, tz=UTC).strftime("%Y-%m-%d %H:%M UTC")


def _entry(
    line: GameLine, names: tuple[str, ...], held: dict[int, str], known: dict[str, str]
) -> dict[str, Any]:
    """What every listed game shows: the game, the seat, and who sits where."""
    found = plugin(line.game)
    return {
        "id": line.id,
        "game": found.name,
        "title": found.title,
        "page": f"/g/{line.id}",
        "seat": names[line.seat],
        "rated": bool(line.config.get("rated")),
        "seats": [
            {
                "seat": names[i],
                "player": known.get(held[i]) if i in held else None,
                "computer": s.get("agent"),
            }
            for i, s in enumerate(line.config.get("seats", []))
        ],
    }


def _finished(entry: dict[str, Any], line: GameLine, player_id: str) -> dict[str, Any]:
    assert line.returns is not None
    entry["result"] = result_of(line.returns, line.seat)
    entry["outcome"] = line.outcome
    entry["rating"] = None
    counted = line.rating if entry["rated"] else None
    if counted is not None:
        mine = [c for c in counted["changes"] if c["subject"] == player_id]
        entry["rating"] = {"rated": counted["rated"], "note": counted["note"],
                           "change": mine[0] if mine else None}  # fmt: skip
    return entry


def clock_text(seconds: float) -> str:
    """Time on a live clock as a person reads it: ``4:07``, ``1:02:30``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _playing(entry: dict[str, Any], table: GameTable, seat: int, now: float) -> dict[str, Any]:
    waits = waiting_on(table)
    entry["to_move"] = [table.seat_name(s) for s in waits]
    entry["your_move"] = seat in waits
    # When this seat loses on time unless it chooses (seconds since the epoch).
    due = entry["deadline"] = table.clock_deadline(seat)
    entry["deadline_text"] = None if due is None else deadline_text(due)
    entry["time_control"] = time_control_text(table.config)
    # What the seat has left on a live clock (its own time, as lichess lists it).
    clocks = table.clocks
    live = clocks is not None and clocks.control.kind == "live" and clocks.clocked[seat]
    left = entry["time_left"] = clocks.left_at(seat, now) if live and clocks else None
    entry["time_left_text"] = None if left is None else clock_text(left)
    return entry


async def player_json(
    hub: Hub, players: Players, ratings: Ratings, history: History, name: str, page: int = 1
) -> dict[str, Any]:
    """A player's page as JSON (raises 404 for an unknown name): the games in progress,
    the ``page``-th page of finished games (:data:`~taut.server.players.history.PER_PAGE` a page,
    newest first) and the ratings."""
    player = await players.by_name(name)
    if player is None:
        raise HTTPException(status_code=404, detail=f"no player called {name}")
    going = await history.lines(player.id, over=False, limit=PLAYING_LISTED)
    done = await history.lines(
        player.id, over=True, limit=PER_PAGE + 1, offset=(page - 1) * PER_PAGE
    )
    more, done = len(done) > PER_PAGE, done[:PER_PAGE]
    held = await history.holders(sorted({line.id for line in going + done}))
    known = await players.names(sorted({p for seats in held.values() for p in seats.values()}))
    playing: list[dict[str, Any]] = []
    finished: list[dict[str, Any]] = []
    for line in going:
        table = await hub.table(line.id)
        if table is None:
            continue
        entry = _entry(line, line_seat_names(line), held.get(line.id, {}), known)
        if table.state.is_terminal():  # ended since its status was read
            continue
        playing.append(_playing(entry, table, line.seat, hub.now()))
    for line in done:
        if line.returns is None:  # its end is not kept yet: read the game once, keep it
            table = await hub.peek(line.id)
            if table is None or not table.state.is_terminal():
                continue
            await history.record_end(table)
            line = replace(
                line,
                returns=[float(r) for r in table.state.returns()],
                outcome=result_line(table.state) or table.state.describe_outcome(),
                rating=await ratings.outcome(line.id),
            )
        entry = _entry(line, line_seat_names(line), held.get(line.id, {}), known)
        finished.append(_finished(entry, line, player.id))
    rated = []
    for game, pool, rating in await ratings.of(player.id):
        rated.append(
            {"game": game, "title": plugin(game).title, "pool": pool,
             "pool_words": pool_words(game, pool),
             "leaderboard": f"/leaderboard/{game}?{pool_query(pool)}", **rating.to_json()}
        )  # fmt: skip
    return {
        "id": player.id,
        "name": player.name,
        "page": f"/players/{player.name}",
        "playing": playing,
        "finished": finished,
        "finished_count": await history.finished_count(player.id),
        "finished_page": page,
        "finished_more": more,
        "ratings": rated,
    }


def add_profile(
    app: FastAPI,
    templates: Jinja2Templates,
    hub: Hub,
    players: Players,
    ratings: Ratings,
    history: History,
) -> None:
    """The routes of player pages, leaderboards and signing in."""

    def render(request: Request, name: str, **context: Any) -> HTMLResponse:
        context.update(version=__version__, catalogue=[plugin(n) for n in games()])
        return templates.TemplateResponse(request, name, context)

    @app.get("/api/players/{name}", responses=refusals({404: "no such player"}))
    async def player_api(name: str, page: Page = 1) -> dict[str, Any]:
        return await player_json(hub, players, ratings, history, name, page)

    @app.get(
        "/players/{name}", response_class=HTMLResponse, responses=refusals({404: "no such player"})
    )
    async def player_page(request: Request, name: str, page: Page = 1) -> HTMLResponse:
        data = await player_json(hub, players, ratings, history, name, page)
        return render(request, "player.html", player=data)

    @app.get(
        "/leaderboard/{name}",
        response_class=HTMLResponse,
        responses=refusals({400: "an option is refused", 404: "no such game"}),
    )
    async def board_page(request: Request, name: str) -> HTMLResponse:
        data = await leaderboard(ratings, name, dict(request.query_params))
        return render(request, "leaderboard.html", board=data, computer=COMPUTER)

    @app.get("/signin", response_class=HTMLResponse)
    async def signin_page(request: Request) -> HTMLResponse:
        return render(request, "signin.html")

    @app.get("/me", response_class=HTMLResponse)
    async def me_page(request: Request) -> HTMLResponse:
        return render(request, "me.html")
