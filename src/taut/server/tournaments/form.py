"""A new tournament's form: its fields, their limits, and the check of what it asks for."""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal

from fastapi import HTTPException
from pydantic import ConfigDict, Field, StringConstraints

from taut.core.errors import TautError
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin
from taut.server.answers import Form
from taut.server.play.catalogue import game_entry
from taut.server.play.clocks import TimeControlText

#: The computer levels a tournament may enter.
LEVELS = ("easy", "medium", "hard")
#: The most rounds of a Swiss tournament.
MAX_ROUNDS = 30
#: The most entrants of a tournament.
MAX_ENTRANTS = 64
#: How far ahead a tournament may start, in seconds (a year).
MAX_AHEAD = 365 * 24 * 3600.0
#: The tiebreak of each system, as the tables name it.
TIEBREAKS = {"round-robin": "Sonneborn-Berger", "swiss": "Buchholz"}


class NewTournament(Form):
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
    time_control: TimeControlText | None = None
    name: Annotated[str, StringConstraints(max_length=60, strip_whitespace=True)] = ""


class NewEntrant(Form):
    """A computer level the maker enters."""

    model_config = ConfigDict(extra="forbid")
    level: Literal["easy", "medium", "hard"]


def new_tournament_id() -> str:
    """A tournament's id (random, like a game's)."""
    return secrets.token_urlsafe(9)


def checked(body: NewTournament, now: float) -> tuple[GamePlugin, dict[str, Any]]:
    """A new tournament's game and its settings as stored; raises HTTPException naming
    what is wrong with the form."""
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
    config = {
        "name": body.name or f"{found.title} {body.system}",
        "options": dict(built.options),
        "pool": found.rating_pool(built),
        "system": body.system,
        "rounds": body.rounds,
        "rated": body.rated,
        "time_control": body.time_control,
    }
    return found, config


def tournament_entry(found: GamePlugin) -> dict[str, Any] | None:
    """The game as the tournament form presents it (:func:`game_entry`), its defaults set so
    that the game has two seats (a game for any number of players is asked for two) and only
    the presets that keep two seats; None when its defaults cannot make a two-seat game."""
    entry = game_entry(found)
    defaults = {option["name"]: option["default"] for option in entry["options"]}

    def seats(values: dict[str, Any]) -> int:
        try:
            return found.game_class(**{**defaults, **values}).info.num_seats
        except (TautError, TypeError, ValueError):
            return 0

    for changed in ({}, {"players": 2}):
        if not changed.keys() - defaults.keys() and seats(changed) == 2:
            for option in entry["options"]:
                option["default"] = changed.get(option["name"], option["default"])
            defaults.update(changed)
            entry["presets"] = [p for p in entry["presets"] if seats(p["values"]) == 2]
            return entry
    return None
