"""Forfeits: a game ended from outside its rules, because a seat missed its deadline (or
resigned: :data:`RESIGNED`, the same ending with its own reason).

:func:`forfeit` wraps any position in a finished one whose outcome names every other seat
as winner, with the reason :data:`FORFEIT`; it works for every game without a line of
game code. Records keep it as their result, and a replay ends the game the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.errors import IllegalActionError
from taut.core.game import State
from taut.core.terms import JSON, NodeKind, Outcome, Termination

#: A seat missed its deadline: every other seat wins.
FORFEIT = Termination("forfeit", "a seat missed its deadline")
#: A seat resigned: every other seat wins.
RESIGNED = Termination("resigned", "a seat resigned")
#: A seat's clock ran out: every other seat wins.
TIME = Termination("time", "a seat ran out of time")
#: The reasons :func:`forfeit` may give.
FORFEITS = (FORFEIT, RESIGNED, TIME)


class ForfeitedState(State):
    """``inner`` as it stood when ``seat`` forfeited: over, the other seats winning."""

    def __init__(self, inner: State, seat: int, reason: Termination = FORFEIT) -> None:
        self.game = inner.game
        self.inner = inner
        self.seat = seat
        self.reason = reason
        n = inner.game.info.num_seats
        self._outcome = Outcome(tuple(s for s in range(n) if s != seat), reason)

    @property
    def kind(self) -> NodeKind:
        """Always over."""
        return NodeKind.TERMINAL

    def acting_seats(self) -> tuple[int, ...]:
        """Nobody."""
        return ()

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Nothing."""
        return ()

    def _apply(self, joint: dict[int, int]) -> State:
        raise IllegalActionError("the game is over (a forfeit)")

    @property
    def outcome(self) -> Outcome:
        """The other seats won by forfeit."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """The lowest utility for the seat that forfeited; the rest shared by the others
        (so a zero-sum game stays zero-sum)."""
        info = self.game.info
        n = info.num_seats
        winners = n - 1
        share = min(info.max_utility, -info.min_utility / winners) if winners else 0.0
        return tuple(info.min_utility if s == self.seat else share for s in range(n))

    def action_to_string(self, seat: int, action: int) -> str:
        """The game's notation."""
        return self.inner.action_to_string(seat, action)

    def string_to_action(self, seat: int, text: str) -> int:
        """The game's notation."""
        return self.inner.string_to_action(seat, text)

    def view(self, seat: int | None) -> ForfeitedState:
        """The same forfeit of what ``seat`` may know."""
        return ForfeitedState(self.inner.view(seat), self.seat, self.reason)

    def to_json(self) -> JSON:
        """The position, and who forfeited."""
        return {"position": self.inner.to_json(), "forfeit": self.seat_name(self.seat)}


def forfeit(state: State, seat: int, reason: Termination = FORFEIT) -> State:
    """``state`` ended by ``seat``'s forfeit, or its resignation with ``reason``
    :data:`RESIGNED` (raises IllegalActionError when already over)."""
    if state.is_terminal():
        raise IllegalActionError(f"the game is already over ({state.describe_outcome()})")
    return ForfeitedState(state, seat, reason)


def drawable(state: State) -> State:
    """The position a game's pictures and text are drawn from: a game ended by a forfeit is
    drawn as it stood when the seat forfeited (its outcome tells the forfeit)."""
    return state.inner if isinstance(state, ForfeitedState) else state
