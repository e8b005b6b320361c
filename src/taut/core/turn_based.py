"""A turn-based view of a simultaneous game, for algorithms that need one seat at a time.

At each simultaneous node of the wrapped game the acting seats choose one after another in
seat order; choices already made are *pending*, kept in the state but hidden from the other
seats (``view`` shows that they chose, not what: :data:`HIDDEN` stands for their action),
and the joint action is applied to the wrapped state once the last seat has chosen. Chance
and one-seat nodes pass through unchanged. The result is a sequential game of imperfect
information with the same outcomes (OpenSpiel calls this transformation
``turn_based_simultaneous_game``).
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.errors import PositionError
from taut.core.game import Game, State
from taut.core.terms import JSON, GameInfo, NodeKind, Outcome

#: What a view shows instead of another seat's pending choice.
HIDDEN = -1


class TurnBasedGame(Game):
    """Wraps ``inner`` so that simultaneous nodes become a sequence of one-seat nodes."""

    name = "turn-based"
    title = "Turn-based view"

    def __init__(self, inner: Game) -> None:
        # The options are the wrapped game's: the wrapper has none of its own.
        super().__init__()
        self.inner = inner
        info = inner.info
        self.options = dict(inner.options)
        self._info = GameInfo(
            name=f"{info.name}/turn-based",
            title=f"{info.title} (turn-based)",
            version=info.version,
            seats=info.seats,
            simultaneous=False,
            chance=info.chance,
            perfect_information=info.perfect_information and not info.simultaneous,
            num_distinct_actions=info.num_distinct_actions,
            num_chance_outcomes=info.num_chance_outcomes,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            zero_sum=info.zero_sum,
            max_game_length=None
            if info.max_game_length is None
            else info.max_game_length * info.num_seats,
        )

    @property
    def info(self) -> GameInfo:
        """The wrapped game's metadata, made sequential."""
        return self._info

    def new_initial_state(self) -> TurnBasedState:
        """The wrapped game's start, with nothing pending."""
        return TurnBasedState(self, self.inner.new_initial_state(), ())

    def state_from_json(self, data: JSON) -> TurnBasedState:
        """Rebuild from ``{"inner": ..., "pending": [[seat, action], ...]}``."""
        if not isinstance(data, dict) or "inner" not in data:
            raise PositionError("a turn-based state is {'inner': ..., 'pending': [...]}")
        raw = data.get("pending", [])
        if not isinstance(raw, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(type(v) is int for v in p) for p in raw
        ):
            raise PositionError("'pending' must be a list of [seat, action] integer pairs")
        pending = tuple((s, a) for s, a in raw)
        return TurnBasedState(self, self.inner.state_from_json(data["inner"]), pending)

    def heuristic(self, state: State) -> tuple[float, ...]:
        """The wrapped game's heuristic of the wrapped state."""
        assert isinstance(state, TurnBasedState)
        return self.inner.heuristic(state.inner)


class TurnBasedState(State):
    """A wrapped state plus the choices already made at the current simultaneous node."""

    game: TurnBasedGame

    def __init__(
        self, game: TurnBasedGame, inner: State, pending: tuple[tuple[int, int], ...]
    ) -> None:
        self.game = game
        self.inner = inner
        self.pending = pending
        #: True in a view that does not know another seat's pending choice.
        self.hidden = any(a == HIDDEN for _, a in pending)

    def _next_seat(self) -> int | None:
        done = {s for s, _ in self.pending}
        for seat in self.inner.acting_seats():
            if seat not in done:
                return seat
        return None

    @property
    def kind(self) -> NodeKind:
        """SIMULTANEOUS nodes of the wrapped game become DECISION nodes."""
        k = self.inner.kind
        return NodeKind.DECISION if k is NodeKind.SIMULTANEOUS else k

    def acting_seats(self) -> tuple[int, ...]:
        """The next seat still to choose at a simultaneous node, else the wrapped seats."""
        if self.inner.kind is NodeKind.SIMULTANEOUS:
            seat = self._next_seat()
            return () if seat is None else (seat,)
        return self.inner.acting_seats()

    def legal_actions(self, seat: int) -> Sequence[int]:
        """The wrapped legal actions of ``seat`` when it is that seat's turn."""
        return self.inner.legal_actions(seat) if seat in self.acting_seats() else ()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The wrapped chance outcomes."""
        return self.inner.chance_outcomes()

    def _apply(self, joint: dict[int, int]) -> TurnBasedState:
        if self.hidden:
            raise PositionError("a view with hidden pending choices cannot be played on")
        if self.inner.kind is not NodeKind.SIMULTANEOUS:
            return TurnBasedState(self.game, self.inner.apply(joint), ())
        ((seat, action),) = joint.items()
        pending = (*self.pending, (seat, action))
        if len(pending) < len(self.inner.acting_seats()):
            return TurnBasedState(self.game, self.inner, pending)
        return TurnBasedState(self.game, self.inner.apply(dict(pending)), ())

    @property
    def outcome(self) -> Outcome | None:
        """The wrapped outcome."""
        return self.inner.outcome

    def returns(self) -> tuple[float, ...]:
        """The wrapped returns."""
        return self.inner.returns()

    def action_to_string(self, seat: int, action: int) -> str:
        """The wrapped notation."""
        return self.inner.action_to_string(seat, action)

    def string_to_action(self, seat: int, text: str) -> int:
        """The wrapped notation."""
        return self.inner.string_to_action(seat, text)

    def action_to_json(self, seat: int, action: int) -> JSON:
        """The wrapped JSON form."""
        return self.inner.action_to_json(seat, action)

    def action_from_json(self, seat: int, data: JSON) -> int:
        """The wrapped JSON form."""
        return self.inner.action_from_json(seat, data)

    def end_by_agreement(self) -> TurnBasedState:
        """The wrapped draw by agreement."""
        return TurnBasedState(self.game, self.inner.end_by_agreement(), ())

    def view(self, seat: int | None) -> TurnBasedState:
        """The wrapped view; other seats' pending choices show as :data:`HIDDEN` (that they
        chose is public, what they chose is not), so the view still knows who acts next."""
        pending = tuple((s, a if s == seat else HIDDEN) for s, a in self.pending)
        return TurnBasedState(self.game, self.inner.view(seat), pending)

    def to_json(self) -> JSON:
        """``{"inner": wrapped JSON, "pending": [[seat, action], ...]}``."""
        return {"inner": self.inner.to_json(), "pending": [list(p) for p in self.pending]}
