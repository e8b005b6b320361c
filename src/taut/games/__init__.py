"""The game packages, one per game; each exports its plugin from ``plugin.py``.

``taut.games()`` (the function the top-level package exports) stays callable after this
package is imported, which would otherwise put the package in its place.
"""

import sys
import types


class _GamesModule(types.ModuleType):
    """This package, callable as :func:`taut.core.registry.games`."""

    def __call__(self) -> list[str]:
        from taut.core.registry import games

        return games()


sys.modules[__name__].__class__ = _GamesModule
