"""Word practice: the word lists (letters A to Z, each in the file of its length, a few
hundred), the sets that carry them, and the pages and API that serve them."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from taut.games.pulling_strings.tilesets import WORDS, fingerspelling_words
from taut.learn.registry import tile_sets
from taut.server.learn.flashcards import word_sets
from tests.test_server_api import clean_error
from tests.test_server_kit import app_client


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with app_client(tmp_path_factory.mktemp("words")) as c:
        yield c


def test_the_word_lists_are_well_formed() -> None:
    files = sorted(WORDS.glob("*.txt"))
    assert [p.stem for p in files] == ["3", "4", "5", "6", "7"]
    total = 0
    for path in files:
        words = [
            line.strip()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        ]
        assert len(words) >= 40, path.name
        assert len(set(words)) == len(words), f"{path.name} lists a word twice"
        for word in words:
            assert word.isascii() and word.isalpha() and word.islower(), word
            assert len(word) == int(path.stem), f"{word} in {path.name}"
        total += len(words)
    assert 200 <= total <= 600
    loaded = fingerspelling_words()
    assert len(loaded) == total and all(w.isupper() for w in loaded)
    assert [len(w) for w in loaded] == sorted(len(w) for w in loaded)


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("3.txt", "cat\ndog2\n", "3.txt, line 2: 'dog2' is not a word of 3 letters"),
        ("4.txt", "# four\nfrog\ntoad\ncat\n", "4.txt, line 4: 'cat' is not a word of 4"),
        ("5.txt", "café!\n", "is not a word of 5 letters A to Z"),
    ],
)
def test_a_malformed_word_list_is_refused_naming_the_line(
    tmp_path: Path, name: str, text: str, words: str
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        fingerspelling_words(tmp_path)
    assert words in str(caught.value)


def test_every_word_is_spelt_with_the_board_faces_of_its_sets() -> None:
    sets = word_sets()
    assert sets, "no tile set carries words"
    for ts in sets:
        assert ts.picker == "describe"  # the words are shown as pictures
        for word in ts.words:
            assert all(ts.find_board(letter) is not None for letter in word), word
    # Sets without words are not offered.
    assert {ts.name for ts in sets} == {n for n, ts in tile_sets().items() if ts.words}


def test_the_pages_and_the_api(client: TestClient) -> None:
    listing = client.get("/words")
    assert listing.status_code == 200
    for ts in word_sets():
        assert f'href="/words/{ts.name}"' in listing.text
        page = client.get(f"/words/{ts.name}")
        assert page.status_code == 200
        assert '<script type="module" src="/static/learn/words.js">' in page.text
        assert html.escape(ts.title) in page.text
        body = client.get(f"/api/words/{ts.name}").json()
        assert body["words"] == list(ts.words)
        assert len(body["set"]["tiles"]) == len(ts)
    assert 'href="/words"' in client.get("/flashcards").text


def test_sets_without_words_are_refused(client: TestClient) -> None:
    without = [n for n, ts in tile_sets().items() if not ts.words]
    assert without
    page = client.get(f"/words/{without[0]}")
    assert page.status_code == 404 and "No words to spell with" in page.text
    assert "has no words to spell" in clean_error(client.get(f"/api/words/{without[0]}"), 404)
    assert "no tile set called" in clean_error(client.get("/api/words/nope"), 404)
