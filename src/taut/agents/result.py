"""What a search returns: a frozen value, never statistics left behind on the agent."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search from a root position (after mctx's ``PolicyOutput``).

    ``policy`` maps each seat the search answers for to its action weights (``action ->
    probability``): the mix the agent plays. ``value`` is the root's estimated value per
    seat, in the game's utility units (empty when the search made no estimate).
    ``iterations`` counts the search's descents (Monte Carlo searches) or completed
    deepenings (Nash search); ``nodes`` the tree nodes it made or the positions it
    expanded; ``visits`` the root's visit counts per seat and action where the search
    keeps them; ``depth`` the depth of the deepest completed search where there is one;
    ``action_values`` each root action's estimated value for the seat that chooses it, per
    seat, in utility units, where the search keeps them (what analysis compares moves by).

    The mappings are read-only: a result may be kept, compared and shared freely.
    """

    policy: Mapping[int, Mapping[int, float]]
    value: Mapping[int, float] = field(default_factory=dict)
    iterations: int = 0
    nodes: int = 0
    visits: Mapping[int, Mapping[int, int]] = field(default_factory=dict)
    depth: int = 0
    action_values: Mapping[int, Mapping[int, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        freeze = object.__setattr__  # the one place a frozen result is filled in
        freeze(self, "policy", _read_only({s: _read_only(m) for s, m in self.policy.items()}))
        freeze(self, "value", _read_only(self.value))
        freeze(self, "visits", _read_only({s: _read_only(m) for s, m in self.visits.items()}))
        values = {s: _read_only(m) for s, m in self.action_values.items()}
        freeze(self, "action_values", _read_only(values))

    def mix(self, seat: int) -> dict[int, float]:
        """A copy of ``seat``'s action weights (KeyError if the search did not answer it)."""
        return dict(self.policy[seat])


def _read_only(mapping: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy of ``mapping``."""
    return MappingProxyType(dict(mapping))
