"""Push-Pull: push and pull three pieces off your side of a strip or board.

The game is found as ``push-pull`` through its plugin (``plugin.py``, the ``taut.games``
entry point); its exact solutions live in ``solve/``.
"""

from taut.games.push_pull.arrows import axis_step, move
from taut.games.push_pull.diagram import render
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.variants import PIECES, VARIANTS, Layout, layout

__all__ = [
    "PIECES",
    "VARIANTS",
    "Layout",
    "PushPull",
    "PushPullState",
    "axis_step",
    "layout",
    "move",
    "render",
]
