"""The duel's solution: every position's value and optimal mixes, and what the solver did."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from taut.games.push_pull.solve.duel_model import Canon

Mixes = dict[str, dict[str, dict[str, float]]]
"""``mixes[position][seat][action]``: probabilities, seats ``"W"`` and ``"E"``, actions
in the game's notation."""


@dataclass
class SolveStats:
    """What the solver did and how sure it is."""

    method: str
    seconds: float = 0.0
    pivots: int = 0
    """Simplex pivots over all matrix games."""
    lp_calls: int = 0
    """Matrix games handed to HiGHS (the plain methods, or a rare fallback)."""
    newton_steps: int = 0
    sweeps: int = 0
    product_form: int = 0
    """Position classes whose reported mixes play each piece independently."""
    max_gap: float = 0.0
    """Largest duality gap of the final matrix games: an exact-arithmetic bound on how far
    each mix is from optimal in its position's one-turn game at the returned values."""
    residual: float = 0.0
    """``max |T v - v|`` at the returned values."""


@dataclass
class DuelSolution:
    """Values (West's view) and optimal mixes of every non-terminal duel position."""

    values: dict[str, float]
    strategies: Mixes
    stats: SolveStats
    class_values: dict[Canon, float] = field(repr=False, default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"values": {...}, "strategies": {...}}`` as printed by ``taut solve --json``."""
        return {"values": self.values, "strategies": self.strategies}

    def value(self, position: str) -> float:
        """The value of a position key such as ``"2,2,2"`` for West."""
        return self.values[position]

    def strategy(self, position: str, seat: str) -> dict[str, float]:
        """The optimal mix of ``seat`` (``"W"`` or ``"E"``) at a position key."""
        return self.strategies[position][seat]
