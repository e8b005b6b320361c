"""The flash-card scheduler (taut.core.flashcards): Leitner boxes, missed cards sooner,
choices that prefer confusions, the summary, and progress JSON read strictly."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from taut.core import flashcards as fc
from taut.core.errors import TautError
from taut.core.flashcards import Card, Deck, Progress, ProgressError
from taut.core.registry import tile_sets
from taut.core.tileset import TileSet


@pytest.fixture(scope="module")
def roman() -> TileSet:
    return tile_sets()["roman"]


Answerer = Callable[[Card], int | None]


def drill(
    tiles: TileSet,
    answers: int,
    answer: Answerer,
    seed: int = 1,
    directions: tuple[str, ...] = fc.DIRECTIONS,
    deck: Deck | None = None,
) -> tuple[Deck, list[tuple[int, Card]]]:
    """Play ``answers`` cards, answering with ``answer``; the deck and (round, card) asked."""
    deck = deck or Deck()
    asked: list[tuple[int, Card]] = []
    for _ in range(answers):
        card, deck = fc.next_card(deck, tiles, directions, seed)
        asked.append((deck.round, card))
        deck = fc.record(deck, card, answer(card))
    return deck, asked


@pytest.mark.parametrize(
    ("box", "due_rounds"),
    [
        (1, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
        (2, [2, 4, 6, 8, 10, 12, 14, 16]),
        (3, [4, 8, 12, 16]),
        (4, [8, 16]),
        (5, [16]),
    ],
)
def test_box_b_is_reviewed_every_2_to_the_b_minus_1_rounds(box: int, due_rounds: list[int]) -> None:
    assert [r for r in range(1, 17) if fc.is_due(box, r)] == due_rounds


def test_right_moves_up_to_box_5_and_wrong_goes_back_to_box_1(roman: TileSet) -> None:
    card = Card("roman", 3, fc.BOARD_TO_OTHER)
    deck = Deck(round=1)
    boxes = []
    for _ in range(6):
        deck = fc.record(deck, card, 3)
        boxes.append(deck.cards[card.key].box)
    assert boxes == [2, 3, 4, 5, 5, 5]
    deck = fc.record(deck, card, 4)
    state = deck.cards[card.key]
    assert (state.box, state.right, state.wrong) == (1, 6, 1)


def test_a_missed_card_comes_back_every_round_a_known_one_ever_more_rarely(
    roman: TileSet,
) -> None:
    # Always miss tile 0 both ways, know every other tile: over many rounds the missed cards
    # are asked in every round after they first appear; a known card's gaps grow to 16.
    deck, asked = drill(roman, 600, lambda c: (c.tile + 1) % 26 if c.tile == 0 else c.tile)
    rounds: dict[Card, list[int]] = defaultdict(list)
    for number, card in asked:
        rounds[card].append(number)
    for direction in fc.DIRECTIONS:
        missed = rounds[Card("roman", 0, direction)]
        assert len(missed) > 10
        assert missed == list(range(missed[0], missed[0] + len(missed)))
    known = [r for c, r in rounds.items() if c.tile != 0 and len(r) >= 5]
    assert known, "no known card was asked five times"
    for seen in known:
        gaps = [b - a for a, b in itertools.pairwise(seen)]
        assert gaps == sorted(gaps), f"gaps shrink: {gaps}"
        assert gaps[-1] >= 8
    assert deck.cards[(0, fc.BOARD_TO_OTHER)].box == 1
    # A card is asked at most once a round.
    assert len(asked) == len(set(asked))


def test_new_cards_come_a_few_a_round_and_the_round_is_shuffled(roman: TileSet) -> None:
    card, deck = fc.next_card(Deck(), roman, fc.DIRECTIONS, seed=5)
    assert deck.round == 1 and len(deck.queue) == fc.NEW_PER_ROUND
    assert card.key == deck.queue[0]
    other_seed = fc.next_card(Deck(), roman, fc.DIRECTIONS, seed=6)[1]
    assert other_seed.queue != deck.queue


def test_the_same_seed_and_answers_ask_the_same_cards(roman: TileSet) -> None:
    def answer(c: Card) -> int:
        return c.tile if c.tile % 3 else (c.tile + 2) % 26

    first = drill(roman, 80, answer, seed=11)
    again = drill(roman, 80, answer, seed=11)
    other = drill(roman, 80, answer, seed=12)
    assert first == again
    assert [c for _, c in first[1]] != [c for _, c in other[1]]


def test_only_the_wanted_direction_is_asked(roman: TileSet) -> None:
    _, asked = drill(roman, 60, lambda c: c.tile, directions=(fc.OTHER_TO_BOARD,))
    assert {c.direction for _, c in asked} == {fc.OTHER_TO_BOARD}
    with pytest.raises(ProgressError, match="direction"):
        fc.next_card(Deck(), roman, ("sideways",))


def test_a_new_round_does_not_start_with_the_card_just_missed(roman: TileSet) -> None:
    # Only one card known by then (box 1, due every round): after it is missed at the end
    # of a round, the next round begins with another card whenever there is one.
    _deck, asked = drill(roman, 200, lambda c: None)
    for (_, a), (_, b) in itertools.pairwise(asked):
        assert a != b


def test_skip_puts_the_card_at_the_end_of_its_round(roman: TileSet) -> None:
    card, deck = fc.next_card(Deck(), roman, fc.DIRECTIONS, 3)
    skipped = fc.skip(deck, card)
    assert skipped.queue == (*deck.queue[1:], card.key)
    assert skipped.cards == deck.cards
    following, _ = fc.next_card(skipped, roman, fc.DIRECTIONS, 3)
    assert following != card


def test_typed_answers_any_case_and_aliases() -> None:
    sets = tile_sets()
    roman, kana = sets["roman"], sets["kana"]
    assert fc.answer_tile(roman, Card("roman", 13, fc.BOARD_TO_OTHER), " xiv ") == 13
    assert fc.answer_tile(roman, Card("roman", 13, fc.OTHER_TO_BOARD), "14") == 13
    assert fc.answer_tile(roman, Card("roman", 13, fc.OTHER_TO_BOARD), "XIV") is None
    ka = kana.find_other("KA")
    assert ka is not None
    assert fc.answer_tile(kana, Card("kana", ka, fc.BOARD_TO_OTHER), "KA") == ka


def test_the_summary_counts_boxes_accuracy_misses_and_confusions(roman: TileSet) -> None:
    deck = Deck(round=1)
    four, six = Card("roman", 3, fc.BOARD_TO_OTHER), Card("roman", 5, fc.OTHER_TO_BOARD)
    deck = fc.record(deck, four, 5)  # IV answered as VI
    deck = fc.record(deck, four, 5)
    deck = fc.record(deck, six, 3)  # VI taken for 4: the same pair, the other way
    deck = fc.record(deck, six, None)  # an answer that names no tile: no confusion
    deck = fc.record(deck, Card("roman", 9, fc.BOARD_TO_OTHER), 9)
    summary = fc.summarize(deck, roman)
    assert summary.boxes == (2, 1, 0, 0, 0)
    assert summary.unseen == 52 - 3
    assert (summary.right, summary.wrong) == (1, 4)
    assert summary.accuracy == pytest.approx(0.2)
    assert summary.confusions == (fc.Confusion(3, 5, 3),)
    assert [(m.card, m.wrong) for m in summary.missed] == [(four, 2), (six, 2)]
    lines = summary.lines(roman)
    assert "You mixed up IV (4) and VI (6) 3 times." in lines
    assert "Accuracy: 1 right of 5 (20%)." in lines
    assert any(
        line.startswith("Practise IV (4), number → Roman numeral: missed twice") for line in lines
    )
    # Confusions of one direction only, when one direction is drilled.
    one_way = fc.summarize(deck, roman, (fc.OTHER_TO_BOARD,))
    assert one_way.confusions == (fc.Confusion(3, 5, 1),)
    assert one_way.unseen == 26 - 1


def test_choices_hold_the_answer_and_prefer_the_tiles_confused_before(roman: TileSet) -> None:
    card = Card("roman", 3, fc.BOARD_TO_OTHER)
    deck = Deck(round=4)
    for given in (5, 5, 8):
        deck = fc.record(deck, card, given)
    deck = fc.record(deck, Card("roman", 20, fc.OTHER_TO_BOARD), 3)
    assert fc.confused_with(deck, 3) == [(5, 2), (8, 1), (20, 1)]
    offered = fc.choices(deck, roman, card, seed=9)
    assert len(offered) == fc.CHOICES == len(set(offered))
    assert {3, 5, 8, 20} <= set(offered)
    assert offered == fc.choices(deck, roman, card, seed=9)
    fresh = [fc.choices(Deck(round=4), roman, card, seed=s) for s in range(8)]
    assert all(3 in f for f in fresh) and len({tuple(f) for f in fresh}) > 1
    assert sorted(fc.choices(Deck(), roman, card, n=40)) == list(range(26))


def test_progress_round_trips_through_json_and_a_file(roman: TileSet, tmp_path: Path) -> None:
    deck, _ = drill(roman, 37, lambda c: c.tile if c.tile % 4 else (c.tile + 1) % 26)
    progress = Progress().with_deck("roman", deck).with_deck("other", Deck())
    data = json.loads(json.dumps(progress.to_json()))
    assert data["version"] == fc.VERSION
    assert Progress.from_json(data) == progress
    path = tmp_path / "deep" / "flashcards.json"
    progress.save(path)
    assert Progress.load(path) == progress
    assert Progress.load(tmp_path / "none.json") == Progress()
    assert [p.name for p in path.parent.iterdir()] == ["flashcards.json"]


def _valid() -> dict[str, Any]:
    deck = fc.record(
        Deck(round=2, queue=((4, fc.OTHER_TO_BOARD),)), Card("r", 1, "board->other"), 2
    )
    return Progress({"roman": deck}).to_json()


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        target: Any = data
        for p in parents:
            target = target[int(p)] if p.isdigit() else target[p]
        if value is KeyError:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_set("version", 2), "version 2"),
        (_set("version", True), "version: expected an integer"),
        (_set("version", KeyError), "'version' is missing"),
        (_set("extra", 1), "unknown field 'extra'"),
        (_set("sets", []), "sets: expected an object"),
        (_set("sets/roman/round", -1), "sets.roman.round: -1 is out of range"),
        (_set("sets/roman/cards/0/box", 6), "sets.roman.cards[0].box: 6 is out of range (1..5)"),
        (_set("sets/roman/cards/0/box", "2"), "cards[0].box: expected an integer"),
        (_set("sets/roman/cards/0/wrong", -2), "cards[0].wrong"),
        (_set("sets/roman/cards/0/direction", "up"), "'up' is not a direction"),
        (_set("sets/roman/cards/0/colour", "red"), "unknown field 'colour'"),
        (_set("sets/roman/queue/0", [4]), "queue[0]: expected [TILE, DIRECTION]"),
        (_set("sets/roman/queue", {}), "queue: expected a list"),
        (_set("sets/roman/last", "x"), "last: expected [TILE, DIRECTION]"),
        (_set("sets/roman/confusions/0/given", 1), "confused with itself"),
        (_set("sets/roman/confusions/0/count", 0), "count: 0 is out of range"),
        (_set("sets/roman/confusions", KeyError), "'confusions' is missing"),
    ],
)
def test_malformed_progress_is_refused_naming_what_is_wrong(
    change: Callable[[dict[str, Any]], None], words: str
) -> None:
    data = _valid()
    Progress.from_json(data)  # valid before the change
    change(data)
    with pytest.raises(ProgressError) as caught:
        Progress.from_json(data)
    assert words in str(caught.value)
    assert isinstance(caught.value, TautError)


def test_a_card_listed_twice_is_refused() -> None:
    data = _valid()
    cards = data["sets"]["roman"]["cards"]
    cards.append(dict(cards[0]))
    with pytest.raises(ProgressError, match="listed twice"):
        Progress.from_json(data)


@pytest.mark.parametrize("text", ["", "{", "[]", '{"version": 1}', "\xff"])
def test_a_malformed_progress_file_names_the_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(ProgressError, match=str(path)):
        Progress.load(path)


def test_progress_that_names_tiles_the_set_lacks_is_refused(roman: TileSet) -> None:
    deck = fc.record(Deck(round=1), Card("roman", 30, fc.BOARD_TO_OTHER), 30)
    with pytest.raises(ProgressError, match="names tile 30, but the set has 26 tiles"):
        fc.next_card(deck, roman)
    fc.fit(fc.record(Deck(), Card("roman", 25, fc.BOARD_TO_OTHER), 0), roman)


def test_a_file_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ProgressError, match="cannot write the progress file"):
        Progress().save(blocker / "p.json")
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]
