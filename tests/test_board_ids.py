"""The identities the board pictures give their pieces (``data-id``, ``data-alike``,
``data-glow``), which the page follows from one position to the next to animate a turn: an
identity is unique within a picture, names the same piece in every position, and the pieces
without one (Pulling Strings stacks) are marked as alike."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator

import pytest

import taut
from taut.core.game import State
from taut.core.registry import plugin
from taut.core.terms import CHANCE_SEAT
from taut.games.pulling_strings.board import NUM_ENDS, end_name
from taut.games.pulling_strings.rules import PullingStrings, PullingStringsState
from taut.games.push_pull.board import OFF
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import PIECES
from taut.games.tracks.cells import cell_name
from taut.games.tracks.rules import TracksState
from taut.games.tug_of_war import TugOfWar, TugState

SVG = "{http://www.w3.org/2000/svg}"


def _legal(state: State, seat: int | None) -> list[str]:
    if seat is None or seat not in state.acting_seats():
        return []
    return [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


def _draw(name: str, state: State, seat: int | None) -> ET.Element:
    return ET.fromstring(plugin(name).svg(state, seat, _legal(state, seat)))


def _ids(root: ET.Element) -> dict[str, ET.Element]:
    """The pieces of a picture by identity; fails where an identity is given twice."""
    found = [el for el in root.iter() if "data-id" in el.attrib]
    counts = Counter(el.attrib["data-id"] for el in found)
    twice = [i for i, n in counts.items() if n > 1]
    assert not twice, f"given to more than one element: {twice}"
    return {el.attrib["data-id"]: el for el in found}


def _texts(el: ET.Element) -> list[str]:
    return [(t.text or "").strip() for t in el.iter(f"{SVG}text")]


def _game_states(name: str, options: dict[str, object], seed: int, steps: int) -> Iterator[State]:
    """Positions along a random game (chance included), the start first."""
    rng = random.Random(seed)
    state = taut.make(name, **options).new_initial_state()
    yield state
    for _ in range(steps):
        if state.is_terminal():
            return
        state = state.apply(state.random_joint(rng))
        yield state


def _seats(state: State) -> list[int | None]:
    """Who a picture is drawn for: nobody, and every seat (with its moves where it acts)."""
    return [None, *range(len(state.game.info.seats))]


# -- Pulling Strings --------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"edition": "published", "seed": 3}])
def test_pulling_strings_ends_have_identities_and_stacks_are_alike(
    options: dict[str, object],
) -> None:
    states = list(_game_states("pulling-strings", options, 11, 40))
    assert all(isinstance(s, PullingStringsState) for s in states)
    assert any(s.broken for s in states if isinstance(s, PullingStringsState)), "ends break"
    places: dict[str, tuple[str, str]] = {}
    for state in states:
        assert isinstance(state, PullingStringsState)
        game = state.game
        assert isinstance(game, PullingStrings)
        for seat in _seats(state):
            root = _draw("pulling-strings", state, seat)
            ids = _ids(root)
            broken = [e for e in range(NUM_ENDS) if state.broken >> e & 1]
            assert set(ids) == {f"end-{end_name(e)}" for e in range(NUM_ENDS)} | {
                f"cut-{end_name(e)}" for e in broken
            }
            for e in range(NUM_ENDS):
                end = ids[f"end-{end_name(e)}"]
                assert game.letters[e] in _texts(end)
                label = next(end.iter(f"{SVG}text"))
                # The same end is drawn in the same place in every position.
                where = (label.attrib["x"], label.attrib["y"])
                assert places.setdefault(end.attrib["data-id"], where) == where
            stacks = [el for el in root.iter() if el.attrib.get("data-alike") == "stack"]
            counts = sorted(int(_texts(el)[0]) for el in stacks)
            assert counts == sorted(state.stacks.values())


# -- Push-Pull --------------------------------------------------------------------------------


def _centre(piece: ET.Element) -> tuple[float, float]:
    text = next(piece.iter(f"{SVG}text"))
    return float(text.attrib["x"]), float(text.attrib["y"])


@pytest.mark.parametrize("variant", ["duel", "four", "two-teams"])
def test_push_pull_pieces_keep_their_identity_on_and_off_the_board(variant: str) -> None:
    moved = scored = 0
    for seed in range(6):
        before: dict[int | None, tuple[PushPullState, dict[str, ET.Element]]] = {}
        for state in _game_states("push-pull", {"variant": variant}, seed, 30):
            assert isinstance(state, PushPullState)
            for seat in _seats(state):
                ids = _ids(_draw("push-pull", state, seat))
                # Every piece, on the board or scored; the panel's small pieces have none.
                assert set(ids) == {f"piece-{p}" for p in PIECES}
                for letter in PIECES:
                    assert _texts(ids[f"piece-{letter}"]) == [letter]
                if seat in before:
                    old, old_ids = before[seat]
                    for p, letter in enumerate(PIECES):
                        if old.locs[p] != state.locs[p]:
                            key = f"piece-{letter}"
                            assert _centre(old_ids[key]) != _centre(ids[key])
                            moved += 1
                            scored += state.locs[p] >= OFF
                before[seat] = (state, ids)
    assert moved and scored, "pieces moved and were scored"


# -- Track Tiles ------------------------------------------------------------------------------


def test_tracks_tiles_keep_their_cell_and_the_winning_track_glows() -> None:
    won = 0
    for seed in range(8):
        kinds: dict[str, str] = {}
        for state in _game_states("tracks", {"size": 4}, seed, 40):
            assert isinstance(state, TracksState)
            size = state.game.size
            board = state.board
            for seat in _seats(state):
                root = _draw("tracks", state, seat)
                ids = _ids(root)
                assert set(ids) == {f"tile-{cell_name(size, c)}" for c, k in enumerate(board) if k}
                for key, el in ids.items():
                    kind = re.search(r"kind (\d)", el.attrib["aria-label"])
                    assert kind is not None
                    # A tile, once placed, stays the same tile in its cell.
                    assert kinds.setdefault(key, kind.group(1)) == kind.group(1)
                glowing = [el for el in root.iter() if "data-glow" in el.attrib]
                outcome = state.outcome
                assert bool(glowing) == bool(outcome is not None and outcome.winners)
                won += bool(glowing)
    assert won, "some games were won"


# -- Tug of War -------------------------------------------------------------------------------


def _pips(el: ET.Element, root: ET.Element) -> int:
    """The dots drawn under ``el``: its circles, and those of what it ``<use>``s (a half's
    dots are drawn once in the picture, by reference)."""
    defined = {d.get("id"): d for d in root.iter() if d.get("id")}
    used = [defined[u.attrib["href"].lstrip("#")] for u in el.iter(f"{SVG}use")]
    return len(list(el.iter(f"{SVG}circle"))) + sum(len(list(d.iter(f"{SVG}circle"))) for d in used)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 3, "set": 9}])
def test_tug_of_war_dominoes_keep_their_identity_from_hand_to_train(
    options: dict[str, object],
) -> None:
    played = 0
    rng = random.Random(5)
    game = taut.make("tug-of-war", **options)
    assert isinstance(game, TugOfWar)
    state = game.new_initial_state()
    for _ in range(80):
        if state.is_terminal():
            break
        joint = state.random_joint(rng)
        after = state.apply(joint)
        assert isinstance(state, TugState) and isinstance(after, TugState)
        for seat in (None, 0):
            root = _draw("tug-of-war", state, seat)
            ids = _ids(root)
            for key, el in ids.items():
                if key.startswith("domino-"):
                    a, b = map(int, key.split("-")[1:])
                    assert _pips(el, root) == a + b, key
                else:
                    found = re.fullmatch(r"end-(\d+)\.([01])", key)
                    assert found is not None, key
                    ends = state.ends[int(found.group(1))]
                    assert ends is not None, key
                    assert str(ends[int(found.group(2))]) in _texts(el)
        # A tile played from the hand keeps its identity on the train (the full state
        # shows every hand).
        (seat, action), *_ = joint.items()
        if seat != CHANCE_SEAT and action < game.num_plays:
            tile, _train, _end = game.decode_play(action)
            low, high = sorted(game.dominoes.tiles[tile])
            key = f"domino-{low}-{high}"
            assert key in _ids(_draw("tug-of-war", state, None))
            assert key in _ids(_draw("tug-of-war", after, None))
            played += 1
        state = after
    assert played >= 5
