"""The bottom of a Tug of War picture (:mod:`taut.games.tug_of_war.svg`): the viewing
seat's hand (its own only; every hand of a full state) and the buttons (draw, pass, the
bonus steps)."""

from __future__ import annotations

import functools

from taut.core.svg import esc
from taut.games.tug_of_war.model import BONUS, DRAWN, TugModel
from taut.games.tug_of_war.svg_bonus import bonus_buttons, bonus_facts
from taut.games.tug_of_war.svg_choices import Choices
from taut.games.tug_of_war.svg_pieces import (
    Draw,
    Layout,
    button_at,
    clickable,
    domino,
    domino_id,
    flow,
    hit,
    text,
    tiles,
)

#: Side of a domino half in the hand.
HAND_HALF = 30


def _hand_tile(view: TugModel, tile: int, ch: Choices, dim: bool, place: int) -> Draw:
    """A tile of the hand, upright, its numbers under it: a whole move when it has one
    play, a part when it has several, faded when it has none while others do; its place
    in the row is ``place`` wide."""
    plays = tuple(
        (train, end, move, view.seat_name(train)) for train, end, move in ch.plays.get(tile, [])
    )
    look = (
        view.game.dominoes.tiles[tile],
        plays,
        ch.names.get(tile, "") if len(plays) > 1 else "",
        view.phase == DRAWN and view.drawn == tile,
        dim and not plays,
    )
    return lambda x, y: _drawn_tile(look, place, x, y)


# A tile of a hand looks the same from move to move until its plays change (and a row is
# drawn from each item's own origin): drawn once per look.
@functools.lru_cache(maxsize=8192)
def _drawn_tile(
    look: tuple[tuple[int, int], tuple[tuple[int, int, str, str], ...], str, bool, bool],
    place: int,
    x: float,
    y: float,
) -> str:
    """A tile of a hand at ``(x, y)``: its numbers, its plays ``(train, end, notation, the
    train's seat)``, its part's name, whether it was just drawn and whether it is faded."""
    (a, b), plays, part, drawn, dim = look
    name = f"{a}-{b}"
    # The words the tile shows (its numbers, then "drawn") come together in its name.
    what = f"tile {name}" + (" drawn just now" if drawn else "")
    # The tile's identity across positions: played, it travels from the hand to its train.
    ident = f'data-id="{domino_id((a, b))}"'
    # The click target is the tile's whole place in the hand (its neighbours' begin where
    # it ends), its numbers under it included. It and the tile's face are drawn alike
    # whatever the turn (the style marks a choice, or a tile faded, by the tag's class), so
    # that a turn changes only the tile's own tag.
    body = hit(x - (place - HAND_HALF) / 2, y, place, 2 * HAND_HALF + 36)
    body += f'<g class="tow-face">{domino(x, y + 14, (a, b), HAND_HALF, vertical=True)}</g>'
    # The space (not drawn) parts the numbers from "drawn" in the element's text.
    body += text(x + HAND_HALF / 2, y + 2 * HAND_HALF + 30, f"{name} ", 13, text_anchor="middle")
    if drawn:
        # 13 units, as the tile's numbers: at least 12 px in either layout at its least width.
        body += text(
            x + HAND_HALF / 2, y + 10, "drawn", 13, text_anchor="middle", font_weight="bold"
        )
    if len(plays) == 1:
        train, end, move, owner = plays[0]
        label = f"play {move}: {what} on {owner}'s train, end {train}.{end}"
        return f"<g {ident} {clickable(label, move, None)}>{body}</g>"
    if plays:
        label = f"{what}: fits {len(plays)} open ends; choose one of them next"
        return f"<g {ident} {clickable(label, None, f'tile={part}')}>{body}</g>"
    faded = ' class="tow-dim"' if dim else ""
    return f'<g {ident}{faded} role="img" aria-label="{esc(what)}">{body}</g>'


def hands(view: TugModel, ch: Choices, y: float, layout: Layout) -> tuple[str, float]:
    """The hands this view holds: the viewer's own (every hand of a full state)."""
    game = view.game
    ds = game.dominoes
    if view.is_view:
        shown = [] if view.viewer is None else [view.viewer]
    else:
        shown = list(range(game.num_players))
    out = []
    dim = bool(ch.plays or ch.other)
    for s in shown:
        hand = view.hands[s]
        if not view.playing[s] or hand is None:
            continue
        pips = sum(ds.pips[t] for t in hand)
        whose = (
            f"Your hand ({view.seat_name(s)})" if view.is_view else f"{view.seat_name(s)}'s hand"
        )
        said = f"{whose}: {tiles(len(hand))}, {pips} pips"
        out.append(text(8, y + 16, said, 15, font_weight="bold"))
        if not hand:
            y += 26
            continue
        place = layout.place
        items = [(float(place), _hand_tile(view, t, ch, dim, place)) for t in sorted(hand)]
        # A row ends where the last tile's target does, short of the next tile's place: a
        # hand of seven (a whole deal) fits one row of a phone's picture.
        drawn, y = flow(items, 10, y + 22, 2 * HAND_HALF + 40, layout.width)
        out.append(f'<g role="group" aria-label="{esc(whose)}">{drawn}</g>')
    return "".join(out), y


def controls(
    view: TugModel, ch: Choices, y: float, layout: Layout
) -> tuple[str, float, str | None, str | None]:
    """Draw, pass and the bonus steps as buttons; returns them, their bottom, and the root's
    template and defaults when a move is composed of parts."""
    game = view.game
    out = []
    if view.phase == BONUS and view.bonus is not None:
        facts, y = bonus_facts(view, y, layout)
        out.append(facts)
        drawn, y, compose, defaults = bonus_buttons(view, ch.other, y, layout)
        return "".join(out) + drawn, y, compose, defaults
    items: list[tuple[float, Draw]] = []
    size = layout.target
    if game.DRAW in ch.other:
        label = "draw a tile from the boneyard (nothing in your hand fits)"
        items.append((150, button_at(140, "Draw a tile", label, ch.other[game.DRAW], size)))
    if game.PASS in ch.other:
        label = "pass (nothing fits and the boneyard is empty)"
        if view.phase == DRAWN:
            label = "pass (the drawn tile fits nowhere)"
        items.append((110, button_at(100, "Pass", label, ch.other[game.PASS], size)))
    compose = "{tile}@{end}" if ch.part_tiles() else None
    if not items:
        return "", y, compose, None
    drawn, y = flow(items, 10, y, size, layout.width - 8)
    return drawn, y, compose, None
