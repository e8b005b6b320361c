"""Draws by repetition (option ``repeat=N``): a state that counts the positions seen.

With the option on, the game is drawn when the same position - the same stacks on the same
intersections and the same broken ends - occurs for the N-th time (the start counts once).
A state then also carries how often each earlier position occurred. Only positions since
the last break or the last disk gained can come back: broken ends never mend and disks
never leave the board, so the count starts afresh after either, which keeps it short.

Without the option the game builds plain :class:`PullingStringsState` objects and pays
nothing for any of this.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from taut.core.terms import JSON, TURN_LIMIT, Outcome, Termination
from taut.games.pulling_strings.board import SIZE
from taut.games.pulling_strings.state import PullingStringsState

if TYPE_CHECKING:
    from taut.games.pulling_strings.rules import PullingStrings

#: The same position occurred for the ``repeat``-th time.
REPETITION = Termination("repetition", "drawn by repetition")

Stacks = tuple[tuple[int, int], ...]
"""The stacks of a position as sorted ``(cell, disks)`` pairs (its broken ends are the
state's own: every position counted beside a state has them)."""


def stacks_key(stacks: dict[int, int]) -> Stacks:
    """The stacks as sorted ``(cell, disks)`` pairs."""
    return tuple(sorted(stacks.items()))


class RepeatingState(PullingStringsState):
    """A position that also knows how often each earlier position occurred.

    ``seen`` maps the stacks of earlier positions with the same broken ends and the same
    number of disks to how many times each occurred; it is never changed after the state
    is built.
    """

    __slots__ = ("_at", "_seen", "_times")

    def __init__(
        self,
        game: PullingStrings,
        stacks: dict[int, int],
        broken: int,
        turn: int,
        outcome: Outcome | None = None,
        seen: dict[Stacks, int] | None = None,
    ) -> None:
        self._seen: dict[Stacks, int] = {} if seen is None else seen
        self._at = stacks_key(stacks)
        self._times = self._seen.get(self._at, 0) + 1
        super().__init__(game, stacks, broken, turn, outcome)

    def _judge(self) -> Outcome | None:
        out = super()._judge()
        limit = self.game.repeat
        # A win or a stuck board says more than a repetition; a turn limit reached on the
        # same turn says less.
        if (out is None or out.reason == TURN_LIMIT) and limit is not None and self._times >= limit:
            return Outcome((), REPETITION)
        return out

    @property
    def times(self) -> int:
        """How many times this position has occurred, this time included."""
        return self._times

    def seen(self) -> dict[Stacks, int]:
        """Earlier positions that may come back (stacks -> times), as a new dict."""
        return dict(self._seen)

    def pull(self, p: int, q: int) -> RepeatingState:
        """The successor when X pulls ``p`` and O pulls ``q``, with this position counted."""
        moved = PullingStringsState.pull(self, p, q)
        stacks = moved._stacks
        if moved.broken == self.broken and sum(stacks.values()) == self.total_disks():
            seen = dict(self._seen)
            seen[self._at] = self._times
        else:
            seen = {}
        return RepeatingState(self.game, stacks, moved.broken, moved.turn, None, seen)

    def end_by_agreement(self) -> RepeatingState:
        """The same position (and counts), ended as a draw agreed by both players."""
        agreed = super().end_by_agreement()
        return RepeatingState(
            self.game, dict(self._stacks), self.broken, self.turn, agreed.outcome, self._seen
        )

    def to_json(self) -> JSON:
        """The position, and ``seen``: the earlier positions that may come back, with how
        many times each occurred (``[{"stacks": [[row, col, count], ...], "times": 2}]``)."""
        data = super().to_json()
        data["seen"] = [
            {"stacks": [[c // SIZE, c % SIZE, n] for c, n in at], "times": times}
            for at, times in sorted(self._seen.items())
        ]
        return data

    def transposition_key(self) -> Hashable:
        """The position with the counts of earlier ones: they decide when it is drawn."""
        return (super().transposition_key(), frozenset(self._seen.items()))

    def __eq__(self, other: object) -> bool:
        same = super().__eq__(other)
        if same is True and isinstance(other, RepeatingState):
            return self._seen == other._seen
        return same

    __hash__ = PullingStringsState.__hash__
