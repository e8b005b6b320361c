"""The shapes of the HTTP API's answers, for the OpenAPI schema.

Answers are typed dictionaries: the routes return them as they are (mypy checks each
field), and FastAPI declares them in the schema and checks them on the way out.

A route that refuses a request answers ``{"detail": SENTENCE}`` with a 4xx status (an
``HTTPException``); a request whose parameters or body do not fit the declared schema is
answered ``{"error": SENTENCE}`` with 422 by the application's handler. Routes declare the
refusals they can give with :func:`refusals`, so that the schema lists every status code a
client can meet, each with its body.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, get_args

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator
from typing_extensions import TypedDict  # pydantic reads typing's own only from Python 3.12


def _takes_truth(annotation: Any) -> bool:
    """Whether a field of this type may hold true or false."""
    if annotation is bool or annotation is Any:
        return True
    return any(_takes_truth(arg) for arg in get_args(annotation))


class Form(BaseModel):
    """A request's body: unknown fields refused, and true or false never read as a number
    (pydantic would read ``true`` as 1 where a number is asked for)."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_truth_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        name = info.field_name
        if isinstance(value, bool) and name and not _takes_truth(cls.model_fields[name].annotation):
            raise ValueError("true or false is not allowed here")
        return value


class Refusal(BaseModel):
    """A refused request: one sentence naming what was wrong and what is allowed."""

    detail: str


class Malformed(BaseModel):
    """A request whose parameters or body do not fit the schema (422): which field, and why."""

    error: str


#: The refusal of every route that needs a player's key.
NEEDS_KEY = {401: "no player key (X-Taut-Player), or one that is not known"}


def _json(model: type[BaseModel], meaning: str) -> dict[str, Any]:
    # Spelled out rather than given as ``model``: FastAPI files a model under the route's own
    # media type, which is text/html for a page, while these answers are JSON everywhere.
    return {
        "description": meaning,
        "content": {"application/json": {"schema": model.model_json_schema()}},
    }


#: The 422 answer, declared once for the whole application (a route that reads no
#: parameter and no body never gives it).
MALFORMED: dict[int | str, dict[str, Any]] = {
    422: _json(Malformed, "a parameter or the body does not fit the schema")
}


def refusals(codes: dict[int, str], html: tuple[int, ...] = ()) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: each status code in ``codes`` with what it means, its
    body a :class:`Refusal` (JSON), or an HTML page for the codes in ``html``."""
    return {
        code: (
            {"description": meaning, "content": {"text/html": {"schema": {"type": "string"}}}}
            if code in html
            else _json(Refusal, meaning)
        )
        for code, meaning in codes.items()
    }


def declare_not_found(app: FastAPI) -> None:
    """Declare a 404 :class:`Refusal` on every route whose path names something (a game, a
    player, a tile set, a file) and that declares no 404 of its own: in this API such a
    route answers 404 when nothing has that name. Called once every route is added."""
    for route in app.routes:
        if (
            isinstance(route, APIRoute)
            and route.param_convertors
            and not {404, "404"} & set(route.responses)
        ):
            route.responses = {**route.responses, **refusals({404: "nothing has that name"})}


class MadeGame(TypedDict):
    """``POST /api/games``: the new game's id and links (``/g/ID#TOKEN``): one per seat to
    hand out, the spectators', and the maker's own (null when the maker sits nowhere)."""

    id: str
    links: dict[str, str]
    spectator: str
    mine: str | None


class OpenSeats(TypedDict):
    """``GET /api/games/{id}/open-seats``: the names of the seats nobody has claimed."""

    seats: list[str]


class SeatLink(TypedDict):
    """``POST /api/games/{id}/claim/{seat}``: the link of the seat just claimed."""

    link: str


class SeatOffer(TypedDict):
    """One seat of a game about to be made: its name and its title for people."""

    seat: str
    title: str


class SeatsOffer(TypedDict):
    """``POST /api/seats``: a game's seats with given options, and the levels that can
    play it."""

    seats: list[SeatOffer]
    levels: list[str]


class PlayerKey(TypedDict):
    """A player just made or signed in: the key (sent back as ``X-Taut-Player``), the id,
    the name and the player's page."""

    key: str
    id: str
    name: str
    page: str


class DeviceEntry(TypedDict):
    """One device of a player: its label, when it was made and last seen (Unix seconds),
    and whether it is the one asking."""

    id: str
    device: str
    created: float
    seen: float
    this: bool


class Me(TypedDict):
    """``GET /api/me``: the key's player and devices."""

    id: str
    name: str
    page: str
    devices: list[DeviceEntry]


class Renamed(TypedDict):
    """``POST /api/me/name``: the name as kept (normalised) and the player's page."""

    name: str
    page: str


class Revoked(TypedDict):
    """``DELETE /api/me/devices/{device}``: the device whose key no longer works."""

    revoked: str


class SigninLink(TypedDict):
    """``POST /api/me/signin-link``: a single-use link, when it expires (Unix seconds) and
    how long it lasts."""

    link: str
    expires: float
    seconds: int


class TakenSeat(TypedDict):
    """``POST /api/games/{id}/player``: the seat now the player's (None for a spectator's
    link: it opens no seat, or for a seat refused), whether it counts for ratings, and why
    the seat was refused (asked with ``refusal_in_body``; otherwise a refusal is a 409)."""

    seat: str | None
    player: str
    rated: bool
    refusal: str | None


class SignCalibration(TypedDict):
    """``/api/me/calibration``: the player's calibration of the sign recogniser (null:
    none), ``{"version": 1, "letters": {"A": [[numbers...], ...]}}``."""

    calibration: dict[str, Any] | None


class Webhook(TypedDict):
    """``/api/me/webhook``: the player's webhook URL (null: none)."""

    url: str | None


def declare_names(app: FastAPI, names: dict[tuple[str, str], Callable[[], list[str]]]) -> None:
    """Declare in the schema the values a field may take where only known names are
    accepted (``(model, field) -> the names``, read when the schema is first asked for): a
    client made from the schema then offers the games and tile sets this server has."""
    made = app.openapi

    def schema() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        found = made()
        models = found.get("components", {}).get("schemas", {})
        for (model, field), known in names.items():
            prop = models.get(model, {}).get("properties", {}).get(field)
            if prop is not None:
                prop["enum"] = known()
        app.openapi_schema = found
        return found

    app.openapi = schema  # type: ignore[method-assign]  # FastAPI's documented override
