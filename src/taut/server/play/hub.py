"""The live side of the server: games in memory, their clients, and every command's path.

(Longer than 400 lines: a game's loading, catching up, commands and release share its table,
its row and its lock, which no other module holds.)

A command goes: lock the game; check it against the position
(:class:`~taut.server.play.table.GameTable`); write its events in one transaction
(:class:`~taut.server.store.games.Store`); apply them; send every client its own frame;
acknowledge; start whatever computer seats must now choose. The position in memory is
trusted as current (other processes' events arrive by notification): if another process
took the same ``seq`` first, the write fails, and the hub catches up and checks the command
again, so two moves racing for one place resolve to one. A command refused (or found
already done) is checked again after catching up, in case the refusal came from events not
yet heard of; a resent move is answered, not played twice.

Clocks (:mod:`taut.server.play.clocks`): a game's clocks are read from its events and the
store's time. A clock that reaches zero ends the game (a ``forfeit`` with the reason
``time``) when the hub's timer for it fires, and also before any command and whenever the
game is looked up, so a missed timer delays nothing that anyone can see. When a server
starts, every game in play with clocks running is loaded and gets a ``resume`` event: the
time the server was down is charged to nobody.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from taut.server.play.audience import Audience
from taut.server.play.autoplay import Autoplay
from taut.server.play.clients import Connection
from taut.server.play.computer import Computer
from taut.server.play.joints import applied
from taut.server.play.position import Batch, Refused
from taut.server.play.table import GameTable, table_from_row
from taut.server.store.database import Conflict
from taut.server.store.games import Event, GameRow, Store

log = logging.getLogger("taut.server")


#: How often a command is tried again after losing a race for its ``seq``.
RETRIES = 5

#: Seconds a finished game stays in memory after it was last looked up, when no client is
#: connected to it (the store keeps it; the next look-up loads it again).
IDLE_RELEASE = 120.0


class Hub:
    """Every game this process serves: the tables in memory and every command's path, with
    the clients (:attr:`audience`) and the work without a person (:attr:`autoplay`)."""

    def __init__(self, store: Store, computer: Computer) -> None:
        self.store = store
        self.computer = computer
        self.tables: dict[str, GameTable] = {}
        self.rows: dict[str, GameRow] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.audience = Audience()
        """The clients connected to each game, and their frames."""
        self.autoplay = Autoplay(self, computer)
        """The computer seats, chance draws, deadlines and clocks."""
        self._used: dict[str, float] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.when_over: list[Callable[[GameTable], Awaitable[None]]] = []
        """Called (as tasks) whenever a finished game changes or is loaded: each must do
        its work once however often it is called (the ratings)."""
        self.when_changed: list[Callable[[GameTable], Awaitable[None] | None]] = []
        """Called whenever a game still going changes or is loaded here (the webhooks that
        say whose move it is): each decides at once, and returns the work it still has to
        do (run as a task) or None, so that a change that asks for nothing costs no task."""

    # -- games ---------------------------------------------------------------------------

    def now(self) -> float:
        """The time (the store's clock: the one events are stored with)."""
        return self.store.clock()

    async def table(self, game_id: str) -> GameTable | None:
        """The game, loaded (and caught up) on first use; None if there is none. A clock
        that has reached zero meanwhile ends the game first."""
        table = await self._table(game_id)
        if table is None:
            return None
        for seat in self._taken_unseen(table):
            await self.seated(game_id, seat)
        if self.autoplay.flag_due(table):
            await self.command(game_id, lambda t: t.flag(self.now()))
        return table

    def _taken_unseen(self, table: GameTable) -> list[int]:
        """Seats the clocks wait for that are taken already (a rematch of a game whose open
        seat was claimed keeps its taker): the clocks are told at once."""
        row = self.rows.get(table.id)
        if table.clocks is None or not table.clocks.open or row is None:
            return []
        return [s for s in sorted(table.clocks.open) if row.token_hashes[s] is not None]

    async def _table(self, game_id: str) -> GameTable | None:
        self._used[game_id] = time.monotonic()
        table = self.tables.get(game_id)
        if table is not None:
            return table
        lock = self._lock(game_id)
        async with lock:
            table = self.tables.get(game_id)
            if table is not None:
                return table
            loaded = await self._load(game_id)
            if loaded is None:
                return None
            row, table = loaded
            await self._load_secrets(table)
            held = self.tables.get(game_id)
            if held is not None:
                # Stored and adopted here while this read it (its maker): the one served
                # stays, as objects may hold it already; what it lacks comes as a change.
                return held
            self.tables[game_id] = table
            self.rows[game_id] = row
        self.autoplay.after_change(table)
        return table

    def adopt(self, row: GameRow, events: list[Event]) -> GameTable:
        """Serve a game this process has just stored (its ``row`` and first ``events``, as
        :meth:`~taut.server.store.games.Store.create_game` returns them) without reading it
        back: its clients, who come at once, find it here. A game served already is kept
        as it is."""
        table = self.tables.get(row.id)
        if table is not None:
            return table
        table = table_from_row(row)
        for event in events:
            table.apply(event)
        self.tables[row.id] = table
        self.rows[row.id] = row
        self._used[row.id] = time.monotonic()
        self.autoplay.after_change(table)
        return table

    async def peek(self, game_id: str) -> GameTable | None:
        """The game as it stands, for reading only: the table served here if there is one,
        else one loaded from the store for the caller alone (not kept, not started: a
        finished game listed on a page)."""
        table = self.tables.get(game_id)
        if table is not None:
            return table
        loaded = await self._load(game_id)
        return None if loaded is None else loaded[1]

    async def _load(self, game_id: str) -> tuple[GameRow, GameTable] | None:
        """The game's row and its table rebuilt from the stored events (None: no game)."""
        row = await self.store.load_game(game_id)
        if row is None:
            return None
        table = table_from_row(row)
        await self._catch_up(table)
        return row, table

    def release_idle(self, now: float | None = None) -> int:
        """Forget the finished games that no client is connected to and nobody looked up
        for :data:`IDLE_RELEASE` seconds (``now``: :func:`time.monotonic`), so that memory
        holds the games being played, not every game ever opened. The number forgotten."""
        now = time.monotonic() if now is None else now
        busy = self.autoplay.thinking_about()
        released = 0
        for game_id, table in list(self.tables.items()):
            lock = self.locks.get(game_id)
            if (
                game_id in self.audience.clients
                or game_id in busy
                or not table.state.is_terminal()
                or now - self._used.get(game_id, 0.0) < IDLE_RELEASE
                or (lock is not None and lock.locked())
            ):
                continue
            del self.tables[game_id]
            self.rows.pop(game_id, None)
            self.locks.pop(game_id, None)
            self.audience.forget(game_id)
            self._used.pop(game_id, None)
            self.autoplay.forget(game_id)
            released += 1
        return released

    def start_releasing(self, every: float = 30.0) -> None:
        """Run :meth:`release_idle` every ``every`` seconds until :meth:`close`."""

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                released = self.release_idle()
                if released:
                    log.debug("released %d finished games from memory", released)

        self._sweeper = asyncio.ensure_future(loop())

    async def _catch_up(self, table: GameTable) -> bool:
        """Apply the events other writers added; True if there were any."""
        new = await self.store.events_after(table.id, table.seq)
        for event in new:
            table.apply(event)
        if any(event.kind == "commit" for event in new):
            await self._load_secrets(table)
        return bool(new)

    async def _load_secrets(self, table: GameTable) -> None:
        """The choices of computer seats that committed (here or in another process) and
        have not revealed: whoever completes the commitments reveals them."""
        for seat in table.commits:
            if (
                table.seats[seat].kind == "computer"
                and seat not in table.reveals
                and seat not in table.secrets
            ):
                kept = await self.store.secret(table.id, table.secret_key(table.node), seat)
                if kept is not None:
                    table.secrets[seat] = kept

    def seat_of(self, game_id: str, hashed: str | None) -> int | str | None:
        """The seat a token's hash opens (``"spectator"`` for the spectator token, None if
        it opens nothing)."""
        row = self.rows.get(game_id)
        if row is None or hashed is None:
            return None
        if hashed == row.config.get("spectator_hash"):
            return "spectator"
        for seat, h in enumerate(row.token_hashes):
            if h is not None and h == hashed:
                return seat
        return None

    async def refresh_row(self, game_id: str) -> None:
        """Reload a game's seats (an open seat was claimed); its clients are told at once."""
        row = await self.store.load_game(game_id)
        if row is None:
            return
        self.rows[game_id] = row
        table = self.tables.get(game_id)
        if table is None:
            return
        free = set(row.free_seats)
        changed = False
        for i, seat in enumerate(table.seats):
            if seat.open != (i in free):
                seat.open = i in free
                changed = True
        if changed:
            self.broadcast(table)

    # -- clients -------------------------------------------------------------------------

    def join(self, conn: Connection) -> None:
        """Add a client to a game served here and send it the game as it stands."""
        self.audience.join(conn, self.tables[conn.game_id], self.now())

    def leave(self, conn: Connection) -> None:
        """Forget a client (and the game's drawings, when it was the last one)."""
        self.audience.leave(conn)

    def refresh(self, conn: Connection) -> None:
        """Send one client its frame again (what it already holds is left out)."""
        table = self.tables.get(conn.game_id)
        if table is not None:
            self.audience.send_to(conn, table, self.now())

    def frame(self, table: GameTable, seat: int | None) -> dict[str, Any]:
        """The frame for a client at ``seat`` now."""
        return self.audience.frame(table, seat, self.now())

    def broadcast(self, table: GameTable) -> None:
        """Queue every client of the game its own frame."""
        self.audience.broadcast(table, self.now())

    # -- work without a person ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether a computer seat thinks, a chance is drawn or a deadline is carried out."""
        return bool(self.autoplay.tasks)

    async def settle(self) -> None:
        """Wait until no computer seat is thinking and no chance is being drawn."""
        await self.autoplay.settle()

    async def check_clock(self, game_id: str) -> None:
        """End the game if a clock has reached zero; otherwise wait for it again."""
        await self.autoplay.check_clock(game_id)

    # -- commands ------------------------------------------------------------------------

    def _lock(self, game_id: str) -> asyncio.Lock:
        """The lock under which the game's commands and catch-ups run, one per game."""
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    async def command(self, game_id: str, make: Callable[[GameTable], Batch]) -> Batch:
        """Run a command under the game's lock; write, apply and announce its events.

        ``make`` checks the command against the table and returns its batch (raising
        :class:`Refused`); it is called again on a caught-up table after a lost race, and
        after a refusal or a repeat while the table may lag behind the store.
        """
        table = self.tables[game_id]
        lock = self._lock(game_id)
        seq = table.seq
        try:
            async with lock:
                if self.autoplay.flag_due(table):
                    # A clock reached zero before this command: that ends the game first.
                    await self._carry_out(table, lambda t: t.flag(self.now()))
                batch = await self._carry_out(table, make)
        finally:
            if table.seq != seq:  # new events, ours or caught up: every client hears
                self.broadcast(table)
                self.autoplay.after_change(table)
        return batch

    async def _carry_out(self, table: GameTable, make: Callable[[GameTable], Batch]) -> Batch:
        caught_up = False
        for _ in range(RETRIES):
            try:
                batch = make(table)
            except Refused:
                if caught_up or not await self._catch_up(table):
                    raise
                caught_up = True
                continue
            if batch.repeat or not batch.events:
                if caught_up or not await self._catch_up(table):
                    return batch
                caught_up = True
                continue
            try:
                written = await self.store.append(
                    table.id, table.seq, batch.events, self._status_after(table, batch),
                    batch.secrets,
                )  # fmt: skip
            except Conflict:
                await self._catch_up(table)
                caught_up = True
                continue
            for event in written:
                table.apply(event)
            for key, seat, action, salt in batch.secrets:
                if key == table.secret_key(table.node):
                    table.secrets[seat] = (action, salt)
            return batch
        raise Refused("the game is busy; try again")

    @staticmethod
    def _status_after(table: GameTable, batch: Batch) -> str | None:
        if any(kind in ("forfeit", "resign", "draw") for kind, _ in batch.events):
            return "over"
        state = table.state
        moved = False
        for kind, payload in batch.events:
            if kind == "move":
                state = applied(state, payload["joint"])[1]
                moved = True
        return "over" if moved and state.is_terminal() else None

    async def notified(self, game_id: str, seq: int | None = None) -> None:
        """Events up to ``seq`` (None: some) were added to ``game_id``, maybe by another
        process: catch up and tell the clients."""
        table = self.tables.get(game_id)
        if table is None or (seq is not None and table.seq >= seq):
            return  # not served here, or written here
        lock = self._lock(game_id)
        async with lock:
            # The announcement of a write made here often comes before the writer has
            # applied it (the writer waits for the lock's holder to resume): looked at again
            # under the lock, it is seen as written here, and costs no query.
            if seq is not None and table.seq >= seq:
                return
            changed = await self._catch_up(table)
        if changed:
            self.broadcast(table)
            self.autoplay.arm_deadline(table)
            self.autoplay.arm_clock(table)

    async def catch_up_all(self) -> None:
        """Catch up with every game served here (announcements may have been missed)."""
        for game_id in list(self.tables):
            await self.notified(game_id)

    async def seated(self, game_id: str, seat: int) -> None:
        """An open seat was taken: the clocks, which wait for every seat, are told."""
        if await self._table(game_id) is not None:
            await self.command(game_id, lambda t: t.seated(seat))

    async def resume_clocks(self) -> int:
        """At the server's start: load every game in play that has clocks, and resume
        those whose clocks ran (the time the server was down is charged to nobody). The
        number of games resumed."""
        resumed = 0
        for game_id in await self.store.clocked_in_play():
            try:
                table = await self._table(game_id)  # no flag before the resume
                if table is None:
                    continue
                seq = table.seq
                # Not through command(): the clocks must not fall for the time the server
                # was down, before the resume says so.
                async with self._lock(game_id):
                    await self._carry_out(table, lambda t: t.resumed())
                if table.seq != seq:
                    resumed += 1
                    self.broadcast(table)
                    self.autoplay.after_change(table)
            except Exception:  # one broken game must not keep the server from starting
                log.exception("resuming the clocks of %s failed", game_id)
        return resumed

    async def close(self) -> None:
        """Stop timers and computer work."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        await self.autoplay.close()
