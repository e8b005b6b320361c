"""The tournaments' JSON routes and pages."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from taut import __version__
from taut.agents import agent_refusal
from taut.core.registry import games, plugin
from taut.server.answers import NEEDS_KEY, refusals
from taut.server.players.accounts import Players, current
from taut.server.players.ratings import COMPUTER
from taut.server.tournaments.director import Tournaments
from taut.server.tournaments.form import NewEntrant, NewTournament, tournament_entry
from taut.server.tournaments.shown import detail, summary

#: How long a live tournament page's socket waits for its viewer's key, in seconds.
HELLO_WAIT = 10.0
#: How often a live tournament page looks again for changes made by another process.
RECHECK = 5.0


def add_tournaments(
    app: FastAPI, templates: Jinja2Templates, tournaments: Tournaments, players: Players
) -> None:
    """The tournaments' JSON routes and pages.

    Long by nature: each route is a few lines, registered here over the same objects."""

    async def me(key: str | None) -> str:
        found = await current(players, key)
        if found is None:
            raise HTTPException(status_code=401, detail="send the player's key in X-Taut-Player")
        return found[0].id

    async def viewer(key: str | None) -> str | None:
        try:
            found = await current(players, key)
        except HTTPException:
            return None
        return None if found is None else found[0].id

    async def shown(tournament_id: str, key: str | None) -> dict[str, Any]:
        await tournaments.advance(tournament_id)  # nothing waits for the timer alone
        found = await detail(tournaments, tournament_id, await viewer(key))
        if found is None:
            raise HTTPException(status_code=404, detail="no such tournament")
        return found

    @app.post(
        "/api/tournaments",
        status_code=201,
        responses=refusals(
            {**NEEDS_KEY, 400: "the game, its options, the system or the start are refused"}
        ),
    )
    async def create(
        body: NewTournament, x_taut_player: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        creator = await me(x_taut_player)
        tournament_id = await tournaments.create(body, creator)
        return {"id": tournament_id, "page": f"/t/{tournament_id}"}

    @app.get("/api/tournaments")
    async def listed() -> list[dict[str, Any]]:
        await tournaments.tick()
        return [await summary(tournaments, r) for r in await tournaments.store.tournaments.rows()]

    @app.get("/api/tournaments/{tournament_id}", responses=refusals({404: "no such tournament"}))
    async def one(
        tournament_id: str, x_taut_player: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        return await shown(tournament_id, x_taut_player)

    @app.websocket("/api/tournaments/{tournament_id}/live")
    async def live(websocket: WebSocket, tournament_id: str) -> None:
        """The tournament as ``GET /api/tournaments/{id}`` shows it, sent again whenever it
        changes: at once for a change this process makes, within :data:`RECHECK` seconds for
        one another process makes. The first message names the viewer:
        ``{"key": PLAYER_KEY}`` (or ``{}``), for the links to their own games."""
        await websocket.accept()
        with contextlib.suppress(WebSocketDisconnect):
            try:
                first = await asyncio.wait_for(websocket.receive_json(), HELLO_WAIT)
            except (TimeoutError, ValueError):
                first = {}
            key = first.get("key") if isinstance(first, dict) else None
            who = await viewer(key if isinstance(key, str) else None)
            sent = None
            # A closed socket ends the wait: its receive answers at once.
            leaving = asyncio.ensure_future(websocket.receive())
            try:
                while True:
                    seen = tournaments.version(tournament_id)
                    found = await detail(tournaments, tournament_id, who)
                    if found is None:
                        await websocket.close(code=4404, reason="no such tournament")
                        return
                    text = json.dumps(found, sort_keys=True)
                    if text != sent:
                        await websocket.send_text(text)
                        sent = text
                    waiting = asyncio.ensure_future(
                        tournaments.wait_for_change(tournament_id, seen, RECHECK)
                    )
                    done, _ = await asyncio.wait(
                        {waiting, leaving}, return_when=asyncio.FIRST_COMPLETED
                    )
                    waiting.cancel()
                    if leaving in done:
                        if leaving.result().get("type") == "websocket.disconnect":
                            return
                        leaving = asyncio.ensure_future(websocket.receive())  # a stray message
            finally:
                leaving.cancel()

    @app.post(
        "/api/tournaments/{tournament_id}/join",
        responses=refusals(
            {**NEEDS_KEY, 404: "no such tournament", 409: "entered already, full, or started"}
        ),
    )
    async def join(
        tournament_id: str, x_taut_player: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        player = await me(x_taut_player)
        await tournaments.enter(tournament_id, player, "you are")
        return await shown(tournament_id, x_taut_player)

    @app.post(
        "/api/tournaments/{tournament_id}/entrants",
        responses=refusals(
            {
                **NEEDS_KEY,
                400: "the computer cannot play this game at that level",
                403: "only the tournament's maker enters computer levels",
                404: "no such tournament",
                409: "the level is entered already, or the tournament is full or started",
            }
        ),
    )
    async def add_level(
        tournament_id: str,
        body: NewEntrant,
        x_taut_player: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        player = await me(x_taut_player)
        rows = await tournaments.store.tournaments.rows(tournament_id)
        if not rows:
            raise HTTPException(status_code=404, detail="no such tournament")
        row = rows[0]
        if row["creator"] != player:
            raise HTTPException(
                status_code=403, detail="only the player who made the tournament enters computers"
            )
        built = plugin(row["game"]).game_class(**row["config"]["options"])
        why = agent_refusal(body.level, built)
        if why is not None:
            raise HTTPException(
                status_code=400, detail=f"the computer cannot play here at {body.level}: {why}"
            )
        await tournaments.enter(tournament_id, COMPUTER + body.level, f"computer ({body.level}) is")
        return await shown(tournament_id, x_taut_player)

    def page(request: Request, name: str, **context: Any) -> HTMLResponse:
        context.update(version=__version__, catalogue=[plugin(n) for n in games()])
        return templates.TemplateResponse(request, name, context)

    @app.get("/tournaments", response_class=HTMLResponse)
    async def list_page(request: Request) -> HTMLResponse:
        return page(
            request,
            "tournaments.html",
            entries=[e for e in (tournament_entry(plugin(n)) for n in games()) if e is not None],
        )

    @app.get(
        "/t/{tournament_id}",
        response_class=HTMLResponse,
        responses=refusals({404: "no such tournament"}),
    )
    async def tournament_page(request: Request, tournament_id: str) -> HTMLResponse:
        found = await shown(tournament_id, None)
        return page(request, "tournament.html", tournament=found)
