"""`taut flashcards SET`: typed answers right and wrong, choices by number for pictures,
help / skip / quit, the progress file written and taken up again, and bad input (exit 2).

The cards a sitting asks are predicted with the scheduler itself (same seed, same answers,
the clock held still), so the answers typed here are right or wrong on purpose."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from taut.cli import cli
from taut.learn import flashcards as fc
from taut.learn.flashcards import Card, Deck, Progress
from taut.learn.registry import tile_sets
from taut.learn.tileset import TileSet

runner = CliRunner()
SEED = 1
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def still_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sitting here happens at NOW."""
    monkeypatch.setattr(fc, "now_utc", lambda: NOW)


def invoke(*args: str, input: str = "", env: dict[str, str | None] | None = None) -> Result:
    return runner.invoke(cli, ["--no-color", "flashcards", *args], input=input, env=env)


def plan(
    tiles: TileSet,
    deck: Deck,
    right: list[bool],
    directions: tuple[str, ...] = fc.DIRECTIONS,
    typed: Callable[[Deck, Card, bool], tuple[str, int]] | None = None,
) -> tuple[Deck, list[str], list[Card]]:
    """What to type for a sitting whose answers are ``right`` (True) or wrong (False: the
    next tile's face, or what ``typed`` says); the deck after it and the cards asked."""
    lines: list[str] = []
    cards: list[Card] = []
    new_left = fc.NEW_PER_SITTING
    for good in right:
        last = {cards[-1].key} if cards else set()
        card = fc.next_card(
            deck, tiles, directions, now=NOW, seed=SEED, new_left=new_left, avoid=last
        ).card
        new_left -= card.key not in deck.cards
        given = card.tile if good else (card.tile + 1) % len(tiles)
        if typed is not None:
            line, given = typed(deck, card, good)
            lines.append(line)
        else:
            tile = tiles.tiles[given]
            face = tile.other if card.direction == fc.BOARD_TO_OTHER else tile.board
            lines.append(face.text.lower())  # any case is accepted
        cards.append(card)
        deck = fc.record(deck, card, given, NOW)
    return deck, lines, cards


def test_right_and_wrong_typed_answers_and_the_progress_file(tmp_path: Path) -> None:
    roman = tile_sets()["roman"]
    path = tmp_path / "progress.json"
    expected, lines, cards = plan(roman, Deck(), [True, False, True])
    r = invoke("roman", "--cards", "3", "--seed", str(SEED), "--progress", str(path),
               input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.count("Right:") == 2 and out.count("Wrong:") == 1
    missed = cards[1]
    assert f"Wrong: {missed.tile + 1} = {roman.tiles[missed.tile].other.text};" in out
    assert "Summary" in out and "This time: 2 right of 3." in out
    assert f"You mixed up {fc.tile_label(roman, missed.tile)}" in out
    saved = Progress.load(path)
    assert saved.deck("roman") == expected
    assert json.loads(path.read_text())["version"] == fc.VERSION

    # A second sitting takes the deck up where it was, and adds to it.
    again, lines, _ = plan(roman, expected, [False, False])
    r = invoke("roman", "--cards", "2", "--seed", str(SEED), "--progress", str(path),
               input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert Progress.load(path).deck("roman") == again
    summary = fc.summarize(again, roman, now=NOW)
    assert (summary.right, summary.wrong) == (2, 3)
    assert "Accuracy: 2 right of 5 (40%)." in r.output


def test_one_file_keeps_every_set(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    for name in ("roman", "kana"):
        _, lines, _ = plan(tile_sets()[name], Deck(), [True])
        r = invoke(name, "--cards", "1", "--seed", str(SEED), "--progress", str(path),
                   input=lines[0] + "\n")  # fmt: skip
        assert r.exit_code == 0, r.output
    assert sorted(Progress.load(path).sets) == ["kana", "roman"]


def test_pictures_are_chosen_by_number(tmp_path: Path) -> None:
    name = next(n for n, ts in tile_sets().items() if ts.picker == "describe")
    tiles = tile_sets()[name]

    def number(deck: Deck, card: Card, good: bool) -> tuple[str, int]:
        offered = fc.choices(deck, tiles, card, SEED)
        given = card.tile if good else next(t for t in offered if t != card.tile)
        return str(offered.index(given) + 1), given

    expected, lines, cards = plan(tiles, Deck(), [True, True], (fc.BOARD_TO_OTHER,), number)
    # A letter typed where a picture is chosen is refused (and asked again), never judged.
    typed = [tiles.tiles[cards[0].tile].board.text, lines[0], "9", lines[1]]
    r = invoke(name, "--direction", "board", "--cards", "2", "--seed", str(SEED),
               "--progress", str(tmp_path / "p.json"), input="\n".join(typed) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.count("Type a number from 1 to 6") == 2
    assert out.count("Right:") == 2
    first = tiles.tiles[cards[0].tile].other
    assert "1. " in out and (first.description or first.name) in out
    assert Progress.load(tmp_path / "p.json").deck(name) == expected


def test_choices_for_typed_sets_too(tmp_path: Path) -> None:
    roman = tile_sets()["roman"]

    def number(deck: Deck, card: Card, good: bool) -> tuple[str, int]:
        offered = fc.choices(deck, roman, card, SEED)
        given = card.tile if good else next(t for t in offered if t != card.tile)
        return str(offered.index(given) + 1), given

    expected, lines, _ = plan(roman, Deck(), [False, True], typed=number)
    r = invoke("roman", "--choices", "--cards", "2", "--seed", str(SEED),
               "--progress", str(tmp_path / "p.json"), input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "(1-6)?" in r.output
    assert Progress.load(tmp_path / "p.json").deck("roman") == expected


def test_help_skip_and_quit(tmp_path: Path) -> None:
    roman = tile_sets()["roman"]
    path = tmp_path / "p.json"
    first = fc.next_card(Deck(), roman, now=NOW, seed=SEED).card
    second = fc.next_card(Deck(), roman, now=NOW, seed=SEED, avoid={first.key}).card
    face = roman.tiles[second.tile]
    answer = face.other.text if second.direction == fc.BOARD_TO_OTHER else face.board.text
    r = invoke("roman", "--seed", str(SEED), "--progress", str(path),
               input=f"help\nskip\n{answer}\nquit\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    out = r.output
    assert "`skip` puts this card after the others" in out
    assert "This time: 1 right of 1." in out and "Summary" in out
    saved = Progress.load(path).deck("roman")
    assert list(saved.cards) == [second.key]  # the skipped card is not answered


def test_end_of_input_stops_with_the_summary(tmp_path: Path) -> None:
    r = invoke("roman", "--progress", str(tmp_path / "p.json"), input="")
    assert r.exit_code == 0, r.output
    assert "No answers yet." in r.output


def test_the_default_file_is_in_the_data_folder(tmp_path: Path) -> None:
    env: dict[str, str | None] = {"TAUT_DATA": None, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    _, lines, _ = plan(tile_sets()["roman"], Deck(), [True])
    r = invoke("roman", "--cards", "1", "--seed", str(SEED), input=lines[0] + "\n", env=env)
    assert r.exit_code == 0, r.output
    assert Progress.load(tmp_path / "xdg" / "taut" / "flashcards.json").deck("roman").cards


def test_an_unknown_set_is_refused_listing_the_sets() -> None:
    r = invoke("nope")
    assert r.exit_code == 2
    err = r.stderr
    assert "unknown tile set 'nope'" in err
    for name in tile_sets():
        assert name in err


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "is not JSON"),
        ('{"version": 9, "sets": {}}', "version 9"),
        ('{"version": 1, "sets": {"roman": []}}', "sets.roman: expected an object"),
    ],
)
def test_a_malformed_progress_file_is_refused(tmp_path: Path, text: str, words: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text)
    r = invoke("roman", "--progress", str(path), input="1\n")
    assert r.exit_code == 2
    assert words in r.stderr and str(path) in r.stderr
    assert path.read_text() == text  # left as it was


def test_progress_naming_tiles_the_set_lacks_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    deck = fc.record(Deck(), Card("roman", 99, fc.BOARD_TO_OTHER), 99, NOW)
    Progress({"roman": deck}).save(path)
    r = invoke("roman", "--progress", str(path))
    assert r.exit_code == 2
    assert "names tile 99" in r.stderr


def test_help_lists_the_sets_and_an_example() -> None:
    r = invoke("--help")
    assert r.exit_code == 0
    out = r.output
    assert "Example:" in out and "taut flashcards " in out
    for ts in tile_sets().values():
        assert ts.title in out


def test_a_progress_file_that_cannot_be_used_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = invoke("roman", "--progress", str(blocker / "p.json"), input="1\n")
    assert r.exit_code == 2
    assert "cannot read the progress file" in r.stderr and "p.json" in r.stderr


def test_a_sitting_says_why_a_card_comes_and_when_it_comes_back(tmp_path: Path) -> None:
    roman = tile_sets()["roman"]
    _, lines, _ = plan(roman, Deck(), [True, False])
    r = invoke("roman", "--cards", "2", "--seed", str(SEED), "--progress",
               str(tmp_path / "p.json"), input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert r.output.count("· new card") == 2
    assert "Again in 10 minutes." in r.output and "Again in 1 minute." in r.output


def test_new_cards_stop_after_a_few_then_the_sitting_studies_ahead(tmp_path: Path) -> None:
    roman = tile_sets()["roman"]
    answers = fc.NEW_PER_SITTING + 3
    expected, lines, cards = plan(roman, Deck(), [True] * answers)
    r = invoke("roman", "--cards", str(answers), "--seed", str(SEED), "--progress",
               str(tmp_path / "p.json"), input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert r.output.count("· new card") == fc.NEW_PER_SITTING
    assert "studying ahead" in r.output
    assert len({c.key for c in cards}) == fc.NEW_PER_SITTING
    assert Progress.load(tmp_path / "p.json").deck("roman") == expected


def test_a_version_1_progress_file_is_converted_and_played_on(tmp_path: Path) -> None:
    # A file the Leitner scheduler of earlier versions wrote.
    path = tmp_path / "old.json"
    shutil.copy(FIXTURES / "flashcards_v1_terminal.json", path)
    converted = Progress.load(path, NOW)
    roman = tile_sets()["roman"]
    expected, lines, _ = plan(roman, converted.deck("roman"), [True, False])
    r = invoke("roman", "--cards", "2", "--seed", str(SEED), "--progress", str(path),
               input="\n".join(lines) + "\n")  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "Leitner boxes of an earlier version" in r.output
    assert r.output.count("· due") == 2  # every converted card is due now
    saved = Progress.load(path)
    assert json.loads(path.read_text())["version"] == 2 and not saved.converted
    assert saved.deck("roman") == expected
    assert saved.deck("asl") == converted.deck("asl")  # the other sets are kept
