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
every second, every finished game's end is looked at while a tournament is in play (a
server with none asks the store nothing then), and every request about a tournament looks
first. Each change this process makes is counted, and wakes the pages following the
tournament live (:meth:`Tournaments.wait_for_change`). A round is written once (a row keyed
by tournament and round), so servers sharing a PostgreSQL database start it once; a board's
game is filled in once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from fastapi import HTTPException

from taut.core.registry import plugin
from taut.server.play.hub import Hub
from taut.server.play.making import NewGame, SeatChoice, make_game
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players
from taut.server.players.pools import ratings_of
from taut.server.players.ratings import COMPUTER
from taut.server.store.games import Store
from taut.server.tournaments import pairing
from taut.server.tournaments.form import MAX_ENTRANTS, NewTournament, checked, new_tournament_id
from taut.server.tournaments.pairing import Pairing

log = logging.getLogger("taut.server")

#: How often the background task looks at the tournaments that are due, in seconds: a first
#: round starts within this of its time.
TICK = 1.0
#: A board whose game is still missing this long after its round started is made by
#: whoever looks (the server that started the round stopped before making it).
REPAIR_AFTER = 30.0


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
        # What this process changed of each tournament, counted, for the pages that follow
        # it live (:meth:`wait_for_change`).
        self._versions: dict[str, int] = {}
        self._changed = asyncio.Condition()
        self._in_play: set[str] = set()
        """The tournaments that were due at the last tick, and those moved on here since:
        a finished game can be a board of one of these only, or of one started by another
        process since that tick, which the next tick moves on."""

    # -- following changes ---------------------------------------------------------------

    def version(self, tournament_id: str) -> int:
        """How many changes this process has made to the tournament."""
        return self._versions.get(tournament_id, 0)

    async def _note_change(self, tournament_id: str) -> None:
        self._versions[tournament_id] = self.version(tournament_id) + 1
        async with self._changed:
            self._changed.notify_all()

    async def wait_for_change(self, tournament_id: str, seen: int, timeout: float) -> None:
        """Return once this process has changed the tournament since version ``seen``, or
        after ``timeout`` seconds (another process may have changed it: look again)."""
        async with self._changed:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    self._changed.wait_for(lambda: self.version(tournament_id) != seen), timeout
                )

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
        self._in_play = set(due)
        for tournament_id in due:
            await self.advance(tournament_id)

    async def game_over(self, table: GameTable) -> None:
        """A game ended (the hub calls this for every finished game it changes or loads):
        its tournament, if it has one, moves on. Where no tournament is in play (none was
        due at the last tick, nor moved on here since), it is nobody's board and nothing is
        asked of the store: a game's end would otherwise cost a query on every server
        that holds no tournament."""
        if not self._in_play:
            return
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
        self._in_play.add(tournament_id)
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
                await self._note_change(tournament_id)
                return
            pairs = await self._pair(row, entrants, boards, 1)
            if await self.store.tournaments.start_round(tournament_id, 1, pairs, len(entrants)):
                await self._note_change(tournament_id)
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
                await self._note_change(tournament_id)
                b["score"] = score
        if not done:
            return
        if number >= rounds_of(row, entrants):
            await self.store.tournaments.end(tournament_id)
            await self._note_change(tournament_id)
            return
        pairs = await self._pair(row, entrants, boards, number + 1)
        if await self.store.tournaments.start_round(
            tournament_id, number + 1, pairs, len(entrants)
        ):
            await self._note_change(tournament_id)
            await self._make_games(row, number + 1, pairs)

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
        ranked = pairing.swiss_order(entrants, played(boards), rating)
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
            await self._note_change(row["id"])
            await self.hub.table(made.id)  # loaded: its computer seats start to play
        else:
            log.warning("tournament %s board %s was made twice", row["id"], board)

    # -- making and entering -------------------------------------------------------------

    async def create(self, body: NewTournament, creator: str) -> str:
        """Check and store a new tournament; its id. Raises HTTPException naming what is
        wrong."""
        now = self.store.clock()
        found, config = checked(body, now)
        tournament_id = new_tournament_id()
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
        await self._note_change(tournament_id)


def rounds_of(row: dict[str, Any], entrants: Sequence[str]) -> int:
    """How many rounds the tournament plays."""
    if row["config"]["system"] == "swiss":
        return int(row["config"]["rounds"])
    return len(pairing.round_robin(entrants))


def _history(boards: Sequence[dict[str, Any]]) -> list[list[Pairing]]:
    """The rounds played, as pairings."""
    rounds: dict[int, list[Pairing]] = {}
    for b in boards:
        rounds.setdefault(int(b["round"]), []).append((b["first"], b["second"]))
    return [rounds[n] for n in sorted(rounds)]


def played(boards: Sequence[dict[str, Any]]) -> list[pairing.Game]:
    """The games with a result, and the byes."""
    return [
        pairing.Game(b["first"], b["second"], float(b["score"] or 0.0))
        for b in boards
        if b["second"] is None or b["score"] is not None
    ]
