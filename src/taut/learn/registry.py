"""Every game's tile sets by name: what flash cards, word practice and the tile gallery draw
on (each game's plugin brings its own through ``GamePlugin.tile_sets``)."""

from __future__ import annotations

from taut.core.registry import plugins
from taut.learn.tileset import TileSet, check_unique


def tile_sets() -> dict[str, TileSet]:
    """Every game's tile sets by name; ValueError on a clash of names."""
    return check_unique([ts for p in plugins() for ts in p.tile_sets()])
