"""Registering taut games with ``pyspiel``: one :class:`TautGame` subclass per game plugin.

Each game is registered under its plugin's
:attr:`~taut.core.plugin.GamePlugin.openspiel_name`, with a subclass of :class:`TautGame`
made when it is registered. Importing :mod:`taut.interop.openspiel` registers every game
the registry knows (:func:`register_all`); :func:`register` adds one registered later.
"""

from __future__ import annotations

from typing import cast

import pyspiel

from taut.core.plugin import GamePlugin
from taut.core.registry import plugin
from taut.interop.openspiel.game import TautGame, game_type
from taut.interop.plugins import available_plugins

# The subclass made for each taut game name; pyspiel keeps them until the interpreter exits.
_CLASSES: dict[str, type[TautGame]] = {}


def openspiel_name(taut_name: str) -> str:
    """The OpenSpiel name of taut game ``taut_name`` (``taut_`` and the name with ``_``)."""
    return plugin(taut_name).openspiel_name


def _class_name(short_name: str) -> str:
    """A class name for the game registered as ``short_name``: ``taut_a_b`` gives ``ABGame``."""
    words = short_name.removeprefix("taut_").split("_")
    return "".join(word.capitalize() for word in words) + "Game"


def _make_class(found: GamePlugin) -> type[TautGame]:
    short_name = found.openspiel_name
    namespace = {
        "__doc__": f"``{short_name}``: {found.title} as an OpenSpiel game.",
        "__module__": __name__,
        "taut_name": found.name,
        "short_name": short_name,
    }
    return cast(type[TautGame], type(_class_name(short_name), (TautGame,), namespace))


def _registered_names() -> set[str]:
    return {t.short_name for t in pyspiel.registered_games()}


def register(name: str) -> type[TautGame]:
    """Register taut game ``name`` with pyspiel under its OpenSpiel name (once); returns the
    :class:`TautGame` subclass that ``pyspiel.load_game`` builds for it.

    For a game added to the registry after this module was imported (a plugin registered
    at run time). Raises :class:`~taut.core.errors.UnknownGameError` for an unknown name.
    """
    found = plugin(name)
    cls = _CLASSES.get(name)
    if cls is None or cls.short_name != found.openspiel_name:
        cls = _CLASSES[name] = _make_class(found)
    if cls.short_name not in _registered_names():
        # The class itself is the factory pyspiel calls with the parameters.
        pyspiel.register_game(game_type(cls.short_name, found.game_class()), cls)
    return cls


def register_all() -> list[str]:
    """Register every game the registry knows; returns their OpenSpiel names."""
    return [register(found.name).short_name for found in available_plugins()]


def game_classes() -> dict[str, type[TautGame]]:
    """The :class:`TautGame` subclass registered for each taut game name so far."""
    return dict(_CLASSES)


__all__ = ["game_classes", "openspiel_name", "register", "register_all"]
