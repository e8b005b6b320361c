"""Ratings of agents with openskill (Plackett-Luce), updated game by game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce


class Ratings:
    """An openskill rating per agent."""

    def __init__(self, names: Sequence[str]) -> None:
        self.model = PlackettLuce()
        self._ratings: dict[str, Any] = {n: self.model.rating(name=n) for n in names}

    def update(self, a: str, b: str, result: float) -> None:
        """Record a game between ``a`` and ``b``: 1 a won, 0 b won, 0.5 a draw."""
        ranks: list[float] = [0, 1] if result == 1.0 else [1, 0] if result == 0.0 else [0, 0]
        [[ra], [rb]] = self.model.rate([[self._ratings[a]], [self._ratings[b]]], ranks=ranks)
        self._ratings[a], self._ratings[b] = ra, rb

    def get(self, name: str) -> tuple[float, float]:
        """``(mu, sigma)`` of an agent."""
        r = self._ratings[name]
        return float(r.mu), float(r.sigma)
