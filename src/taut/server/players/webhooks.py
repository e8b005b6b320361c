"""Webhooks: a player of slow games is told by an HTTP POST when it is their move.

A player gives one URL on their own page (``/me``; ``PUT /api/me/webhook`` with the
player's key). When a game a player holds a seat of comes to wait for that seat, the
server POSTs ``{"game", "seat", "url", "event": "your-move"}`` as JSON to it.

Guards, because the server makes a request to an address a user chose (server-side request
forgery): only ``http`` and ``https`` URLs without credentials; the address is resolved when
the POST is made, every address it resolves to must be a public one (no loopback, private,
link-local, multicast or reserved address), and the connection goes to the address that was
checked (a name that resolves elsewhere a second time is not asked again). Loopback is
allowed only where the server's settings say so (``webhook_loopback``, for tests and a
receiver on the same machine). Redirects are not followed (any answer ends the request);
each POST has a timeout; a player is sent at most one POST per game per
:data:`INTERVAL` seconds, and one per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import ssl
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Header, HTTPException
from pydantic import ConfigDict, StringConstraints
from sqlalchemy import delete, insert, select

from taut.core.errors import TautError
from taut.server.answers import NEEDS_KEY, Form, Webhook, refusals
from taut.server.play.table import GameTable
from taut.server.players.accounts import Players, signed_in
from taut.server.players.profile import waiting_on
from taut.server.store.games import Store
from taut.server.store.schema import webhooks_table

log = logging.getLogger("taut.server")

#: Seconds between two POSTs to one player about one game, at least.
INTERVAL = 60.0
#: Seconds a POST may take, connecting included.
TIMEOUT = 5.0
#: The longest URL a player may give.
MAX_URL = 500
#: The event a POST announces.
YOUR_MOVE = "your-move"


class BadWebhook(TautError, ValueError):
    """A webhook URL the server will not call; the text says why and what is allowed."""


@dataclass(frozen=True)
class Target:
    """Where a webhook goes: scheme, host name, port and path (with its query)."""

    tls: bool
    host: str
    port: int
    path: str


def parse_url(url: str, loopback: bool = False) -> Target:
    """Check a webhook URL's form (and its address, when it is one); raises
    :class:`BadWebhook`."""
    if len(url) > MAX_URL:
        raise BadWebhook(f"a webhook URL has at most {MAX_URL} characters")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise BadWebhook("a webhook URL has no spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise BadWebhook(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https"):
        raise BadWebhook("a webhook URL starts with http:// or https://")
    if not parts.hostname:
        raise BadWebhook("a webhook URL names a host")
    if parts.username is not None or parts.password is not None:
        raise BadWebhook("a webhook URL carries no user name or password")
    host = parts.hostname
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None  # a name: checked when it is resolved, at each POST
    if literal is not None:
        check_address(literal, loopback)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    tls = parts.scheme == "https"
    return Target(tls, host, port or (443 if tls else 80), path)


def check_address(address: ipaddress.IPv4Address | ipaddress.IPv6Address, loopback: bool) -> None:
    """Refuse an address that is not a public one (loopback allowed when ``loopback``)."""
    if address.is_loopback:
        if loopback:
            return
        raise BadWebhook("a webhook cannot go to this machine (a loopback address)")
    if address.is_multicast or not address.is_global:
        raise BadWebhook(f"a webhook goes to a public address, not {address}")


async def resolve(target: Target, loopback: bool) -> str:
    """The address to connect to: every address the host resolves to must pass
    :func:`check_address`."""
    loop = asyncio.get_running_loop()
    try:
        found = await loop.getaddrinfo(target.host, target.port, type=1)  # SOCK_STREAM
    except OSError as exc:
        raise BadWebhook(f"cannot resolve {target.host}: {exc}") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise BadWebhook(f"{target.host} resolves to no address")
    for address in addresses:
        check_address(ipaddress.ip_address(address.split("%")[0]), loopback)
    return addresses[0]


async def post_json(target: Target, body: dict[str, Any], loopback: bool, timeout: float) -> int:
    """POST ``body`` to ``target`` (HTTP/1.1, one request, no redirects followed); the
    answer's status code."""

    async def exchange() -> int:
        address = await resolve(target, loopback)
        context = ssl.create_default_context() if target.tls else None
        reader, writer = await asyncio.open_connection(
            address, target.port, ssl=context, server_hostname=target.host if context else None
        )
        try:
            data = json.dumps(body).encode()
            host = target.host if ":" not in target.host else f"[{target.host}]"
            head = (
                f"POST {target.path} HTTP/1.1\r\nHost: {host}:{target.port}\r\n"
                "Content-Type: application/json\r\nUser-Agent: taut-webhook\r\n"
                f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n"
            )
            writer.write(head.encode("ascii") + data)
            await writer.drain()
            status = (await reader.readline()).decode("latin-1").split()
            if len(status) < 2 or not status[1].isdigit():
                raise BadWebhook("the webhook's answer is not HTTP")
            return int(status[1])
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    return await asyncio.wait_for(exchange(), timeout)


class Webhooks:
    """Players' webhook URLs, and the POSTs that tell them it is their move."""

    def __init__(
        self,
        store: Store,
        players: Players,
        loopback: bool = False,
        public_url: str = "",
        interval: float = INTERVAL,
        timeout: float = TIMEOUT,
    ) -> None:
        self.store = store
        self.players = players
        self.loopback = loopback
        self.public_url = public_url.rstrip("/")
        self.interval = interval
        self.timeout = timeout
        self._told: dict[tuple[str, int], tuple[int, int]] = {}
        """Per game and seat, the turn (epoch, move) last announced."""
        self._last: dict[tuple[str, str], float] = {}
        """Per player and game, when the last POST went."""
        self._lock = asyncio.Lock()
        self._known: tuple[float, bool] | None = None
        """When it was last checked whether any player has a webhook, and the answer."""
        self._asking: asyncio.Task[bool] | None = None
        """The store being asked that, which every change meanwhile waits for."""
        self.sent: list[tuple[str, dict[str, Any], int | str]] = []
        """The POSTs made (URL, body, status or the error), the latest last few."""

    async def url_of(self, player_id: str) -> str | None:
        """A player's webhook URL (None: none given)."""
        async with self.store.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(webhooks_table.c.url).where(webhooks_table.c.player_id == player_id)
                )
            ).first()
        return None if row is None else str(row.url)

    async def set_url(self, player_id: str, url: str) -> None:
        """Keep a player's webhook URL (checked first: raises :class:`BadWebhook`)."""
        parse_url(url, self.loopback)
        async with self.store.transaction() as conn:
            await conn.execute(
                delete(webhooks_table).where(webhooks_table.c.player_id == player_id)
            )
            await conn.execute(
                insert(webhooks_table).values(player_id=player_id, url=url, created_at=time.time())
            )
        self._known = (time.monotonic(), True)

    async def clear(self, player_id: str) -> None:
        """Forget a player's webhook."""
        async with self.store.transaction() as conn:
            await conn.execute(
                delete(webhooks_table).where(webhooks_table.c.player_id == player_id)
            )

    def _remembered(self) -> bool | None:
        """Whether any player has a webhook, as the store said lately or as set here (None:
        not asked within the last minute)."""
        known = self._known
        if known is not None and (known[1] or time.monotonic() - known[0] < INTERVAL):
            return known[1]
        return None

    async def _any(self) -> bool:
        """Whether any player has a webhook (asked of the store at most once a minute, so
        that a server without webhooks does no work per move; one set here counts at once)."""
        remembered = self._remembered()
        if remembered is not None:
            return remembered
        # One question at a time: every move of every game that comes while it is asked
        # (all of them, when a busy server starts or its answer grows old) waits for it.
        if self._asking is None:
            self._asking = asyncio.get_running_loop().create_task(self._ask())
            # Forgotten once answered (or failed), whoever still waits: the answer is _known.
            self._asking.add_done_callback(self._asked)
        return await asyncio.shield(self._asking)

    def _asked(self, _: asyncio.Task[bool]) -> None:
        self._asking = None

    async def _ask(self) -> bool:
        now = time.monotonic()
        async with self.store.reader.connect() as conn:
            row = (await conn.execute(select(webhooks_table.c.player_id).limit(1))).first()
        self._known = (now, row is not None)
        return row is not None

    def changed(self, table: GameTable) -> Awaitable[None] | None:
        """A game changed: POST to the players it now waits for (each turn once, each
        player at most once per game per interval). Called by the hub for every change:
        what needs no work (nobody newly waited for, no webhook known) is decided here,
        without a task; otherwise the work to do (None: nothing)."""
        waits = waiting_on(table)
        turn = (table.epoch, table.node)
        fresh = [s for s in waits if self._told.get((table.id, s)) != turn]
        if not fresh:
            return None
        if self._remembered() is False:
            return None  # no player has a webhook (asked of the store lately)
        return self._changed(table, fresh, turn)

    async def _changed(self, table: GameTable, fresh: list[int], turn: tuple[int, int]) -> None:
        if not await self._any():
            return
        async with self._lock:
            held = await self.store.seat_holders.of_game(table.id)
            jobs = []
            for seat in fresh:
                if self._told.get((table.id, seat)) == turn:
                    continue
                self._told[(table.id, seat)] = turn
                player_id = held.get(seat)
                if player_id is None:
                    continue
                now = time.monotonic()
                last = self._last.get((player_id, table.id))
                if last is not None and now - last < self.interval:
                    continue
                url = await self.url_of(player_id)
                if url is None:
                    continue
                self._last[(player_id, table.id)] = now
                body = {
                    "game": table.id,
                    "seat": table.seat_name(seat),
                    "url": f"{self.public_url}/g/{table.id}",
                    "event": YOUR_MOVE,
                }
                jobs.append(self._post(url, body))
        await asyncio.gather(*jobs)

    async def _post(self, url: str, body: dict[str, Any]) -> None:
        outcome: int | str
        try:
            outcome = await post_json(
                parse_url(url, self.loopback), body, self.loopback, self.timeout
            )
        except TimeoutError:
            outcome = f"no answer within {self.timeout:g} s"
        except (OSError, TautError) as exc:
            outcome = str(exc)
        if not isinstance(outcome, int):
            log.warning("webhook for game %s: %s", body["game"], outcome)
        self.sent.append((url, body, outcome))
        del self.sent[:-100]


class WebhookUrl(Form):
    """A webhook URL to keep."""

    model_config = ConfigDict(extra="forbid")
    url: Annotated[str, StringConstraints(min_length=1, max_length=MAX_URL)]


def add_webhook_routes(app: FastAPI, webhooks: Webhooks) -> None:
    """``GET``, ``PUT`` and ``DELETE /api/me/webhook`` (with the player's key)."""

    async def me(key: str | None) -> str:
        return (await signed_in(webhooks.players, key))[0].id

    @app.get("/api/me/webhook", responses=refusals(NEEDS_KEY))
    async def get_webhook(x_taut_player: Annotated[str | None, Header()] = None) -> Webhook:
        return {"url": await webhooks.url_of(await me(x_taut_player))}

    @app.put("/api/me/webhook", responses=refusals({**NEEDS_KEY, 400: "the URL is refused"}))
    async def put_webhook(
        body: WebhookUrl, x_taut_player: Annotated[str | None, Header()] = None
    ) -> Webhook:
        player_id = await me(x_taut_player)
        try:
            await webhooks.set_url(player_id, body.url.strip())
        except BadWebhook as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return {"url": body.url.strip()}

    @app.delete("/api/me/webhook", responses=refusals(NEEDS_KEY))
    async def delete_webhook(
        x_taut_player: Annotated[str | None, Header()] = None,
    ) -> Webhook:
        await webhooks.clear(await me(x_taut_player))
        return {"url": None}
