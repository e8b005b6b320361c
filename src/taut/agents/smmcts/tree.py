"""A node of the SM-MCTS tree: the acting seats, their actions and statistics, children."""

from __future__ import annotations

from taut.agents.smmcts.matrix import FULL_WIDTH_MAX, MatrixNode
from taut.agents.smmcts.selection import SeatStats
from taut.core.game import State
from taut.core.terms import NodeKind


class Node:
    """One position of the search (shared by every path to it when positions are shared).

    ``id`` is its number in the search's flat arrays (:mod:`taut.agents.smmcts.flat`). A
    node where two seats act and the joint actions are few is ``full`` (see
    :mod:`taut.agents.smmcts.matrix`) and gets a ``matrix`` when first expanded; other
    nodes keep one :class:`SeatStats` per acting seat. ``children`` maps a selection (one
    action index per acting seat, or a chance outcome) to the child's number and its
    position (by number, not by reference: see :mod:`taut.agents.smmcts.matrix`).
    """

    __slots__ = (
        "_actions",
        "_full",
        "_full_width",
        "_state",
        "_stats",
        "children",
        "id",
        "matrix",
        "seats",
        "visits",
        "vsum",
    )

    def __init__(self, state: State, ident: int, full_width: bool) -> None:
        self.id = ident
        self.seats = state.acting_seats()
        # The actions and statistics are made when first asked for: a full-width
        # expansion makes dozens of children that no descent may ever enter.
        self._state: State | None = state
        self._full_width = full_width
        self._actions: tuple[tuple[int, ...], ...] = ()
        self._full = False
        self._stats: tuple[SeatStats, ...] = ()
        self.matrix: MatrixNode | None = None  # full-width nodes, once expanded
        self.children: dict[tuple[int, ...], tuple[int, State]] = {}
        # Descents that passed through (or ended at) this node and their summed rewards per
        # seat; an expanded full-width node keeps its statistics in the search's flat
        # arrays instead.
        self.visits = 0
        self.vsum: list[float] | None = None

    def _open(self, state: State) -> None:
        """Read the acting seats' actions from ``state`` and make the statistics."""
        self._state = None
        kind = state.kind
        if kind is not NodeKind.CHANCE and kind is not NodeKind.TERMINAL:
            self._actions = tuple(tuple(state.legal_actions(s)) for s in self.seats)
        actions = self._actions
        self._full = (
            self._full_width
            and len(actions) == 2
            and len(actions[0]) * len(actions[1]) <= FULL_WIDTH_MAX
        )
        if not self._full:
            self._stats = tuple(SeatStats(len(a)) for a in actions)

    @property
    def actions(self) -> tuple[tuple[int, ...], ...]:
        """Each acting seat's legal actions (none at chance and terminal nodes)."""
        if self._state is not None:
            self._open(self._state)
        return self._actions

    @property
    def full(self) -> bool:
        """Whether the node uses the full-width backup."""
        if self._state is not None:
            self._open(self._state)
        return self._full

    @property
    def stats(self) -> tuple[SeatStats, ...]:
        """One :class:`SeatStats` per acting seat (none at full-width nodes)."""
        if self._state is not None:
            self._open(self._state)
        return self._stats

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
