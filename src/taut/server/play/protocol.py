"""The messages a browser may send, validated before anything reads them.

Every WebSocket message is one JSON object with a ``type``; anything else, anything
larger than :data:`MAX_MESSAGE` bytes, or any field of the wrong type or size is refused
with an ``error`` message and changes nothing. ``ref`` is the client's own number for a
message, echoed in the answer so that a resent message can be matched to its first answer.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

#: The largest message a client may send, in bytes.
MAX_MESSAGE = 4096
#: The longest name a player may give.
MAX_NAME = 40

Hex32 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]
Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
#: A name is one line of visible text: no control characters (a line break, a bell, an
#: escape) and no marks that reorder the text around it.
NAME_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]*$"
Name = Annotated[
    str,
    StringConstraints(
        min_length=1, max_length=MAX_NAME, strip_whitespace=True, pattern=NAME_PATTERN
    ),
]
Action = Annotated[str, StringConstraints(min_length=1, max_length=200)]
Ref = Annotated[int, Field(ge=0, le=2**31)]
MoveNo = Annotated[int, Field(ge=0, le=10**7)]
#: The width, in CSS pixels, a client draws the board in.
Room = Annotated[int, Field(ge=0, le=100_000)]


class _Message(BaseModel):
    # Strict: a number sent as text ("0") or a whole number as 0.0 is refused, not guessed at.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(_Message):
    """The first message: the seat's capability (None: a spectator without one)."""

    type: Literal["hello"]
    token: Token | None = None
    acks: Literal["messages", "in-frames"] = "messages"
    """How the client wants its commands acknowledged: each by a message of its own, or
    ``in-frames``: inside the frame that shows the command (``acks`` of that frame),
    where one is on its way, which saves a message a command."""
    patches: bool | Literal["edits"] = False
    """True: a changed picture may come as a patch of the one the client holds
    (``board_patch``, ``board_narrow_patch``, ``text_patch``; see
    :mod:`taut.server.play.patches`); ``"edits"``: such a patch may also edit a token of
    the picture held (``[k, text, j]``)."""
    room: Room | None = None
    """The width the client draws the board in: where a game draws the position twice (for
    a wide screen, ``board``, and for a phone, ``board_narrow``), its frames carry only the
    picture that fits (the narrow one where the room is narrower than the wide picture's
    ``data-touch-width``, as the page would choose). None: both."""
    draws: bool = False
    """Whether the client draws a game's table itself, where the game has a module for that
    (:attr:`~taut.core.plugin.GamePlugin.table_drawing`): frames of such a game then carry
    the data it is drawn from (``table``) in place of the pictures (``board``,
    ``board_narrow``). False: pictures."""
    text: bool = True
    """Whether the client shows the position as text (``text``). False: frames leave the
    text out (it is not drawn for the client at all) until a ``text`` message
    (:class:`Shown`) says it is shown; the page shows it only while its "position as text"
    is open."""


class SetName(_Message):
    """The player at this connection's seat gives a name."""

    type: Literal["name"]
    name: Name
    ref: Ref = 0


class Move(_Message):
    """A move at a node where this seat alone acts (``move``: the moves played before it)."""

    type: Literal["move"]
    move: MoveNo
    action: Action
    ref: Ref = 0


class Opening(_Message):
    """The choice behind a commitment and its salt, sent with it (:class:`Commit`)."""

    action: Action
    salt: Hex32


class Commit(_Message):
    """The commitment to a choice at a node where several seats act."""

    type: Literal["commit"]
    move: MoveNo
    hash: Hex64
    reveal: Opening | None = None
    """Only from the last seat to commit: the choice behind ``hash``, revealed in the same
    command (every other seat is bound already, so nothing is given away, and the node
    needs one command less)."""
    ref: Ref = 0


class Reveal(_Message):
    """The choice behind this seat's commitment, once every acting seat has committed."""

    type: Literal["reveal"]
    move: MoveNo
    action: Action
    salt: Hex32
    ref: Ref = 0


class Rematch(_Message):
    """Ask for a new game with the same settings and seats."""

    type: Literal["rematch"]
    ref: Ref = 0


class Follow(_Message):
    """Go on to the finished game's rematch on this same socket: the server answers
    ``{"type": "followed", "game": id}``, then the rematch's first frame (whole), as the
    seat (or the spectators) that the hello's token opens there. Refused (``error``)
    while the game has no rematch, or where the token opens nothing in it."""

    type: Literal["follow"]
    ref: Ref = 0


#: The longest chat line a message may carry (the table allows fewer: see
#: :data:`taut.server.play.position.MAX_CHAT`, so that its refusal can say how many).
MAX_CHAT_MESSAGE = 2000
#: A chat line: text without control characters (line breaks included) or reordering marks.
ChatText = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_CHAT_MESSAGE, pattern=NAME_PATTERN)
]


class Chat(_Message):
    """A line of the seated players' chat."""

    type: Literal["chat"]
    text: ChatText
    ref: Ref = 0


class Resign(_Message):
    """This seat resigns."""

    type: Literal["resign"]
    ref: Ref = 0


class Offer(_Message):
    """Offer a draw, or ask to take back this seat's last turn."""

    type: Literal["offer"]
    what: Literal["draw", "takeback"]
    ref: Ref = 0


class Answer(_Message):
    """Accept or decline the open offer (made at ``move``)."""

    type: Literal["answer"]
    what: Literal["draw", "takeback"]
    move: MoveNo
    accept: bool
    ref: Ref = 0


class Fit(_Message):
    """The board's room changed (a window resized, a phone turned): the frames from now on
    carry the picture that fits it (see :attr:`Hello.room`), starting with one at once."""

    type: Literal["room"]
    room: Room


class Shown(_Message):
    """The client starts (``shown``) or stops showing the position as text: the frames from
    now on carry it or leave it out (see :attr:`Hello.text`), starting with one at once."""

    type: Literal["text"]
    shown: bool


class Ping(_Message):
    """Keep the connection alive."""

    type: Literal["ping"]


ClientMessage = Annotated[
    Hello
    | SetName
    | Move
    | Commit
    | Reveal
    | Rematch
    | Follow
    | Chat
    | Resign
    | Offer
    | Answer
    | Fit
    | Shown
    | Ping,
    Field(discriminator="type"),
]
_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)


class BadMessage(ValueError):
    """A client message that cannot be read; the text says why, without echoing it."""


def parse_message(raw: str | bytes) -> ClientMessage:
    """Validate one message; raises :class:`BadMessage` naming what is wrong."""
    size = len(raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE:
        raise BadMessage(f"a message holds at most {MAX_MESSAGE} bytes; this one has {size}")
    try:
        return _ADAPTER.validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise BadMessage(f"bad message ({where}: {problem(first)})") from None


def ref_of(raw: str | bytes) -> int:
    """The ``ref`` of a message that was refused as a whole (0 when it has none that can be
    read), so that the client can match the error to what it sent."""
    if len(raw) > MAX_MESSAGE:
        return 0
    try:
        ref = json.loads(raw).get("ref")
    except (ValueError, AttributeError, RecursionError):  # not JSON, not an object, too deep
        return 0
    return ref if type(ref) is int and 0 <= ref <= 2**31 else 0


def problem(error: Mapping[str, Any]) -> str:
    """What one validation error says, without echoing a pattern at the reader."""
    kind = error.get("type")
    context = error.get("ctx") or {}
    if kind == "string_pattern_mismatch":
        return "holds characters that are not allowed there"
    if kind == "string_too_long" and "max_length" in context:
        return f"at most {context['max_length']} characters"
    if kind == "string_too_short" and context.get("min_length") == 1:
        return "must not be empty"
    said = str(error.get("msg", "invalid"))
    # A check of our own says what is wrong in full; pydantic's label adds nothing.
    return said.removeprefix("Value error, ")
