"""Agent parameters as they arrive from ``NAME:key=value`` specs or from Python.

Each reader takes the parameter's name and value (a string from a spec, or a number),
checks it and returns it typed; a value out of range raises :class:`InvalidOptionError`
naming the parameter and what it allows. ``nan``, ``inf`` and numbers written with a
fraction where a count is asked for (``iterations=2.7``) are refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.errors import InvalidOptionError
from taut.core.numbers import read_real

_TRUE = ("1", "true", "on", "yes")
_FALSE = ("0", "false", "off", "no")


def _number(name: str, value: object, allowed: str) -> float:
    """``value`` as a finite float, or an error saying what ``name`` allows."""
    # The one reader of real numbers (taut.core.numbers) refuses nan, inf and overflow.
    number = read_real(value)
    if number is None:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return number


def count(name: str, value: object, minimum: int) -> int:
    """An integer at least ``minimum``, written as an integer (``3``, not ``3.0``)."""
    allowed = f"an integer at least {minimum}"
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        number = int(value)
    else:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    if number < minimum:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return number


def at_least(name: str, value: object, minimum: float) -> float:
    """A finite number at least ``minimum``."""
    allowed = f"a finite number at least {minimum:g}"
    number = _number(name, value, allowed)
    if number < minimum:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return number


def positive(name: str, value: object, unit: str = "") -> float:
    """A finite number greater than 0 (``unit`` names what it counts, as ``seconds``)."""
    allowed = f"a positive finite number{' of ' + unit if unit else ''}"
    number = _number(name, value, allowed)
    if number <= 0:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return number


def share(name: str, value: object, open_below: bool = False) -> float:
    """A number in [0, 1], or in (0, 1] with ``open_below``."""
    allowed = f"a number in {'(' if open_below else '['}0, 1]"
    number = _number(name, value, allowed)
    above = number > 0.0 if open_below else number >= 0.0
    if not above or number > 1.0:
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return number


def switch(name: str, value: object) -> bool:
    """On or off: a bool, or ``on``/``off``, ``true``/``false``, ``yes``/``no``, ``1``/``0``."""
    if isinstance(value, bool):
        return value
    text = str(value).lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise InvalidOptionError(f"{name} must be on or off, got {value!r}")


def choice(name: str, value: object, choices: Sequence[str]) -> str:
    """One of ``choices``."""
    if value not in choices:
        allowed = ", ".join(choices[:-1]) + f" or {choices[-1]}" if len(choices) > 1 else choices[0]
        raise InvalidOptionError(f"{name} must be {allowed}, got {value!r}")
    return str(value)
