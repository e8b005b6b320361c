"""How long a search thinks: a fixed number of iterations, or seconds of wall time.

Every search spends its budget the same way: with an iteration count it runs exactly that
many iterations (reproducible from a seed on any machine); otherwise it runs until
``think`` seconds have passed, reading the clock only every few iterations because a clock
read costs as much as a cheap iteration.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable


class Deadline:
    """A moment after which a search stops (never, for ``seconds=None``)."""

    __slots__ = ("at",)

    def __init__(self, seconds: float | None) -> None:
        self.at = math.inf if seconds is None else time.perf_counter() + seconds

    def passed(self) -> bool:
        """True once the moment has come."""
        return time.perf_counter() >= self.at


def spend(step: Callable[[], object], iterations: int | None, think: float, every: int) -> int:
    """Call ``step`` until the budget is spent; returns how many times it was called.

    With ``iterations`` it is called exactly that many times (at least once). Otherwise it
    is called until ``think`` seconds have passed, the clock read every ``every`` calls.
    """
    if iterations is not None:
        for _ in range(max(1, iterations)):
            step()
        return max(1, iterations)
    deadline = Deadline(think)
    count = 0
    while True:
        step()
        count += 1
        if count % every == 0 and deadline.passed():
            return count
