"""Patches of pictures joined from parts (:class:`taut.core.svg.Picture`): compared part by
part, then tag by tag inside the parts that changed, they make exactly the new picture, and
fall back to comparing the whole texts wherever the parts cannot be used."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from taut.core.forfeit import drawable
from taut.core.registry import make, plugin
from taut.core.svg import Picture, picture
from taut.server.play import patches

#: A part: one element or a few, each starting with a tag (the way a plugin joins them).
_TAG = st.sampled_from(["<g>", "</g>", '<rect x="1"/>', '<rect x="2"/>', "<text>ab", "</text>"])
_PART = st.lists(_TAG, min_size=1, max_size=4).map("".join)


@st.composite
def _two_pictures(draw: st.DrawFn) -> tuple[Picture, Picture]:
    """A picture and the next: some parts kept (the same objects), some changed, some gone,
    some new, as a move changes a board."""
    old = draw(st.lists(_PART, min_size=1, max_size=12))
    new: list[str] = []
    for part in old:
        what = draw(st.sampled_from(["keep", "keep", "change", "drop", "add"]))
        if what == "keep":
            new.append(part)
        elif what == "change":
            new.append(draw(_PART))
        elif what == "add":
            new += [part, draw(_PART)]
    if not new:
        new.append(draw(_PART))
    return picture(["<svg>", *old, "</svg>"]), picture(["<svg>", *new, "</svg>"])


@settings(max_examples=300, deadline=None)
@given(_two_pictures(), st.booleans())
def test_a_patch_by_parts_makes_exactly_the_new_picture(
    pair: tuple[Picture, Picture], edits: bool
) -> None:
    old, new = pair
    assert patches._by_parts(old, new, patches.CUT) is not None
    made = patches._made(old, new, edits=edits)
    if made is not None:
        sent = json.loads(made)
        assert patches.apply(old, sent) == new
        assert sent["tokens"] == len(new.split(patches.CUT))


def test_parts_that_do_not_start_with_a_tag_are_compared_as_whole_texts() -> None:
    board = '<rect x="1" y="2" width="3" height="4"/>' * 20  # long enough to patch
    old = picture(["<svg>", board, "<g>", "a words part", "</g>", "</svg>"])
    new = picture(["<svg>", board, "<g>", "another words part", "</g>", "</svg>"])
    assert patches._by_parts(old, new, patches.CUT) is None
    plain = picture(["<svg>", "<g>", "</g>", "</svg>"])
    assert patches._by_parts(plain, "<svg><g></g><g></g></svg>", patches.CUT) is None
    for made in (patches._made(old, new), patches._made(old, new, edits=True)):
        assert made is not None and patches.apply(old, json.loads(made)) == new


def test_a_picture_is_the_text_of_its_parts_and_a_change_makes_a_plain_text() -> None:
    drawn = picture(["<svg>", "", "<g/>", "</svg>"])
    assert drawn == "<svg><g/></svg>" and drawn.parts == ("<svg>", "<g/>", "</svg>")
    changed = drawn.replace("g", "rect")
    assert type(changed) is str and not isinstance(changed, Picture)


def served_pictures(seed: int, size: int = 6) -> list[str]:
    """Every picture of a random Track Tiles game as the server draws it: once a position,
    with no moves offered (the page offers the legal ones)."""
    found = plugin("tracks")
    assert found.offers
    rng = random.Random(seed)
    state = make("tracks", size=size).new_initial_state()
    out = []
    while not state.is_terminal():
        out.append(found.svg(drawable(state.view(None)), None, []))
        state = state.apply(
            state.sample_chance(rng) if state.is_chance() else state.random_joint(rng)
        )
    out.append(found.svg(drawable(state.view(None)), None, []))
    return out


def test_a_track_tiles_move_compares_only_the_parts_it_changed() -> None:
    """A Track Tiles board is drawn from kept parts (cells, hands, the legend): a move's
    patch compares a small share of the picture's tags, and is as short as comparing the
    whole texts would make it."""
    shown = served_pictures(seed=7)
    assert len(shown) > 10
    compared = total = 0
    for old, new in itertools.pairwise(shown):
        assert isinstance(old, Picture) and isinstance(new, Picture)
        found = patches._by_parts(old, new, patches.CUT)
        assert found is not None
        runs, count = found
        assert count == len(new.split(patches.CUT))
        compared += sum(len(run[1]) for run in runs if not isinstance(run, int))
        total += count
        by_parts = patches._made(old, new, edits=True)
        whole = patches._made(str(old), str(new), edits=True)
        if by_parts is not None:
            assert patches.apply(old, json.loads(by_parts)) == new
            assert whole is None or len(by_parts) <= 1.25 * len(whole)
    assert compared < 0.3 * total, (compared, total)


def test_pictures_of_every_size_come_whole_through_patches_by_parts() -> None:
    """Random Track Tiles games on boards of several sizes, every picture patched from the
    one before (as a client that takes edits is sent them), each made whole."""
    for seed, size in enumerate((3, 4, 6, 8)):
        shown = served_pictures(seed, size)
        held = shown[0]
        for new in shown[1:]:
            made = patches.patch(held, new, edits=True)
            held = new if made is None else patches.apply(held, json.loads(made))
            assert held == new
