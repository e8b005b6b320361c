"""The ``taut`` command line, generated from the game plugins (see :mod:`taut.cli.app`)."""

from __future__ import annotations

from taut.cli.app import cli, main

__all__ = ["cli", "main"]
