"""A node of the SM-MCTS tree: the acting seats, their actions and statistics, children."""

from __future__ import annotations

from taut.agents.smmcts.matrix import FULL_WIDTH_MAX, MatrixNode
from taut.agents.smmcts.selection import SeatStats
from taut.core.game import NodeKind, State


class Node:
    """One position of the search (shared by every path to it when positions are shared).

    ``id`` is its row in the search's value table. A node where two seats act and the joint
    actions are few is ``full`` (see :mod:`taut.agents.smmcts.matrix`) and gets a
    ``matrix`` when first expanded; other nodes keep one :class:`SeatStats` per acting
    seat. ``children`` maps a selection (one action index per acting seat, or a chance
    outcome) to the child node and its position.
    """

    __slots__ = (
        "actions",
        "children",
        "full",
        "id",
        "matrix",
        "seats",
        "stats",
        "visits",
        "vsum",
    )

    def __init__(self, state: State, ident: int, full_width: bool) -> None:
        self.id = ident
        self.seats = state.acting_seats()
        kind = state.kind
        if kind is NodeKind.CHANCE or kind is NodeKind.TERMINAL:
            self.actions: tuple[tuple[int, ...], ...] = ()
        else:
            self.actions = tuple(tuple(state.legal_actions(s)) for s in self.seats)
        self.full = (
            full_width
            and len(self.actions) == 2
            and len(self.actions[0]) * len(self.actions[1]) <= FULL_WIDTH_MAX
        )
        self.stats: tuple[SeatStats, ...] = (
            () if self.full else tuple(SeatStats(len(a)) for a in self.actions)
        )
        self.matrix: MatrixNode | None = None  # full-width nodes, once expanded
        self.children: dict[tuple[int, ...], tuple[Node, State]] = {}
        self.visits = 0  # descents that passed through (or ended at) this node
        self.vsum: list[float] | None = None  # their summed rewards per seat

    def mean(self) -> list[float] | None:
        """The mean reward per seat of the descents through this node (None if none)."""
        if self.vsum is None:
            return None
        return [v / self.visits for v in self.vsum]

    def record(self, rewards: list[float]) -> None:
        """Count one descent through this node."""
        self.visits += 1
        if self.vsum is None:
            self.vsum = list(rewards)
        else:
            for k, r in enumerate(rewards):
                self.vsum[k] += r
