"""Tug of War in the browser: the SVG table, its clickable moves and what it keeps hidden."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import taut
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war import TugOfWar, TugState
from taut.games.tug_of_war.plugin import plugin
from taut.games.tug_of_war.state import BONUS, DEAL, DRAWN, OVER, TURN
from taut.games.tug_of_war.svg_pieces import pip_spots

SVG = "{http://www.w3.org/2000/svg}"

#: Option sets the positions come from: every count of players the brief names on the
#: double-twelve set, the default set, and games short enough to reach their end.
OPTION_SETS: list[dict[str, object]] = [
    {"players": 2, "set": 12},
    {"players": 3, "set": 12},
    {"players": 4, "set": 12},
    {"players": 8, "set": 12},
    {"players": 3},
    {"players": 2, "end": "rounds", "rounds": 2},
    {"players": 5, "end": "round-points", "rounds": 2},
]


def _game(options: dict[str, object]) -> TugOfWar:
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    return game


@cache
def positions(key: int, games: int = 3, keep: int = 40) -> list[TugState]:
    """States along random games of option set ``key``: every bonus step and a spread of
    the others (deals, turns, draws, the end)."""
    game = _game(OPTION_SETS[key])
    rng = random.Random(1000 + key)
    out: list[TugState] = []
    for _ in range(games):
        state = game.new_initial_state()
        seen: list[TugState] = []
        for _ in range(1500):
            assert isinstance(state, TugState)
            seen.append(state)
            if state.is_terminal():
                break
            state = state.apply(state.random_joint(rng))
        bonus = [s for s in seen if s.phase == BONUS]
        rest = [s for s in seen if s.phase != BONUS]
        out += bonus + rng.sample(rest, min(keep, len(rest))) + [seen[-1]]
    return out


def legal_strings(view: TugState, seat: int | None) -> list[str]:
    if seat is None:
        return []
    return [view.action_to_string(seat, a) for a in view.legal_actions(seat)]


def clickables(svg: str) -> tuple[list[str], dict[str, set[str]], str | None]:
    """The ``data-move`` values, the ``data-part`` values by slot, and the template; every
    clickable element is checked to be a labelled, focusable button."""
    root = ET.fromstring(svg)
    moves: list[str] = []
    parts: dict[str, set[str]] = {}
    for el in root.iter():
        move, part = el.get("data-move"), el.get("data-part")
        if move is None and part is None:
            assert el.get("role") != "button" and el.get("tabindex") is None
            continue
        assert el.get("role") == "button" and el.get("tabindex") == "0"
        assert el.get("aria-label")
        if move is not None:
            moves.append(move)
        else:
            assert part is not None
            slot, _, value = part.partition("=")
            parts.setdefault(slot, set()).add(value)
    return moves, parts, root.get("data-compose")


def _parse(view: TugState, seat: int, text: str) -> int | None:
    try:
        return view.string_to_action(seat, text)
    except ValueError:
        return None


def check_clicks(view: TugState, seat: int, svg: str) -> None:
    """Every legal move can be made by clicks, and every click leads to a legal move."""
    legal = set(view.legal_actions(seat))
    moves, parts, template = clickables(svg)
    made: set[int] = set()
    for move in moves:
        action = _parse(view, seat, move)
        assert action in legal, (move, sorted(legal))
        made.add(action)
    if parts or template:
        assert template is not None and parts, "parts need a template, a template needs parts"
        slots = re.findall(r"\{(\w+)\}", template)
        assert set(slots) == set(parts)
        used: set[tuple[str, str]] = set()
        for values in itertools.product(*(sorted(parts[s]) for s in slots)):
            text = template
            for slot, value in zip(slots, values, strict=True):
                text = text.replace(f"{{{slot}}}", value)
            action = _parse(view, seat, text)
            if action in legal:
                made.add(action)
                used.update(zip(slots, values, strict=True))
        unused = {(s, v) for s in parts for v in parts[s]} - used
        assert not unused, f"parts that lead to no legal move: {sorted(unused)}"
    missing = legal - made
    assert not missing, [view.action_to_string(seat, a) for a in sorted(missing)]


@pytest.mark.parametrize("key", range(len(OPTION_SETS)))
def test_every_legal_move_by_clicks_and_nothing_else(key: int) -> None:
    phases: set[str] = set()
    for state in positions(key):
        for seat in [None, *range(state.game.num_players)]:
            view = state.view(seat)
            svg = plugin.svg(view, seat, legal_strings(view, seat))
            root = ET.fromstring(svg)
            assert root.tag == f"{SVG}svg" and root.get("viewBox")
            assert root.get("role") == "group" and root.get("aria-label")
            if seat is not None and seat in state.acting_seats():
                check_clicks(view, seat, svg)
                phases.add(state.phase)
            else:
                moves, parts, template = clickables(svg)
                assert not moves and not parts and template is None
    assert {TURN, BONUS} <= phases


@pytest.mark.parametrize("key", [0, 1, 3])
def test_a_seat_that_does_not_act_gets_nothing_to_click(key: int) -> None:
    """Even when handed the acting seat's moves, another seat's board has no button."""
    for state in positions(key):
        acting = [s for s in state.acting_seats() if s != CHANCE_SEAT]
        if not acting:
            continue
        legal = legal_strings(state.view(acting[0]), acting[0])
        for seat in [None, *range(state.game.num_players)]:
            if seat in acting:
                continue
            moves, parts, template = clickables(plugin.svg(state.view(seat), seat, legal))
            assert not moves and not parts and template is None


def _tile_names(svg: str) -> set[tuple[int, int]]:
    """Every tile named in the picture's text or attributes (``3-5``, also in ``3-5@1.0``)."""
    root = ET.fromstring(svg)
    words = [t for el in root.iter() for t in [el.text or "", *el.attrib.values()]]
    found = re.findall(r"(?<![\d.@+-])(\d+)-(\d+)(?![\d])", " ".join(words))
    return {(min(int(a), int(b)), max(int(a), int(b))) for a, b in found}


@pytest.mark.parametrize("key", [0, 1, 2, 3])
def test_the_picture_holds_nothing_the_view_hides(key: int) -> None:
    """A seat's picture is the same for every full state it cannot tell from the truth, and
    names no tile of another hand."""
    rng = random.Random(7)
    differed = 0
    for state in positions(key)[::2]:
        game = state.game
        ds = game.dominoes
        for seat in [None, *range(game.num_players)]:
            view = state.view(seat)
            svg = plugin.svg(view, seat, legal_strings(view, seat))
            for _ in range(2):
                other = game.determinize(view, 0 if seat is None else seat, rng)
                assert isinstance(other, TugState)
                differed += other.hands != state.hands
                again = other.view(seat)
                assert plugin.svg(again, seat, legal_strings(again, seat)) == svg
            named = _tile_names(svg)
            on_trains = {ds.tiles[t] for t in state.train_tiles()}
            own = set() if seat is None else {ds.tiles[t] for t in state.hands[seat] or ()}
            assert named <= own | on_trains, named - own - on_trains
    assert differed > 0  # the hidden tiles were really dealt differently


def test_the_table_shows_trains_scores_hand_and_boneyard() -> None:
    game = _game({"players": 3})
    state = next(s for s in positions(4) if s.phase == TURN and s.round == 1 and s.dealt)
    seat = state.current
    view = state.view(seat)
    svg = plugin.svg(view, seat, legal_strings(view, seat))
    text = " ".join(t for t in ET.fromstring(svg).itertext())
    assert f"Boneyard: {state.stock_size} tiles" in text
    assert text.count("starter") == game.num_players
    for s in range(game.num_players):
        ends = state.ends[s]
        assert ends is not None
        assert f"= {ends[0] + ends[1]}" in text
        assert f"{s}.0" in text and f"{s}.1" in text
    hand = state.hands[seat]
    assert hand is not None
    count = "1 tile" if len(hand) == 1 else f"{len(hand)} tiles"
    assert f"Your hand (P{seat}): {count}" in text
    for t in hand:
        assert game.dominoes.name(t) in text  # each tile's numbers, beside its dots
    assert "Score" in text and "Tiles" in text and "Round pts" not in text
    # A spectator sees the same table without a hand.
    spectator = plugin.svg(state.view(None), None, [])
    assert "Your hand" not in spectator and "Boneyard" in spectator


def test_round_points_have_a_column() -> None:
    state = positions(6)[0]
    assert "Round pts" in plugin.svg(state.view(0), 0, [])


def test_a_play_is_a_tile_then_an_end() -> None:
    """A tile that fits several places is a part, the ends it fits are parts; a tile that
    fits once is its whole move."""
    checked = 0
    for state in positions(1):
        if state.phase != TURN:
            continue
        seat = state.current
        view = state.view(seat)
        legal = legal_strings(view, seat)
        moves, parts, template = clickables(plugin.svg(view, seat, legal))
        if parts:
            assert template == "{tile}@{end}"
            checked += 1
        per_tile: dict[str, int] = {}
        for text in legal:
            if "@" in text:
                a, b = map(int, text.split("@")[0].split("-"))
                name = f"{min(a, b)}-{max(a, b)}"
                per_tile[name] = per_tile.get(name, 0) + 1
        assert {_canonical(t) for t in parts.get("tile", set())} == {
            t for t, k in per_tile.items() if k > 1
        }
        # A tile's part reads as most of its plays are listed (the half it meets first).
        for value in parts.get("tile", set()):
            same = [m for m in legal if "@" in m and _canonical(m) == _canonical(value)]
            laid = [m.split("@")[0] for m in same]
            assert laid.count(value) == max(laid.count(x) for x in laid)
        assert {m for m in moves if "@" in m} == {
            m for m in legal if "@" in m and per_tile[_canonical(m)] == 1
        }
    assert checked


def _canonical(move: str) -> str:
    a, b = map(int, move.split("@")[0].split("-"))
    return f"{min(a, b)}-{max(a, b)}"


def test_two_players_keep_or_give_the_whole_leftover() -> None:
    seen = 0
    for state in positions(0):
        bonus = state.bonus
        if state.phase != BONUS or bonus is None or bonus.target is None:
            continue
        view = state.view(bonus.winner)
        moves, parts, _ = clickables(
            plugin.svg(view, bonus.winner, legal_strings(view, bonus.winner))
        )
        left = bonus.remaining
        assert sorted(moves) == sorted([f"+{left}@{bonus.winner}", f"-{left}@{bonus.target}"])
        assert not parts
        seen += 1
    assert seen


def test_a_large_share_is_composed_of_digits() -> None:
    seen = 0
    for key in (1, 2, 3):
        for state in positions(key):
            bonus = state.bonus
            if state.phase != BONUS or bonus is None or bonus.target is None:
                continue
            if bonus.remaining <= 30:
                continue
            view = state.view(bonus.winner)
            svg = plugin.svg(view, bonus.winner, legal_strings(view, bonus.winner))
            root = ET.fromstring(svg)
            assert root.get("data-compose", "").endswith(f"@{bonus.target}")
            assert "tens=0" in root.get("data-defaults", "")
            seen += 1
    assert seen


def test_the_drawn_tile_is_marked_for_its_drawer_only() -> None:
    seen = 0
    for key in (1, 2):
        for state in positions(key):
            if state.phase != DRAWN:
                continue
            drawer = state.current
            mine = plugin.svg(state.view(drawer), drawer, legal_strings(state.view(drawer), drawer))
            assert ">drawn<" in mine
            for seat in range(state.game.num_players):
                if seat != drawer:
                    assert ">drawn<" not in plugin.svg(state.view(seat), seat, [])
            seen += 1
    assert seen


def test_deals_and_the_end_draw() -> None:
    phases = set()
    for key in (5, 6):
        for state in positions(key):
            if state.phase in (DEAL, OVER):
                svg = plugin.svg(state.view(0), 0, [])
                ET.fromstring(svg)
                phases.add(state.phase)
                if state.phase == OVER:
                    assert "Game over" in svg
    assert phases == {DEAL, OVER}


@pytest.mark.parametrize("number", range(13))
def test_pips_show_each_number_once(number: int) -> None:
    spots = pip_spots(number)
    assert len(spots) == number and len(set(spots)) == number
    assert all(-1 <= x <= 1 and -1 <= y <= 1 for x, y in spots)


def test_a_full_state_shows_every_hand_for_the_replay() -> None:
    """The replay page draws finished games from full states: every hand is shown there."""
    state = next(s for s in positions(1) if s.phase == TURN)
    svg = plugin.svg(state, None, [])
    text = " ".join(ET.fromstring(svg).itertext())
    for seat in range(state.game.num_players):
        assert f"P{seat}'s hand" in text
    assert "Your hand" not in text
    moves, parts, template = clickables(svg)
    assert not moves and not parts and template is None


def test_the_position_is_described_and_the_root_names_the_game() -> None:
    """The picture says the position in its ``<desc>`` (scores, boneyard, whose turn, the
    viewer's hand) and its root names the game only: the root's tag, a long token of a
    patch, then changes only with the picture's height or its template."""
    state = next(s for s in positions(0) if s.phase == TURN and s.round == 1 and s.dealt)
    seat = state.current
    view = state.view(seat)
    root = ET.fromstring(plugin.svg(view, seat, legal_strings(view, seat)))
    assert root.get("aria-label") == "Tug of War"
    desc = root.find(f"{SVG}desc")
    assert desc is not None and desc.text is not None
    assert "Scores:" in desc.text and f"Boneyard: {state.stock_size} tiles" in desc.text
    assert f"You are {view.seat_name(seat)}" in desc.text
