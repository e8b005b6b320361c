"""The bonus step of the Tug of War table (see :mod:`.svg`): the pips left in each hand, the
shares handed out so far, and the buttons that hand out the rest.

With two players the leftover goes one way: two buttons (keep it all, or the opponent loses
it all). With more, each opponent's share is a number from 0 to what is left: one button a
number while there are few, else a share composed of digit buttons (the root's template is
``-{hundreds}{tens}{units}@T``, every digit starting at 0) beside buttons for none and all.
The last step keeps the rest: one button.
"""

from __future__ import annotations

from taut.games.tug_of_war.model import TugModel
from taut.games.tug_of_war.svg_pieces import (
    MUTED,
    Draw,
    Layout,
    button,
    button_at,
    flow,
    text,
    wrapped,
)

#: The most share buttons drawn one per number; above it a share is composed of digits.
SHARE_BUTTONS = 30
#: Place values of a composed share, lowest first (their slot names).
PLACES = ("units", "tens", "hundreds", "thousands")


def _share_digits(target: int, most: int, y: float, layout: Layout) -> tuple[str, float, str, str]:
    """Digit buttons composing a share ``0..most``; returns them, their bottom, the
    template and the defaults."""
    width = len(str(most))
    out = []
    size = layout.target
    for p in reversed(range(width)):
        step = 10**p
        top = min(9, most // step)
        slot = PLACES[p]
        items = [(float(size), _digit(slot, d, size)) for d in range(top + 1)]
        if layout.wide:
            # A place's ten digits fit in one row, right of its name.
            out.append(text(10, y + 20, slot, 14, fill=MUTED))
            drawn, y = flow(items, 100, y, size, layout.width - 8)
        else:
            # Ten digits do not fit across a phone's picture: they go under the place's
            # name, and wrap (their targets stay wide).
            out.append(text(10, y + 14, slot, 14, fill=MUTED))
            drawn, y = flow(items, 10, y + 30, size, layout.width - 8)
        out.append(drawn)
    template = "-" + "".join(f"{{{PLACES[p]}}}" for p in reversed(range(width))) + f"@{target}"
    defaults = ";".join(f"{PLACES[p]}=0" for p in range(width))
    return "".join(out), y, template, defaults


def _digit(slot: str, d: int, target: int) -> Draw:
    """The button for digit ``d`` of place ``slot`` of a share, as an item of a row of
    buttons ``target`` apart."""
    label = f"{slot} digit {d} of the share"
    return lambda x, y: button(x, y, target - 6, str(d), label, target, part=f"{slot}={d}")


def bonus_buttons(
    view: TugModel, other: dict[int, str], y: float, layout: Layout
) -> tuple[str, float, str | None, str | None]:
    """The bonus step's buttons from ``other`` (action id -> notation of the legal moves);
    returns them, their bottom, and the root's template and defaults for composed shares."""
    game = view.game
    bonus = view.bonus
    assert bonus is not None
    left = bonus.remaining
    winner = view.seat_name(bonus.winner)
    out: list[str] = []
    items: list[tuple[float, Draw]] = []
    size, right = layout.target, layout.width - 8
    # A number's button: with its margins, as wide as its place in the row.
    number = layout.place - 6
    shares = sorted((a - game.GIVE0, move) for a, move in other.items() if a != game.KEEP)
    if game.KEEP in other:
        keep = other[game.KEEP]
        label = f"{winner} keeps the remaining {left} points ({keep})"
        items.append((170, button_at(160, f"Keep {left}", label, keep, size)))
    target = "" if bonus.target is None else view.seat_name(bonus.target)
    compose = defaults = None
    if shares and not game.split_bonus:
        for k, move in shares:
            if k == 0:
                caption, label = f"Keep all {left}", f"{winner} keeps all {left} points ({move})"
            else:
                caption, label = f"{target} loses {k}", f"{target} loses all {k} points ({move})"
            items.append((170, button_at(160, caption, label, move, size)))
    elif shares and len(shares) <= SHARE_BUTTONS + 1:
        out.append(text(10, y + 18, f"Points {target} loses:", 14))
        y += 26
        for k, move in shares:
            label = f"{target} loses {k} of the {left} points ({move})"
            items.append((float(layout.place), button_at(number, str(k), label, move, size)))
    elif shares:
        assert bonus.target is not None
        none, every = shares[0], shares[-1]
        out.append(text(10, y + 18, f"Points {target} loses (0 to {every[0]}):", 14))
        y += 26
        nothing = f"{target} loses nothing ({none[1]})"
        items.append((120, button_at(110, "none: 0", nothing, none[1], size)))
        label = f"{target} loses all {every[0]} points ({every[1]})"
        items.append((120, button_at(110, f"all: {every[0]}", label, every[1], size)))
        digits, bottom, compose, defaults = _share_digits(bonus.target, every[0], y + size, layout)
        drawn, _ = flow(items, 10, y, size, right)
        return "".join(out) + drawn + digits, bottom, compose, defaults
    drawn, bottom = flow(items, 10, y, size, right) if items else ("", y)
    return "".join(out) + drawn, bottom, compose, defaults


def bonus_facts(view: TugModel, y: float, layout: Layout) -> tuple[str, float]:
    """The pips left in each hand at the round's end and the shares handed out so far."""
    bonus = view.bonus
    assert bonus is not None
    names = view.seat_name
    left = ", ".join(f"{names(s)} {p}" for s, p in enumerate(bonus.pips) if p is not None)
    lines = [f"Pips left in hand: {left}."]
    if bonus.given:
        given = ", ".join(
            f"{names(s)} -{k}" for s, k in zip(bonus.targets, bonus.given, strict=False)
        )
        lines.append(f"Handed out so far: {given}.")
    out = []
    for line in (part for said in lines for part in wrapped(said, layout.hint_chars)):
        out.append(text(10, y + 16, line, 14))
        y += 20
    return "".join(out), y + 4
