"""Tiny games with known solutions, written on the protocol, for testing search."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taut.core.errors import MalformedActionError
from taut.core.game import Game, State
from taut.core.terms import JSON, GameInfo, NodeKind, Outcome, Termination

#: The one way a matrix game ends.
PAYOFF = Termination("payoff", "the payoff was paid")


class MatrixGame(Game):
    """A one-shot two-player zero-sum matrix game: both choose at once, row gets A[i][j]."""

    name = "matrix"
    title = "Matrix game"

    def __init__(self, payoff: Sequence[Sequence[float]], **options: Any) -> None:
        super().__init__()
        self.payoff = [list(map(float, row)) for row in payoff]
        m, n = len(self.payoff), len(self.payoff[0])
        hi = max(abs(x) for row in self.payoff for x in row)
        self._info = GameInfo(
            name="matrix",
            title="Matrix game",
            version="1",
            seats=("R", "C"),
            simultaneous=True,
            chance=False,
            perfect_information=True,
            num_distinct_actions=max(m, n),
            num_chance_outcomes=0,
            min_utility=-hi,
            max_utility=hi,
            zero_sum=True,
            max_game_length=1,
        )

    @property
    def info(self) -> GameInfo:
        return self._info

    def new_initial_state(self) -> MatrixState:
        return MatrixState(self, None)

    def state_from_json(self, data: JSON) -> MatrixState:
        return MatrixState(self, None if data["played"] is None else tuple(data["played"]))


class MatrixState(State):
    game: MatrixGame

    def __init__(self, game: MatrixGame, played: tuple[int, int] | None) -> None:
        self.game = game
        self.played = played

    @property
    def kind(self) -> NodeKind:
        return NodeKind.TERMINAL if self.played else NodeKind.SIMULTANEOUS

    def acting_seats(self) -> tuple[int, ...]:
        return () if self.played else (0, 1)

    def legal_actions(self, seat: int) -> Sequence[int]:
        if self.played:
            return ()
        return range(len(self.game.payoff)) if seat == 0 else range(len(self.game.payoff[0]))

    def _apply(self, joint: dict[int, int]) -> State:
        return MatrixState(self.game, (joint[0], joint[1]))

    @property
    def outcome(self) -> Outcome | None:
        if not self.played:
            return None
        v = self.returns()[0]
        return Outcome((0,) if v > 0 else (1,) if v < 0 else (), PAYOFF)

    def returns(self) -> tuple[float, ...]:
        if not self.played:
            return (0.0, 0.0)
        v = self.game.payoff[self.played[0]][self.played[1]]
        return (v, -v)

    def action_to_string(self, seat: int, action: int) -> str:
        return str(action)

    def string_to_action(self, seat: int, text: str) -> int:
        if not text.strip().isdigit():
            raise MalformedActionError(f"{text!r} is not a row/column number")
        return int(text)

    def to_json(self) -> JSON:
        return {"played": None if self.played is None else list(self.played)}
