"""Boards drawn from cached parts (Track Tiles: each cell's look, each tile's art, the
coordinates and edges of a size; Tug of War: its dominoes, dots and words): a position drawn
after many others is exactly the picture drawn with every cache empty; Push-Pull's and
Pulling Strings' moves in words, said once for all positions (and games) alike, are the
words said afresh; and a stored move the server reads again makes the state made
afresh."""

from __future__ import annotations

import random

import pytest

from taut.core.registry import make
from taut.games.tracks import svg


def clear() -> None:
    caches = (svg._cell, svg._tile_art, svg._coordinates, svg._edges, svg.reached_codes)
    for cached in (*caches, svg._hand_drawn):
        cached.cache_clear()


@pytest.mark.parametrize("size", [3, 5, 6])
def test_a_picture_from_the_caches_is_the_one_drawn_afresh(size: int) -> None:
    rng = random.Random(size)
    drawn: list[tuple[object, int | None, list[str], str]] = []
    for _ in range(4):
        state = make("tracks", size=size).new_initial_state()
        while not state.is_terminal():
            for seat in (None, 0, 1):
                acting = seat is not None and seat in state.acting_seats()
                legal = (
                    [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
                    if acting
                    else []
                )
                drawn.append((state, seat, legal, svg.board_svg(state, seat, legal)))
            if state.kind.name == "CHANCE":
                state = state.apply({-1: rng.choice(state.chance_outcomes())[0]})
            else:
                state = state.apply(rng.choice(state.legal_actions(state.acting_seats()[0])))
    for state, seat, legal, cached in rng.sample(drawn, 40):
        clear()
        assert svg.board_svg(state, seat, legal) == cached  # type: ignore[arg-type]


def test_a_tug_of_war_table_from_the_caches_is_the_one_drawn_afresh() -> None:
    from taut.core.forfeit import drawable
    from taut.core.registry import plugin
    from taut.games.tug_of_war import svg as tow_svg
    from taut.games.tug_of_war import svg_hand, svg_pieces

    found = plugin("tug-of-war")
    rng = random.Random(5)
    drawn = []
    for players in (2, 3):
        state = make("tug-of-war", players=players).new_initial_state()
        for _ in range(40):
            if state.is_terminal():
                break
            for seat in (None, *range(players)):
                view = drawable(state if seat is None else state.view(seat))
                acting = seat is not None and seat in state.acting_seats()
                legal = (
                    [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
                    if acting
                    else []
                )
                pictures = (found.svg(view, seat, legal), found.svg_narrow(view, seat, legal))
                drawn.append((view, seat, legal, pictures))
            if state.kind.name == "CHANCE":
                state = state.apply({-1: rng.choice(state.chance_outcomes())[0]})
            else:
                state = state.apply(rng.choice(state.legal_actions(state.acting_seats()[0])))
    for view, seat, legal, pictures in rng.sample(drawn, 30):
        svg_pieces.text.cache_clear()
        svg_pieces.domino.cache_clear()
        svg_pieces.faces.cache_clear()
        svg_pieces.wrapped.cache_clear()
        tow_svg._train_row.cache_clear()
        tow_svg._end_box_at.cache_clear()
        tow_svg._laid_at.cache_clear()
        tow_svg._starter_at.cache_clear()
        svg_hand._drawn_tile.cache_clear()
        assert (found.svg(view, seat, legal), found.svg_narrow(view, seat, legal)) == pictures


@pytest.mark.parametrize("variant", ["duel", "two-teams"])
def test_push_pull_moves_in_words_from_the_cache_are_the_words_said_afresh(variant: str) -> None:
    from taut.core.registry import plugin
    from taut.games.push_pull import plugin as pp_plugin
    from taut.games.push_pull.narrate import move_words

    found = plugin("push-pull")
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        state = make("push-pull", variant=variant).new_initial_state()
        while not state.is_terminal() and checked < 3000:
            for seat in state.acting_seats():
                for action in state.legal_actions(seat):
                    text = state.action_to_string(seat, action)
                    said = found.describe_move(state, seat, text)
                    assert said == move_words(state, seat, action), (text, said)  # type: ignore[arg-type]
                    checked += 1
            joint = {s: rng.choice(state.legal_actions(s)) for s in state.acting_seats()}
            state = state.apply(joint)
    # A notation that is no move is said as it is written, and not kept as a move's words.
    assert found.describe_move(state, 0, "L=sideways") == "L=sideways"
    assert checked > 100 and pp_plugin._WORDS


def test_pulling_strings_moves_in_words_from_the_cache_are_the_words_said_afresh() -> None:
    """Games of other letters, titles or tile sets, played in turn, each get their own
    words: the words kept for one never stand for another's."""
    from taut.core.registry import plugin
    from taut.games.pulling_strings.narrate import move_words

    found = plugin("pulling-strings")
    games = [
        make("pulling-strings"),
        make("pulling-strings", edition="published", seed=1),
        make("pulling-strings", edition="published", seed=2),
        make("pulling-strings", edition="published", tiles="roman", seed=1),
        make("pulling-strings", edition="published", tiles="kana", seed=1),
    ]
    assert len({str(g.letters) for g in games}) == len(games)  # type: ignore[attr-defined]
    rng = random.Random(4)
    checked = 0
    for _ in range(2):
        for game in games:
            state = game.new_initial_state()
            for _ in range(6):
                if state.is_terminal():
                    break
                for seat in state.acting_seats():
                    legal = state.legal_actions(seat)
                    texts = [state.action_to_string(seat, a) for a in legal]
                    said = found.describe_moves(state, seat, texts)
                    assert said == [move_words(state, seat, a) for a in legal]  # type: ignore[arg-type]
                    assert found.describe_move(state, seat, texts[0]) == said[0]
                    checked += len(legal)
                joint = {s: rng.choice(state.legal_actions(s)) for s in state.acting_seats()}
                state = state.apply(joint)
    # Text that names no end is said as it is written.
    assert found.describe_move(games[0].new_initial_state(), 0, "zz9") == "zz9"
    assert checked > 500


def test_track_tiles_moves_in_words_from_the_cache_are_the_words_said_afresh() -> None:
    from taut.core.registry import plugin
    from taut.core.terms import CHANCE_SEAT
    from taut.games.tracks.narrate import move_words

    found = plugin("tracks")
    rng = random.Random(5)
    checked = 0
    for size in (4, 6):
        state = make("tracks", size=size, roll="each").new_initial_state()
        while not state.is_terminal():
            for seat in state.acting_seats():
                if seat == CHANCE_SEAT:
                    continue
                for action in state.legal_actions(seat):
                    text = state.action_to_string(seat, action)
                    said = found.describe_move(state, seat, text)
                    assert said == move_words(state, seat, action), (text, said)  # type: ignore[arg-type]
                    checked += 1
            state = state.apply(
                state.sample_chance(rng) if state.is_chance() else state.random_joint(rng)
            )
    assert checked > 100
    assert found.describe_move(state, 0, "z99") == "z99"


def test_a_track_tiles_text_from_the_cached_rows_is_the_one_drawn_afresh() -> None:
    from taut.games.tracks import render

    rng = random.Random(9)
    drawn = []
    for size in (3, 6):
        state = make("tracks", size=size).new_initial_state()
        while not state.is_terminal():
            drawn.append((state, render.render_state(state), render.render_state(state, True)))
            state = state.apply(
                state.sample_chance(rng) if state.is_chance() else state.random_joint(rng)
            )
    for state, plain, marked in rng.sample(drawn, 25):
        render._row_lines.cache_clear()
        assert render.render_state(state) == plain  # type: ignore[arg-type]
        render._row_lines.cache_clear()
        assert render.render_state(state, True) == marked  # type: ignore[arg-type]


def test_a_tug_of_war_move_read_again_at_a_position_is_the_move_read_afresh() -> None:
    from taut.core.errors import TautError
    from taut.games.tug_of_war import notation

    rng = random.Random(4)
    state = make("tug-of-war", players=3).new_initial_state()
    read = 0
    for _ in range(120):
        if state.is_terminal():
            break
        for seat in state.acting_seats():
            if seat < 0:
                continue
            # The moves listed first (as the server lists them, on the seat's view): each
            # is then read back from what the list wrote.
            for here in (state, state.view(seat)):
                listed = here.legal_action_strings(seat)
                assert listed == [here.action_to_string(seat, a) for a in here.legal_actions(seat)]
                for action in here.legal_actions(seat):
                    text = here.action_to_string(seat, action)
                    short = text.partition("@")[0]  # the tile alone: one place, or refused
                    for said in (text, text, short):
                        try:
                            fresh = notation.string_to_action(here, seat, said)  # type: ignore[arg-type]
                        except TautError:
                            with pytest.raises(TautError):
                                here.string_to_action(seat, said)
                            continue
                        assert here.string_to_action(seat, said) == fresh
                        read += 1
        state = state.apply(
            state.sample_chance(rng) if state.is_chance() else state.random_joint(rng)
        )
    assert read > 200


@pytest.mark.parametrize("name", ["tug-of-war", "push-pull", "tracks"])
def test_a_stored_move_applied_again_makes_the_state_made_afresh(name: str) -> None:
    from taut.core.terms import CHANCE_SEAT
    from taut.server.play.joints import applied, parse_joint

    rng = random.Random(8)
    game = make(name)
    state = game.new_initial_state()
    played = 0
    while played < 40:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance():
            joint = {CHANCE_SEAT: state.sample_chance(rng)}
        else:
            joint = state.random_joint(rng)
        stored = {
            "chance" if seat < 0 else state.seat_name(seat): state.action_to_string(seat, action)
            for seat, action in joint.items()
        }
        read, after = applied(state, stored)
        # Read and applied once: asked again, the same state comes back.
        assert applied(state, dict(stored))[1] is after
        fresh = state.apply(parse_joint(state, stored))
        assert read == joint and after.to_json() == fresh.to_json() and after is not fresh
        state = after
        played += 1


@pytest.mark.parametrize("variant", ["duel", "two-teams"])
def test_a_push_pull_board_and_its_help_from_the_caches_are_the_ones_made_afresh(
    variant: str,
) -> None:
    from taut.core.registry import plugin
    from taut.games.push_pull import guide
    from taut.games.push_pull import svg as pp_svg

    found = plugin("push-pull")
    rng = random.Random(11)
    made = []
    state = make("push-pull", variant=variant).new_initial_state()
    while not state.is_terminal():
        for seat in (None, *range(len(state.game.layout.seats))):
            view = state if seat is None else state.view(seat)
            acting = seat is not None and seat in state.acting_seats()
            legal = (
                [state.action_to_string(seat, a) for a in state.legal_actions(seat)][:20]
                if acting
                else []
            )
            helped = found.move_help(view, seat) if seat is not None else None
            made.append((view, seat, legal, found.svg(view, seat, legal), helped))
        joint = {s: rng.choice(state.legal_actions(s)) for s in state.acting_seats()}
        state = state.apply(joint)
    assert len(made) > 6
    for view, seat, legal, drawn, helped in rng.sample(made, min(30, len(made))):
        pp_svg._strip_drawn.cache_clear()
        guide._move_help.cache_clear()
        guide._examples.cache_clear()
        assert found.svg(view, seat, legal) == drawn
        if seat is not None:
            assert found.move_help(view, seat) == helped
