"""Game-agnostic core: the Game/State protocol, plugins, options, errors, chance, records."""

from taut.core.chance import derive_seed, make_rng, sample_chance
from taut.core.errors import (
    ActionError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    PositionError,
    RecordError,
    TautError,
    UnknownGameError,
)
from taut.core.game import Game, State
from taut.core.options import OptionSpec
from taut.core.plugin import GamePlugin, Policy
from taut.core.record import GameRecord
from taut.core.record_part import RecordPart
from taut.core.registry import (
    game_class,
    games,
    make,
    plugin_of,
    plugins,
    register,
    register_plugin,
    render,
    unregister_plugin,
)
from taut.core.terms import (
    AGREEMENT,
    CHANCE_SEAT,
    JSON,
    TURN_LIMIT,
    GameInfo,
    NodeKind,
    Outcome,
    Termination,
)

__all__ = [
    "AGREEMENT",
    "CHANCE_SEAT",
    "JSON",
    "TURN_LIMIT",
    "ActionError",
    "Game",
    "GameInfo",
    "GameOverError",
    "GamePlugin",
    "GameRecord",
    "IllegalActionError",
    "InvalidOptionError",
    "MalformedActionError",
    "NodeKind",
    "OptionSpec",
    "Outcome",
    "Policy",
    "PositionError",
    "RecordError",
    "RecordPart",
    "State",
    "TautError",
    "Termination",
    "UnknownGameError",
    "derive_seed",
    "game_class",
    "games",
    "make",
    "make_rng",
    "plugin_of",
    "plugins",
    "register",
    "register_plugin",
    "render",
    "sample_chance",
    "unregister_plugin",
    "view",
]


def view(state: State, seat: int | None) -> State:
    """What ``seat`` may know of ``state`` (None: a spectator). See :meth:`State.view`."""
    return state.view(seat)
