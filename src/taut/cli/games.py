"""``taut games``: list the games and their options."""

from __future__ import annotations

import click
from rich.markup import escape

from taut.cli.common import console
from taut.core.registry import plugins


@click.command(name="games", context_settings={"help_option_names": ["-h", "--help"]})
def list_games() -> None:
    """List every game with its options, defaults and allowed values."""
    from rich.table import Table  # only this command draws tables: --help does not pay

    for found in plugins():
        table = Table(title=f"{found.title} ({found.name})", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for spec in found.game_class.OPTIONS:
            table.add_row(spec.name, str(spec.default), spec.allowed(), spec.doc)
        console.print(table)
        if found.summary:
            console.print(escape(found.summary))
        console.print()
