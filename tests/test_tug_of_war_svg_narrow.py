"""The Tug of War pictures fit their screens: the narrow one (``svg_narrow``) is drawn whole
across a phone's board (no sideways scrolling), the wide one (``svg``) across a desktop's
board, short enough that its hand is in sight; in both nothing drawn runs past the right
edge, the click targets stay a finger's size (44 CSS pixels) at the touch width and never
overlap, and the same clicks make the same moves."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from taut.games.tug_of_war.plugin import plugin
from tests.test_tug_of_war_svg import (
    OPTION_SETS,
    check_clicks,
    clickables,
    legal_strings,
    positions,
)

SVG = "{http://www.w3.org/2000/svg}"
#: The room a phone 360 CSS pixels wide leaves for the board (the page's margins, the
#: board's frame and padding): the narrowest common phone must not scroll the picture.
PHONE_ROOM = 328
#: The room a desktop's board has at 1280 x 800 CSS pixels (766 pixels, less its frame):
#: the wide picture must be drawn there whole.
DESKTOP_ROOM = 750
#: A finger's target, in CSS pixels.
FINGER = 44
#: A character of the picture's text, in font sizes: more than a sans-serif letter's
#: average (about 0.5 em in a browser's screenshot), a line's share of wide letters included.
CHAR_EM = 0.58


def _moved(el: ET.Element, dx: float = 0.0, dy: float = 0.0) -> dict[int, tuple[float, float]]:
    """How far right and down each element under ``el`` is moved by the ``translate(X Y)``
    of the groups it is in (parts of the table, and each item of a row, are drawn from their
    own origin), by ``id``."""
    found = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", el.get("transform", ""))
    if found:
        dx, dy = dx + float(found.group(1)), dy + float(found.group(2))
    out = {id(el): (dx, dy)}
    for child in el:
        out.update(_moved(child, dx, dy))
    return out


#: The move of every element of the picture being checked (set per picture).
MOVED: dict[int, tuple[float, float]] = {}


def _boxes(el: ET.Element) -> list[tuple[float, float, float, float]]:
    """The rectangles (x, y, width, height) drawn under ``el``, itself included, where they
    are drawn."""
    out = []
    for r in el.iter(f"{SVG}rect"):
        if r.get("x") is not None:
            x, y, w, h = (float(r.get(k, "0")) for k in ("x", "y", "width", "height"))
            dx, dy = MOVED.get(id(r), (0.0, 0.0))
            out.append((x + dx, y + dy, w, h))
    return out


def _text_right(el: ET.Element) -> float:
    """Where a ``<text>`` ends on the right, at most (its anchor and an upper bound of its
    letters' width)."""
    x = float(el.get("x", "0")) + MOVED.get(id(el), (0.0, 0.0))[0]
    size = float(el.get("font-size", "14"))
    wide = len("".join(el.itertext())) * size * CHAR_EM
    anchor = el.get("text-anchor", "start")
    return x + (wide if anchor == "start" else wide / 2 if anchor == "middle" else 0)


def _pictures(key: int, narrow: bool) -> list[str]:
    out = []
    for state in positions(key)[::2]:
        for seat in [None, *range(state.game.num_players)]:
            view = state.view(seat)
            legal = legal_strings(view, seat)
            svg = plugin.svg_narrow(view, seat, legal) if narrow else plugin.svg(view, seat, legal)
            assert svg is not None
            out.append(svg)
    return out


@pytest.mark.parametrize("narrow", [True, False], ids=["narrow", "wide"])
@pytest.mark.parametrize("key", range(len(OPTION_SETS)))
def test_the_picture_fits_its_screen_with_finger_sized_targets(key: int, narrow: bool) -> None:
    checked = 0
    for svg in _pictures(key, narrow):
        root = ET.fromstring(svg)
        MOVED.clear()
        MOVED.update(_moved(root))
        width = float(root.get("viewBox", "").split()[2])
        touch = float(root.get("data-touch-width", "0"))
        # Drawn no narrower than its touch width, the picture fits a phone's (a desktop's)
        # board.
        assert 0 < touch <= (PHONE_ROOM if narrow else DESKTOP_ROOM), touch
        scale = touch / width
        for el in root.iter(f"{SVG}text"):
            right = _text_right(el)
            assert right <= width, f"{''.join(el.itertext())!r} ends at {right:.0f} > {width}"
        for x, _, w, _ in _boxes(root):
            assert x >= 0 and x + w <= width, (x, w, width)
        targets = []
        for el in root.iter():
            if el.get("data-move") is None and el.get("data-part") is None:
                continue
            hits = [b for b in _boxes(el) if b[2] * b[3] > 0]
            x0 = min(b[0] for b in hits)
            y0 = min(b[1] for b in hits)
            x1 = max(b[0] + b[2] for b in hits)
            y1 = max(b[1] + b[3] for b in hits)
            name = el.get("data-move") or el.get("data-part")
            assert (x1 - x0) * scale >= FINGER and (y1 - y0) * scale >= FINGER, (
                f"{name}: {(x1 - x0) * scale:.1f} x {(y1 - y0) * scale:.1f} px at {touch} px"
            )
            targets.append((name, x0, y0, x1, y1))
            checked += 1
        for i, (a, ax0, ay0, ax1, ay1) in enumerate(targets):
            for b, bx0, by0, bx1, by1 in targets[i + 1 :]:
                apart = ax1 <= bx0 or bx1 <= ax0 or ay1 <= by0 or by1 <= ay0
                assert apart, f"the targets of {a} and {b} overlap"
    assert checked


@pytest.mark.parametrize("key", range(len(OPTION_SETS)))
def test_both_layouts_offer_the_same_clicks(key: int) -> None:
    """The page may switch layouts in the middle of a move: both have the same moves and
    parts to click, and every legal move is made by clicks on the narrow one too."""
    for state in positions(key)[::3]:
        for seat in range(state.game.num_players):
            view = state.view(seat)
            legal = legal_strings(view, seat)
            narrow = plugin.svg_narrow(view, seat, legal)
            assert narrow is not None
            assert clickables(narrow) == clickables(plugin.svg(view, seat, legal))
            if seat in state.acting_seats():
                check_clicks(view, seat, narrow)


@pytest.mark.parametrize("key", [1, 4])
def test_the_wide_picture_keeps_a_desktop_hand_in_sight(key: int) -> None:
    """Drawn across a desktop's board (at most a quarter larger than its touch width, as the
    page's style draws it), the wide picture of a game of three is no taller than a
    desktop's screen leaves below the page's header (about 650 of 800 pixels) while the
    trains are short, so the hand and the buttons are in sight without scrolling."""
    for state in positions(key):
        if max((len(t[1]) + len(t[2]) for t in state.trains if t), default=0) > 6:
            continue
        for seat in range(state.game.num_players):
            view = state.view(seat)
            root = ET.fromstring(plugin.svg(view, seat, legal_strings(view, seat)))
            _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
            drawn = min(DESKTOP_ROOM, 1.25 * float(root.get("data-touch-width", "0")))
            assert height * drawn / width <= 650, (state.phase, height)


def test_no_text_of_either_layout_is_smaller_than_13_units() -> None:
    """13 units is 12 px at the narrow picture's least width (and more in the wide one):
    the label of a tile drawn just now was 10 units, under 12 px on a desktop."""
    import random
    import re

    from taut.core.forfeit import drawable
    from taut.core.registry import make, plugin

    found = plugin("tug-of-war")
    rng = random.Random(1)
    seen: set[str] = set()
    for players in (2, 3):
        state = make("tug-of-war", players=players).new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            for seat in range(players):
                view = drawable(state.view(seat))
                acting = seat in state.acting_seats()
                legal = [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
                for picture in (
                    found.svg(view, seat, legal if acting else []),
                    found.svg_narrow(view, seat, legal if acting else []),
                ):
                    for size, words in re.findall(
                        r'font-size="([\d.]+)"[^>]*>([^<]*)<', picture or ""
                    ):
                        assert float(size) >= 13, (size, words)
                        seen.add(words)
            if state.kind.name == "CHANCE":
                state = state.apply({-1: rng.choice(state.chance_outcomes())[0]})
            else:
                state = state.apply(rng.choice(state.legal_actions(state.acting_seats()[0])))
    assert "drawn" in seen
