"""Clocks for served games: time controls and the time each seat has left. No I/O here:
every method is given the time (seconds since the epoch), so the clocks are rebuilt from
the times of a game's stored events, and tests drive them with made-up times.

A game is made with a :class:`TimeControl` or none:

* **live** ``M+S``: each seat has ``M`` minutes for the whole game and gains ``S`` seconds
  (a Fischer increment) each time it completes a choice;
* **correspondence** ``D days per move``: each choice must be made within ``D`` days.

Who is charged: at a node where one seat moves, that seat; at a node where several choose
at once, every seat that has not yet committed. A seat's clock stops when its choice is
complete (its move was played, or it committed) and it gains the increment then. In a
live game the computer's seats have clocks like anyone's: the time from the start of the
node to its choice is charged to it, and it thinks within what it has left
(:func:`taut.server.play.computer.think_on_clock`). With days per move, and in games stored
before the computer was timed, its seats have no clock. No clock runs before the
game's first choice made once every seat is taken (a seat left open for the lobby is taken
when someone claims it). A clock that reaches zero loses the game on time
(:data:`TIME`), as a forfeit.

A restart charges nobody for the time the server was down: a *resume* at time ``t``
charges the running clocks up to the last event written before it (the last moment the
server is known to have been running) and runs them again from ``t``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, Field, StringConstraints

from taut.core.forfeit import TIME as TIME  # re-exported: the reason a flag fall gives

#: Live time controls: whole minutes per seat, and whole seconds of increment per choice.
MINUTES = (1, 180)
INCREMENT = (0, 60)
#: Correspondence time controls: days per move.
DAYS = (1, 2, 3, 7)
#: Seconds in a day.
DAY = 86400.0
#: Presets the new-game form offers (any other allowed form may be typed).
PRESETS = ("1+0", "3+2", "5+3", "10+5", "15+10", "1 day", "3 days")

#: What may be asked for, said once for every error.
ALLOWED = (
    'allowed: "none"; live "M+S" (M minutes per seat, '
    f"{MINUTES[0]} to {MINUTES[1]}, plus S seconds per move, {INCREMENT[0]} to {INCREMENT[1]}: "
    '"5+3", "1+0", "15+10"); or correspondence "D days" per move, D one of '
    f"{', '.join(str(d) for d in DAYS)}"
)

#: The time controls' canonical forms, as the API's schema states them (the parser also
#: takes other spacing and case, and ``per move`` after days).
SCHEMA_PATTERN = r"^(none|([1-9]|[1-9][0-9]|1[0-7][0-9]|180)\+([0-9]|[1-5][0-9]|60)|[1237] days?)$"
_LIVE = re.compile(r"(\d{1,4})\s*\+\s*(\d{1,4})")
_DAYS = re.compile(r"(\d{1,3})\s*(?:d|days?)(?:\s*(?:per|/)\s*move)?")


class TimeControlError(ValueError):
    """A time control that is not one of the allowed forms (the message says which are)."""


@dataclass(frozen=True)
class TimeControl:
    """A live time control (``minutes`` + ``increment``) or a correspondence one
    (``days`` per move; ``minutes`` and ``increment`` zero)."""

    minutes: int = 0
    increment: int = 0
    days: int = 0

    @property
    def kind(self) -> str:
        """``live`` or ``days``."""
        return "days" if self.days else "live"

    @property
    def budget(self) -> float:
        """Seconds on a seat's clock at the start (live) or at each move (days)."""
        return self.days * DAY if self.days else self.minutes * 60.0

    def text(self) -> str:
        """The control as people write it: ``5+3``, ``2 days per move``."""
        if self.days:
            return f"{self.days} day{'s' if self.days > 1 else ''} per move"
        return f"{self.minutes}+{self.increment}"

    def to_json(self) -> dict[str, Any]:
        """The control as a game's settings keep it."""
        if self.days:
            return {"kind": "days", "days": self.days}
        return {"kind": "live", "minutes": self.minutes, "increment": self.increment}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeControl:
        """The control kept by :meth:`to_json`."""
        if data.get("kind") == "days":
            return cls(days=int(data["days"]))
        return cls(minutes=int(data["minutes"]), increment=int(data.get("increment", 0)))


def time_control_text(settings: Mapping[str, Any]) -> str | None:
    """The time control of a game's settings as people write it (None: none)."""
    kept = settings.get("clock")
    return TimeControl.from_json(kept).text() if kept else None


def parse_time_control(text: str | None) -> TimeControl | None:
    """A time control as typed (``none`` or empty: None); raises :class:`TimeControlError`
    naming the allowed forms."""
    plain = "" if text is None else text.strip().lower()
    if plain in ("", "none"):
        return None
    live = _LIVE.fullmatch(plain)
    if live is not None:
        minutes, increment = int(live[1]), int(live[2])
        if not MINUTES[0] <= minutes <= MINUTES[1]:
            raise TimeControlError(f"{text!r}: {minutes} minutes is out of range; {ALLOWED}")
        if not INCREMENT[0] <= increment <= INCREMENT[1]:
            raise TimeControlError(
                f"{text!r}: an increment of {increment} seconds is out of range; {ALLOWED}"
            )
        return TimeControl(minutes=minutes, increment=increment)
    days = _DAYS.fullmatch(plain)
    if days is not None:
        if int(days[1]) not in DAYS:
            raise TimeControlError(f"{text!r}: {days[1]} days per move is not offered; {ALLOWED}")
        return TimeControl(days=int(days[1]))
    raise TimeControlError(f"{text!r} is not a time control; {ALLOWED}")


def _checked(text: str) -> str:
    parse_time_control(text)  # a ValueError naming the allowed forms becomes a 422
    return text


#: A time control as a form sends it: ``none``, live ``M+S`` or correspondence ``D days``
#: (checked by :func:`parse_time_control`; the pattern says so in the API's schema).
TimeControlText = Annotated[
    str,
    StringConstraints(max_length=40),
    Field(json_schema_extra={"pattern": SCHEMA_PATTERN}),
    AfterValidator(_checked),
]


class Clocks:
    """The clocks of one game, advanced event by event (in the order they were stored).

    ``clocked[s]``: whether seat ``s`` has a clock (a person's seat); ``open_seats``: the
    seats not taken yet. Times are seconds since the epoch; what is left, seconds.
    """

    def __init__(
        self, control: TimeControl, clocked: Sequence[bool], open_seats: Iterable[int] = ()
    ) -> None:
        self.control = control
        self.clocked = list(clocked)
        self.left = [control.budget for _ in self.clocked]
        """Per seat, the time left (when running: at the moment in :attr:`running`)."""
        self.running: dict[int, float] = {}
        """The seats whose clock runs, and since when."""
        self.to_choose: set[int] = set()
        """The clocked seats still to choose at the current node."""
        self.open = set(open_seats)
        self.started = False
        self.seen: float | None = None
        """The time of the latest event: the server was running then."""
        self.flagged: int | None = None

    # -- events ------------------------------------------------------------------------------

    def saw(self, at: float) -> None:
        """An event was written at ``at`` (call after every event)."""
        self.seen = at if self.seen is None else max(self.seen, at)

    def taken(self, seat: int) -> None:
        """An open seat was taken."""
        self.open.discard(seat)

    def node(self, at: float, acting: Iterable[int]) -> None:
        """A node starts at ``at`` where ``acting`` choose (none: the game is over)."""
        self.halt(at)
        self.to_choose = {s for s in acting if 0 <= s < len(self.clocked) and self.clocked[s]}
        if self.control.days:
            for seat in self.to_choose:
                self.left[seat] = self.control.budget  # a fresh deadline for each move
        if self.started:
            for seat in self.to_choose:
                self.running[seat] = at

    def chose(self, seat: int, at: float) -> None:
        """``seat`` completed its choice at ``at`` (its move was played, or it committed):
        its clock stops and gains the increment (the first choice too, as in chess); the
        game's first choice made once every seat is taken starts the clocks of the seats
        still to choose."""
        if seat in self.running:
            self._charge(seat, at)
        self.to_choose.discard(seat)
        if 0 <= seat < len(self.clocked) and self.clocked[seat]:
            self.left[seat] += self.control.increment
        if not self.started and not self.open:
            self.started = True
            for other in self.to_choose:
                self.running[other] = at

    def halt(self, at: float) -> None:
        """Every running clock is charged up to ``at`` and stops (the node or the game is
        over, or a turn is taken back)."""
        for seat in list(self.running):
            self._charge(seat, at)

    def fell(self, seat: int, at: float) -> None:
        """``seat``'s clock reached zero at ``at``: the game is over."""
        self.halt(at)
        self.left[seat] = 0.0
        self.flagged = seat
        self.to_choose.clear()

    def resume(self, at: float) -> None:
        """The server starts again at ``at``: the running clocks are charged up to the last
        event before (the server may have stopped any time after it) and run from ``at``."""
        for seat, since in list(self.running.items()):
            last = since if self.seen is None else max(since, self.seen)
            self.left[seat] = max(0.0, self.left[seat] - (last - since))
            self.running[seat] = at

    def _charge(self, seat: int, at: float) -> None:
        since = self.running.pop(seat)
        self.left[seat] = max(0.0, self.left[seat] - max(0.0, at - since))

    # -- reading -----------------------------------------------------------------------------

    def left_at(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never below zero)."""
        since = self.running.get(seat)
        if since is None:
            return self.left[seat]
        return max(0.0, self.left[seat] - max(0.0, now - since))

    def next_fall(self) -> tuple[float, int] | None:
        """When the first running clock reaches zero, and whose it is (None: none runs)."""
        falls = [(since + self.left[seat], seat) for seat, since in self.running.items()]
        return min(falls) if falls else None

    def fallen(self, now: float) -> tuple[float, int] | None:
        """The first clock that has reached zero by ``now``, and when (None: none has)."""
        first = self.next_fall()
        return first if first is not None and first[0] <= now else None

    def deadline(self, seat: int) -> float | None:
        """When ``seat``'s running clock reaches zero (None: it does not run)."""
        since = self.running.get(seat)
        return None if since is None else since + self.left[seat]

    def snapshot(self, now: float, names: Sequence[str]) -> dict[str, Any]:
        """The clocks as a frame carries them: per seat name the milliseconds left (people's
        seats only), the seats whose clock runs, the server's time (ms), the control."""
        return {
            "control": self.control.text(),
            "kind": self.control.kind,
            "increment_ms": self.control.increment * 1000,
            "left": {
                names[s]: round(self.left_at(s, now) * 1000)
                for s in range(len(self.clocked))
                if self.clocked[s]
            },
            "running": [names[s] for s in sorted(self.running)],
            "started": self.started,
            "flagged": None if self.flagged is None else names[self.flagged],
            "now": round(now * 1000),
        }
