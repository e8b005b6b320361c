"""The choices of a Tug of War picture (:mod:`taut.games.tug_of_war.svg`): the viewing
seat's legal moves sorted by what is clicked to make them, and what the picture says of
them (the hint, the style that shows where a chosen tile fits, and the lines on a tile
written the other way round)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from taut.games.tug_of_war.model import TugModel
from taut.games.tug_of_war.svg_pieces import text


@dataclass
class Choices:
    """The viewing seat's legal moves, sorted by what is clicked to make them."""

    plays: dict[int, list[tuple[int, int, str]]] = field(default_factory=dict)
    """Tile id -> ``(train, end, notation)`` of each legal play of that tile."""
    other: dict[int, str] = field(default_factory=dict)
    """Action id -> notation of every other legal move (draw, pass, bonus steps)."""
    names: dict[int, str] = field(default_factory=dict)
    """Tile id -> the tile as most of its plays write it (``5-3`` when it meets a 5), the
    value of its part: a move composed of it then reads as the legal move is listed."""

    def part_tiles(self) -> set[int]:
        """Tiles with several plays: chosen as a part, then an end."""
        return {t for t, found in self.plays.items() if len(found) > 1}

    def fitting(self) -> dict[tuple[int, int], list[str]]:
        """Open end ``(train, end)`` -> the part tiles that fit it (names, ``a-b``)."""
        out: dict[tuple[int, int], list[str]] = {}
        for t in sorted(self.part_tiles()):
            for j, e, _ in self.plays[t]:
                out.setdefault((j, e), []).append(self.names[t])
        return out


def choices(view: TugModel, seat: int | None, legal: Sequence[str]) -> Choices:
    """Sort ``legal`` (``seat``'s moves in notation) by what is clicked to make them."""
    out = Choices()
    if seat is None or seat not in view.acting_seats():
        return out
    game = view.game
    for move in legal:
        try:
            action = view.string_to_action(seat, move)
        except ValueError:
            continue
        if not view.is_legal(seat, action):
            continue
        if action < game.num_plays:
            tile, train, end = game.decode_play(action)
            out.plays.setdefault(tile, []).append((train, end, move))
        else:
            out.other[action] = move
    for tile, found in out.plays.items():
        laid = [move.partition("@")[0].strip() for _, _, move in found]
        out.names[tile] = max(laid, key=laid.count)
    return out


def fit_style(ch: Choices) -> str:
    """Once a tile is chosen, its open ends stand out (where the browser knows ``:has``)."""
    return "".join(
        f'.tow-board:has(.chosen[data-part="tile={name}"]) [data-fits~="{name}"] .tow-hit'
        "{stroke:#E69F00;stroke-width:5}"
        for name in sorted(ch.names[t] for t in ch.part_tiles())
    )


def hint(ch: Choices) -> str:
    """How to make a move here, for the seat that may."""
    if ch.part_tiles():
        return (
            "Your move: choose a tile with a thick border, then an open end with a thick "
            "border (a tile that fits one place only needs no end)."
        )
    if ch.plays:
        return "Your move: choose a tile with a thick border."
    return "Your move: choose a button below." if ch.other else ""


def laid_as(view: TugModel, ch: Choices, y: float) -> tuple[str, float]:
    """For each part tile written the other way round from its label in the hand (``0-3``
    played as ``3-0``: a play is written as laid, the half that meets the end first), a
    line saying so, shown while that tile is chosen (the page then reads ``3-0@…``)."""
    out, style = [], []
    for t in sorted(ch.part_tiles()):
        a, b = view.game.dominoes.tiles[t]
        name = ch.names[t]
        if name == f"{a}-{b}":
            continue
        first = name.partition("-")[0]
        words = f"{a}-{b} is written {name}: its {first} meets the end."
        out.append(text(8, y + 14, words, 13, **{"class": f"tow-laid-{name}"}))
        style.append(f'.tow-board:has(.chosen[data-part="tile={name}"]) .tow-laid-{name}')
    if not out:
        return "", y
    shown = f"<style>.tow-board [class^=tow-laid]{{display:none}}{','.join(style)}"
    return shown + "{display:inline}</style>" + "".join(out), y + 20
