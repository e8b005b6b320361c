"""The command-line type of every real-valued option: :func:`taut.core.numbers.real` for
Click.

Commands (the shared ones and those games contribute) declare a real-valued option with
``type=Real(...)``, never Click's ``float`` or ``FloatRange``: those accept ``nan`` (it passes
every range check) and, without a maximum, ``inf``. A test walks every command of ``taut``
and fails on any float option of another type, so a new option cannot forget.
"""

from __future__ import annotations

from typing import Any

import click

from taut.core.numbers import Bounds, read_real, refusal


class Real(click.ParamType[float]):
    """A finite real number within a range; anything else is a usage error (exit 2)."""

    name = "number"

    def __init__(
        self,
        minimum: float | None = None,
        maximum: float | None = None,
        *,
        open_below: bool = False,
        open_above: bool = False,
        unit: str = "",
    ) -> None:
        self.bounds = Bounds(minimum, maximum, open_below, open_above, unit)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``value`` as a finite float in range, or a Click usage error saying what is allowed."""
        number = read_real(value, self.bounds)
        if number is None:
            self.fail(refusal(value, self.bounds), param, ctx)
        return number

    def __repr__(self) -> str:
        return f"Real({self.bounds.allowed()})"
