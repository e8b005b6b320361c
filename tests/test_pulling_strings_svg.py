"""The Pulling Strings board for the browser: valid SVG, clickable legal ends only, labels
for keyboards and screen readers, broken ends and homes drawn from the view."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from taut.core.registry import plugin
from taut.games.pulling_strings.board import HOME_CELLS, NUM_ENDS
from taut.games.pulling_strings.rules import PullingStrings, PullingStringsState
from taut.games.pulling_strings.svg import CLOCKWISE, end_title

NS = "{http://www.w3.org/2000/svg}"
PLUGIN = plugin("pulling-strings")

GAMES: list[dict[str, object]] = [
    {},
    {"break": "string"},
    {"corner": "keep"},
    {"edition": "published", "seed": 7},
    {"edition": "published", "letters": "QWERTYUIOPASDFGHJKLZ", "break": "string"},
]


def _positions(game: PullingStrings, seed: int, count: int = 12) -> list[PullingStringsState]:
    """Positions from random play, with many broken ends (same pulls are made likely)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal():
                break
            legal = state.legal_actions(0)
            p = rng.choice(legal)
            q = p if rng.random() < 0.3 else rng.choice(legal)
            state = state.pull(p, q)
        out.append(state)
    return out


def _draw(state: PullingStringsState, seat: int | None) -> ET.Element:
    legal = (
        [] if seat is None else [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
    )
    return ET.fromstring(PLUGIN.svg(state, seat, legal))


def _clickable(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "data-move" in el.attrib or "data-part" in el.attrib]


@pytest.mark.parametrize("options", GAMES)
def test_every_legal_end_and_nothing_else_is_clickable(options: dict[str, object]) -> None:
    game = PullingStrings(**options)
    for i, state in enumerate(_positions(game, seed=len(str(options)))):
        for seat in (0, 1):
            root = _draw(state, seat)
            moves = [el.attrib["data-move"] for el in _clickable(root)]
            chosen = [state.string_to_action(seat, m) for m in moves]
            assert sorted(chosen) == sorted(state.legal_actions(seat)), (i, seat)
            assert len(set(chosen)) == len(chosen)
            # Keyboard order: clockwise round the board from the top left.
            assert chosen == [e for e in CLOCKWISE if e in set(chosen)]


@pytest.mark.parametrize("options", GAMES)
def test_root_and_buttons_are_labelled(options: dict[str, object]) -> None:
    game = PullingStrings(**options)
    for state in _positions(game, seed=3, count=6):
        root = _draw(state, 0)
        assert root.tag == NS + "svg"
        assert root.attrib["role"] == "group"
        assert "viewBox" in root.attrib
        assert "width" not in root.attrib and "height" not in root.attrib
        label = root.attrib["aria-label"]
        hx, ho = state.home()
        assert f"disks home: X {hx}, O {ho}" in label
        assert f"turn {state.turn}" in label
        for cell, n in state.stacks.items():
            assert f"{n} at {game.cell_name(cell)}" in label
        for el in _clickable(root):
            assert el.attrib["role"] == "button"
            assert el.attrib["tabindex"] == "0"
            end = state.string_to_action(0, el.attrib["data-move"])
            assert el.attrib["aria-label"] == f"pull {game.letters[end]}, {end_title(end)}"


def test_the_classic_labels_name_the_ends() -> None:
    root = _draw(PullingStrings().new_initial_state(), 0)
    labels = {el.attrib["data-move"]: el.attrib["aria-label"] for el in _clickable(root)}
    assert labels["c"] == "pull c, the top of the middle column"
    assert labels["f"] == "pull f, the right end of the top row"
    assert labels["m"] == "pull m, the bottom of the right column"
    assert labels["t"] == "pull t, the left end of the bottom row"
    assert len(labels) == NUM_ENDS


def test_a_spectator_and_a_seat_without_moves_can_click_nothing() -> None:
    game = PullingStrings()
    for state in _positions(game, seed=5, count=5):
        assert _clickable(_draw(state, None)) == []
        assert _clickable(ET.fromstring(PLUGIN.svg(state, 0, []))) == []


def test_a_finished_game_has_nothing_to_click() -> None:
    game = PullingStrings()
    state = game.state_from_json({"stacks": [[0, 1, 5]], "broken": []})
    assert state.is_terminal()
    root = _draw(state, 0)
    assert _clickable(root) == []
    assert "game over" in root.attrib["aria-label"]


@pytest.mark.parametrize("options", GAMES)
def test_broken_ends_are_struck_and_not_clickable(options: dict[str, object]) -> None:
    game = PullingStrings(**options)
    broken = [game.letters[e] for e in (0, 7, 13, 19)]
    state = game.state_from_json({"stacks": [[2, 2, 3]], "broken": broken})
    root = _draw(state, 1)
    shown = [el for el in root.iter(NS + "g") if "broken" in el.attrib.get("class", "").split()]
    assert len(shown) == len(broken)
    for el in shown:
        assert "data-move" not in el.attrib and "tabindex" not in el.attrib
        assert el.findtext(NS + "title", "").endswith(": broken")
    moves = {el.attrib["data-move"] for el in _clickable(root)}
    assert not moves & set(broken)
    assert len(moves) == NUM_ENDS - len(broken)
    assert "broken ends: " + ", ".join(sorted(broken)) in root.attrib["aria-label"]


@pytest.mark.parametrize("edition", ["classic", "published"])
def test_homes_stay_visible_under_stacks(edition: str) -> None:
    game = PullingStrings(edition=edition, seed=1)
    homes = [c for cells in HOME_CELLS for c in cells]
    empty = _draw(game.state_from_json({"stacks": [[2, 2, 1]]}), 0)
    stacks = [[c // 5, c % 5, 2] for c in homes]
    # Two disks on every home: X and O both have 8 at once, so the game goes on.
    full = _draw(game.state_from_json({"stacks": stacks}), 0)
    for root in (empty, full):
        marks = [el for el in root.iter() if el.attrib.get("class") == "home"]
        assert len(marks) == len(homes)
    colours = {el.attrib["fill"] for el in full.iter() if el.attrib.get("class") == "home"}
    assert colours == {"#0072B2", "#D55E00"}


def test_the_published_letters_are_drawn_escaped_and_in_place() -> None:
    game = PullingStrings(edition="published", letters="QWERTYUIOPASDFGHJKLZ")
    text = PLUGIN.svg(game.new_initial_state(), None, [])
    root = ET.fromstring(text)
    letters = [el.text for el in root.iter(NS + "text") if el.text and len(el.text) == 1]
    assert set("QWERTYUIOPASDFGHJKLZ") <= set(letters)
    assert "Squares" in text and "Circles" in text
