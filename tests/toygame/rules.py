"""Rope: two players pull a marker along a short rope; a tie is settled by a coin.

Each turn both players secretly choose how hard to pull (1, 2 or 3). The harder pull moves
the marker one step toward its player; equal pulls call a coin (a chance node) that moves it
one step to either side. A marker that reaches ``goal`` steps from the middle wins for the
player on that side; ``max_turns`` draws the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taut.core.errors import MalformedActionError, PositionError
from taut.core.game import Game, State
from taut.core.options import MAX_TURNS, OptionSpec
from taut.core.terms import CHANCE_SEAT, JSON, TURN_LIMIT, GameInfo, NodeKind, Outcome, Termination

LEFT, RIGHT = 0, 1
PULLS = (1, 2, 3)
#: The marker reached a player's end of the rope.
OVER_THE_LINE = Termination("over the line", "the marker reached a player's end")


class Rope(Game):
    """Rope for two players, L (pulls toward negative positions) and R."""

    name = "rope"
    title = "Rope"
    OPTIONS = (
        OptionSpec("goal", int, 2, "steps from the middle that win", minimum=1, maximum=5),
        MAX_TURNS,
    )
    TERMINATIONS = (OVER_THE_LINE,)

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.goal = int(self.options["goal"] or 0)
        limit = self.options["max_turns"]
        self.max_turns = None if limit is None else int(limit)
        self._info = GameInfo(
            name=self.name,
            title=self.title,
            version="1",
            seats=("L", "R"),
            simultaneous=True,
            chance=True,
            perfect_information=True,
            num_distinct_actions=len(PULLS),
            num_chance_outcomes=2,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            max_game_length=None if self.max_turns is None else 2 * self.max_turns,
        )

    @property
    def info(self) -> GameInfo:
        """Two simultaneous seats, three pulls each, a coin."""
        return self._info

    def new_initial_state(self) -> RopeState:
        """The marker in the middle."""
        return RopeState(self, 0, 0, False)

    def state_from_json(self, data: JSON) -> RopeState:
        """``{"marker": m, "turn": t, "coin": bool}``."""
        if not isinstance(data, dict):
            raise PositionError("a rope position is an object with marker, turn and coin")
        marker, turn, coin = data.get("marker"), data.get("turn", 0), data.get("coin", False)
        if type(marker) is not int or abs(marker) > self.goal:
            raise PositionError(f"'marker' must be an integer -{self.goal}..{self.goal}")
        if type(turn) is not int or turn < 0 or type(coin) is not bool:
            raise PositionError("'turn' must be a count and 'coin' true or false")
        return RopeState(self, marker, turn, coin)

    def heuristic(self, state: State) -> tuple[float, ...]:
        """The marker's position, as a share of the way to the goal."""
        assert isinstance(state, RopeState)
        if state.is_terminal():
            return state.returns()
        v = -0.9 * state.marker / self.goal
        return (v, -v)


class RopeState(State):
    """Where the marker is, the turns played, and whether a coin is due."""

    game: Rope

    def __init__(self, game: Rope, marker: int, turn: int, coin: bool) -> None:
        self.game = game
        self.marker = marker
        self.turn = turn
        self.coin = coin
        self._outcome: Outcome | None = None
        if abs(marker) >= game.goal:
            self._outcome = Outcome((LEFT,) if marker < 0 else (RIGHT,), OVER_THE_LINE)
        elif not coin and game.max_turns is not None and turn >= game.max_turns:
            self._outcome = Outcome((), TURN_LIMIT)

    @property
    def kind(self) -> NodeKind:
        """Simultaneous pulls, a coin after a tie, or the end."""
        if self._outcome is not None:
            return NodeKind.TERMINAL
        return NodeKind.CHANCE if self.coin else NodeKind.SIMULTANEOUS

    def acting_seats(self) -> tuple[int, ...]:
        """Both players, the coin, or nobody."""
        kind = self.kind
        if kind is NodeKind.TERMINAL:
            return ()
        return (CHANCE_SEAT,) if kind is NodeKind.CHANCE else (LEFT, RIGHT)

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Every pull for both players at a pull."""
        return range(len(PULLS)) if self.kind is NodeKind.SIMULTANEOUS and seat in (0, 1) else ()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The coin: toward L or toward R."""
        return [(LEFT, 0.5), (RIGHT, 0.5)] if self.kind is NodeKind.CHANCE else []

    def _apply(self, joint: dict[int, int]) -> RopeState:
        if CHANCE_SEAT in joint:
            step = -1 if joint[CHANCE_SEAT] == LEFT else 1
            return RopeState(self.game, self.marker + step, self.turn, False)
        left, right = joint[LEFT], joint[RIGHT]
        if left == right:
            return RopeState(self.game, self.marker, self.turn + 1, True)
        step = -1 if left > right else 1
        return RopeState(self.game, self.marker + step, self.turn + 1, False)

    @property
    def outcome(self) -> Outcome | None:
        """Who pulled the marker over, or a draw at the turn limit."""
        return self._outcome

    def returns(self) -> tuple[float, ...]:
        """+1 / -1, or 0 for both."""
        out = self._outcome
        if out is None or not out.winners:
            return (0.0, 0.0)
        return (1.0, -1.0) if out.winners[0] == LEFT else (-1.0, 1.0)

    def action_to_string(self, seat: int, action: int) -> str:
        """A pull as its strength; the coin as L or R."""
        if seat == CHANCE_SEAT:
            return "LR"[action]
        return str(PULLS[action])

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse a strength 1..3 (or the coin's L / R)."""
        t = text.strip().upper()
        if seat == CHANCE_SEAT and t in ("L", "R"):
            return "LR".index(t)
        if seat != CHANCE_SEAT and t in ("1", "2", "3"):
            return int(t) - 1
        raise MalformedActionError(f"{text.strip()!r} is not a pull; pull 1, 2 or 3")

    def to_json(self) -> JSON:
        """Marker, turn and whether a coin is due."""
        return {"marker": self.marker, "turn": self.turn, "coin": self.coin}
