"""Declared game options: each game lists its options with types, defaults and allowed values."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.errors import InvalidOptionError
from taut.core.numbers import Bounds, read_real

OptionValue = str | int | float | bool | None


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``kind`` is ``str``, ``int``, ``float`` or ``bool``; ``choices`` (for strings) lists the
    allowed values; ``minimum``/``maximum`` bound numbers; ``nullable`` lets the value be ``None``
    (written ``none`` on the command line).
    """

    name: str
    kind: type
    default: OptionValue
    doc: str
    choices: tuple[str | int, ...] = ()
    minimum: int | float | None = None
    maximum: int | float | None = None
    nullable: bool = False
    aliases: tuple[str, ...] = field(default=())

    def allowed(self) -> str:
        """A short human description of the allowed values."""
        if self.choices:
            text = " | ".join(str(c) for c in self.choices)
        elif self.kind is bool:
            text = "true | false"
        elif self.kind is int:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            text = f"integer {lo}..{hi}" if (lo or hi) else "integer"
        elif self.kind is float:
            lo = "" if self.minimum is None else f"{self.minimum:g}"
            hi = "" if self.maximum is None else f"{self.maximum:g}"
            text = f"number {lo}..{hi}" if (lo or hi) else "number"
        else:
            text = "text"
        return text + (" | none" if self.nullable else "")

    def coerce(self, value: Any) -> OptionValue:
        """Validate ``value`` and return it as the option's type.

        Values typed on the command line arrive as :class:`OptionText` and are read as text
        (``3``, ``on``, ``none``). Anything else must already have the option's type: an
        integer option takes an ``int`` (not ``"2"``, not ``2.7``), a switch a ``bool``, a
        text option a ``str``, and ``None`` only where the option allows it.
        """
        text = isinstance(value, OptionText)
        if value is None or (text and value.strip().lower() in ("none", "null")):
            if self.nullable:
                return None
            raise InvalidOptionError(
                f"option {self.name!r} cannot be none; allowed: {self.allowed()}"
            )
        if self.kind is bool:
            return self._switch(value, text)
        if self.kind is int:
            return self._integer(value, text)
        if self.kind is float:
            return self._real(value, text)
        if not isinstance(value, str):
            raise self._refuse(value)
        out = str(value)
        if self.choices and out not in self.choices:
            raise self._refuse(out)
        return out

    def _refuse(self, value: Any, why: str = "") -> InvalidOptionError:
        shown = repr(value)
        if len(shown) > 40:  # a pasted page says too little to be worth repeating
            shown = shown[:30] + f"... ({len(shown)} characters)"
        return InvalidOptionError(
            f"option {self.name!r} got {shown}{why}; allowed: {self.allowed()}"
        )

    def _switch(self, value: Any, text: bool) -> bool:
        if isinstance(value, bool):
            return value
        word = value.strip().lower() if text else None
        if word in ("true", "yes", "on", "1"):
            return True
        if word in ("false", "no", "off", "0"):
            return False
        raise self._refuse(value)

    def _integer(self, value: Any, text: bool) -> int:
        if text:
            if _INTEGER.fullmatch(value.strip()) is None:
                raise self._refuse(str(value), " (not a whole number)")
            out = int(value.strip())
        elif type(value) is int:
            out = value
        else:
            why = " (text, not a number)" if isinstance(value, str) else ""
            raise self._refuse(value, why)
        if (
            (self.minimum is not None and out < self.minimum)
            or (self.maximum is not None and out > self.maximum)
            or (self.choices and out not in self.choices)
        ):
            raise self._refuse(out)
        return out

    def _real(self, value: Any, text: bool) -> float:
        if text:
            if _REAL.fullmatch(value.strip()) is None:
                raise self._refuse(str(value), " (not a number)")
        elif type(value) not in (int, float):
            why = " (text, not a number)" if isinstance(value, str) else ""
            raise self._refuse(value, why)
        # The one reader of real numbers: nan, inf, overflow and the range, in one place.
        out = read_real(value, Bounds(self.minimum, self.maximum))
        if out is None:
            raise self._refuse(value)
        return out


#: A decimal number as typed (no exponent, no inf or nan), at most 18 digits.
_REAL = re.compile(r"[+-]?([0-9]{1,17}(\.[0-9]{0,17})?|\.[0-9]{1,17})")

#: A whole number as typed: ASCII digits with an optional sign (at most 18 of them, so that
#: a pasted page of digits is refused at once instead of being read).
_INTEGER = re.compile(r"[+-]?[0-9]{1,18}")


class OptionText(str):
    """An option value typed on the command line: :meth:`OptionSpec.coerce` reads it as text."""


def resolve_options(
    game_name: str,
    specs: Sequence[OptionSpec],
    given: Mapping[str, Any],
    check: Callable[[dict[str, OptionValue]], None] | None = None,
) -> dict[str, OptionValue]:
    """Validate ``given`` against ``specs`` and fill in defaults.

    Python keyword spellings with a trailing underscore (``break_``) and dashes written as
    underscores (``max_turns`` for ``max-turns``) are accepted as aliases.
    """
    by_name: dict[str, OptionSpec] = {}
    for spec in specs:
        by_name[spec.name] = spec
        by_name[spec.name.replace("-", "_")] = spec
        by_name[spec.name + "_"] = spec
        for alias in spec.aliases:
            by_name[alias] = spec
    out: dict[str, OptionValue] = {spec.name: spec.default for spec in specs}
    for key, value in given.items():
        found = by_name.get(key)
        if found is None:
            names = ", ".join(s.name for s in specs) or "none"
            raise InvalidOptionError(f"{game_name} has no option {key!r}; its options are: {names}")
        out[found.name] = found.coerce(value)
    if check is not None:
        check(out)
    return out


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, OptionText]:
    """Parse ``key=value`` strings from the command line into a dict of typed-text values."""
    out: dict[str, OptionText] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptionError(f"option {pair!r} is not of the form key=value")
        out[key.strip()] = OptionText(value.strip())
    return out


#: The turn limit every game with endless lines offers: reaching it is a draw.
MAX_TURNS = OptionSpec(
    "max_turns",
    int,
    None,
    "turns after which the game is drawn",
    minimum=1,
    nullable=True,
    aliases=("max-turns",),
)


def option_text(value: object) -> str:
    """An option's value as the command line writes it (``none``, ``true``, ``3``): what
    :func:`parse_option_pairs` reads back."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
