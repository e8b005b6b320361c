"""A player's calibration of the sign recogniser, kept with the player.

A learner may teach the camera their hand: the calibration page collects a few of their
signs a letter and the recogniser adapts to them (``signs.js``'s ``calibrate``). For a
player the page keeps the result here, so that it follows them to every device they sign
in on; ``GET``, ``PUT`` and ``DELETE /api/me/calibration`` with the player's key. The
server keeps the document as it is given, after checking its form: ``{"version": 1,
"letters": {"A": [[numbers...], ...], ...}}``, upper-case letters, every sign the same
count of finite numbers, within :data:`MAX_SIGNS` a letter and :data:`MAX_BYTES` in all.
"""

from __future__ import annotations

import json
import math
import time
from typing import Annotated, Any

from fastapi import FastAPI, Header, HTTPException
from pydantic import ConfigDict
from sqlalchemy import delete, insert, select

from taut.server.answers import NEEDS_KEY, Form, SignCalibration, refusals
from taut.server.players.accounts import Players, signed_in
from taut.server.store.games import Store
from taut.server.store.schema import calibrations_table

#: Signs kept a letter, at most.
MAX_SIGNS = 10
#: Numbers in one sign, at most.
MAX_NUMBERS = 400
#: The document's size as JSON, at most.
MAX_BYTES = 400_000


class BadCalibration(ValueError):
    """A calibration document of the wrong form (the message says what is wrong)."""


def check(data: Any) -> dict[str, Any]:
    """``data`` if it is a calibration document of the right form; raises
    :class:`BadCalibration` naming what is wrong."""
    form = 'a calibration is {"version": 1, "letters": {"A": [[numbers...], ...]}}'
    if not isinstance(data, dict) or data.get("version") != 1:
        raise BadCalibration(form)
    letters = data.get("letters")
    if not isinstance(letters, dict) or set(data) - {"version", "letters"}:
        raise BadCalibration(form)
    size = None
    for letter, signs in letters.items():
        if not (len(letter) == 1 and "A" <= letter <= "Z"):
            raise BadCalibration(f"calibration letter {letter[:10]!r} is not one letter A-Z")
        if not isinstance(signs, list) or not 1 <= len(signs) <= MAX_SIGNS:
            raise BadCalibration(f"letter {letter}: 1 to {MAX_SIGNS} signs")
        for sign in signs:
            if not isinstance(sign, list) or not 1 <= len(sign) <= MAX_NUMBERS:
                raise BadCalibration(f"letter {letter}: each sign is a list of numbers")
            if size is not None and len(sign) != size:
                raise BadCalibration(f"letter {letter}: every sign has {size} numbers")
            size = len(sign)
            for v in sign:
                if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                    raise BadCalibration(f"letter {letter}: signs hold finite numbers only")
    if len(json.dumps(data)) > MAX_BYTES:
        raise BadCalibration(f"a calibration is at most {MAX_BYTES} bytes as JSON")
    return data


class Calibrations:
    """The players' calibrations in the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def of(self, player_id: str) -> dict[str, Any] | None:
        """A player's calibration (None: none kept)."""
        async with self.store.reader.connect() as conn:
            row = (
                await conn.execute(
                    select(calibrations_table.c.calibration).where(
                        calibrations_table.c.player_id == player_id
                    )
                )
            ).first()
        if row is None:
            return None
        found: dict[str, Any] = json.loads(row.calibration)
        return found

    async def keep(self, player_id: str, calibration: dict[str, Any]) -> None:
        """Keep a player's calibration (checked first: raises :class:`BadCalibration`)."""
        text = json.dumps(check(calibration), separators=(",", ":"))
        async with self.store.transaction() as conn:
            await conn.execute(
                delete(calibrations_table).where(calibrations_table.c.player_id == player_id)
            )
            await conn.execute(
                insert(calibrations_table).values(
                    player_id=player_id, calibration=text, updated_at=time.time()
                )
            )

    async def forget(self, player_id: str) -> None:
        """Forget a player's calibration."""
        async with self.store.transaction() as conn:
            await conn.execute(
                delete(calibrations_table).where(calibrations_table.c.player_id == player_id)
            )


class CalibrationBody(Form):
    """What ``PUT /api/me/calibration`` takes."""

    model_config = ConfigDict(extra="forbid")
    calibration: dict[str, Any]


def add_calibration_routes(app: FastAPI, players: Players, calibrations: Calibrations) -> None:
    """``GET``, ``PUT`` and ``DELETE /api/me/calibration`` (with the player's key)."""

    async def me(key: str | None) -> str:
        return (await signed_in(players, key))[0].id

    @app.get("/api/me/calibration", responses=refusals(NEEDS_KEY))
    async def get_calibration(
        x_taut_player: Annotated[str | None, Header()] = None,
    ) -> SignCalibration:
        return {"calibration": await calibrations.of(await me(x_taut_player))}

    @app.put(
        "/api/me/calibration",
        responses=refusals({**NEEDS_KEY, 400: "the calibration is not of the right form"}),
    )
    async def put_calibration(
        body: CalibrationBody, x_taut_player: Annotated[str | None, Header()] = None
    ) -> SignCalibration:
        player_id = await me(x_taut_player)
        try:
            await calibrations.keep(player_id, body.calibration)
        except BadCalibration as exc:
            raise HTTPException(status_code=400, detail=str(exc)) from None
        return {"calibration": body.calibration}

    @app.delete("/api/me/calibration", responses=refusals(NEEDS_KEY))
    async def delete_calibration(
        x_taut_player: Annotated[str | None, Header()] = None,
    ) -> SignCalibration:
        await calibrations.forget(await me(x_taut_player))
        return {"calibration": None}
