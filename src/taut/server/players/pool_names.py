"""Rating pools named in plain words, from each game's option presentation: only the
options that apply and differ from the defaults (``standard`` when none does)."""

from __future__ import annotations

import functools
from typing import Any
from urllib.parse import urlencode

from taut.core.errors import TautError
from taut.core.game import Game
from taut.core.options import OptionText
from taut.core.plugin import GamePlugin
from taut.core.registry import plugin


def variant_text(game: str, options: dict[str, Any]) -> str:
    """The options that set a game's rating pool apart from the defaults, in the plugin's
    plain words (``standard`` when none does)."""
    found = plugin(game)
    built = found.game_class(**options)
    shown = found.option_presentation(found.game_class)
    specs = {spec.name: spec for spec in found.game_class.OPTIONS}
    parts = []
    for part in found.rating_pool(built).split(","):
        name, _, value = part.partition("=")
        spec = specs.get(name)
        if spec is None or built.options.get(name) == spec.default:
            continue
        parts.append(f"{shown.info(spec).label}: {value}")
    return ", ".join(parts) or "standard"


def pool_pairs(pool: str) -> dict[str, str]:
    """A stored pool's options as typed: ``name -> value``."""
    return dict(part.split("=", 1) for part in pool.split(",") if "=" in part)


def pool_query(pool: str) -> str:
    """A pool as a query string for the leaderboard's address."""
    return urlencode(list(pool_pairs(pool).items()))


def game_for(name: str, query: dict[str, str]) -> tuple[GamePlugin, Game]:
    """The game a leaderboard request (or a stored pool) names, its options read as the
    command line reads them (raises TautError naming a bad option)."""
    found = plugin(name)
    options = {k: OptionText(v) for k, v in query.items()}
    return found, found.game_class(**options)


@functools.lru_cache(maxsize=1024)  # a pool's words never change; pages list many
def pool_words(game: str, pool: str) -> str:
    """A rating pool (``name=value,...`` as stored) in the plugin's plain words, naming
    only the options that apply and differ from the defaults (``standard`` when none
    does); the pool as stored when the game no longer reads it."""
    try:
        _, built = game_for(game, pool_pairs(pool))
    except (TautError, TypeError, ValueError):
        return pool
    return variant_text(game, dict(built.options))
