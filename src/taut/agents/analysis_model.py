"""What analysis and its searches share: the labels' thresholds, the search constants and
a seat's estimate at one node (kept apart so the searches and the analysis that calls them
import it without a circle)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: A move that loses at least this share of the utility range is an inaccuracy.
INACCURACY = 0.05
#: ... a mistake.
MISTAKE = 0.10
#: ... a blunder.
BLUNDER = 0.20
#: The labels, mildest first, and their shares of the utility range.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("inaccuracy", INACCURACY),
    ("mistake", MISTAKE),
    ("blunder", BLUNDER),
)
#: Seconds of search per node unless told otherwise.
DEFAULT_THINK = 0.5
#: Losses below this are rounding: they count as 0.
TOLERANCE = 1e-9

#: Where a judgement's values come from (see the module docstring).
EXACT, SOLUTION, SEARCH = "exact", "solution", "search"

#: Regret matching's exploration at the full-width root (the ``smmcts`` default).
GAMMA = 0.1
#: UCT's constant and root prior visits for wide simultaneous nodes (as ``hard`` plays).
WIDE_C, WIDE_PRIOR = 0.3, 100.0
#: UCT's constant where one seat chooses (the ``smmcts`` default, as ``hard`` plays).
TURN_C = 1.4
#: ISMCTS parameters (as ``hard`` plays): UCB constant, prior visits, look-ahead playout.
HIDDEN_C, HIDDEN_BIAS, HIDDEN_PLAYOUT = 0.3, 5.0, 3


@dataclass(frozen=True)
class SeatEstimate:
    """What the analysis knows of one seat's choice at one node."""

    values: Mapping[int, float]
    """The seat's value of each action it could take (in utility units), where estimated."""
    value: float
    """The seat's value of the position (its mix's value, or its best move's)."""
    best: int
    """The engine's action."""
    method: str
    """:data:`EXACT`, :data:`SOLUTION` or :data:`SEARCH`."""

    def loss(self, action: int) -> float:
        """What playing ``action`` costs against :attr:`value` (0 where within rounding)."""
        got = self.values.get(action)
        if got is None:  # pragma: no cover - every legal action is estimated
            raise KeyError(f"action {action} was not estimated")
        loss = self.value - got
        return 0.0 if loss < TOLERANCE else loss
