"""taut: play, analyse and solve small games about pulling and pushing.

>>> import taut
>>> name = taut.games()[0]
>>> game = taut.make(name)
>>> state = game.new_initial_state()
>>> state.is_terminal()
False
"""

from taut.core import (
    CHANCE_SEAT,
    Game,
    GameInfo,
    GamePlugin,
    GameRecord,
    NodeKind,
    Outcome,
    State,
    Termination,
    games,
    make,
    render,
    view,
)
from taut.core.registry import plugin

__version__ = "0.1.0"

__all__ = [
    "CHANCE_SEAT",
    "Game",
    "GameInfo",
    "GamePlugin",
    "GameRecord",
    "NodeKind",
    "Outcome",
    "State",
    "Termination",
    "__version__",
    "games",
    "make",
    "plugin",
    "render",
    "view",
]
