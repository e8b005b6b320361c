"""The game registry: ``taut.make(name, **options)`` and ``taut.games()``."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from taut.core.errors import UnknownGameError
from taut.core.game import Game

# Built-in games are imported on first use so that ``import taut`` stays light.
_BUILTIN: dict[str, str] = {
    "pulling-strings": "taut.games.pulling_strings",
    "push-pull": "taut.games.push_pull",
    "tug-of-war": "taut.games.tug_of_war",
    "tracks": "taut.games.tracks",
}
_CLASSES: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Register a game class under ``cls.name`` (usable as a decorator)."""
    _CLASSES[cls.name] = cls
    return cls


def games() -> list[str]:
    """Names of all known games, sorted."""
    builtin = {name for name, mod in _BUILTIN.items() if importlib.util.find_spec(mod) is not None}
    return sorted(builtin | set(_CLASSES))


def game_class(name: str) -> type[Game]:
    """The class registered under ``name``; raises UnknownGameError listing the games."""
    if name not in _CLASSES and name in games():
        importlib.import_module(_BUILTIN[name])
    try:
        return _CLASSES[name]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(games())}"
        ) from None


def make(name: str, **options: Any) -> Game:
    """Create game ``name`` with ``options`` validated (unknown options are refused)."""
    return game_class(name)(**options)
