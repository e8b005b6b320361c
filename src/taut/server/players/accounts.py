"""Players without passwords: a key per device, a name, sign-in links, seats held.

The first visit makes a player: the server draws a random key, hands it to the browser
once (which keeps it in ``localStorage``) and stores only its SHA-256, so the database
cannot hand out a player. The browser sends the key with its API calls in the
``X-Taut-Player`` header. Each device has a key (a row) of its own: a player sees their
devices and revokes any of them. A sign-in link moves a player to another device: a
short-lived, single-use token whose opening stores a new key for that device.

A player's name is shown to others: 2 to 24 characters, no control or direction
characters, none of ``/ \\ ? # %`` (names travel in paths), not ``me`` nor beginning with
``computer`` (the leaderboard's name for the levels), unique on the server whatever their
case (compared after Unicode normalisation and case folding). Pages escape it.

Seats of games attach to players (``taut_game_players``, see
:mod:`taut.server.store.seat_holders`): the seat a player takes when making a game, a seat
claimed from the lobby, and a seat whose link a player opens. The routes are in
:mod:`taut.server.players.routes`.
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException
from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from taut.core.errors import TautError
from taut.server.store.database import StoreFailure, token_hash
from taut.server.store.games import Store
from taut.server.store.schema import player_keys, players_table, signins

#: The header that carries a player's key.
HEADER = "X-Taut-Player"
#: The shortest and longest name.
NAME_MIN, NAME_MAX = 2, 24
#: Seconds a sign-in link stays usable.
SIGNIN_SECONDS = 600
#: Names that would stand for a route rather than a player.
RESERVED = frozenset({"me"})
#: The longest device label.
DEVICE_MAX = 80

_FORBIDDEN = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff/\\?#%]")


class BadName(TautError):
    """A name that breaks the rules (the message says which and what is allowed)."""


class NameTaken(TautError):
    """A name another player has (whatever the case)."""


class SigninError(TautError):
    """A sign-in link that is unknown, used or expired (``status`` for the answer)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def clean_name(raw: str) -> str:
    """``raw`` as a player's name (normalised, spaces trimmed and collapsed), or raises
    :class:`BadName` saying what is wrong and what is allowed."""
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    bad = _FORBIDDEN.search(name)
    if bad is not None:
        shown = repr(bad.group())
        raise BadName(
            f"a name cannot hold {shown}: use letters, digits, spaces and punctuation "
            "other than / \\ ? # %"
        )
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadName(f"a name has {NAME_MIN} to {NAME_MAX} characters; {name!r} has {len(name)}")
    if name_key(name) in RESERVED:
        raise BadName(f"{name!r} is kept for the server's own pages; choose another name")
    if name_key(name).startswith("computer"):
        raise BadName("names beginning with 'computer' are kept for the computer's levels")
    return name


def name_key(name: str) -> str:
    """How names are compared: normalised and case-folded."""
    return unicodedata.normalize("NFC", name).casefold()


def new_key() -> str:
    """A player's key for one device (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


@dataclass(frozen=True)
class Player:
    """A player as stored."""

    id: str
    name: str
    created_at: float


@dataclass(frozen=True)
class Device:
    """One device of a player (its key is never kept, only the key's hash)."""

    id: str
    device: str
    created_at: float
    seen_at: float


class Players:
    """The player queries over a :class:`~taut.server.store.games.Store`."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    async def create(self, name: str | None = None, device: str = "") -> tuple[Player, str]:
        """A new player (a name drawn at random unless given) with a key for this device;
        the key is returned once and never stored."""
        now = self.clock()
        for _ in range(8):
            chosen = clean_name(name) if name is not None else f"player-{secrets.token_hex(3)}"
            player = Player(secrets.token_urlsafe(12), chosen, now)
            key = new_key()
            try:
                async with self.store.transaction() as conn:
                    await conn.execute(
                        insert(players_table).values(
                            id=player.id, name=chosen, name_key=name_key(chosen), created_at=now
                        )
                    )
                    await self._add_key(conn, player.id, key, device, now)
            except IntegrityError:
                if name is not None:
                    raise NameTaken(f"the name {chosen!r} is taken; choose another") from None
                continue  # a drawn name met an existing one: draw again
            except Exception as exc:
                raise StoreFailure(f"the player could not be saved ({type(exc).__name__})") from exc
            return player, key
        raise StoreFailure("no free name could be drawn; give one")

    @staticmethod
    async def _add_key(conn: Any, player_id: str, key: str, device: str, now: float) -> str:
        device_id = secrets.token_urlsafe(9)
        await conn.execute(
            insert(player_keys).values(
                id=device_id,
                player_id=player_id,
                key_hash=token_hash(key),
                device=(device.strip() or "a browser")[:DEVICE_MAX],
                created_at=now,
                seen_at=now,
            )
        )
        return device_id

    async def by_key(self, key: str) -> tuple[Player, str] | None:
        """The player a key belongs to and the key's device id (None: unknown or revoked)."""
        hashed = token_hash(key)
        async with self.store.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(players_table, player_keys.c.id.label("device_id"))
                    .join(player_keys, player_keys.c.player_id == players_table.c.id)
                    .where(player_keys.c.key_hash == hashed)
                )
            ).first()
        if row is None:
            return None
        return Player(row.id, row.name, row.created_at), row.device_id

    async def touch(self, device_id: str) -> None:
        """Note that a device was seen now (shown in the player's list of devices)."""
        async with self.store.transaction() as conn:
            await conn.execute(
                update(player_keys)
                .where(player_keys.c.id == device_id)
                .values(seen_at=self.clock())
            )

    async def by_name(self, name: str) -> Player | None:
        """The player called ``name`` (any case), or None."""
        async with self.store.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(players_table).where(players_table.c.name_key == name_key(name))
                )
            ).first()
        return None if row is None else Player(row.id, row.name, row.created_at)

    async def names(self, ids: list[str]) -> dict[str, str]:
        """The names of the players with these ids."""
        if not ids:
            return {}
        async with self.store.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(players_table.c.id, players_table.c.name).where(
                        players_table.c.id.in_(ids)
                    )
                )
            ).all()
        return {r.id: r.name for r in rows}

    async def rename(self, player_id: str, raw: str) -> str:
        """Give the player a new name (checked; unique whatever the case)."""
        name = clean_name(raw)
        try:
            async with self.store.transaction() as conn:
                await conn.execute(
                    update(players_table)
                    .where(players_table.c.id == player_id)
                    .values(name=name, name_key=name_key(name))
                )
        except IntegrityError:
            raise NameTaken(f"the name {name!r} is taken; choose another") from None
        return name

    async def devices(self, player_id: str) -> list[Device]:
        """The player's devices, oldest first."""
        async with self.store.reader.connect() as conn:
            rows = (
                await conn.execute(
                    select(player_keys)
                    .where(player_keys.c.player_id == player_id)
                    .order_by(player_keys.c.created_at, player_keys.c.id)
                )
            ).all()
        return [Device(r.id, r.device, r.created_at, r.seen_at) for r in rows]

    async def revoke(self, player_id: str, device_id: str) -> bool:
        """Forget one of the player's device keys; False if the player has no such device."""
        async with self.store.transaction() as conn:
            done = await conn.execute(
                delete(player_keys).where(
                    player_keys.c.player_id == player_id, player_keys.c.id == device_id
                )
            )
        return bool(done.rowcount == 1)

    async def signin_link(self, player_id: str) -> tuple[str, float]:
        """A new single-use sign-in token and when it expires."""
        token = new_key()
        expires = self.clock() + SIGNIN_SECONDS
        async with self.store.transaction() as conn:
            await conn.execute(
                insert(signins).values(
                    token_hash=token_hash(token), player_id=player_id, expires_at=expires
                )
            )
        return token, expires

    async def sign_in(self, token: str, device: str = "") -> tuple[Player, str]:
        """Use a sign-in token (once, before it expires): a new key for this device."""
        hashed = token_hash(token)
        now = self.clock()
        async with self.store.transaction() as conn:
            # One statement takes the token: of two devices racing, one wins.
            done = await conn.execute(
                update(signins)
                .where(signins.c.token_hash == hashed, signins.c.used_at.is_(None))
                .where(signins.c.expires_at > now)
                .values(used_at=now)
            )
            taken = select(signins).where(signins.c.token_hash == hashed)
            row = (await conn.execute(taken)).first()
            if row is None:
                raise SigninError("this sign-in link is not known", 404)
            if done.rowcount != 1:
                if row.used_at is not None:
                    raise SigninError("this sign-in link was used already; make a new one", 410)
                raise SigninError("this sign-in link has expired; make a new one", 410)
            key = new_key()
            await self._add_key(conn, row.player_id, key, device, now)
            player = (
                await conn.execute(select(players_table).where(players_table.c.id == row.player_id))
            ).one()
        return Player(player.id, player.name, player.created_at), key


async def current(players: Players, key: str | None) -> tuple[Player, str] | None:
    """The player whose key came with a request (None: a guest); raises 401 for a key
    that is not known (revoked, or from another server)."""
    if key is None or not key.strip():
        return None
    found = await players.by_key(key.strip())
    if found is None:
        raise HTTPException(
            status_code=401,
            detail="this player key is not known (revoked, or never made here): "
            "make a new player or sign in with a link",
        )
    return found


async def signed_in(players: Players, key: str | None) -> tuple[Player, str]:
    """The player whose key came with a request, and the key's device; raises 401 when
    there is none (routes that are a player's own)."""
    found = await current(players, key)
    if found is None:
        raise HTTPException(status_code=401, detail=f"send the player's key in {HEADER}")
    return found
