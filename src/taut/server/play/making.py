"""Making games: checking a new game's settings, handing out its links, rematches.

Links are capabilities. Each seat a person takes has its own unguessable token, and the
spectators share one; a token travels only in the fragment of a link (``/g/ID#TOKEN``),
which browsers never send to a server, and the store keeps only its SHA-256. The person
who makes a game gets the links of the seats it invites others to (to pass on) and its
own; an *open* seat is listed in the lobby and goes to whoever claims it first.
"""

from __future__ import annotations

import base64
import hashlib
import math
import secrets
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StringConstraints, field_validator

from taut.agents import agent_refusal
from taut.core.errors import InvalidOptionError, TautError, UnknownGameError
from taut.core.plugin import GamePlugin
from taut.core.registry import plugin
from taut.server.answers import Form
from taut.server.play.clocks import TimeControlText, parse_time_control
from taut.server.play.position import Seat
from taut.server.play.protocol import MAX_NAME, NAME_PATTERN
from taut.server.play.table import GameTable
from taut.server.store.database import Conflict, token_hash
from taut.server.store.games import Event as Stored
from taut.server.store.games import GameRow, Store

#: What may sit at a seat: the maker, an invited person, anyone from the lobby, a level.
SEAT_KINDS = ("me", "invite", "open", "easy", "medium", "hard")
#: The longest reveal deadline, in seconds (a week, for games of a move a day).
MAX_DEADLINE = 7 * 24 * 3600


class SeatChoice(Form):
    """Who sits at one seat."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["me", "invite", "open", "easy", "medium", "hard"]


class NewGame(Form):
    """The form of a new game, as the page sends it."""

    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatChoice] = Field(min_length=1, max_length=16)
    name: Annotated[
        str, StringConstraints(max_length=MAX_NAME, strip_whitespace=True, pattern=NAME_PATTERN)
    ] = ""
    pace: Literal["live", "slow"] = "live"
    reveal_deadline: Annotated[int, Field(ge=5, le=MAX_DEADLINE)] | None = None
    rated: bool = False
    """Whether the game counts for ratings (every person's seat must be a player's)."""
    time_control: TimeControlText | None = None
    """``none`` (or absent), live ``M+S`` or correspondence ``D days`` (see
    :mod:`taut.server.play.clocks`)."""

    rating_range: tuple[float, float] | None = None
    """A rated game's open seats are for players whose rating in the game's pool is
    within ``[low, high]`` (None: anyone)."""

    @field_validator("rating_range")
    @classmethod
    def _rating_range(cls, value: tuple[float, float] | None) -> tuple[float, float] | None:
        if value is not None and not (
            math.isfinite(value[0]) and math.isfinite(value[1]) and value[0] <= value[1]
        ):
            raise ValueError(f"a rating range is [low, high] with low <= high, not {list(value)}")
        return value


#: An event to store: its kind and payload.
Event = tuple[str, dict[str, Any]]


@dataclass
class Made:
    """A game just made: its id and the links to hand out."""

    id: str
    links: dict[str, str]
    """Per seat name, the fragment token of the maker's and invited seats."""
    spectator: str
    mine: str | None


def new_token() -> str:
    """An unguessable capability token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def new_game_id() -> str:
    """A game's id (random, so that ids cannot be enumerated)."""
    return secrets.token_urlsafe(9)


async def make_game(
    store: Store, request: NewGame, seed: int | None = None, player: str | None = None
) -> Made:
    """Check ``request`` and store the game; raises TautError naming what is wrong.
    ``player`` (the maker's player id, None for a guest) gets the seat the maker takes.

    Long by nature: one check after another of a form (each with its own refusal), then
    one write; split, its checks would be read out of order."""
    if request.rated and player is None:
        raise InvalidOptionError(
            "a rated game needs every person at it to be a player: you are playing as a "
            "guest here (open the site once in this browser, or sign in with a link), or "
            "make the game unrated"
        )
    try:
        found = plugin(request.game)
    except UnknownGameError:
        raise
    options = dict(request.options)
    game = found.game_class(**options)
    names = game.info.seats
    if len(request.seats) != len(names):
        raise InvalidOptionError(
            f"{game.title} with these options has {len(names)} seats ({', '.join(names)}); "
            f"{len(request.seats)} were given"
        )
    if sum(1 for s in request.seats if s.kind == "me") > 1:
        raise InvalidOptionError("you can take one seat yourself; invite people to the others")
    for i, choice in enumerate(request.seats):
        if choice.kind in ("easy", "medium", "hard"):
            why = agent_refusal(choice.kind, game)
            if why is not None:
                raise InvalidOptionError(f"seat {names[i]}: the computer cannot play here: {why}")
    tokens: list[str | None] = [
        new_token() if c.kind in ("me", "invite") else None for c in request.seats
    ]
    spectator = new_token()
    game_id = new_game_id()
    config = {
        "options": dict(game.options),
        "seats": [
            {"kind": c.kind, "agent": c.kind if c.kind in ("easy", "medium", "hard") else None}
            for c in request.seats
        ],
        "pace": request.pace,
        "reveal_deadline": request.reveal_deadline,
        "seed": seed if seed is not None else secrets.randbits(62),
        "spectator_hash": token_hash(spectator),
    }
    if request.rated:
        config["rated"] = True
    if request.rating_range is not None:
        if not request.rated:
            raise InvalidOptionError(
                "a rating range is for rated games: make the game rated, or leave the range out"
            )
        bounds: Any = list(request.rating_range)  # JSON keeps a list
        config["rating_range"] = bounds
    clock = parse_time_control(request.time_control)
    if clock is not None:
        config["clock"] = clock.to_json()
        if clock.kind == "live":
            # The computer's seats are timed as well: it thinks within its clock.
            config["computer_clock"] = True
    kinds = [
        "computer"
        if c.kind in ("easy", "medium", "hard")
        else ("open" if c.kind == "open" else "human")
        for c in request.seats
    ]
    first: list[Event] = [("created", {"game": found.name})]
    mine = next((i for i, c in enumerate(request.seats) if c.kind == "me"), None)
    if mine is not None and request.name:
        first.append(("name", {"seat": names[mine], "name": request.name}))
    first += opening(game_id, found, config)
    await store.create_game(
        game_id,
        found.name,
        config,
        kinds,
        [None if t is None else token_hash(t) for t in tokens],
        first,
    )
    if mine is not None and player is not None:
        await store.seat_holders.attach(game_id, mine, player)
    links = {names[i]: t for i, t in enumerate(tokens) if t is not None}
    return Made(game_id, links, spectator, None if mine is None else tokens[mine])


@dataclass(frozen=True)
class Rematch:
    """A rematch: its id, and the game as this call stored it (``made``: its row and first
    events, for a server to serve at once without reading it back; None where the other
    player's request made it first)."""

    id: str
    made: tuple[GameRow, list[Stored]] | None


async def rematch(store: Store, game_id: str) -> str:
    """A new game with the same game, options and seats (the same tokens open them). Its
    id follows from the finished game's, so that players asking at once, through one
    server process or several, get one rematch."""
    return (await rematch_of(store, game_id)).id


async def rematch_of(store: Store, game_id: str, row: GameRow | None = None) -> Rematch:
    """:func:`rematch`, from the finished game's ``row`` where the caller holds it (else it
    is read), with the game as made here."""
    if row is None:
        row = await store.load_game(game_id)
    if row is None:
        raise TautError(f"no game {game_id}")
    new_id = rematch_id(game_id, str(row.config.get("spectator_hash", "")))
    config = dict(row.config)
    config["seed"] = secrets.randbits(62)
    try:
        # The same tokens: the same players (their seats copied as the game is stored).
        made = await store.create_game(
            new_id,
            row.game,
            config,
            row.seat_kinds,
            row.token_hashes,
            [("created", {"game": row.game}), *opening(new_id, plugin(row.game), config)],
            holders_from=game_id,
        )
    except Conflict:
        # A rematch made already, at the other player's request, is the one to go to
        # (its seats' players copied again, in case its maker stopped before that).
        await store.seat_holders.copy(game_id, new_id)
        return Rematch(new_id, None)
    return Rematch(new_id, made)


def rematch_id(game_id: str, secret: str) -> str:
    """The id of ``game_id``'s rematch, from a secret of the game that never leaves the
    server (the hash of its spectators' token, in no message and no record): the same in
    every server process, and as unguessable as a new game's."""
    digest = hashlib.sha256(f"taut-rematch|{game_id}|{secret}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:9]).decode("ascii")


def opening(game_id: str, found: GamePlugin, config: dict[str, Any]) -> list[Event]:
    """The chance nodes a new game opens with (a deal, a roll), drawn from its seed: a
    game is stored ready for its first player."""
    game = found.game_class(**config["options"])
    table = GameTable(game_id, found, game, config, [Seat("human") for _ in game.info.seats])
    return table.chance().events
