"""Tournaments: a round robin or a Swiss tournament of a two-seat game, run by the server.

A player makes one (a game and its options, a system, rated or not, a start time, a time
control); players enter themselves before the start, and the maker may enter computer
levels. At the start the server pairs the first round
(:mod:`taut.server.tournaments.pairing`) and makes
its games: a player's seat is attached to that player, who is handed its link on the
tournament's page; a computer level plays its seat as in any game. When every game of a
round is over, the next round is paired and made; after the last one the tournament is
over. Rated games count through the usual path (:mod:`taut.server.players.ratings`).

Nothing waits on one timer alone: a background task looks at the tournaments that are due
every few seconds, every finished game's end is looked at, and every request about a
tournament looks first. A round is written once (a row keyed by tournament and round), so
servers sharing a PostgreSQL database start it once; a board's game is filled in once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from taut import __version__
from taut.agents import agent_refusal
from taut.core.errors import TautError
from taut.core.options import option_text
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin
from taut.server.answers import NEEDS_KEY, refusals
from taut.server.play.clocks import parse_time_control
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, SeatChoice, make_game
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players, current
from taut.server.players.pools import ratings_of, variant_text
from taut.server.players.ratings import COMPUTER
from taut.server.store.games import Store
from taut.server.tournaments import pairing
from taut.server.tournaments.pairing import Pairing

log = logging.getLogger("taut.server")

#: The computer levels a tournament may enter.
LEVELS = ("easy", "medium", "hard")
#: The most rounds of a Swiss tournament.
MAX_ROUNDS = 30
#: The most entrants of a tournament.
MAX_ENTRANTS = 64
#: How far ahead a tournament may start, in seconds (a year).
MAX_AHEAD = 365 * 24 * 3600.0
#: How often the background task looks at the tournaments that are due, in seconds.
TICK = 2.0
#: A board whose game is still missing this long after its round started is made by
#: whoever looks (the server that started the round stopped before making it).
REPAIR_AFTER = 30.0
#: The tiebreak of each system, as the tables name it.
TIEBREAKS = {"round-robin": "Sonneborn-Berger", "swiss": "Buchholz"}


class NewTournament(BaseModel):
    """A new tournament, as the form sends it."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    options: dict[str, Any] = Field(default_factory=dict)
    system: Literal["round-robin", "swiss"]
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] | None = None
    """The number of rounds of a Swiss tournament (a round robin has as many as it needs)."""
    rated: bool = False
    starts_at: Annotated[float, Field(allow_inf_nan=False)]
    """When the first round is paired (seconds since the epoch)."""
    time_control: Annotated[str, StringConstraints(max_length=40)] | None = None
    name: Annotated[str, StringConstraints(max_length=60, strip_whitespace=True)] = ""

    @field_validator("time_control")
    @classmethod
    def _time_control(cls, value: str | None) -> str | None:
        parse_time_control(value)  # a ValueError naming the allowed forms becomes a 422
        return value


class NewEntrant(BaseModel):
    """A computer level the maker enters."""

    model_config = ConfigDict(extra="forbid")
    level: Literal["easy", "medium", "hard"]


def new_tournament_id() -> str:
    """A tournament's id (random, like a game's)."""
    return secrets.token_urlsafe(9)


def score_of(table: GameTable) -> float:
    """The first seat's points in a finished game: 1 for a win, 1/2 for a draw, 0."""
    returns = table.state.returns()
    if returns[0] > returns[1]:
        return pairing.WIN
    return pairing.DRAW if returns[0] == returns[1] else pairing.LOSS


class Tournaments:
    """The tournaments of a store, and the task that moves them on."""

    def __init__(self, store: Store, hub: Hub, players: Players) -> None:
        self.store = store
        self.hub = hub
        self.players = players
        self._locks: dict[str, asyncio.Lock] = {}
        self._task: asyncio.Task[None] | None = None

    # -- the background task -------------------------------------------------------------

    def start(self) -> None:
        """Start looking at the tournaments that are due, every :data:`TICK` seconds."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        """Stop the background task."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        while True:
            await self.tick()
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        """Move on every tournament that is due (failures are logged: the next tick, or
        the next request, tries again)."""
        try:
            due = await self.store.tournaments.due(self.store.clock())
        except Exception:
            log.exception("cannot list the tournaments that are due")
            return
        for tournament_id in due:
            await self.advance(tournament_id)

    async def game_over(self, table: GameTable) -> None:
        """A game ended (the hub calls this for every finished game it changes or loads):
        its tournament, if it has one, moves on."""
        try:
            tournament_id = await self.store.tournaments.of_game(table.id)
        except Exception:
            log.exception("cannot look up the tournament of game %s", table.id)
            return
        if tournament_id is not None:
            await self.advance(tournament_id)

    # -- moving on -----------------------------------------------------------------------

    async def advance(self, tournament_id: str) -> None:
        """Do what is due: start the first round, note finished games, start the next round
        or end the tournament."""
        lock = self._locks.setdefault(tournament_id, asyncio.Lock())
        async with lock:
            try:
                await self._advance(tournament_id)
            except Exception:
                log.exception("tournament %s could not move on", tournament_id)

    async def _advance(self, tournament_id: str) -> None:
        rows = await self.store.tournaments.rows(tournament_id)
        if not rows or rows[0]["status"] == "over":
            return
        row = rows[0]
        now = self.store.clock()
        entrants, boards = await self.store.tournaments.entries(tournament_id)
        if row["status"] == "open":
            if now < row["starts_at"]:
                return
            if len(entrants) < 2:  # nobody to play: it ends where it would start
                await self.store.tournaments.end(tournament_id)
                return
            pairs = await self._pair(row, entrants, boards, 1)
            if await self.store.tournaments.start_round(tournament_id, 1, pairs, len(entrants)):
                await self._make_games(row, 1, pairs)
            return
        number = int(row["round"])
        current = [b for b in boards if b["round"] == number]
        done = True
        for b in current:
            if b["second"] is None:
                continue
            if b["game_id"] is None:
                done = False
                if now - b["created_at"] >= REPAIR_AFTER:
                    await self._make_game(row, number, b["board"], (b["first"], b["second"]))
                continue
            if b["score"] is None:
                score = await self._result(b["game_id"])
                if score is None:
                    done = False
                    continue
                await self.store.tournaments.set_board(
                    tournament_id, number, b["board"], score=score
                )
                b["score"] = score
        if not done:
            return
        if number >= self._rounds(row, entrants):
            await self.store.tournaments.end(tournament_id)
            return
        pairs = await self._pair(row, entrants, boards, number + 1)
        if await self.store.tournaments.start_round(
            tournament_id, number + 1, pairs, len(entrants)
        ):
            await self._make_games(row, number + 1, pairs)

    @staticmethod
    def _rounds(row: dict[str, Any], entrants: Sequence[str]) -> int:
        """How many rounds the tournament plays."""
        if row["config"]["system"] == "swiss":
            return int(row["config"]["rounds"])
        return len(pairing.round_robin(entrants))

    async def _pair(
        self,
        row: dict[str, Any],
        entrants: list[str],
        boards: list[dict[str, Any]],
        number: int,
    ) -> list[Pairing]:
        """The pairings of round ``number``."""
        if row["config"]["system"] == "round-robin":
            return pairing.round_robin(entrants)[number - 1]
        history = _history(boards)
        rating = await self._ratings(row, entrants)
        ranked = pairing.swiss_order(entrants, _played(boards), rating)
        firsts: dict[str, int] = {}
        for pairs in history:
            for a, b in pairs:
                if b is not None:
                    firsts[a] = firsts.get(a, 0) + 1
        return pairing.swiss_round(ranked, history, firsts)

    async def _ratings(self, row: dict[str, Any], entrants: Sequence[str]) -> dict[str, float]:
        return await ratings_of(self.store, row["game"], row["config"]["pool"], entrants)

    async def _result(self, game_id: str) -> float | None:
        """The first seat's points in a finished game (None: not over)."""
        stored = await self.store.load_game(game_id)
        if stored is None or stored.status != "over":
            return None
        table = await self.hub.table(game_id)
        if table is None or not table.state.is_terminal():
            return None
        return score_of(table)

    async def _make_games(self, row: dict[str, Any], number: int, pairs: list[Pairing]) -> None:
        for board, (first, second) in enumerate(pairs):
            if second is not None:
                await self._make_game(row, number, board, (first, second))

    async def _make_game(
        self, row: dict[str, Any], number: int, board: int, pair: tuple[str, str]
    ) -> None:
        """Make a board's game: a player's seat is attached to that player, a computer
        level's seat is played by that level."""
        config = row["config"]
        kinds = [e.removeprefix(COMPUTER) if e.startswith(COMPUTER) else "invite" for e in pair]
        request = NewGame(
            game=row["game"],
            options=config["options"],
            seats=[SeatChoice(kind=k) for k in kinds],  # type: ignore[arg-type]
            rated=bool(config["rated"]),
            time_control=config.get("time_control"),
        )
        # The maker stands for the tournament (a rated game is made by a player).
        made = await make_game(self.store, request, player=row["creator"])
        names = plugin(row["game"]).game_class(**config["options"]).info.seats
        tokens = {"spectator": made.spectator}
        for seat, entrant in enumerate(pair):
            if not entrant.startswith(COMPUTER):
                await self.store.seat_holders.attach(made.id, seat, entrant)
                tokens[entrant] = made.links[names[seat]]
        if await self.store.tournaments.set_board(
            row["id"], number, board, game_id=made.id, tokens=tokens
        ):
            await self.hub.table(made.id)  # loaded: its computer seats start to play
        else:
            log.warning("tournament %s board %s was made twice", row["id"], board)

    # -- making and entering -------------------------------------------------------------

    async def create(self, body: NewTournament, creator: str) -> str:
        """Check and store a new tournament; its id. Raises HTTPException naming what is
        wrong."""
        if body.game not in games():
            raise HTTPException(
                status_code=400,
                detail=f"no game called {body.game}; the games are {', '.join(games())}",
            )
        found = plugin(body.game)
        try:
            built = found.game_class(**body.options)
        except TautError as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        seats = built.info.seats
        if len(seats) != 2:
            raise HTTPException(
                status_code=400,
                detail=f"a tournament is for games of two seats; {found.title} with these "
                f"options has {len(seats)} ({', '.join(seats)})",
            )
        now = self.store.clock()
        if body.starts_at < now:
            raise HTTPException(
                status_code=400,
                detail="the start time is in the past: choose a time from now on "
                "(starts_at, in seconds since 1970)",
            )
        if body.starts_at > now + MAX_AHEAD:
            raise HTTPException(status_code=400, detail="a tournament starts within a year")
        if body.system == "swiss" and body.rounds is None:
            raise HTTPException(
                status_code=400, detail=f"a Swiss tournament needs its rounds (1 to {MAX_ROUNDS})"
            )
        if body.system == "round-robin" and body.rounds is not None:
            raise HTTPException(
                status_code=400,
                detail="a round robin plays as many rounds as it needs: leave rounds out",
            )
        tournament_id = new_tournament_id()
        config = {
            "name": body.name or f"{found.title} {body.system}",
            "options": dict(built.options),
            "pool": found.rating_pool(built),
            "system": body.system,
            "rounds": body.rounds,
            "rated": body.rated,
            "time_control": body.time_control,
        }
        await self.store.tournaments.create(
            {"id": tournament_id, "creator": creator, "game": found.name, "config": config,
             "starts_at": body.starts_at, "status": "open", "round": 0, "created_at": now}
        )  # fmt: skip
        return tournament_id

    async def enter(self, tournament_id: str, entrant: str, who: str) -> None:
        """Enter ``entrant`` (``who`` names it in a refusal); raises HTTPException."""
        await self.advance(tournament_id)  # a start that is due closes the entries first
        entrants, _ = await self.store.tournaments.entries(tournament_id)
        if len(entrants) >= MAX_ENTRANTS:
            raise HTTPException(
                status_code=409, detail=f"the tournament is full ({MAX_ENTRANTS} entrants)"
            )
        why = await self.store.tournaments.add_entrant(tournament_id, entrant)
        if why == "missing":
            raise HTTPException(status_code=404, detail="no such tournament")
        if why == "started":
            raise HTTPException(
                status_code=409, detail="the tournament has started: entries are closed"
            )
        if why == "entered":
            raise HTTPException(status_code=409, detail=f"{who} entered already")

    # -- what is shown -------------------------------------------------------------------

    async def summary(self, row: dict[str, Any]) -> dict[str, Any]:
        """A tournament as the list shows it."""
        config = row["config"]
        creator = (await self.players.names([row["creator"]])).get(row["creator"], "a player")
        entrants, _ = await self.store.tournaments.entries(row["id"])
        return {
            "id": row["id"],
            "name": config["name"],
            "page": f"/t/{row['id']}",
            "game": row["game"],
            "title": plugin(row["game"]).title,
            "variant": variant_text(row["game"], config["options"]),
            "options": config["options"],
            "system": config["system"],
            "rounds": config["rounds"],
            "rated": bool(config["rated"]),
            "time_control": config.get("time_control"),
            "starts_at": row["starts_at"],
            "status": row["status"],
            "round": row["round"],
            "creator": creator,
            "entrants": len(entrants),
        }

    async def detail(self, tournament_id: str, viewer: str | None) -> dict[str, Any] | None:
        """A tournament with its entrants, rounds (games linked for spectators, and for
        ``viewer`` its own seats) and standings; None if there is none."""
        rows = await self.store.tournaments.rows(tournament_id)
        if not rows:
            return None
        row = rows[0]
        out = await self.summary(row)
        entrants, boards = await self.store.tournaments.entries(tournament_id)
        names = await self.players.names([e for e in entrants if not e.startswith(COMPUTER)])

        def who(entrant: str | None) -> dict[str, Any] | None:
            if entrant is None:
                return None
            if entrant.startswith(COMPUTER):
                level = entrant.removeprefix(COMPUTER)
                return {"name": f"computer ({level})", "kind": "computer", "page": None}
            name = names.get(entrant, "a player")
            return {"name": name, "kind": "player", "page": f"/players/{name}"}

        rounds: dict[int, list[dict[str, Any]]] = {}
        for b in boards:
            game_id = b["game_id"]
            spectator = b["tokens"].get("spectator")
            mine = b["tokens"].get(viewer) if viewer is not None else None
            rounds.setdefault(int(b["round"]), []).append(
                {
                    "board": b["board"] + 1,
                    "first": who(b["first"]),
                    "second": who(b["second"]),
                    "bye": b["second"] is None,
                    "score": b["score"],
                    "result": _result_text(b["score"], b["second"] is None),
                    "game": None if game_id is None else f"/g/{game_id}#{spectator}",
                    "yours": None if game_id is None or mine is None else f"/g/{game_id}#{mine}",
                }
            )
        system = out["system"]
        rating = await ratings_of(self.store, row["game"], row["config"]["pool"], entrants)
        table = pairing.standings(entrants, _played(boards), system, rating)
        out.update(
            entrants=[{**(who(e) or {}), "rating": rating[e]} for e in entrants],
            rounds=[{"round": n, "boards": rounds[n]} for n in sorted(rounds)],
            total_rounds=self._rounds(row, entrants) if len(entrants) >= 2 else 0,
            tiebreak=TIEBREAKS[system],
            standings=[{**standing_json(s), **(who(s.entrant) or {})} for s in table],
            entered=viewer in entrants if viewer is not None else False,
            mine=viewer == row["creator"],
            levels=[lv for lv in LEVELS if COMPUTER + lv not in entrants],
            note=(
                "it ended at its start: fewer than two entrants"
                if row["status"] == "over" and not boards
                else ""
            ),
        )
        return out


def standing_json(s: pairing.Standing) -> dict[str, Any]:
    """One line of the standings (the entrant's name is added by the caller)."""
    return {
        "rank": s.rank,
        "points": s.points,
        "tiebreak": s.tiebreak,
        "played": s.played,
        "wins": s.wins,
        "draws": s.draws,
        "losses": s.losses,
        "byes": s.byes,
    }


def _result_text(score: float | None, bye: bool) -> str:
    if bye:
        return "bye"
    if score is None:
        return "playing"
    return {1.0: "1-0", 0.5: "½-½", 0.0: "0-1"}.get(score, str(score))


def _history(boards: Sequence[dict[str, Any]]) -> list[list[Pairing]]:
    """The rounds played, as pairings."""
    rounds: dict[int, list[Pairing]] = {}
    for b in boards:
        rounds.setdefault(int(b["round"]), []).append((b["first"], b["second"]))
    return [rounds[n] for n in sorted(rounds)]


def _played(boards: Sequence[dict[str, Any]]) -> list[pairing.Game]:
    """The games with a result, and the byes."""
    return [
        pairing.Game(b["first"], b["second"], float(b["score"] or 0.0))
        for b in boards
        if b["second"] is None or b["score"] is not None
    ]


def options_example(found: GamePlugin) -> str:
    """Options typed as the tournament form takes them (``name=value, ...``), from the
    game's first preset that keeps two seats; empty when it has none."""
    for preset in found.option_presentation(found.game_class).presets:
        # A game for any number of players is asked for two.
        for values in (dict(preset.values), {"players": 2, **preset.values}):
            try:
                seats = found.game_class(**values).info.num_seats
            except (TautError, TypeError, ValueError):
                continue
            if seats == 2:
                return ", ".join(f"{k}={option_text(v)}" for k, v in values.items())
    return ""


def add_tournaments(
    app: FastAPI, templates: Jinja2Templates, tournaments: Tournaments, players: Players
) -> None:
    """The tournaments' JSON routes and pages."""

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
        found = await tournaments.detail(tournament_id, await viewer(key))
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
        return [await tournaments.summary(r) for r in await tournaments.store.tournaments.rows()]

    @app.get("/api/tournaments/{tournament_id}", responses=refusals({404: "no such tournament"}))
    async def one(
        tournament_id: str, x_taut_player: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        return await shown(tournament_id, x_taut_player)

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
            games=[plugin(n) for n in games()],
            examples={n: options_example(plugin(n)) for n in games()},
        )

    @app.get(
        "/t/{tournament_id}",
        response_class=HTMLResponse,
        responses=refusals({404: "no such tournament"}),
    )
    async def tournament_page(request: Request, tournament_id: str) -> HTMLResponse:
        found = await shown(tournament_id, None)
        return page(request, "tournament.html", tournament=found)
