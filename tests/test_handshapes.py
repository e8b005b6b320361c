"""The ASL handshape pictures: one per letter, labelled for screen readers, all different
(the easily confused ones in what is drawn, not only in their labels), and the
documentation's copies equal to what the drawings produce."""

from __future__ import annotations

import itertools
import math
import re
import string
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from taut.core.errors import InvalidOptionError
from taut.games.pulling_strings import handshape_gallery as gallery
from taut.games.pulling_strings.handshape_parts import (
    ARROW,
    BACK,
    COLUMNS,
    SKIN,
    arrow,
    tip,
)
from taut.games.pulling_strings.handshape_poses import POSES
from taut.games.pulling_strings.handshapes import HANDSHAPES, Handshape
from taut.games.pulling_strings.tilesets import asl

NS = "{http://www.w3.org/2000/svg}"
DOCS = Path(__file__).resolve().parent.parent / "docs"
LETTERS = string.ascii_uppercase

#: Handshapes that learners mix up; every pair inside a group must be drawn differently.
CONFUSABLE = [
    "ASTMNE",
    "UVRHK",
    "GHLQDZX",
    "IJY",
    "PQKG",
    "COE",
    "DF",
    "KV",
    "BW",
]


def _geometry(svg: str) -> str:
    """The drawing with its labels taken out: what a sighted viewer sees."""
    svg = re.sub(r"<title>.*?</title>", "", svg)
    return re.sub(r'aria-label="[^"]*"', "", svg)


def _root(hand: Handshape) -> ET.Element:
    return ET.fromstring(hand.svg)


def test_one_handshape_per_letter() -> None:
    assert list(HANDSHAPES) == list(LETTERS)
    for letter, hand in HANDSHAPES.items():
        assert hand.letter == letter


@pytest.mark.parametrize("letter", LETTERS)
def test_name_and_one_sentence_description(letter: str) -> None:
    hand = HANDSHAPES[letter]
    assert re.search(rf"\b{letter}\b", hand.name), hand.name
    assert "ASL" in hand.name
    text = hand.description
    assert text and text[0].isupper() and text.endswith("."), text
    # One sentence: no full stop, question or exclamation mark before the end.
    assert not re.search(r"[.!?]\s", text), text
    assert text.count(".") == 1, text


@pytest.mark.parametrize("letter", LETTERS)
def test_svg_is_labelled_for_screen_readers(letter: str) -> None:
    hand = HANDSHAPES[letter]
    root = _root(hand)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 100 100"
    assert root.get("role") == "img"
    assert root.get("aria-label") == hand.name
    title = root.find(f"{NS}title")
    assert title is not None and title.text == hand.name
    # The title comes first, so that it names the picture.
    assert next(iter(root)) is title


@pytest.mark.parametrize("letter", LETTERS)
def test_svg_is_small_and_in_the_house_style(letter: str) -> None:
    svg = HANDSHAPES[letter].svg
    assert len(svg.encode()) < 4000
    assert "#333" in svg
    assert SKIN in svg or BACK in svg
    # No ids: many pictures share one page in the browser.
    assert " id=" not in svg


def test_all_pictures_and_descriptions_differ() -> None:
    hands = list(HANDSHAPES.values())
    assert len({h.svg for h in hands}) == 26
    assert len({_geometry(h.svg) for h in hands}) == 26
    assert len({h.description for h in hands}) == 26
    assert len({h.name for h in hands}) == 26


@pytest.mark.parametrize(
    ("first", "second"),
    sorted({tuple(sorted(p)) for g in CONFUSABLE for p in itertools.combinations(g, 2)}),
)
def test_confusable_handshapes_are_drawn_differently(first: str, second: str) -> None:
    a, b = _geometry(HANDSHAPES[first].svg), _geometry(HANDSHAPES[second].svg)
    assert a != b
    # Not a near-copy either: the drawn elements themselves differ.
    elements_a = set(re.findall(r"<[a-z]+ [^>]*>", a))
    elements_b = set(re.findall(r"<[a-z]+ [^>]*>", b))
    assert elements_a ^ elements_b


def test_motion_arrows_only_for_j_and_z() -> None:
    moving = {letter for letter, hand in HANDSHAPES.items() if ARROW in hand.svg}
    assert moving == {"J", "Z"}


def test_j_is_i_with_a_motion_arrow() -> None:
    motion = POSES["J"].arrow
    assert motion is not None
    drawn = arrow(motion.d, motion.head)
    i_svg, j_svg = _geometry(HANDSHAPES["I"].svg), _geometry(HANDSHAPES["J"].svg)
    assert drawn in j_svg
    assert j_svg.replace(drawn, "") == i_svg


@pytest.mark.parametrize(("letter", "finger"), [("J", "little"), ("Z", "index")])
def test_motion_starts_at_the_moving_fingertip(letter: str, finger: str) -> None:
    pose = POSES[letter]
    assert pose.arrow is not None and pose.view == "front" and not pose.turn
    start = re.match(r"M([\d.]+) ([\d.]+)", pose.arrow.d)
    assert start is not None
    # The fingertip: the end of the finger's centre line plus its round end.
    angle = math.radians(pose.finger(finger).angle)
    half = COLUMNS[finger].width / 2
    x, y = tip(finger, pose.finger(finger).angle)
    x, y = x + half * math.sin(angle) + pose.shift[0], y - half * math.cos(angle) + pose.shift[1]
    assert math.dist((float(start[1]), float(start[2])), (x, y)) < 12


def test_back_of_hand_is_shown_by_its_own_shade() -> None:
    """The palm-orientation convention: G, H, P and Q show the back of the hand, with
    fingernails; the others show the palm side or the edge."""
    backs = {letter for letter, hand in HANDSHAPES.items() if BACK in hand.svg}
    assert backs == {"G", "H", "P", "Q"}
    for letter in backs:
        assert "<ellipse" in HANDSHAPES[letter].svg  # nails on the straight fingers


def test_the_tile_set_shows_these_pictures() -> None:
    tiles = asl().tiles
    assert [t.board.text for t in tiles] == list(LETTERS)
    for tile in tiles:
        hand = HANDSHAPES[tile.board.text]
        assert tile.other.svg == hand.svg
        assert tile.other.description == hand.description


def test_gallery_lays_out_every_letter() -> None:
    root = ET.fromstring(gallery.gallery_svg())
    pictures = root.findall(f"{NS}svg")
    assert [p.get("aria-label") for p in pictures] == [h.name for h in HANDSHAPES.values()]
    assert [t.text for t in root.iter(f"{NS}text")] == list(LETTERS)
    # Every picture's letter sits centred under it.
    for picture, label in zip(pictures, root.iter(f"{NS}text"), strict=True):
        x, y = float(picture.get("x", "")), float(picture.get("y", ""))
        assert float(label.get("x", "")) == x + 50
        assert y + 100 < float(label.get("y", "")) < y + 100 + 30


def test_gallery_columns() -> None:
    wide = ET.fromstring(gallery.gallery_svg(columns=13))
    narrow = ET.fromstring(gallery.gallery_svg(columns=2))
    assert float(wide.get("width", "")) > float(narrow.get("width", ""))
    assert float(wide.get("height", "")) < float(narrow.get("height", ""))
    with pytest.raises(InvalidOptionError, match="column"):
        gallery.gallery_svg(columns=0)


def test_docs_are_up_to_date() -> None:
    """docs/handshapes/ and docs/asl.md are what the drawings produce (regenerate with
    ``python -m taut.games.pulling_strings.handshape_gallery docs/handshapes``)."""
    folder = DOCS / "handshapes"
    expected = gallery.doc_files()
    assert sorted(p.name for p in folder.iterdir()) == sorted(expected)
    for name, text in expected.items():
        assert (folder / name).read_text(encoding="utf-8") == text, name
    assert (DOCS / "asl.md").read_text(encoding="utf-8") == gallery.asl_page()


def test_asl_page_lists_every_letter_with_picture_and_description() -> None:
    page = gallery.asl_page()
    for letter, hand in HANDSHAPES.items():
        assert f"![{hand.name}](handshapes/{letter}.svg)" in page
        assert hand.description in page
    assert "learning aids" in page
    assert "python -m taut.games.pulling_strings.handshape_gallery docs/handshapes" in page


def test_doc_pictures_are_the_handshapes_with_a_size() -> None:
    files = gallery.doc_files()
    for letter, hand in HANDSHAPES.items():
        root = ET.fromstring(files[f"{letter}.svg"])
        assert root.get("width") == root.get("height") == "100"
        assert _geometry(files[f"{letter}.svg"]).replace(' width="100" height="100"', "") == (
            _geometry(hand.svg) + "\n"
        )


def test_command_writes_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "handshapes"
    folder.mkdir()
    (folder / "stale.svg").write_text("<svg/>", encoding="utf-8")
    assert gallery.main([str(folder)]) == 0
    assert sorted(p.name for p in folder.iterdir()) == sorted(gallery.doc_files())
    assert (tmp_path / "asl.md").read_text(encoding="utf-8") == gallery.asl_page()
    assert "asl.md" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["a", "b"], ["--help"]])
def test_command_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert gallery.main(argv) == 2
    assert "usage" in capsys.readouterr().err


def test_no_description_names_a_letter() -> None:
    """A description is how a player picks a handshape without its label, so it must not
    give the answer away by naming a letter (its own or another handshape's)."""
    import re

    for letter, hand in HANDSHAPES.items():
        named = re.findall(r"\b[A-Z]\b", hand.description[1:])
        assert named == [], f"{letter}: {hand.description!r} names {named}"
