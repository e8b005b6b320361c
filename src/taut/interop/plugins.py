"""The games an adapter registers with its framework when it is imported."""

from __future__ import annotations

import warnings

from taut.core.errors import TautError
from taut.core.plugin import GamePlugin
from taut.core.registry import games, plugin


def available_plugins() -> list[GamePlugin]:
    """Every known game's plugin, sorted by name. A plugin that cannot be loaded (a broken
    third-party package) is left out with a warning, so that it cannot hide the others."""
    found: list[GamePlugin] = []
    for name in games():
        try:
            found.append(plugin(name))
        except TautError as exc:
            warnings.warn(str(exc), RuntimeWarning, stacklevel=2)
    return found


__all__ = ["available_plugins"]
