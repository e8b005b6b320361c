"""The Push-Pull board for the browser: valid SVG, a control panel whose parts compose every
legal move and nothing else, labels for keyboards and screen readers, no controls for a
spectator, scored pieces off the board and never clickable."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET

import pytest

from taut.core.registry import plugin
from taut.games.push_pull.arrows import CHOICE_NAMES
from taut.games.push_pull.board import OFF
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.svg import slots
from taut.games.push_pull.variants import NUM_PIECES, PIECES

NS = "{http://www.w3.org/2000/svg}"
PLUGIN = plugin("push-pull")

GAMES: list[dict[str, object]] = [
    {"variant": "duel"},
    {"variant": "four"},
    {"variant": "four", "shifts": True},
    {"variant": "four-teams"},
    {"variant": "four-teams", "teams": "NW-SE", "shifts": True},
    {"variant": "two-teams"},
    {"variant": "two-teams", "shifts": True, "teams": "NW-SE"},
]


def _positions(game: PushPull, seed: int, count: int) -> list[PushPullState]:
    """The start and positions from random play that are still going on."""
    rng = random.Random(seed)
    out = [game.new_initial_state()]
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(1, 12)):
            joint = {s: rng.choice(state.legal_actions(s)) for s in state.acting_seats()}
            after = state.apply(joint)
            assert isinstance(after, PushPullState)
            if after.is_terminal():
                break
            state = after
        out.append(state)
    return out


def _draw(state: PushPullState, seat: int | None) -> ET.Element:
    legal = (
        [] if seat is None else [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
    )
    return ET.fromstring(PLUGIN.svg(state, seat, legal))


def _clickable(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "data-move" in el.attrib or "data-part" in el.attrib]


def _parts(root: ET.Element) -> dict[str, dict[str, ET.Element]]:
    """slot -> value -> the element that sets it."""
    out: dict[str, dict[str, ET.Element]] = {}
    for el in root.iter():
        if "data-part" in el.attrib:
            slot, value = el.attrib["data-part"].split("=")
            assert value not in out.setdefault(slot, {}), el.attrib["data-part"]
            out[slot][value] = el
    return out


def _fill(template: str, parts: dict[str, str]) -> str:
    """What the page does with ``data-compose``: every ``{SLOT}`` replaced by its part."""
    return re.sub(r"\{(\w+)\}", lambda m: parts[m.group(1)], template)


def _check_seat(state: PushPullState, seat: int) -> None:
    """Every legal action is composed by clicking one part per slot, and every way of
    clicking composes a legal action."""
    lay = state.game.layout
    root = _draw(state, seat)
    template = root.attrib["data-compose"]
    parts = _parts(root)
    assert set(re.findall(r"\{(\w+)\}", template)) == set(parts)
    defaults = dict(pair.split("=") for pair in root.attrib["data-defaults"].split(";"))
    assert defaults == {slot: "pass" for slot in parts}
    # The default move passes with every piece.
    assert state.string_to_action(seat, _fill(template, defaults)) == lay.encode(
        seat, ((0,) * len(lay.seat_sides[seat]),) * NUM_PIECES
    )
    legal = state.legal_actions(seat)
    combos = 1
    for values in parts.values():
        combos *= len(values)
    assert combos == len(legal)  # nothing composable beyond the legal moves
    for action in legal:
        chosen: dict[str, str] = {}
        for p, per_side in enumerate(lay.decode(seat, action)):
            if state.locs[p] >= OFF:
                assert not any(per_side)
                continue
            for (slot, _), code in zip(slots(lay, seat, p), per_side, strict=True):
                value = CHOICE_NAMES[code]
                assert value in parts[slot], (slot, value)
                chosen[slot] = parts[slot][value].attrib["data-part"].split("=")[1]
        text = _fill(template, chosen)
        assert state.string_to_action(seat, text) == action, text
        assert text == state.action_to_string(seat, action)


@pytest.mark.parametrize("options", GAMES)
def test_clicking_composes_every_legal_move(options: dict[str, object]) -> None:
    game = PushPull(**options)
    count = 3 if options.get("shifts") and options["variant"] == "two-teams" else 8
    for state in _positions(game, seed=len(str(options)), count=count):
        for seat in state.acting_seats():
            _check_seat(state, seat)


@pytest.mark.parametrize("options", GAMES)
def test_controls_are_labelled_and_focusable(options: dict[str, object]) -> None:
    game = PushPull(**options)
    for state in _positions(game, seed=11, count=4):
        for seat in state.acting_seats():
            root = _draw(state, seat)
            assert root.tag == NS + "svg"
            assert root.attrib["role"] == "group"
            assert "viewBox" in root.attrib and "width" not in root.attrib
            assert f"turn {state.turn}" in root.attrib["aria-label"]
            buttons = _clickable(root)
            assert buttons
            labels = set()
            for el in buttons:
                assert el.attrib["role"] == "button"
                assert el.attrib["tabindex"] == "0"
                labels.add(el.attrib["aria-label"])
                assert "data-move" not in el.attrib
            assert len(labels) == len(buttons)  # every button says what it does


def test_spectators_and_idle_seats_see_the_board_without_controls() -> None:
    for options in GAMES:
        game = PushPull(**options)
        for state in _positions(game, seed=2, count=3):
            for root in (_draw(state, None), ET.fromstring(PLUGIN.svg(state, 0, []))):
                assert _clickable(root) == []
                assert "data-compose" not in root.attrib
                assert "data-defaults" not in root.attrib


@pytest.mark.parametrize(
    ("options", "pieces", "scored"),
    [
        ({"variant": "duel"}, {"L": 1, "M": "W", "S": 3}, {"M": "W"}),
        ({"variant": "four"}, {"L": "N", "M": "E", "S": [1, 1]}, {"L": "N", "M": "E"}),
        ({"variant": "four-teams"}, {"L": [0, 4], "M": "NE", "S": [4, 1]}, {"M": "NE"}),
        (
            {"variant": "two-teams", "shifts": True},
            {"L": "SW", "M": [1, 3], "S": [2, 2]},
            {"L": "SW"},
        ),
    ],
)
def test_scored_pieces_are_shown_and_not_clickable(
    options: dict[str, object], pieces: dict[str, object], scored: dict[str, str]
) -> None:
    game = PushPull(**options)
    state = game.state_from_json({"turn": 5, "pieces": pieces})
    assert not state.is_terminal()
    for seat in state.acting_seats():
        root = _draw(state, seat)
        label = root.attrib["aria-label"]
        for piece, exit_name in scored.items():
            unit = state.scorer(PIECES.index(piece))
            assert f"{piece} scored by {unit}" in label
            assert exit_name in label
        slot_pieces = {slot[0] for slot in _parts(root)}
        assert slot_pieces == {p for p in PIECES if p not in scored}
        for el in _clickable(root):
            assert not any(child.attrib.get("class") == "piece" for child in el.iter())
        drawn = [
            el.findtext(f"{NS}text")
            for el in root.iter(NS + "g")
            if el.attrib.get("class") == "piece"
        ]
        # Every piece is drawn on the board or by its exit; the panel adds one per row.
        panel_rows = sum(len(slots(game.layout, seat, PIECES.index(p))) for p in slot_pieces)
        assert len(drawn) == NUM_PIECES + panel_rows


def test_pieces_differ_by_shape_and_letter_not_only_by_colour() -> None:
    state = PushPull(variant="four").new_initial_state()
    root = _draw(state, None)
    pieces = [el for el in root.iter(NS + "g") if el.attrib.get("class") == "piece"]
    shapes = [next(iter(el)).tag for el in pieces]
    letters = [el.findtext(f"{NS}text") for el in pieces]
    assert letters == list(PIECES)
    assert len(set(shapes)) == NUM_PIECES


def test_side_names_and_the_seat_are_marked() -> None:
    state = PushPull(variant="four-teams").new_initial_state()
    text = PLUGIN.svg(state, 2, [state.action_to_string(2, a) for a in state.legal_actions(2)])
    assert "South \u00b7 S+W (you)" in text and "North \u00b7 N+E" in text
    assert "West \u00b7 S+W" in text and "(you)" not in text.replace("South \u00b7 S+W (you)", "")
    duel = PushPull().new_initial_state()
    text = PLUGIN.svg(duel, None, [])
    assert "West" in text and "East" in text and "(you)" not in text


def test_shift_buttons_say_where_they_point() -> None:
    state = PushPull(variant="four", shifts=True).new_initial_state()
    root = _draw(state, 0)  # North faces south: left points east
    labels = {el.attrib["data-part"]: el.attrib["aria-label"] for el in _clickable(root)}
    assert labels["L=left"] == "Large L, North: left (arrow east)"
    assert labels["L=pull"] == "Large L, North: pull (arrow north)"
    assert labels["M=pass"] == "Medium M, North: pass (no arrow)"
    values = [el.attrib["data-part"] for el in _clickable(root)]
    assert values[:5] == ["L=pull", "L=push", "L=pass", "L=left", "L=right"]


def test_the_panel_starts_on_pass() -> None:
    state = PushPull(variant="two-teams").new_initial_state()
    root = _draw(state, 1)
    chosen = [
        el.attrib["data-part"] for el in _clickable(root) if el.attrib.get("class") == "chosen"
    ]
    expected = [f"{p}{s}=pass" for p, s in itertools.product(PIECES, "SW")]
    assert chosen == expected
    assert root.attrib["data-compose"] == "L={LS}/{LW},M={MS}/{MW},S={SS}/{SW}"


#: The widest picture a phone may draw about 350 CSS pixels wide, in the picture's units.
PHONE_UNITS = 420


@pytest.mark.parametrize("options", GAMES)
def test_every_word_reads_at_12_pixels_on_a_phone(options: dict[str, object]) -> None:
    """At a phone's width (the picture some 350 px wide) every word on the board is 12 px or
    more; the squares' coordinates, too small for that, are left out on a phone."""
    for state in _positions(PushPull(**options), seed=5, count=6):
        for seat in (None, *state.acting_seats()):
            root = _draw(state, seat)
            width = float(root.attrib["viewBox"].split()[2])
            assert width <= PHONE_UNITS, width
            scale = 350 / PHONE_UNITS
            for text in root.iter(NS + "text"):
                if text.attrib.get("class") == "pp-coord":
                    continue
                px = float(text.attrib["font-size"]) * scale
                assert px >= 12, (text.text, px)
    style = _draw(PushPull().new_initial_state(), None).findtext(f"{NS}style") or ""
    assert "@media (max-width:520px){.pp-board .pp-coord{display:none}}" in style


@pytest.mark.parametrize("options", GAMES)
def test_a_seat_that_has_chosen_sees_the_board_at_the_same_scale(
    options: dict[str, object],
) -> None:
    """With its panel or without (a seat that has chosen waits without one, a spectator
    never has one), a position's picture is as wide and says the same narrowest width: the
    page draws the board at one scale, and pieces that did not move do not jump."""
    for state in _positions(PushPull(**options), seed=9, count=5):
        drawn = [_draw(state, seat) for seat in (None, *state.acting_seats())]
        assert any("data-compose" in root.attrib for root in drawn)
        widths = {root.attrib["viewBox"].split()[2] for root in drawn}
        touches = {root.attrib["data-touch-width"] for root in drawn}
        assert len(widths) == 1 and len(touches) == 1, (widths, touches)
