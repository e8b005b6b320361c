"""Push-Pull positions as plain data, for the page to draw the board itself.

:func:`table_data` says everything :func:`taut.games.push_pull.svg.board_svg` draws from,
in a few small numbers and words, and the page's module ``table.js`` (beside this module)
(``drawTable``) draws from it exactly the picture ``board_svg`` draws: the server then
sends the data and draws nothing. What takes the rules to work out (who scores off which
side, the scores, the result, where each arrow points, the move template of the panel) is
worked out here; what is only drawing (the geometry, the colours, the labels, the words
round the board) is the module's.

The data is built from the same ``view`` the drawer gets. Every seat chooses in secret,
but a Push-Pull position holds no pending choice (the server keeps those apart until all
are revealed), so a seat's data, as its picture, says nothing of another seat's choice;
the panel of a seat that chooses starts every piece at ``pass``. It holds no markup.

The data, key by key (short keys: it goes out on every move):

* ``v``: the variant (``duel``, ``four``, ``four-teams``, ``two-teams``);
* ``u``: the scoring units' names (players, or teams such as ``N+E``);
* ``su``: the unit of each side, N, E, S, W (None for a side not in play: the duel's
  North and South);
* ``n``: the choices a side has for a piece: 3, or 5 with shifts;
* ``p``: where L, M and S are: a square (the strip's 0..4, else ``row * 5 + column``),
  or the exit a scored piece left by (``"W"``, or a team's corner such as ``"NE"``);
* ``t``: the turn; ``sc``: the pieces each unit has scored;
* ``o``: once the game is over, the result in words (``W won (two pieces scored)``);
* ``y``: the viewing seat's sides (only for a seat; the spectator's data has none);
* ``c``: the move template the panel composes (``L={L},M={M},S={S}``), only when the
  seat chooses now (its legal moves given and a piece on the board): the panel is drawn
  for the slots it names;
* ``ar``: with ``c``, for each of the seat's sides (as ``y``), where each choice points
  in the panel's order (pull, push, pass, then left and right with shifts), a letter
  each: ``N``, ``E``, ``S``, ``W``, or ``-`` for no arrow.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from taut.games.push_pull.arrows import LEFT, OUTWARD, PASS, PULL, PUSH, RIGHT, SIDE_NAMES
from taut.games.push_pull.arrows import arrow as arrow_of
from taut.games.push_pull.board import EXIT_NAMES, OFF
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.svg import compose_template
from taut.games.push_pull.variants import Layout

#: The panel's choices, in the order of its buttons.
_PANEL_CHOICES = (PULL, PUSH, PASS, LEFT, RIGHT)
#: An arrow's letter by its direction: the side it points to, ``-`` for none.
_LETTER = {vector: SIDE_NAMES[side] for side, vector in enumerate(OUTWARD)} | {(0, 0): "-"}


@functools.cache
def _fixed(lay: Layout) -> tuple[str, tuple[str, ...], tuple[int | None, ...], int]:
    """What a layout always says: the variant, the units, each side's unit, the choices
    (one layout object serves every game with its options)."""
    units = tuple(lay.side_unit.get(side) for side in range(len(SIDE_NAMES)))
    return lay.variant, lay.units, units, lay.n_choices


@functools.cache
def _arrows(lay: Layout, seat: int) -> tuple[str, ...]:
    """Where each of ``seat``'s choices points, side by side, as letters."""
    choices = _PANEL_CHOICES[: lay.n_choices]
    return tuple(
        "".join(_LETTER[arrow_of(side, choice)] for choice in choices)
        for side in lay.seat_sides[seat]
    )


def table_data(view: PushPullState, seat: int | None, legal: Sequence[str]) -> dict[str, Any]:
    """The position ``view`` as ``board_svg(view, seat, legal)`` draws it, in plain data
    (see the module): ``seat``'s panel of choices when it has ``legal`` moves."""
    lay = view.game.layout
    variant, units, side_unit, choices = _fixed(lay)
    locs = view.locs
    out: dict[str, Any] = {
        "v": variant,
        # Fresh lists: the caller may change its data without changing the next one's.
        "u": list(units),
        "su": list(side_unit),
        "n": choices,
        "p": [loc if loc < OFF else EXIT_NAMES[loc - OFF] for loc in locs],
        "t": view.turn,
        "sc": view.scores(),
    }
    if view.outcome is not None:
        out["o"] = view.describe_outcome()
    if seat is not None:
        out["y"] = list(lay.seat_sides[seat])
        live = [p for p, loc in enumerate(locs) if loc < OFF]
        # The panel is drawn, as board_svg draws it, while the seat chooses a piece still
        # on the board; once it has chosen it is drawn without moves, and so without one.
        if legal and live:
            out["c"] = compose_template(lay, seat, live)
            out["ar"] = list(_arrows(lay, seat))
    return out
