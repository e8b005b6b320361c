"""Game-agnostic core: the Game/State protocol, options, errors, chance and records."""

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
from taut.core.game import CHANCE_SEAT, JSON, Game, GameInfo, NodeKind, Outcome, State
from taut.core.options import OptionSpec
from taut.core.record import GameRecord
from taut.core.registry import game_class, games, make, register

__all__ = [
    "CHANCE_SEAT",
    "JSON",
    "ActionError",
    "Game",
    "GameInfo",
    "GameOverError",
    "GameRecord",
    "IllegalActionError",
    "InvalidOptionError",
    "MalformedActionError",
    "NodeKind",
    "OptionSpec",
    "Outcome",
    "PositionError",
    "RecordError",
    "State",
    "TautError",
    "UnknownGameError",
    "derive_seed",
    "game_class",
    "games",
    "make",
    "make_rng",
    "register",
    "sample_chance",
    "view",
]


def view(state: State, seat: int | None) -> State:
    """What ``seat`` may know of ``state`` (None: a spectator). See :meth:`State.view`."""
    return state.view(seat)
