"""taut: play, analyse and solve small games about pulling and pushing.

>>> import taut
>>> game = taut.make("pulling-strings")
>>> state = game.new_initial_state()
>>> state = state.apply({0: state.string_to_action(0, "c"), 1: state.string_to_action(1, "h")})
>>> sorted(state.stacks.items())
[(7, 3), (13, 3)]
"""

from taut.core import (
    CHANCE_SEAT,
    Game,
    GameInfo,
    GameRecord,
    NodeKind,
    Outcome,
    State,
    games,
    make,
    view,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE_SEAT",
    "Game",
    "GameInfo",
    "GameRecord",
    "NodeKind",
    "Outcome",
    "State",
    "__version__",
    "games",
    "make",
    "view",
]
