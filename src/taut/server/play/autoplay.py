"""What moves a game on without a person: computer seats, chance, deadlines and clocks.

After every change to a game the hub asks :meth:`Autoplay.after_change`, which starts the
computer seats that must now choose (or answer a draw offer), draws a chance node that is
due, calls the hooks of finished and changed games, and arms two timers: the reveal
deadline and the first running clock's fall. Every such piece of work goes back through
the hub's command path, so it is written, applied and announced like a person's move.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from taut.agents import make_agent
from taut.core.chance import derive_seed
from taut.core.errors import TautError
from taut.core.registry import make
from taut.core.terms import NodeKind
from taut.server.play.commit import new_salt
from taut.server.play.computer import Computer, think_on_clock, within
from taut.server.play.position import Batch, Refused
from taut.server.play.table import GameTable

log = logging.getLogger("taut.server")


def agent_accepts_draw(
    game: str, options: dict[str, Any], position: Any, seat: int, spec: str
) -> bool:
    """Whether the agent ``spec`` at ``seat`` accepts a draw at the position (in a worker, as
    the terminal asks it: :meth:`~taut.agents.base.Agent.accept_draw` of its view)."""
    built = make(game, **options)
    state = built.state_from_json(position)
    return make_agent(spec, game=built).accept_draw(state.view(seat), seat)


class Commands(Protocol):
    """What autoplay needs of the hub: its games, its time, its command path, its hooks."""

    tables: dict[str, GameTable]
    when_over: list[Callable[[GameTable], Awaitable[None]]]
    when_changed: list[Callable[[GameTable], Awaitable[None] | None]]

    def now(self) -> float:
        """The store's time."""
        ...

    async def command(self, game_id: str, make: Callable[[GameTable], Batch]) -> Batch:
        """Run a command on a game."""
        ...


class Autoplay:
    """The computer seats, chance draws, deadlines and clocks of the games a hub serves."""

    def __init__(self, hub: Commands, computer: Computer) -> None:
        self.hub = hub
        self.computer = computer
        self.tasks: set[asyncio.Task[Any]] = set()
        self.thinking: set[tuple[str, int, int]] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.clock_timers: dict[str, asyncio.TimerHandle] = {}

    def after_change(self, table: GameTable) -> None:
        """Start the computer seats that must choose, and the reveal deadline's clock (and
        draw the chance nodes of a game stored before its opening deal was drawn)."""
        if table.state.kind is NodeKind.CHANCE and (table.id, table.node, -1) not in self.thinking:
            self.thinking.add((table.id, table.node, -1))
            self.spawn(self._draw(table.id, table.node))
        for seat in table.computers_to_act():
            # Keyed by epoch too: a node played again after a takeback is thought anew.
            key = (table.id, table.secret_key(table.node), seat)
            if key not in self.thinking:
                self.thinking.add(key)
                self.spawn(self._think(table, table.node, seat))
        for seat in table.computers_to_answer():
            assert table.offer is not None
            key = (table.id, -2 - table.secret_key(int(table.offer["move"])), seat)
            if key not in self.thinking:
                self.thinking.add(key)
                self.spawn(self._answer(table, seat, key))
        if table.state.is_terminal():
            if not table.over_told:
                # Once per table: what changes after the end (a rematch asked for, chat)
                # does not end the game again (the hooks would look up the same end).
                table.over_told = True
                for hook in self.hub.when_over:
                    self.spawn(hook(table))
        else:
            for changed in self.hub.when_changed:
                job = changed(table)
                if job is not None:
                    self.spawn(job)
        self.arm_deadline(table)
        self.arm_clock(table)

    def spawn(self, job: Awaitable[Any]) -> None:
        """Run ``job`` as a task kept until it ends (so that :meth:`settle` can wait)."""
        task = asyncio.ensure_future(job)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def busy(self) -> bool:
        """Whether a computer seat is thinking, a chance is being drawn or a deadline is
        being carried out."""
        return bool(self.tasks)

    async def settle(self) -> None:
        """Wait until no computer seat is thinking and no chance is being drawn."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)

    def _think_cap(self, table: GameTable, seat: int) -> float | None:
        """Seconds a computer seat may think now by its live clock (None: it has none)."""
        clocks = table.clocks
        if clocks is None or clocks.control.kind != "live" or not clocks.clocked[seat]:
            return None
        return think_on_clock(clocks.left_at(seat, self.hub.now()), clocks.control.increment)

    async def _think(self, table: GameTable, move: int, seat: int) -> None:
        spec = table.seats[seat].agent or "medium"
        cap = self._think_cap(table, seat)
        if cap is not None:
            spec = within(spec, cap)
        seed = derive_seed(table.seed, "computer", move, seat)
        key = (table.id, table.secret_key(move), seat)
        epoch = table.epoch
        try:
            action = await self.computer.choose(
                table.game.name,
                dict(table.game.options),
                table.state.to_json(),
                seat,
                spec,
                seed,
            )
            salt = new_salt()
            await self.hub.command(
                table.id,
                lambda t: (
                    t.computer(seat, move, action, salt) if t.epoch == epoch else Batch(repeat=True)
                ),  # taken back meanwhile: the choice is stale
            )
        except (Refused, TautError) as exc:
            log.warning("computer seat %s of %s could not move: %s", seat, table.id, exc)
        except Exception:  # a broken agent or store must not stop the server
            log.exception("computer seat %s of %s failed", seat, table.id)
        finally:
            self.thinking.discard(key)

    async def _answer(self, table: GameTable, seat: int, key: tuple[str, int, int]) -> None:
        """A computer seat answers the open draw offer as its agent would."""
        offer = table.offer
        if offer is None:
            return
        move = int(offer["move"])
        try:
            accept = await self.computer.run(
                agent_accepts_draw,
                table.game.name,
                dict(table.game.options),
                table.state.to_json(),
                seat,
                table.seats[seat].agent or "medium",
            )
            await self.hub.command(table.id, lambda t: t.answer(seat, move, "draw", accept))
        except (Refused, TautError) as exc:
            log.warning("computer seat %s of %s could not answer: %s", seat, table.id, exc)
        except Exception:
            log.exception("computer seat %s of %s failed to answer", seat, table.id)
        finally:
            self.thinking.discard(key)

    async def _draw(self, game_id: str, move: int) -> None:
        try:
            await self.hub.command(game_id, lambda t: t.chance())
        except Refused as exc:
            log.warning("chance of %s: %s", game_id, exc)
        except Exception:
            log.exception("drawing the chance of %s failed", game_id)
        finally:
            self.thinking.discard((game_id, move, -1))

    def arm_deadline(self, table: GameTable) -> None:
        """Forfeit the late seats when the reveal deadline passes (again after every
        change)."""
        deadline = table.config.get("reveal_deadline")
        old = self.timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        if not deadline or table.phase != "reveal" or table.reveal_since is None:
            return
        delay = max(0.0, table.reveal_since + float(deadline) - time.time())
        move = table.node
        loop = asyncio.get_running_loop()
        self.timers[table.id] = loop.call_later(
            delay, lambda: self.spawn(self._expire(table.id, move))
        )

    async def _expire(self, game_id: str, move: int) -> None:
        try:
            await self.hub.command(game_id, lambda t: t.forfeit_late(move))
        except Refused as exc:
            log.warning("deadline of %s: %s", game_id, exc)
        except Exception:
            log.exception("the deadline of %s failed", game_id)

    # -- clocks ----------------------------------------------------------------------------

    def flag_due(self, table: GameTable) -> bool:
        """Whether a clock of the game has reached zero and the game goes on."""
        clocks = table.clocks
        return (
            clocks is not None
            and not table.state.is_terminal()
            and clocks.fallen(self.hub.now()) is not None
        )

    def arm_clock(self, table: GameTable) -> None:
        """Wake up when the first running clock reaches zero (again after every change)."""
        old = self.clock_timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        clocks = table.clocks
        if clocks is None or table.state.is_terminal():
            return
        first = clocks.next_fall()
        if first is None:
            return
        # A little late rather than early: the flag is checked against the clock.
        delay = max(0.0, first[0] - self.hub.now()) + 0.005
        game_id = table.id
        loop = asyncio.get_running_loop()
        self.clock_timers[game_id] = loop.call_later(
            delay, lambda: self.spawn(self.check_clock(game_id))
        )

    async def check_clock(self, game_id: str) -> None:
        """End the game if a clock has reached zero; otherwise wait for it again."""
        table = self.hub.tables.get(game_id)
        if table is None:
            return
        try:
            if self.flag_due(table):
                await self.hub.command(game_id, lambda t: t.flag(self.hub.now()))
            else:
                self.arm_clock(table)
        except Refused as exc:
            log.warning("clock of %s: %s", game_id, exc)
        except Exception:
            log.exception("the clock of %s failed", game_id)

    def forget(self, game_id: str) -> None:
        """Stop a game's timers (it leaves memory)."""
        for timers in (self.timers, self.clock_timers):
            timer = timers.pop(game_id, None)
            if timer is not None:
                timer.cancel()

    def thinking_about(self) -> set[str]:
        """The games a computer seat is thinking about, or whose chance is being drawn."""
        return {key[0] for key in self.thinking}

    async def close(self) -> None:
        """Stop timers and computer work."""
        for timer in [*self.timers.values(), *self.clock_timers.values()]:
            timer.cancel()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        if tasks:  # let them end before the store they may be using closes
            await asyncio.wait(tasks, timeout=5.0)
        self.computer.close()
