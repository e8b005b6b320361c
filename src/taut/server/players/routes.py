"""The JSON routes of players: make one, rename, devices, sign-in links, taking a seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, Header, HTTPException
from pydantic import ConfigDict, StringConstraints

from taut.core.errors import TautError
from taut.server.answers import (
    NEEDS_KEY,
    Form,
    Me,
    PlayerKey,
    Renamed,
    Revoked,
    SigninLink,
    TakenSeat,
    refusals,
)
from taut.server.play.hub import Hub
from taut.server.players.accounts import (
    DEVICE_MAX,
    SIGNIN_SECONDS,
    BadName,
    Device,
    NameTaken,
    Player,
    Players,
    SigninError,
    signed_in,
)
from taut.server.store.database import StoreFailure, token_hash


class NewPlayer(Form):
    """A new player: a name (optional: one is drawn) and a label for this device."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, StringConstraints(max_length=200)] | None = None
    device: Annotated[str, StringConstraints(max_length=DEVICE_MAX)] = ""


class Rename(Form):
    """A new name."""

    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, StringConstraints(max_length=200)]


class SignIn(Form):
    """A sign-in token from a link, and a label for the new device."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    refusal_in_body: bool = False
    """True: a seat that cannot be this player's is answered 200 with ``seat`` null and the
    reason in ``refusal``, not 409 (a page that only says why logs no failed request)."""
    device: Annotated[str, StringConstraints(max_length=DEVICE_MAX)] = ""


class SeatToken(Form):
    """The token of a seat's link."""

    model_config = ConfigDict(extra="forbid")
    token: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    refusal_in_body: bool = False
    """True: a seat that cannot be this player's is answered 200 with ``seat`` null and the
    reason in ``refusal``, not 409 (a page that only says why logs no failed request)."""


def _bad_name(exc: TautError) -> HTTPException:
    return HTTPException(status_code=409 if isinstance(exc, NameTaken) else 400, detail=str(exc))


def add_player_routes(app: FastAPI, hub: Hub, players: Players) -> None:
    """The JSON routes of players: make one, rename, devices, sign-in links, seats.

    Long by nature: each route is a few lines, registered here over the same players."""

    async def me(key: str | None) -> tuple[Player, str]:
        return await signed_in(players, key)

    def described(player: Player, device_id: str, devices: list[Device]) -> Me:
        return {
            "id": player.id,
            "name": player.name,
            "page": f"/players/{player.name}",
            "devices": [
                {
                    "id": d.id,
                    "device": d.device,
                    "created": d.created_at,
                    "seen": d.seen_at,
                    "this": d.id == device_id,
                }
                for d in devices
            ],
        }

    @app.post(
        "/api/players",
        status_code=201,
        responses=refusals(
            {400: "the name is refused", 409: "the name is taken", 503: "the storage refused"}
        ),
    )
    async def create(body: NewPlayer) -> PlayerKey:
        try:
            player, key = await players.create(body.name, body.device)
        except (BadName, NameTaken) as exc:
            raise _bad_name(exc) from None
        except StoreFailure as exc:
            raise HTTPException(status_code=503, detail=str(exc)) from None
        return {"key": key, "id": player.id, "name": player.name,
                "page": f"/players/{player.name}"}  # fmt: skip

    @app.get("/api/me", responses=refusals(NEEDS_KEY))
    async def who(x_taut_player: Annotated[str | None, Header()] = None) -> Me:
        player, device_id = await me(x_taut_player)
        await players.touch(device_id)
        return described(player, device_id, await players.devices(player.id))

    @app.post(
        "/api/me/name",
        responses=refusals({**NEEDS_KEY, 400: "the name is refused", 409: "the name is taken"}),
    )
    async def rename(
        body: Rename, x_taut_player: Annotated[str | None, Header()] = None
    ) -> Renamed:
        player, _ = await me(x_taut_player)
        try:
            name = await players.rename(player.id, body.name)
        except (BadName, NameTaken) as exc:
            raise _bad_name(exc) from None
        return {"name": name, "page": f"/players/{name}"}

    @app.delete(
        "/api/me/devices/{device_id}",
        responses=refusals({**NEEDS_KEY, 404: "the player has no such device"}),
    )
    async def revoke(
        device_id: str, x_taut_player: Annotated[str | None, Header()] = None
    ) -> Revoked:
        player, _ = await me(x_taut_player)
        if not await players.revoke(player.id, device_id):
            raise HTTPException(status_code=404, detail="you have no such device")
        return {"revoked": device_id}

    @app.post("/api/me/signin-link", responses=refusals(NEEDS_KEY))
    async def signin_link(x_taut_player: Annotated[str | None, Header()] = None) -> SigninLink:
        player, _ = await me(x_taut_player)
        token, expires = await players.signin_link(player.id)
        return {"link": f"/signin#{token}", "expires": expires, "seconds": SIGNIN_SECONDS}

    @app.post(
        "/api/signin",
        responses=refusals(
            {
                400: "the body cannot be read (it is not UTF-8 JSON)",
                404: "the link is not known",
                410: "the link was used or expired",
            }
        ),
    )
    async def sign_in(body: SignIn) -> PlayerKey:
        try:
            player, key = await players.sign_in(body.token, body.device)
        except SigninError as exc:
            raise HTTPException(status_code=exc.status, detail=str(exc)) from None
        return {"key": key, "id": player.id, "name": player.name,
                "page": f"/players/{player.name}"}  # fmt: skip

    @app.post(
        "/api/games/{game_id}/player",
        responses=refusals(
            {
                **NEEDS_KEY,
                400: "the body cannot be read (it is not UTF-8 JSON)",
                403: "the token opens no seat of this game",
                404: "no such game",
                409: "the seat is another player's, or this player has another seat of a "
                "rated game",
            }
        ),
    )
    async def take_seat(
        game_id: str, body: SeatToken, x_taut_player: Annotated[str | None, Header()] = None
    ) -> TakenSeat:
        player, _ = await me(x_taut_player)
        table = await hub.table(game_id)
        if table is None:
            raise HTTPException(status_code=404, detail="no such game")
        hashed = token_hash(body.token)
        seat = hub.seat_of(game_id, hashed)
        if seat is None:
            await hub.refresh_row(game_id)
            seat = hub.seat_of(game_id, hashed)
        if seat is None:
            raise HTTPException(status_code=403, detail="this link opens no seat of this game")
        rated = bool(table.config.get("rated"))
        if seat == "spectator":  # a spectator's link: nothing to attach, and nothing wrong
            return {"seat": None, "player": player.name, "rated": False, "refusal": None}

        def refused(detail: str) -> TakenSeat:
            if body.refusal_in_body:
                return {"seat": None, "player": player.name, "rated": rated, "refusal": detail}
            raise HTTPException(status_code=409, detail=detail)

        index = int(seat)
        held = await players.store.seat_holders.of_game(game_id)
        if rated:
            other = [s for s, p in held.items() if p == player.id and s != index]
            if other:
                return refused(
                    f"you play seat {table.seat_name(other[0])} of this rated game already; "
                    "a rated game needs a different player at each seat"
                )
        holder = await players.store.seat_holders.attach(game_id, index, player.id)
        if holder != player.id:
            name = (await players.names([holder])).get(holder, "another player")
            return refused(f"seat {table.seat_name(index)} is {name}'s already")
        return {"seat": table.seat_name(index), "player": player.name, "rated": rated,
                "refusal": None}  # fmt: skip
