"""Declared game options: each game lists its options with types, defaults and allowed values."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.errors import InvalidOptionError

OptionValue = str | int | bool | None


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game.

    ``kind`` is ``str``, ``int`` or ``bool``; ``choices`` (for strings) lists the allowed
    values; ``minimum``/``maximum`` bound integers; ``nullable`` lets the value be ``None``
    (written ``none`` on the command line).
    """

    name: str
    kind: type
    default: OptionValue
    doc: str
    choices: tuple[str | int, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
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
        else:
            text = "text"
        return text + (" | none" if self.nullable else "")

    def coerce(self, value: Any) -> OptionValue:
        """Convert ``value`` (possibly a command-line string) and validate it."""
        if value is None or (isinstance(value, str) and value.lower() in ("none", "null")):
            if self.nullable:
                return None
            raise InvalidOptionError(
                f"option {self.name!r} cannot be none; allowed: {self.allowed()}"
            )
        out: OptionValue
        if self.kind is bool:
            if isinstance(value, bool):
                out = value
            elif isinstance(value, str) and value.lower() in ("true", "yes", "on", "1"):
                out = True
            elif isinstance(value, str) and value.lower() in ("false", "no", "off", "0"):
                out = False
            else:
                raise InvalidOptionError(
                    f"option {self.name!r} got {value!r}; allowed: {self.allowed()}"
                )
        elif self.kind is int:
            if isinstance(value, bool):
                raise InvalidOptionError(
                    f"option {self.name!r} got {value!r}; allowed: {self.allowed()}"
                )
            try:
                out = int(value)
            except (TypeError, ValueError):
                raise InvalidOptionError(
                    f"option {self.name!r} got {value!r}; allowed: {self.allowed()}"
                ) from None
            if (
                (self.minimum is not None and out < self.minimum)
                or (self.maximum is not None and out > self.maximum)
                or (self.choices and out not in self.choices)
            ):
                raise InvalidOptionError(
                    f"option {self.name!r} got {out}; allowed: {self.allowed()}"
                )
        else:
            out = str(value)
            if self.choices and out not in self.choices:
                raise InvalidOptionError(
                    f"option {self.name!r} got {out!r}; allowed: {self.allowed()}"
                )
        return out


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


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """Parse ``key=value`` strings from the command line into a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"option {pair!r} is not of the form key=value")
        out[key.strip()] = value.strip()
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
