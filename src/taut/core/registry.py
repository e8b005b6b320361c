"""The game registry: plugins found through the ``taut.games`` entry point group.

``taut.make(name, **options)`` and ``taut.games()`` read it; so does every shared layer
that needs a game's plugin (:func:`plugin`, :func:`plugin_of`). A package adds a game by
declaring an entry point in the ``taut.games`` group that names a
:class:`~taut.core.plugin.GamePlugin` instance; :func:`register_plugin` adds one at run
time (tests, notebooks). Plugins are loaded on first use, so ``import taut`` stays light.
When taut runs from a source tree without its installed metadata, the game packages under
``taut.games`` that have a ``plugin`` module are found by looking at the package itself.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

from taut.core.errors import TautError, UnknownGameError
from taut.core.game import draw_states_with
from taut.core.plugin import GamePlugin

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from taut.core.game import Game, State

#: The entry point group that game plugins are registered under.
ENTRY_POINT_GROUP = "taut.games"

_runtime: dict[str, GamePlugin] = {}
_loaded: dict[str, GamePlugin] = {}
_found: dict[str, EntryPoint | str] | None = None
_by_class: dict[type[Game], GamePlugin] = {}


def _discover() -> dict[str, EntryPoint | str]:
    """Entry points by game name (or, from a source tree, ``module:plugin`` strings)."""
    global _found
    if _found is None:
        # Imported here: importlib.metadata costs a noticeable part of the command line's
        # start, and importing taut (or a game's rules) needs no plugin.
        from importlib.metadata import entry_points

        found: dict[str, EntryPoint | str] = {
            ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)
        }
        if not any(
            not isinstance(ep, str) and ep.value.startswith("taut.games.") for ep in found.values()
        ):
            found.update(_scan_builtin(set(found)))
        _found = found
    return _found


def _scan_builtin(known: set[str]) -> dict[str, EntryPoint | str]:
    """Game packages of taut itself, for a source tree without installed metadata."""
    package = importlib.import_module("taut.games")
    out: dict[str, EntryPoint | str] = {}
    for info in pkgutil.iter_modules(package.__path__):
        target = f"taut.games.{info.name}.plugin"
        try:
            module = importlib.import_module(target)
        except ImportError:
            continue
        found = getattr(module, "plugin", None)
        if isinstance(found, GamePlugin) and found.name not in known:
            out[found.name] = f"{target}:plugin"
    return out


def _load(name: str, source: EntryPoint | str) -> GamePlugin:
    try:
        if isinstance(source, str):
            module, _, attr = source.partition(":")
            obj: Any = getattr(importlib.import_module(module), attr)
        else:
            obj = source.load()
    except Exception as exc:  # a broken third-party package must not hide the others
        raise TautError(f"the plugin of game {name!r} cannot be loaded: {exc}") from exc
    if not isinstance(obj, GamePlugin):
        raise TautError(f"the entry point of game {name!r} is not a GamePlugin: {obj!r}")
    if obj.name != name:
        raise TautError(f"the entry point {name!r} names a plugin of game {obj.name!r}")
    return obj


def register_plugin(plugin: GamePlugin) -> GamePlugin:
    """Add (or replace) a game at run time; returns the plugin."""
    if not isinstance(plugin, GamePlugin):
        raise TypeError(f"expected a GamePlugin, got {plugin!r}")
    _runtime[plugin.name] = plugin
    _by_class.pop(plugin.game_class, None)
    return plugin


def unregister_plugin(name: str) -> None:
    """Remove a game added by :func:`register_plugin` (no error if there is none)."""
    removed = _runtime.pop(name, None)
    if removed is not None:
        _by_class.pop(removed.game_class, None)


def register(cls: type[Game]) -> type[Game]:
    """Register a game class with a default plugin (usable as a decorator)."""
    register_plugin(GamePlugin(cls))
    return cls


def games() -> list[str]:
    """Names of all known games, sorted."""
    return sorted(set(_discover()) | set(_runtime))


def plugin(name: str) -> GamePlugin:
    """The plugin of game ``name``; raises UnknownGameError listing the games."""
    found = _runtime.get(name) or _loaded.get(name)
    if found is not None:
        return found
    source = _discover().get(name)
    if source is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(games())}")
    loaded = _loaded[name] = _load(name, source)
    return loaded


def plugins() -> list[GamePlugin]:
    """Every game's plugin, sorted by name."""
    return [plugin(name) for name in games()]


def plugin_of(game: Game) -> GamePlugin:
    """The plugin of ``game``'s kind: the registered one, or a default plugin for a game
    class nobody registered (a wrapped game, a game built by hand)."""
    cls = type(game)
    known = _by_class.get(cls)
    if known is not None:
        return known
    try:
        candidate = plugin(game.name)
    except TautError:
        candidate = None
    found = (
        candidate
        if candidate is not None and issubclass(cls, candidate.game_class)
        else GamePlugin(cls)
    )
    _by_class[cls] = found
    return found


def game_class(name: str) -> type[Game]:
    """The class of game ``name``; raises UnknownGameError listing the games."""
    return plugin(name).game_class


def make(name: str, **options: Any) -> Game:
    """Create game ``name`` with ``options`` validated (unknown options are refused)."""
    return game_class(name)(**options)


def render(state: State, markup: bool = False) -> str:
    """The text picture of ``state`` drawn by its game's plugin."""
    from taut.core.forfeit import drawable

    return plugin_of(state.game).render(drawable(state), markup=markup)


draw_states_with(render)  # str(state) draws with the game's plugin
