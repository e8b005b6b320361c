"""The ``taut`` command line. Each game contributes its commands from its own module."""

from __future__ import annotations

import importlib
import importlib.util

from taut.cli.app import app

# Command modules: shared ones, then one per game (present once that game is installed).
_MODULES = (
    "analyse",
    "arena",
    "bench",
    "games",
    "pulling_strings",
    "push_pull",
    "tug_of_war",
    "tracks",
)
for _module in _MODULES:
    if importlib.util.find_spec(f"taut.cli.{_module}") is not None:
        importlib.import_module(f"taut.cli.{_module}")


def main() -> None:
    """Entry point of the ``taut`` console script."""
    app()


__all__ = ["app", "main"]
