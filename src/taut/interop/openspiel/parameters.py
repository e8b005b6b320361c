"""OpenSpiel game parameters: every option of a taut game, with a stand-in for ``None``.

A dash in an option name becomes an underscore. OpenSpiel parameters cannot be ``None``,
so an option whose value may be ``none`` takes a stand-in value: ``0`` for a number that is
otherwise at least 1 (or a choice of positive numbers), ``-1`` for any other number, and
``""`` for text.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from taut.core.game import Game
from taut.core.options import OptionSpec, OptionValue
from taut.core.registry import game_class, plugin

ParamValue = bool | int | float | str
"""A value OpenSpiel accepts for a game parameter."""


@dataclass(frozen=True)
class ParameterSpec:
    """One OpenSpiel game parameter and the taut option it sets."""

    name: str
    """The parameter name (the option's name with ``-`` written ``_``)."""
    option: OptionSpec
    default: ParamValue
    """The parameter's default: the option's default, or :attr:`none` for ``None``."""
    none: ParamValue | None
    """The value that stands for ``None`` (None when the option cannot be ``None``)."""

    def to_option(self, value: Any) -> OptionValue:
        """The taut option value for a parameter value (checked by the game later)."""
        if self.none is not None and value == self.none and type(value) is type(self.none):
            return None
        kind = self.option.kind
        if kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"parameter {self.name!r} must be true or false, got {value!r}")
            return value
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"parameter {self.name!r} must be an integer, got {value!r}")
            return value
        if kind is float:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"parameter {self.name!r} must be a number, got {value!r}")
            return float(value)
        if not isinstance(value, str):
            raise ValueError(f"parameter {self.name!r} must be text, got {value!r}")
        return value


def _none_value(spec: OptionSpec) -> ParamValue:
    """The stand-in for ``None`` of a nullable option."""
    if spec.kind is str:
        return ""
    if spec.kind is int:
        positive = (spec.minimum is not None and spec.minimum >= 1) or (
            bool(spec.choices) and all(isinstance(c, int) and c >= 1 for c in spec.choices)
        )
        return 0 if positive else -1
    if spec.kind is float:
        return -1.0
    raise TypeError(f"option {spec.name!r}: no stand-in for none of kind {spec.kind.__name__}")


def _parameter(spec: OptionSpec) -> ParameterSpec:
    none = _none_value(spec) if spec.nullable else None
    default: OptionValue = spec.default
    if default is None:
        assert none is not None  # a None default needs a nullable option
        return ParameterSpec(spec.name.replace("-", "_"), spec, none, none)
    return ParameterSpec(spec.name.replace("-", "_"), spec, default, none)


@functools.cache
def parameters_of(cls: type[Game]) -> tuple[ParameterSpec, ...]:
    """The OpenSpiel parameters of game class ``cls``, in the order of its options."""
    return tuple(_parameter(spec) for spec in cls.OPTIONS)


def parameters(name: str) -> tuple[ParameterSpec, ...]:
    """The OpenSpiel parameters of taut game ``name``, in the order of its options."""
    return parameters_of(game_class(name))


def defaults(cls: type[Game]) -> dict[str, ParamValue]:
    """Every parameter of game class ``cls`` with its default."""
    return {p.name: p.default for p in parameters_of(cls)}


def taut_options(name: str, params: Mapping[str, Any]) -> dict[str, OptionValue]:
    """The taut options of game ``name`` for OpenSpiel parameters (missing ones: defaults).

    Raises ValueError for an unknown parameter or a value of the wrong type; the game
    itself checks the values (:class:`~taut.core.errors.InvalidOptionError`).
    """
    specs = {p.name: p for p in parameters(name)}
    unknown = sorted(set(params) - set(specs))
    if unknown:
        allowed = ", ".join(specs) or "none"
        raise ValueError(
            f"{plugin(name).openspiel_name} has no parameter {unknown[0]!r}; "
            f"its parameters: {allowed}"
        )
    out: dict[str, OptionValue] = {}
    for pname, spec in specs.items():
        out[spec.option.name] = spec.to_option(params.get(pname, spec.default))
    return out


__all__ = ["ParamValue", "ParameterSpec", "defaults", "parameters", "parameters_of", "taut_options"]
