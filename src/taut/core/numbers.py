"""Real numbers as people type them: one reader for every float option and parameter.

Every number a person or a file gives (a think time, a threshold, a weight, a share) is read
by :func:`real`, so none of them can forget a check: ``nan``, ``inf``, ``1e999`` (which
overflows to infinity), booleans, text that is no number and values outside the allowed
range are all refused with an :class:`~taut.core.errors.InvalidOptionError` that names the
parameter, what it allows and what it got. NaN needs this care because it passes every
range check: ``nan < 0`` and ``nan > 1`` are both false.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from taut.core.errors import InvalidOptionError

#: A number as typed: digits with an optional sign, fraction and exponent. Words such as
#: ``nan``, ``inf`` or ``infinity`` (which Python's float() reads) are not numbers here.
_TYPED = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]{1,4})?")

#: Longer text is refused unread (a pasted page is not a think time).
_MAX_TYPED = 40


@dataclass(frozen=True)
class Bounds:
    """The allowed range of a real number: ``minimum``/``maximum`` (None: unbounded), each
    closed unless ``open_below``/``open_above``; ``unit`` names what it counts."""

    minimum: float | None = None
    maximum: float | None = None
    open_below: bool = False
    open_above: bool = False
    unit: str = ""

    def allowed(self) -> str:
        """The range in words, as error messages and help texts say it."""
        unit = f" ({self.unit})" if self.unit else ""
        low, high = self.minimum, self.maximum
        if low is not None and high is not None:
            left = "(" if self.open_below else "["
            right = ")" if self.open_above else "]"
            return f"a finite number in {left}{low:g}, {high:g}{right}{unit}"
        if low is not None:
            word = "greater than" if self.open_below else "at least"
            return f"a finite number {word} {low:g}{unit}"
        if high is not None:
            word = "less than" if self.open_above else "at most"
            return f"a finite number {word} {high:g}{unit}"
        return f"a finite number{unit}"

    def admits(self, number: float) -> bool:
        """Whether the finite ``number`` lies in the range."""
        if self.minimum is not None and (
            number < self.minimum or (self.open_below and number == self.minimum)
        ):
            return False
        return not (
            self.maximum is not None
            and (number > self.maximum or (self.open_above and number == self.maximum))
        )


def _shown(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:30] + f"... ({len(shown)} characters)"


def real(name: str, value: object, bounds: Bounds = Bounds()) -> float:
    """``value`` (a number, or text as typed) as a finite float within ``bounds``.

    Raises :class:`InvalidOptionError` naming ``name``, what it allows and what it got.
    """
    number = read_real(value, bounds)
    if number is None:
        raise InvalidOptionError(f"{name} {refusal(value, bounds)}")
    return number


def refusal(value: object, bounds: Bounds) -> str:
    """Why ``value`` is refused, after the parameter's name: ``must be ..., got ...``."""
    return f"must be {bounds.allowed()}, got {_shown(value)}"


def read_real(value: object, bounds: Bounds = Bounds()) -> float | None:
    """``value`` as a finite float within ``bounds``, or None when it is not one."""
    number: float | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        try:
            number = float(value)
        except OverflowError:  # an integer with hundreds of digits
            number = math.inf
    elif isinstance(value, float):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if len(text) <= _MAX_TYPED and _TYPED.fullmatch(text):
            number = float(text)
    if number is None or not math.isfinite(number) or not bounds.admits(number):
        return None
    return number


#: The most digits a typed whole number may have: Python refuses to read an integer of more
#: than 4,300 digits with a ValueError of its own, so readers stop far below that, and no
#: count, index or seat of these games needs more.
MAX_DIGITS = 18


def whole(text: str, max_digits: int = MAX_DIGITS) -> int | None:
    """The non-negative whole number written as ASCII digits in ``text`` (at most
    ``max_digits`` of them), or None when ``text`` is anything else."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None
