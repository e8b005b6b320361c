"""``taut games``: list the games and their options."""

from __future__ import annotations

from rich.table import Table

from taut.cli.app import app, console
from taut.core.registry import game_class, games


@app.command(name="games")
def list_games() -> None:
    """List every game with its options, defaults and allowed values."""
    for name in games():
        cls = game_class(name)
        table = Table(title=f"{cls.title} ({name})", title_justify="left")
        table.add_column("option")
        table.add_column("default")
        table.add_column("allowed")
        table.add_column("meaning")
        for spec in cls.OPTIONS:
            table.add_row(spec.name, str(spec.default), spec.allowed(), spec.doc)
        console.print(table)
