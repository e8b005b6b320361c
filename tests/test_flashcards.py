"""The flash-card scheduler (taut.learn.flashcards): FSRS memory checked against the fsrs
library, the choice of the next card (due first, then new, then studying ahead), choices
that prefer confusions, the summary, and progress JSON read strictly (version 2, and
version 1 files of Leitner boxes converted)."""

from __future__ import annotations

import itertools
import json
import random
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import fsrs
import pytest

from taut.core.errors import TautError
from taut.learn import flashcards as fc
from taut.learn import fsrs_schedule as fs
from taut.learn.flashcards import Card, CardState, Deck, Progress, ProgressError
from taut.learn.registry import tile_sets
from taut.learn.tileset import TileSet

FIXTURES = Path(__file__).parent / "fixtures"
T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def roman() -> TileSet:
    return tile_sets()["roman"]


def seen(tile: int, due: datetime, direction: str = fc.BOARD_TO_OTHER) -> tuple[Any, CardState]:
    """A card answered once, due at ``due`` (hand-made decks)."""
    memory = fs.Memory("review", None, 3.0, 5.0, due, due - timedelta(days=3))
    return (tile, direction), CardState(memory, right=1)


# -- FSRS memory ---------------------------------------------------------------------------


def test_a_review_history_gives_the_dates_the_fsrs_library_gives() -> None:
    rng = random.Random(4)
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    theirs = fsrs.Card(card_id=1, due=T0)
    ours = fs.new_memory(T0)
    now = T0
    states = set()
    for _ in range(40):
        right = rng.random() < 0.75
        rating = fsrs.Rating.Good if right else fsrs.Rating.Again
        theirs, _log = scheduler.review_card(theirs, rating, now)
        ours = fs.review(ours, right, now)
        assert ours.due == theirs.due and ours.last_review == theirs.last_review
        assert ours.stability == pytest.approx(theirs.stability)
        assert ours.difficulty == pytest.approx(theirs.difficulty)
        assert fs.STATES[ours.state] == theirs.state and ours.step == theirs.step
        states.add(ours.state)
        # The next answer comes on time, late or early (studying ahead).
        now = max(now, theirs.due + timedelta(hours=rng.choice([-20, 0, 0, 5, 40])))
    assert states == set(fs.STATES)  # the history went through every state


def test_right_rates_good_and_wrong_rates_again() -> None:
    card = Card("roman", 3, fc.BOARD_TO_OTHER)
    right = fc.record(Deck(), card, 3, T0).cards[card.key]
    wrong = fc.record(Deck(), card, 4, T0).cards[card.key]
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    good, _ = scheduler.review_card(fsrs.Card(card_id=1, due=T0), fsrs.Rating.Good, T0)
    again, _ = scheduler.review_card(fsrs.Card(card_id=1, due=T0), fsrs.Rating.Again, T0)
    assert (right.due, right.right, right.wrong) == (good.due, 1, 0)
    assert (wrong.due, wrong.right, wrong.wrong) == (again.due, 0, 1)
    assert wrong.due - T0 == timedelta(minutes=1) < right.due - T0


def test_times_without_a_zone_are_refused() -> None:
    with pytest.raises(ValueError, match="no time zone"):
        fs.new_memory(datetime(2026, 1, 1))


# -- the next card -------------------------------------------------------------------------


def test_the_most_overdue_due_card_comes_first(roman: TileSet) -> None:
    deck = Deck(
        dict(
            [
                seen(1, T0 - timedelta(hours=1)),
                seen(2, T0 - timedelta(days=2)),
                seen(3, T0 + timedelta(hours=1)),
            ]
        )
    )
    pick = fc.next_card(deck, roman, now=T0, new_left=5)
    assert (pick.card.key, pick.reason) == ((2, fc.BOARD_TO_OTHER), fc.DUE)
    # The card just answered waits while another is due.
    pick = fc.next_card(deck, roman, now=T0, avoid={(2, fc.BOARD_TO_OTHER)})
    assert pick.card.tile == 1
    # A card due in the other direction is not asked when one direction is wanted.
    other = Deck(dict([seen(4, T0 - timedelta(days=9), fc.OTHER_TO_BOARD), seen(1, T0)]))
    assert fc.next_card(other, roman, (fc.BOARD_TO_OTHER,), now=T0).card.tile == 1


def test_new_cards_come_when_nothing_is_due_a_few_a_sitting(roman: TileSet) -> None:
    deck = Deck(dict([seen(1, T0 + timedelta(hours=3)), seen(2, T0 + timedelta(hours=1))]))
    fresh = fc.next_card(deck, roman, now=T0, seed=5, new_left=1)
    assert fresh.reason == fc.NEW and fresh.card.key not in deck.cards
    # None left this sitting: study ahead, the card due soonest.
    ahead = fc.next_card(deck, roman, now=T0, seed=5, new_left=0)
    assert (ahead.card.tile, ahead.reason) == (2, fc.AHEAD)
    assert fc.next_card(deck, roman, now=T0, new_left=0, avoid={(2, "board->other")}).card.tile == 1
    # Nothing seen and no new card allowed: still a card.
    assert fc.next_card(Deck(), roman, now=T0, new_left=0).reason == fc.NEW


def test_the_order_of_new_cards_follows_the_seed(roman: TileSet) -> None:
    def first_new(seed: int) -> list[tuple[int, str]]:
        deck, keys = Deck(), []
        for _ in range(fc.NEW_PER_SITTING):
            pick = fc.next_card(deck, roman, now=T0, seed=seed, new_left=1)
            keys.append(pick.card.key)
            deck = fc.record(deck, pick.card, pick.card.tile, T0 + timedelta(minutes=1))
        return keys

    assert first_new(3) == first_new(3)
    assert first_new(3) != first_new(4)
    with pytest.raises(ProgressError, match="direction"):
        fc.next_card(Deck(), roman, ("sideways",), now=T0)


def sittings(
    tiles: TileSet, days: int, per_day: int, answer: Callable[[Card], int | None]
) -> tuple[Deck, dict[Card, list[int]]]:
    """A sitting a day of ``per_day`` answers 20 seconds apart: the deck, and the days on
    which each card was asked."""
    deck = Deck()
    days_asked: dict[Card, list[int]] = defaultdict(list)
    for day in range(days):
        now = T0 + timedelta(days=day)
        last: tuple[int, str] | None = None
        new_left = fc.NEW_PER_SITTING
        for _ in range(per_day):
            pick = fc.next_card(
                deck, tiles, now=now, seed=1, new_left=new_left, avoid={last} if last else ()
            )
            if pick.reason == fc.NEW:
                new_left -= 1
            if pick.reason != fc.AHEAD:
                days_asked[pick.card].append(day)
            deck = fc.record(deck, pick.card, answer(pick.card), now)
            last = pick.card.key
            now += timedelta(seconds=20)
    return deck, days_asked


def test_a_missed_card_comes_back_every_sitting_a_known_one_ever_more_rarely(
    roman: TileSet,
) -> None:
    deck, asked = sittings(roman, 40, 25, lambda c: (c.tile + 1) % 26 if c.tile == 0 else c.tile)
    always_missed = [days for card, days in asked.items() if card.tile == 0]
    assert always_missed, "tile 0 was never asked"
    for days in always_missed:
        assert sorted(set(days)) == list(range(days[0], 40))
    known = [sorted(set(d)) for c, d in asked.items() if c.tile != 0 and len(set(d)) >= 4]
    assert known, "no known card was asked on four days"
    for days in known:
        gaps = [b - a for a, b in itertools.pairwise(days)]
        assert gaps[-1] > gaps[0] and gaps[-1] >= 7, gaps
    assert deck.cards[(0, fc.BOARD_TO_OTHER)].memory.state in ("learning", "relearning")


def test_typed_answers_any_case_and_aliases() -> None:
    sets = tile_sets()
    roman, kana = sets["roman"], sets["kana"]
    assert fc.answer_tile(roman, Card("roman", 13, fc.BOARD_TO_OTHER), " xiv ") == 13
    assert fc.answer_tile(roman, Card("roman", 13, fc.OTHER_TO_BOARD), "14") == 13
    assert fc.answer_tile(roman, Card("roman", 13, fc.OTHER_TO_BOARD), "XIV") is None
    ka = kana.find_other("KA")
    assert ka is not None
    assert fc.answer_tile(kana, Card("kana", ka, fc.BOARD_TO_OTHER), "KA") == ka


def test_the_summary_counts_cards_accuracy_misses_and_confusions(roman: TileSet) -> None:
    deck = Deck()
    four, six = Card("roman", 3, fc.BOARD_TO_OTHER), Card("roman", 5, fc.OTHER_TO_BOARD)
    deck = fc.record(deck, four, 5, T0)  # IV answered as VI
    deck = fc.record(deck, four, 5, T0)
    deck = fc.record(deck, six, 3, T0)  # VI taken for 4: the same pair, the other way
    deck = fc.record(deck, six, None, T0)  # an answer that names no tile: no confusion
    ten = Card("roman", 9, fc.BOARD_TO_OTHER)
    deck = fc.record(fc.record(deck, ten, 9, T0), ten, 9, T0 + timedelta(minutes=10))
    summary = fc.summarize(deck, roman, now=T0 + timedelta(minutes=20))
    assert (summary.due, summary.learning, summary.known) == (2, 2, 1)
    assert summary.unseen == 52 - 3
    assert (summary.right, summary.wrong) == (2, 4)
    assert summary.accuracy == pytest.approx(1 / 3)
    assert summary.confusions == (fc.Confusion(3, 5, 3),)
    assert [(m.card, m.wrong) for m in summary.missed] == [(four, 2), (six, 2)]
    lines = summary.lines(roman)
    assert "Due now: 2; learning: 2; known: 1; not seen yet: 49." in lines
    assert "You mixed up IV (4) and VI (6) 3 times." in lines
    assert "Accuracy: 2 right of 6 (33%)." in lines
    assert any(
        line.startswith("Practise IV (4), number → Roman numeral: missed twice") for line in lines
    )
    one_way = fc.summarize(deck, roman, (fc.OTHER_TO_BOARD,), now=T0)
    assert one_way.confusions == (fc.Confusion(3, 5, 1),)
    assert one_way.unseen == 26 - 1
    assert fc.summarize(Deck(), roman, now=T0).lines(roman)[-1] == "No answers yet."


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0, "now"), (60, "in 1 minute"), (600, "in 10 minutes"), (7200, "in 2 hours"),
     (3 * 86400, "in 3 days")],
)  # fmt: skip
def test_until_says_when_a_card_comes_back(seconds: int, said: str) -> None:
    assert fc.until(T0 + timedelta(seconds=seconds), T0) == said


def test_choices_hold_the_answer_and_prefer_the_tiles_confused_before(roman: TileSet) -> None:
    card = Card("roman", 3, fc.BOARD_TO_OTHER)
    deck = Deck()
    for given in (5, 5, 8):
        deck = fc.record(deck, card, given, T0)
    deck = fc.record(deck, Card("roman", 20, fc.OTHER_TO_BOARD), 3, T0)
    assert fc.confused_with(deck, 3) == [(5, 2), (8, 1), (20, 1)]
    offered = fc.choices(deck, roman, card, seed=9)
    assert len(offered) == fc.CHOICES == len(set(offered))
    assert {3, 5, 8, 20} <= set(offered)
    assert offered == fc.choices(deck, roman, card, seed=9)
    fresh = [fc.choices(Deck(), roman, card, seed=s) for s in range(8)]
    assert all(3 in f for f in fresh) and len({tuple(f) for f in fresh}) > 1
    assert sorted(fc.choices(Deck(), roman, card, n=40)) == list(range(26))


# -- progress JSON -------------------------------------------------------------------------


def drilled(tiles: TileSet) -> Deck:
    deck, _ = sittings(tiles, 3, 12, lambda c: c.tile if c.tile % 4 else (c.tile + 1) % 26)
    return deck


def test_progress_round_trips_through_json_and_a_file(roman: TileSet, tmp_path: Path) -> None:
    progress = Progress().with_deck("roman", drilled(roman)).with_deck("other", Deck())
    data = json.loads(json.dumps(progress.to_json()))
    assert data["version"] == fc.VERSION == 2
    assert Progress.from_json(data) == progress
    path = tmp_path / "deep" / "flashcards.json"
    progress.save(path)
    assert Progress.load(path) == progress
    assert Progress.load(tmp_path / "none.json") == Progress()
    assert [p.name for p in path.parent.iterdir()] == ["flashcards.json"]


def _valid() -> dict[str, Any]:
    deck = fc.record(Deck(), Card("r", 1, "board->other"), 2, T0)
    deck = fc.record(deck, Card("r", 4, "other->board"), 4, T0)
    deck = fc.record(deck, Card("r", 4, "other->board"), 4, T0 + timedelta(minutes=10))
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
        (_set("version", 3), "version 3 is not known"),
        (_set("version", True), "version: expected an integer"),
        (_set("version", KeyError), "'version' is missing"),
        (_set("extra", 1), "unknown field 'extra'"),
        (_set("sets", []), "sets: expected an object"),
        (_set("sets/roman/round", 1), "unknown field 'round'"),
        (_set("sets/roman/cards/0/state", "asleep"), "cards[0].state: 'asleep' is not one of"),
        (_set("sets/roman/cards/0/step", None), "cards[0].step: a card in learning has a step"),
        (_set("sets/roman/cards/1/step", 0), "cards[1].step: a card in review has null"),
        (_set("sets/roman/cards/0/stability", -1), "cards[0].stability: -1 is out of range"),
        (_set("sets/roman/cards/0/stability", "2"), "cards[0].stability: expected a number"),
        (_set("sets/roman/cards/0/difficulty", 11), "cards[0].difficulty: 11 is out of range"),
        (_set("sets/roman/cards/0/due", "soon"), "cards[0].due: 'soon' is not a date"),
        (_set("sets/roman/cards/0/due", "2026-01-01T10:00"), "has no time zone"),
        (_set("sets/roman/cards/0/last_review", None), "cards[0].last_review: expected a date"),
        (_set("sets/roman/cards/0/wrong", -2), "cards[0].wrong"),
        (_set("sets/roman/cards/0/direction", "up"), "'up' is not a direction"),
        (_set("sets/roman/cards/0/colour", "red"), "unknown field 'colour'"),
        (_set("sets/roman/cards", {}), "cards: expected a list"),
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


@pytest.mark.parametrize("text", ["", "{", "[]", '{"version": 2}', "\xff"])
def test_a_malformed_progress_file_names_the_file(tmp_path: Path, text: str) -> None:
    path = tmp_path / "p.json"
    path.write_text(text, encoding="latin-1")
    with pytest.raises(ProgressError, match=str(path)):
        Progress.load(path)


def test_progress_that_names_tiles_the_set_lacks_is_refused(roman: TileSet) -> None:
    deck = fc.record(Deck(), Card("roman", 30, fc.BOARD_TO_OTHER), 30, T0)
    with pytest.raises(ProgressError, match="names tile 30, but the set has 26 tiles"):
        fc.next_card(deck, roman, now=T0)
    fc.fit(fc.record(Deck(), Card("roman", 25, fc.BOARD_TO_OTHER), 0, T0), roman)


def test_a_file_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ProgressError, match="cannot write the progress file"):
        Progress().save(blocker / "p.json")
    assert [p.name for p in tmp_path.iterdir()] == ["a-file"]


# -- version 1: Leitner boxes --------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["flashcards_v1_terminal.json", "flashcards_v1_browser.json"]
)  # fmt: skip
def test_a_version_1_file_of_leitner_boxes_is_converted(name: str, tmp_path: Path) -> None:
    # Written by the Leitner scheduler (the terminal's file; the browser's localStorage).
    old = json.loads((FIXTURES / name).read_text())
    assert old["version"] == 1
    progress = Progress.load(FIXTURES / name, T0)
    assert progress.converted and set(progress.sets) == set(old["sets"])
    sets = tile_sets()
    for set_name, raw in old["sets"].items():
        deck = progress.deck(set_name)
        fc.fit(deck, sets[set_name])
        assert len(deck.cards) == len(raw["cards"]) > 10
        for item in raw["cards"]:
            state = deck.cards[(item["tile"], item["direction"])]
            days = 2 ** (item["box"] - 1)
            assert (state.right, state.wrong) == (item["right"], item["wrong"])
            assert state.memory.state == "review" and state.memory.stability == days
            assert state.due == T0 and state.memory.last_review == T0 - timedelta(days=days)
            # Recall is predicted at the desired retention: due now, as the boxes were.
            assert fs.retrievability(state.memory, T0) == pytest.approx(0.9)
        assert sum(deck.confusions.values()) == sum(c["count"] for c in raw["confusions"])
        # Every converted card is due, so the next card is one of them (most overdue first).
        assert fc.next_card(deck, sets[set_name], now=T0).reason == fc.DUE
    # Saved, it is version 2, and reads back the same.
    path = tmp_path / "p.json"
    progress.save(path)
    assert json.loads(path.read_text())["version"] == 2
    again = Progress.load(path)
    assert not again.converted and again.sets == progress.sets


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        ("box", 6, "box: 6 is out of range (1..5)"),
        ("direction", "board->sign", "is not a direction"),
        ("colour", "red", "unknown field 'colour'"),
    ],
)
def test_a_malformed_version_1_file_is_refused(path: str, value: Any, words: str) -> None:
    old = json.loads((FIXTURES / "flashcards_v1_terminal.json").read_text())
    old["sets"]["roman"]["cards"][0][path] = value
    with pytest.raises(ProgressError) as caught:
        Progress.from_json(old, T0)
    assert words in str(caught.value)
