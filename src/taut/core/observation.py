"""Observations as numbers: each game declares named fields of one flat float32 vector.

A game's :class:`Observer` (given by its plugin) lists the fields it adds after the
common header (``seat``, ``acting``, ``over``; see :func:`header_fields`) and fills them from
one seat's *view* of a state, never from the full state. :func:`build_layout` turns the
field list into a :class:`Layout`: offsets, sizes and bounds, so that a field is found by
name (``layout.slice("stacks")``) and adapters get the ``low``/``high`` arrays of a box.
(OpenSpiel's ``KuhnPokerObserver`` is the model: pieces declared as name and size, one
flat tensor, named views into it.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from taut.core.game import Game, State
from taut.core.terms import NodeKind

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# A string, so that a plugin naming its observer's types does not import NumPy: only
# building a layout (and filling vectors) needs it.
Observation: TypeAlias = "npt.NDArray[np.float32]"
"""A flat float32 observation vector."""

INF = math.inf

FieldSpec = tuple[str, int, float, float, str]
"""A field as ``(name, size, low, high, description)``."""


@dataclass(frozen=True)
class Field:
    """One named slice of the observation vector."""

    name: str
    offset: int
    """Index of the field's first entry."""
    size: int
    low: float
    high: float
    description: str

    @property
    def stop(self) -> int:
        """One past the field's last entry."""
        return self.offset + self.size


@dataclass(frozen=True)
class Layout:
    """The fields of one game (with its options) and their bounds."""

    fields: tuple[Field, ...]
    size: int
    low: Observation
    high: Observation

    def slice(self, name: str) -> slice:
        """The slice of field ``name``; raises KeyError naming the fields."""
        for f in self.fields:
            if f.name == name:
                return slice(f.offset, f.stop)
        raise KeyError(f"no field {name!r}; fields: {', '.join(f.name for f in self.fields)}")

    def start(self, name: str) -> int:
        """The index of field ``name``'s first entry."""
        start: int = self.slice(name).start
        return start


class Observer:
    """How one game's views become numbers. This default adds no field to the header.

    Games override :meth:`fields` and :meth:`fill`; both receive the game (its options
    decide sizes) and ``fill`` receives ``state.view(seat)``, already taken.
    """

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """The game's own fields, after the common header, in vector order."""
        return ()

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write the game's fields of ``seat``'s ``view`` into the zeroed vector ``out``."""


def header_fields(game: Game) -> list[FieldSpec]:
    """The fields every game's vector starts with."""
    n = game.info.num_seats
    return [
        ("seat", n, 0.0, 1.0, "one-hot: the observing seat"),
        ("acting", n, 0.0, 1.0, "1 for each seat that chooses an action now"),
        ("over", 1, 0.0, 1.0, "1 once the game has ended"),
    ]


def fill_header(view: State, seat: int, out: Observation, layout: Layout) -> None:
    """Write the common header of ``seat``'s ``view``."""
    out[layout.start("seat") + seat] = 1.0
    kind = view.kind
    if kind is NodeKind.DECISION or kind is NodeKind.SIMULTANEOUS:
        acting_at = layout.start("acting")
        for s in view.acting_seats():
            out[acting_at + s] = 1.0
    elif kind is NodeKind.TERMINAL:
        out[layout.start("over")] = 1.0


def build_layout(specs: Sequence[FieldSpec]) -> Layout:
    """Offsets and bounds for ``specs``; the bound arrays are read-only (layouts are shared)."""
    import numpy as np

    fields: list[Field] = []
    offset = 0
    for name, size, low, high, text in specs:
        fields.append(Field(name, offset, size, low, high, text))
        offset += size
    low_arr = np.empty(offset, dtype=np.float32)
    high_arr = np.empty(offset, dtype=np.float32)
    for f in fields:
        low_arr[f.offset : f.stop] = f.low
        high_arr[f.offset : f.stop] = f.high
    low_arr.flags.writeable = False
    high_arr.flags.writeable = False
    return Layout(tuple(fields), offset, low_arr, high_arr)


def turn_bound(game: Game) -> float:
    """The largest turn count a game with a ``max_turns`` option can show (``inf`` without)."""
    limit = game.options.get("max_turns")
    return INF if limit is None else float(int(limit))
