"""How a game's options are shown to a person choosing them (the browser's new-game form).

A game's :class:`~taut.core.options.OptionSpec` list says what may be chosen; an
:class:`OptionPresentation` says how to offer it: a plain label and a short explanation per
option, the group it belongs to, when it applies (``shown_when``: every named option must
have one of the listed values), whether it is a technical detail (``advanced``: folded under
"More"), and presets (a name, a sentence and the values they set). A plugin supplies one
through :meth:`taut.core.plugin.GamePlugin.option_presentation`; :func:`default_presentation`
offers every option as declared, with its code name, so a game needs none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.errors import TautError
from taut.core.options import OptionSpec, OptionValue

#: The group of options a presentation puts nowhere else.
DEFAULT_GROUP = "Options"


@dataclass(frozen=True)
class OptionInfo:
    """How one option is offered: ``label`` (plain words), ``help`` (a sentence or two;
    empty: the spec's own ``doc``), ``group`` (a heading), ``shown_when`` (the option
    applies only while each named option has one of the listed values) and ``advanced``
    (a technical detail, kept under "More")."""

    label: str
    help: str = ""
    group: str = DEFAULT_GROUP
    shown_when: Mapping[str, tuple[OptionValue, ...]] = field(default_factory=dict)
    advanced: bool = False


@dataclass(frozen=True)
class Preset:
    """A named set of option values (``Classic 2003 rules``), with a sentence on what it
    gives; options it does not name keep their defaults."""

    name: str
    description: str
    values: Mapping[str, OptionValue]


@dataclass(frozen=True)
class OptionPresentation:
    """How a game's options are offered: per option :class:`OptionInfo` (options left out
    are offered with their code name, in :data:`DEFAULT_GROUP`), the order of the groups,
    and the presets (the first is what the form starts with where given)."""

    options: Mapping[str, OptionInfo] = field(default_factory=dict)
    groups: tuple[str, ...] = ()
    presets: tuple[Preset, ...] = ()

    def info(self, spec: OptionSpec) -> OptionInfo:
        """The presentation of ``spec`` (its code name and doc where none is given)."""
        found = self.options.get(spec.name)
        if found is None:
            return OptionInfo(label=spec.name.replace("_", " ").replace("-", " "), help=spec.doc)
        if not found.help:
            return OptionInfo(found.label, spec.doc, found.group, found.shown_when, found.advanced)
        return found

    def to_json(self, specs: Sequence[OptionSpec]) -> dict[str, Any]:
        """What the new-game form reads: ``options`` (by name: label, help, group,
        shown_when, advanced), ``groups`` in order, and ``presets``."""
        infos = {spec.name: self.info(spec) for spec in specs}
        groups = list(self.groups)
        for info in infos.values():
            if info.group not in groups:
                groups.append(info.group)
        return {
            "options": {
                name: {
                    "label": info.label,
                    "help": info.help,
                    "group": info.group,
                    "shown_when": {k: list(v) for k, v in info.shown_when.items()},
                    "advanced": info.advanced,
                }
                for name, info in infos.items()
            },
            "groups": groups,
            "presets": [
                {"name": p.name, "description": p.description, "values": dict(p.values)}
                for p in self.presets
            ],
        }


def default_presentation() -> OptionPresentation:
    """Every option as declared: its code name as the label, its doc as the help, one group,
    no conditions and no presets."""
    return OptionPresentation()


def presentation_problems(
    specs: Sequence[OptionSpec], presentation: OptionPresentation
) -> list[str]:
    """What in ``presentation`` disagrees with ``specs`` (empty: nothing): options that do
    not exist, conditions on unknown options or on values the option does not allow,
    presets that set unknown options or values not allowed."""
    by_name = {spec.name: spec for spec in specs}
    problems: list[str] = []

    def allowed(spec: OptionSpec, value: OptionValue) -> bool:
        try:
            spec.coerce(value)
        except TautError:
            return False
        return True

    for name, info in presentation.options.items():
        if name not in by_name:
            problems.append(f"option {name!r} is presented but not declared")
        if info.group not in presentation.groups and presentation.groups:
            problems.append(f"option {name!r} is in group {info.group!r}, not listed")
        for other, values in info.shown_when.items():
            spec = by_name.get(other)
            if spec is None:
                problems.append(f"option {name!r} depends on unknown option {other!r}")
                continue
            if other == name:
                problems.append(f"option {name!r} depends on itself")
            if not values:
                problems.append(f"option {name!r}: no value of {other!r} shows it")
            problems += [
                f"option {name!r} depends on {other}={value!r}, not allowed"
                for value in values
                if not allowed(spec, value)
            ]
    names = [p.name for p in presentation.presets]
    if len(set(names)) != len(names):
        problems.append("two presets have the same name")
    for preset in presentation.presets:
        for name, value in preset.values.items():
            spec = by_name.get(name)
            if spec is None:
                problems.append(f"preset {preset.name!r} sets unknown option {name!r}")
            elif not allowed(spec, value):
                problems.append(f"preset {preset.name!r} sets {name}={value!r}, not allowed")
    return problems
