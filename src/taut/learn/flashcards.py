"""Flash cards over the tile sets, scheduled by FSRS: pure, seeded, time passed in.

(Longer than 400 lines: the cards, the choice of the next card, the answers and the
progress document change together; split apart, each would need the others' internals.)

A :class:`Card` is one tile of a set asked one way: ``board->other`` shows the tile's board
face and asks for its other face (a letter, then its handshape); ``other->board`` the
reverse; ``board->sign`` shows the board face and the player signs the other face to a
camera (only where the browser has one). Each card answered at least once has an FSRS
memory (:mod:`taut.learn.fsrs_schedule`): a right answer rates Good, a wrong one Again, and
the scheduler says when the card is due next (minutes for a new or missed card, then days,
growing with every right answer).

The next card (:func:`next_card`) is, of the cards asked in the directions wanted:

1. the most overdue card that is due (due date at or before ``now``);
2. else a card never seen, while the sitting may still introduce one (``new_left``, at
   most :data:`NEW_PER_SITTING` a sitting), in an order shuffled by the seed;
3. else the card due soonest ("studying ahead"), so a sitting always has cards.

Cards in ``avoid`` (the card just answered, the cards skipped this sitting) are taken only
when nothing else is left. When the answer names another tile, the pair is counted as
confused; multiple choice offers the tiles confused before first (:func:`choices`), and
the summary lists the pairs. Every function takes a :class:`Deck` (one set's progress) and
returns a new one; the time is always a parameter, so the same seed, answers and times give
the same cards. :class:`Progress` holds the decks of every set and reads and writes them as
JSON (:data:`VERSION` 2; version 1, the Leitner boxes of earlier releases, is converted on
load). The browser keeps the same JSON in its local storage and asks the server
(``/api/flashcards/...``), which runs this module: there is one scheduler.
"""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from taut.core.errors import TautError
from taut.core.files import WriteError, write_whole
from taut.learn.fsrs_schedule import STATES, Memory, from_box, new_memory, review, utc
from taut.learn.tileset import TileSet

#: The two ways a card asks by keyboard: show the board face, give the other; or the reverse.
BOARD_TO_OTHER = "board->other"
OTHER_TO_BOARD = "other->board"
DIRECTIONS: tuple[str, str] = (BOARD_TO_OTHER, OTHER_TO_BOARD)
#: Show the board face and sign the other face to the camera (a set whose other faces are
#: pictures of hands, in a browser with a camera); scheduled like the others.
BOARD_TO_SIGN = "board->sign"
#: Every direction a progress file may hold.
ALL_DIRECTIONS: tuple[str, ...] = (*DIRECTIONS, BOARD_TO_SIGN)
#: Cards never seen that one sitting introduces at most.
NEW_PER_SITTING = 5
#: Choices offered when the answer is a picture: the right one and five others.
CHOICES = 6
#: The version of the progress JSON; version 1 (Leitner boxes) is converted on load.
VERSION = 2
#: Why a card was chosen (:class:`Pick`).
DUE, NEW, AHEAD = "due", "new", "ahead"
#: Days between reviews of the old Leitner boxes 1..5 (box b every 2**(b-1) rounds, read
#: as days when a version 1 file is converted).
LEITNER_DAYS = (1, 2, 4, 8, 16)


class ProgressError(TautError, ValueError):
    """Flash-card progress is malformed or does not fit its tile set."""


def now_utc() -> datetime:
    """The time now, in UTC (what callers pass as ``now`` outside tests)."""
    return datetime.now(UTC)


@dataclass(frozen=True, order=True)
class Card:
    """One tile of set ``set`` asked in ``direction`` (:data:`ALL_DIRECTIONS`)."""

    set: str
    tile: int
    direction: str

    @property
    def key(self) -> tuple[int, str]:
        """The card within its set's deck."""
        return (self.tile, self.direction)


@dataclass(frozen=True)
class CardState:
    """How a card has gone: its FSRS memory and its right and wrong answers."""

    memory: Memory
    right: int = 0
    wrong: int = 0

    @property
    def due(self) -> datetime:
        """When the card is due next."""
        return self.memory.due


@dataclass(frozen=True)
class Deck:
    """The progress of one tile set: ``cards`` the state of every card seen, by
    ``(tile, direction)``; ``confusions`` counts ``(direction, asked tile, tile the answer
    named)``."""

    cards: Mapping[tuple[int, str], CardState] = field(default_factory=dict)
    confusions: Mapping[tuple[str, int, int], int] = field(default_factory=dict)


def check_directions(directions: Sequence[str]) -> tuple[str, ...]:
    """The directions wanted, in the usual order; ProgressError for an unknown one."""
    wanted = tuple(d for d in ALL_DIRECTIONS if d in directions)
    unknown = [d for d in directions if d not in ALL_DIRECTIONS]
    if unknown or not wanted:
        raise ProgressError(
            f"unknown direction {(unknown or ['(none)'])[0]!r}; the directions are "
            + ", ".join(ALL_DIRECTIONS)
        )
    return wanted


def fit(deck: Deck, tiles: TileSet) -> None:
    """Raise ProgressError when ``deck`` names a tile that ``tiles`` does not have."""
    named = [
        *(k[0] for k in deck.cards),
        *(k[1] for k in deck.confusions),
        *(k[2] for k in deck.confusions),
    ]
    bad = [i for i in named if i >= len(tiles)]
    if bad:
        raise ProgressError(
            f"the progress of tile set {tiles.name!r} names tile {max(bad)}, but the set has "
            f"{len(tiles)} tiles (numbered from 0)"
        )


def _rng(seed: int | str, *parts: object) -> random.Random:
    return random.Random("|".join(str(p) for p in (seed, *parts)))


@dataclass(frozen=True)
class Pick:
    """The card to ask now, and why: ``due``, ``new`` or ``ahead`` (nothing due)."""

    card: Card
    reason: str


def next_card(
    deck: Deck,
    tiles: TileSet,
    directions: Sequence[str] = DIRECTIONS,
    *,
    now: datetime,
    seed: int | str = 0,
    new_left: int = NEW_PER_SITTING,
    avoid: Collection[tuple[int, str]] = (),
) -> Pick:
    """The card to ask at ``now`` (see the module): due first, most overdue first; then a
    new card while ``new_left`` > 0; then the card due soonest. Cards in ``avoid`` come
    only when nothing else is left."""
    wanted = check_directions(directions)
    fit(deck, tiles)
    if not len(tiles):
        raise ProgressError(f"tile set {tiles.name!r} has no tiles to ask")
    now = utc(now, "now")
    every = [(i, d) for d in wanted for i in range(len(tiles))]
    # One seeded order of the cards: new cards come in it, and it settles ties of due
    # times (a converted file makes every card due at once).
    _rng(seed, tiles.name, "new").shuffle(every)
    rank = {k: n for n, k in enumerate(every)}
    seen = sorted((k for k in every if k in deck.cards), key=lambda k: (deck.cards[k].due, rank[k]))
    unseen = [k for k in every if k not in deck.cards]
    for allowed in ([k for k in every if k not in avoid], every):
        ok = set(allowed)
        due = [k for k in seen if k in ok and deck.cards[k].due <= now]
        if due:
            return Pick(Card(tiles.name, *due[0]), DUE)
        fresh = [k for k in unseen if k in ok]
        if fresh and new_left > 0:
            return Pick(Card(tiles.name, *fresh[0]), NEW)
        ahead = [k for k in seen if k in ok]
        if ahead:
            return Pick(Card(tiles.name, *ahead[0]), AHEAD)
    # Nothing seen and no new card allowed: a sitting always has a card.
    return Pick(Card(tiles.name, *unseen[0]), NEW)


def answer_tile(tiles: TileSet, card: Card, text: str) -> int | None:
    """The tile that typed ``text`` names on the side ``card`` asks for (any case, an
    alias), or None when it names none."""
    if card.direction == OTHER_TO_BOARD:
        return tiles.find_board(text)
    return tiles.find_other(text)


def record(deck: Deck, card: Card, given: int | None, now: datetime) -> Deck:
    """The deck after ``card`` was answered at ``now`` with tile ``given`` (None: an
    answer that names no tile). FSRS reviews the card (right: Good, wrong: Again); a wrong
    answer that names another tile counts the confusion."""
    right = given == card.tile
    old = deck.cards.get(card.key)
    memory = review(old.memory if old is not None else new_memory(now), right, now)
    new = CardState(
        memory,
        right=(old.right if old else 0) + right,
        wrong=(old.wrong if old else 0) + (not right),
    )
    confusions = dict(deck.confusions)
    if not right and given is not None:
        pair = (card.direction, card.tile, given)
        confusions[pair] = confusions.get(pair, 0) + 1
    return replace(deck, cards={**deck.cards, card.key: new}, confusions=confusions)


def confused_with(deck: Deck, tile: int) -> list[tuple[int, int]]:
    """``(other tile, times)`` confused with ``tile`` either way, most often first."""
    counts: dict[int, int] = {}
    for (_, asked, given), n in deck.confusions.items():
        if tile in (asked, given) and asked != given:
            other = given if asked == tile else asked
            counts[other] = counts.get(other, 0) + n
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def choices(
    deck: Deck, tiles: TileSet, card: Card, seed: int | str = 0, n: int = CHOICES
) -> list[int]:
    """``n`` tiles to choose from for ``card`` (fewer if the set is smaller): the right
    one, the tiles confused with it before (most often first), then others at random; in
    a shuffled order that depends only on the seed, the card and its answers so far."""
    state = deck.cards.get(card.key)
    answers = 0 if state is None else state.right + state.wrong
    rng = _rng(seed, tiles.name, card.tile, card.direction, answers)
    picked = [t for t, _ in confused_with(deck, card.tile) if t < len(tiles)][: n - 1]
    rest = [i for i in range(len(tiles)) if i != card.tile and i not in picked]
    rng.shuffle(rest)
    out = [card.tile, *picked, *rest][: max(1, n)]
    rng.shuffle(out)
    return out


def until(due: datetime, now: datetime) -> str:
    """When ``due`` comes, for people: ``now``, ``in 10 minutes``, ``in 3 days``."""
    seconds = (utc(due) - utc(now)).total_seconds()
    if seconds <= 30:
        return "now"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size or unit == "minute":
            n = max(1, round(seconds / size))
            return f"in {n} {unit}{'s' if n != 1 else ''}"
    return "now"  # pragma: no cover - the loop always returns


# -- what to practise ----------------------------------------------------------------------


def tile_label(tiles: TileSet, index: int) -> str:
    """A tile as the summary names it: its other face, then its board face if different
    (``IV (4)``, ``カ (か)``, ``M``)."""
    tile = tiles.tiles[index]
    if tile.other.text == tile.board.text:
        return tile.board.text
    return f"{tile.other.text} ({tile.board.text})"


def direction_label(tiles: TileSet, direction: str) -> str:
    """``number -> Roman numeral`` for people (with an arrow); ``letter -> sign``."""
    if direction == BOARD_TO_SIGN:
        return f"{tiles.board_kind} \u2192 signed {tiles.other_kind}"
    kinds = (tiles.board_kind, tiles.other_kind)
    first, second = kinds if direction == BOARD_TO_OTHER else kinds[::-1]
    return f"{first} \u2192 {second}"


def times(n: int) -> str:
    """``once``, ``twice``, ``3 times``."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


@dataclass(frozen=True)
class Missed:
    """A card often missed: how many times wrong and right."""

    card: Card
    wrong: int
    right: int


@dataclass(frozen=True)
class Confusion:
    """Two tiles mixed up (either way), and how often."""

    first: int
    second: int
    count: int


@dataclass(frozen=True)
class Summary:
    """What a deck says about the player at a time: cards due now, still being learnt
    (learning or relearning steps), known (spaced in days) and never seen; accuracy; what
    to practise."""

    set: str
    due: int
    learning: int
    known: int
    unseen: int
    right: int
    wrong: int
    missed: tuple[Missed, ...]
    confusions: tuple[Confusion, ...]

    @property
    def accuracy(self) -> float | None:
        """Right answers over all answers (None before any)."""
        total = self.right + self.wrong
        return None if total == 0 else self.right / total

    def counts_line(self) -> str:
        """``Due now: 3; learning: 5; known: 10; not seen yet: 34.``"""
        return (
            f"Due now: {self.due}; learning: {self.learning}; known: {self.known}; "
            f"not seen yet: {self.unseen}."
        )

    def practise_lines(self, tiles: TileSet) -> list[str]:
        """The cards most missed and the pairs most confused, as sentences."""
        out = [
            f"Practise {tile_label(tiles, m.card.tile)}, "
            f"{direction_label(tiles, m.card.direction)}: missed {times(m.wrong)}, "
            f"right {times(m.right) if m.right else 'never'}."
            for m in self.missed
        ]
        out += [
            f"You mixed up {tile_label(tiles, c.first)} and "
            f"{tile_label(tiles, c.second)} {times(c.count)}."
            for c in self.confusions
        ]
        return out

    def accuracy_line(self) -> str:
        """``Accuracy: 2 right of 3 (67%).`` or ``No answers yet.``"""
        if self.accuracy is None:
            return "No answers yet."
        return f"Accuracy: {self.right} right of {self.right + self.wrong} ({self.accuracy:.0%})."

    def lines(self, tiles: TileSet) -> list[str]:
        """The summary as sentences."""
        out = [self.counts_line(), self.accuracy_line()]
        return out if self.accuracy is None else out + self.practise_lines(tiles)


def summarize(
    deck: Deck,
    tiles: TileSet,
    directions: Sequence[str] = DIRECTIONS,
    top: int = 5,
    *,
    now: datetime,
) -> Summary:
    """The summary of ``deck`` at ``now`` over the cards of ``directions``: the ``top``
    cards most missed and the ``top`` pairs most confused."""
    wanted = check_directions(directions)
    now = utc(now, "now")
    states = {k: s for k, s in deck.cards.items() if k[1] in wanted}
    missed = sorted(
        (Missed(Card(tiles.name, *k), s.wrong, s.right) for k, s in states.items() if s.wrong),
        key=lambda m: (-m.wrong, m.right, m.card),
    )
    pairs: dict[tuple[int, int], int] = {}
    for (direction, asked, given), n in deck.confusions.items():
        if direction in wanted:
            pair = (min(asked, given), max(asked, given))
            pairs[pair] = pairs.get(pair, 0) + n
    confusions = sorted(
        (Confusion(a, b, n) for (a, b), n in pairs.items()), key=lambda c: (-c.count, c.first)
    )
    known = sum(1 for s in states.values() if s.memory.state == "review")
    return Summary(
        set=tiles.name,
        due=sum(1 for s in states.values() if s.due <= now),
        learning=len(states) - known,
        known=known,
        unseen=len(tiles) * len(wanted) - len(states),
        right=sum(s.right for s in states.values()),
        wrong=sum(s.wrong for s in states.values()),
        missed=tuple(missed[:top]),
        confusions=tuple(confusions[:top]),
    )


# -- progress as JSON ----------------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """The decks of every tile set played, by set name: one JSON document.

    ``{"version": 2, "sets": {NAME: DECK}}``, a deck being ``{"cards": [CARD, ...],
    "confusions": [{"direction", "asked", "given", "count"}, ...]}`` and a card ``{"tile",
    "direction", "state", "step", "stability", "difficulty", "due", "last_review", "right",
    "wrong"}`` (the FSRS memory of :class:`~taut.learn.fsrs_schedule.Memory`, times in ISO
    8601 with a zone). Tiles are numbered from 0 in the set's order. A version 1 document
    (Leitner boxes) is converted when read: ``converted`` says so.
    """

    sets: Mapping[str, Deck] = field(default_factory=dict)
    converted: bool = False

    def deck(self, name: str) -> Deck:
        """The deck of set ``name`` (an empty one if it was never played)."""
        return self.sets.get(name, Deck())

    def with_deck(self, name: str, deck: Deck) -> Progress:
        """This progress with set ``name``'s deck replaced."""
        return replace(self, sets={**self.sets, name: deck})

    def to_json(self) -> dict[str, Any]:
        """The JSON form (see the class), always of version :data:`VERSION`."""
        return {"version": VERSION, "sets": {n: deck_json(d) for n, d in self.sets.items()}}

    @classmethod
    def from_json(cls, data: Any, now: datetime | None = None) -> Progress:
        """Parse the JSON form strictly; ProgressError names the first thing wrong. A
        version 1 document is converted (:func:`convert_v1`) as of ``now``."""
        body = _object(data, "progress", {"version", "sets"}, {"version", "sets"})
        version = _int(body["version"], "version", 1)
        if version not in (1, VERSION):
            raise ProgressError(
                f"progress: version {version!r} is not known; this taut reads versions 1 "
                f"and {VERSION}"
            )
        sets = _object(body["sets"], "sets", None, set())
        if version == 1:
            when = now_utc() if now is None else utc(now, "now")
            decks = {
                name: convert_v1(_v1_deck(raw, f"sets.{name}"), when) for name, raw in sets.items()
            }
            return cls(decks, converted=True)
        return cls({name: parse_deck(raw, f"sets.{name}") for name, raw in sets.items()})

    @classmethod
    def load(cls, path: Path, now: datetime | None = None) -> Progress:
        """The progress in file ``path`` (empty when there is no such file)."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls()
        except (OSError, UnicodeDecodeError) as exc:
            raise ProgressError(f"cannot read the progress file {path}: {exc}") from None
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise ProgressError(f"the progress file {path} is not JSON: {exc}") from None
        try:
            return cls.from_json(data, now)
        except ProgressError as exc:
            raise ProgressError(f"the progress file {path} is malformed: {exc}") from None

    def save(self, path: Path) -> None:
        """Write the progress to ``path`` whole or not at all (a new file, then renamed)."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_whole(path, text)
        except WriteError as exc:  # the previous file is intact
            raise ProgressError(f"the progress was not saved: {exc}") from None
        except OSError as exc:
            raise ProgressError(f"cannot write the progress file {path}: {exc.strerror}") from None


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def deck_json(deck: Deck) -> dict[str, Any]:
    """One deck in the JSON form of :class:`Progress`."""
    return {
        "cards": [
            {
                "tile": t,
                "direction": d,
                "state": s.memory.state,
                "step": s.memory.step,
                "stability": s.memory.stability,
                "difficulty": s.memory.difficulty,
                "due": _time(s.memory.due),
                "last_review": _time(s.memory.last_review),
                "right": s.right,
                "wrong": s.wrong,
            }
            for (t, d), s in sorted(deck.cards.items())
        ],
        "confusions": [
            {"direction": d, "asked": a, "given": g, "count": n}
            for (d, a, g), n in sorted(deck.confusions.items())
        ],
    }


def convert_v1(
    old: tuple[Mapping[tuple[int, str], tuple[int, int, int]], Deck], now: datetime
) -> Deck:
    """A version 1 deck (each card's ``(box, right, wrong)``, and the confusions) as FSRS:
    box ``b`` becomes a known card with a stability of the box's interval in days
    (:data:`LEITNER_DAYS`), due ``now`` (:func:`~taut.learn.fsrs_schedule.from_box`)."""
    boxes, rest = old
    cards = {
        key: CardState(from_box(LEITNER_DAYS[box - 1], now), right, wrong)
        for key, (box, right, wrong) in boxes.items()
    }
    return replace(rest, cards=cards)


def _object(
    data: Any, where: str, allowed: Iterable[str] | None, required: Iterable[str]
) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ProgressError(f"{where}: expected an object, got {type(data).__name__}")
    if allowed is not None:
        extra = sorted(set(data) - set(allowed))
        if extra:
            raise ProgressError(
                f"{where}: unknown field {extra[0]!r}; the fields are " + ", ".join(sorted(allowed))
            )
    missing = sorted(set(required) - set(data))
    if missing:
        raise ProgressError(f"{where}: the field {missing[0]!r} is missing")
    return data


def _int(value: Any, where: str, lowest: int, highest: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProgressError(f"{where}: expected an integer, got {value!r}")
    if value < lowest or (highest is not None and value > highest):
        span = f"{lowest}..{highest}" if highest is not None else f"at least {lowest}"
        raise ProgressError(f"{where}: {value} is out of range ({span})")
    return value


def _number(value: Any, where: str, lowest: float, highest: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProgressError(f"{where}: expected a number, got {value!r}")
    if not lowest <= value <= highest:  # also refuses NaN
        raise ProgressError(f"{where}: {value} is out of range ({lowest}..{highest})")
    return float(value)


def parse_time(value: Any, where: str) -> datetime:
    """An ISO 8601 date and time with a zone, in UTC; ProgressError names what is wrong."""
    if not isinstance(value, str):
        raise ProgressError(f"{where}: expected a date and time (ISO 8601), got {value!r}")
    try:
        return utc(datetime.fromisoformat(value), where)
    except ValueError as exc:
        raise ProgressError(
            f"{where}: {value!r} is not a date and time with a zone (ISO 8601: {exc})"
        ) from None


def _direction(value: Any, where: str, allowed: Sequence[str] = ALL_DIRECTIONS) -> str:
    if value not in allowed:
        raise ProgressError(f"{where}: {value!r} is not a direction ({', '.join(allowed)})")
    return str(value)


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ProgressError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def _confusions(value: Any, where: str, allowed: Sequence[str]) -> dict[tuple[str, int, int], int]:
    confusions: dict[tuple[str, int, int], int] = {}
    for i, raw in enumerate(_list(value, where)):
        at = f"{where}[{i}]"
        names = {"direction", "asked", "given", "count"}
        item = _object(raw, at, names, names)
        pair = (
            _direction(item["direction"], f"{at}.direction", allowed),
            _int(item["asked"], f"{at}.asked", 0),
            _int(item["given"], f"{at}.given", 0),
        )
        if pair[1] == pair[2]:
            raise ProgressError(f"{at}: a tile cannot be confused with itself")
        if pair in confusions:
            raise ProgressError(f"{at}: listed twice")
        confusions[pair] = _int(item["count"], f"{at}.count", 1)
    return confusions


#: The fields of a card in a version 2 deck.
CARD_FIELDS = frozenset(
    {"tile", "direction", "state", "step", "stability", "difficulty", "due", "last_review",
     "right", "wrong"}
)  # fmt: skip


def parse_deck(data: Any, where: str = "deck") -> Deck:
    """A version 2 deck from its JSON form, strictly (ProgressError names what is wrong)."""
    fields = {"cards", "confusions"}
    body = _object(data, where, fields, fields)
    cards: dict[tuple[int, str], CardState] = {}
    for i, raw in enumerate(_list(body["cards"], f"{where}.cards")):
        at = f"{where}.cards[{i}]"
        item = _object(raw, at, CARD_FIELDS, CARD_FIELDS)
        key = (
            _int(item["tile"], f"{at}.tile", 0),
            _direction(item["direction"], f"{at}.direction"),
        )
        if key in cards:
            raise ProgressError(f"{at}: tile {key[0]} {key[1]} is listed twice")
        state = item["state"]
        if state not in STATES:
            raise ProgressError(f"{at}.state: {state!r} is not one of {', '.join(STATES)}")
        # In review a card has no learning step; learning and relearning ones have one.
        step = None if item["step"] is None else _int(item["step"], f"{at}.step", 0, 100)
        if (step is None) != (state == "review"):
            need = "null" if state == "review" else "a step number"
            raise ProgressError(f"{at}.step: a card in {state} has {need}")
        memory = Memory(
            state,
            step,
            _number(item["stability"], f"{at}.stability", 0.001, 36500.0 * 100),
            _number(item["difficulty"], f"{at}.difficulty", 1.0, 10.0),
            parse_time(item["due"], f"{at}.due"),
            parse_time(item["last_review"], f"{at}.last_review"),
        )
        cards[key] = CardState(
            memory,
            right=_int(item["right"], f"{at}.right", 0),
            wrong=_int(item["wrong"], f"{at}.wrong", 0),
        )
    confusions = _confusions(body["confusions"], f"{where}.confusions", ALL_DIRECTIONS)
    return Deck(cards, confusions)


def _v1_deck(data: Any, where: str) -> tuple[dict[tuple[int, str], tuple[int, int, int]], Deck]:
    """A version 1 (Leitner) deck, checked as strictly as version 1 was: each card's
    ``(box, right, wrong)``, and a deck holding the confusions. Its round, queue and last
    card only ordered a sitting, so they are checked and dropped."""
    fields = {"round", "queue", "last", "cards", "confusions"}
    body = _object(data, where, fields, fields)
    _int(body["round"], f"{where}.round", 0)
    keys = [
        *_list(body["queue"], f"{where}.queue"),
        *([] if body["last"] is None else [body["last"]]),
    ]
    for i, k in enumerate(keys):
        if not isinstance(k, list) or len(k) != 2:
            raise ProgressError(f"{where}.queue[{i}]: expected [TILE, DIRECTION], got {k!r}")
        _int(k[0], f"{where}.queue[{i}][0]", 0)
        _direction(k[1], f"{where}.queue[{i}][1]", DIRECTIONS)
    cards: dict[tuple[int, str], tuple[int, int, int]] = {}
    for i, raw in enumerate(_list(body["cards"], f"{where}.cards")):
        at = f"{where}.cards[{i}]"
        names = {"tile", "direction", "box", "right", "wrong", "round"}
        item = _object(raw, at, names, names)
        key = (_int(item["tile"], f"{at}.tile", 0), _direction(item["direction"], at, DIRECTIONS))
        if key in cards:
            raise ProgressError(f"{at}: tile {key[0]} {key[1]} is listed twice")
        _int(item["round"], f"{at}.round", 0)
        cards[key] = (
            _int(item["box"], f"{at}.box", 1, len(LEITNER_DAYS)),
            _int(item["right"], f"{at}.right", 0),
            _int(item["wrong"], f"{at}.wrong", 0),
        )
    confusions = _confusions(body["confusions"], f"{where}.confusions", DIRECTIONS)
    return cards, Deck({}, confusions)
