"""A game as the catalogue presents it: its names, summary and options, each option as the
plugin presents it, for the forms that make games and tournaments."""

from __future__ import annotations

from typing import Any

from taut.core.plugin import GamePlugin


def game_entry(found: GamePlugin) -> dict[str, Any]:
    """A game for the catalogue: its names, summary and options (for the new-game form),
    each option with how the plugin presents it (label, help, group, ``shown_when``,
    ``advanced``), and the groups in order and the presets
    (:meth:`~taut.core.plugin.GamePlugin.option_presentation`)."""
    specs = found.game_class.OPTIONS
    shown = found.option_presentation(found.game_class).to_json(specs)
    return {
        "name": found.name,
        "title": found.title,
        "summary": found.summary,
        "groups": shown["groups"],
        "presets": shown["presets"],
        "options": [
            {
                **shown["options"][spec.name],
                "name": spec.name,
                "kind": spec.kind.__name__,
                "default": spec.default,
                "choices": list(spec.choices),
                "minimum": spec.minimum,
                "maximum": spec.maximum,
                "nullable": spec.nullable,
                "doc": spec.doc,
                "allowed": spec.allowed(),
                "upload": getattr(spec, "upload", None),
            }
            for spec in specs
        ],
    }
