"""Moves written to a SQLite file in groups: one transaction for every append waiting.

A busy server appends a few events for hundreds of commands a second. Each commit writes
the pages it changed to the write-ahead log, and most of an append's cost is that commit:
appends that arrive while the event loop is busy are therefore written together, in one
transaction with one statement per kind of row, and each waits for that transaction
before it returns. Nothing is acknowledged before it is committed, so a group changes no
guarantee: what a client was told is written survives a killed server, and an append that
fails leaves nothing behind.

The appends of one group are all-or-nothing together only as an optimisation: if the group
breaks a constraint (another writer took a ``seq`` first, which only happens with a second
process on the same file), it is rolled back and every append of it is written again on
its own, so that each one gets its own answer (written, or :class:`Conflict`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

#: The statements of one append: SQL text and its rows of parameters, in order.
Statements = Sequence[tuple[str, Sequence[tuple[Any, ...]]]]


class SeqTaken(Exception):
    """An append broke a constraint on its own: another writer holds one of its rows."""


@dataclass(eq=False)
class _Append:
    statements: Statements
    done: asyncio.Future[None]


@dataclass(eq=False)
class GroupWriter:
    """Writes appends through ``connect()``'s connection (opened on first use, used on the
    event loop's thread), holding ``lock`` (the store's write lock) while it writes."""

    connect: Callable[[], sqlite3.Connection]
    lock: asyncio.Lock
    groups: int = 0
    """Transactions committed (each holding one or more appends)."""
    appends: int = 0
    """Appends committed."""
    _waiting: list[_Append] = field(default_factory=list)
    _flusher: asyncio.Task[None] | None = None

    async def write(self, statements: Statements) -> None:
        """Run ``statements`` in a transaction, with whatever else is waiting; returns once
        it is committed. Raises :class:`SeqTaken` when they break a constraint on their own,
        or the driver's error when the database refuses the write (nothing is written)."""
        loop = asyncio.get_running_loop()
        item = _Append(statements, loop.create_future())
        self._waiting.append(item)
        if self._flusher is None:
            self._flusher = loop.create_task(self._flush())
        await item.done

    async def _flush(self) -> None:
        async with self.lock:
            # Taken once the lock is held: what arrived while waiting for it joins.
            group = [a for a in self._waiting if not a.done.cancelled()]
            self._waiting = []
            self._flusher = None
            if group:
                self._write_group(group)

    def _write_group(self, group: list[_Append]) -> None:
        file = self.connect()
        try:
            error = self._commit(file, _merged(group), len(group))
            if isinstance(error, sqlite3.IntegrityError):
                # Somebody's row is taken: each append again on its own, for its own answer.
                for item in group:
                    alone = self._commit(file, item.statements, 1)
                    _settle(
                        item, SeqTaken() if isinstance(alone, sqlite3.IntegrityError) else alone
                    )
                return
        except BaseException:
            for item in group:
                _settle(item, asyncio.CancelledError())
            raise
        for item in group:
            _settle(item, error)

    def _commit(
        self, file: sqlite3.Connection, statements: Statements, appends: int
    ) -> Exception | None:
        """Run ``statements`` and commit them (None), or roll back and say why."""
        try:
            for sql, values in statements:
                file.executemany(sql, values)
            file.commit()
        except Exception as exc:
            file.rollback()
            return exc
        except BaseException:
            file.rollback()
            raise
        self.groups += 1
        self.appends += appends
        return None


def _merged(group: list[_Append]) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """The group's statements as one per SQL text (in the order each first appears), with
    every append's rows: the rows of one table go in together."""
    merged: dict[str, list[tuple[Any, ...]]] = {}
    for item in group:
        for sql, values in item.statements:
            merged.setdefault(sql, []).extend(values)
    return list(merged.items())


def _settle(item: _Append, error: BaseException | None) -> None:
    if item.done.done():  # its waiter was cancelled: nobody is told
        return
    if error is None:
        item.done.set_result(None)
    else:
        item.done.set_exception(error)
