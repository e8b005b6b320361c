"""Flash cards over the tile sets: a Leitner-box scheduler, pure and seeded.

A :class:`Card` is one tile of a set asked one way: ``board->other`` shows the tile's board
face and asks for its other face (a letter, then its handshape); ``other->board`` the
reverse. Every card sits in one of five boxes; the boxes are reviewed at different
frequencies, so a card that is missed comes back soon and one that is known ever more
rarely. The rule (``server/static/leitner.js`` follows the same one in the browser):

* Play goes in rounds, numbered from 1. Box ``b`` (1..5) is reviewed in the rounds divisible
  by ``2 ** (b - 1)``: box 1 every round, box 2 every 2nd, box 3 every 4th, box 4 every 8th,
  box 5 every 16th (:func:`is_due`).
* A round asks, once each and in a shuffled order, every card seen before whose box is due,
  and up to :data:`NEW_PER_ROUND` cards never seen (they start in box 1). A round with
  nothing to ask is passed over.
* A right answer moves the card up one box (box 5 keeps it); a wrong one puts it back in
  box 1, so it is asked again next round. A skipped card goes to the end of its round.
* When the answer names another tile, the pair is counted as confused; multiple choice
  offers the tiles confused before first (:func:`choices`), and the summary lists the pairs.

Every function takes a :class:`Deck` (one set's progress) and returns a new one; the
shuffles come from ``random.Random`` seeded with a string of the seed, the set and the
round, so the same seed and the same answers give the same cards. :class:`Progress` holds
the decks of every set and reads and writes them as JSON (:data:`VERSION`); the browser
keeps the same JSON in its local storage.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from taut.core.errors import TautError
from taut.core.files import WriteError, write_whole
from taut.core.tileset import TileSet

#: The two ways a card asks: show the board face, give the other; or the reverse.
BOARD_TO_OTHER = "board->other"
OTHER_TO_BOARD = "other->board"
DIRECTIONS: tuple[str, str] = (BOARD_TO_OTHER, OTHER_TO_BOARD)
#: The number of boxes; box 1 holds new and missed cards.
BOXES = 5
#: Cards never seen that one round introduces at most.
NEW_PER_ROUND = 5
#: Choices offered when the answer is a picture: the right one and five others.
CHOICES = 6
#: The version of the progress JSON.
VERSION = 1


class ProgressError(TautError, ValueError):
    """Flash-card progress is malformed or does not fit its tile set."""


def interval(box: int) -> int:
    """Box ``box`` is reviewed every ``interval(box)`` rounds: 1, 2, 4, 8, 16."""
    return int(2 ** (box - 1))


def is_due(box: int, round_number: int) -> bool:
    """Whether a card in ``box`` is asked in round ``round_number``."""
    return round_number % interval(box) == 0


@dataclass(frozen=True, order=True)
class Card:
    """One tile of set ``set`` asked in ``direction`` (:data:`DIRECTIONS`)."""

    set: str
    tile: int
    direction: str

    @property
    def key(self) -> tuple[int, str]:
        """The card within its set's deck."""
        return (self.tile, self.direction)


@dataclass(frozen=True)
class CardState:
    """How a card has gone: its box, its right and wrong answers, the round last asked."""

    box: int = 1
    right: int = 0
    wrong: int = 0
    round: int = 0


@dataclass(frozen=True)
class Deck:
    """The progress of one tile set.

    ``round`` is the round being played (0 before the first); ``queue`` the cards of the
    round not yet answered, in order; ``last`` the card answered last (a new round does not
    start with it); ``cards`` the state of every card seen; ``confusions`` counts
    ``(direction, asked tile, tile the answer named)``.
    """

    round: int = 0
    queue: tuple[tuple[int, str], ...] = ()
    last: tuple[int, str] | None = None
    cards: Mapping[tuple[int, str], CardState] = field(default_factory=dict)
    confusions: Mapping[tuple[str, int, int], int] = field(default_factory=dict)


def _directions(directions: Sequence[str]) -> tuple[str, ...]:
    wanted = tuple(d for d in DIRECTIONS if d in directions)
    unknown = [d for d in directions if d not in DIRECTIONS]
    if unknown or not wanted:
        raise ProgressError(
            f"unknown direction {(unknown or ['(none)'])[0]!r}; the directions are "
            + ", ".join(DIRECTIONS)
        )
    return wanted


def fit(deck: Deck, tiles: TileSet) -> None:
    """Raise ProgressError when ``deck`` names a tile that ``tiles`` does not have."""
    named = [
        *(k[0] for k in deck.cards),
        *(k[0] for k in deck.queue),
        *(k[1] for k in deck.confusions),
        *(k[2] for k in deck.confusions),
        *(() if deck.last is None else (deck.last[0],)),
    ]
    bad = [i for i in named if i >= len(tiles)]
    if bad:
        raise ProgressError(
            f"the progress of tile set {tiles.name!r} names tile {max(bad)}, but the set has "
            f"{len(tiles)} tiles (numbered from 0)"
        )


def _rng(seed: int | str, *parts: object) -> random.Random:
    return random.Random("|".join(str(p) for p in (seed, *parts)))


def _start_round(deck: Deck, tiles: TileSet, directions: tuple[str, ...], seed: int | str) -> Deck:
    """The deck with the next round that asks something begun."""
    every = [(i, d) for d in directions for i in range(len(tiles))]
    if not every:
        raise ProgressError(f"tile set {tiles.name!r} has no tiles to ask")
    unseen = [k for k in every if k not in deck.cards]
    _rng(seed, tiles.name, "new").shuffle(unseen)
    fresh = unseen[:NEW_PER_ROUND]
    number = deck.round
    # Every box is due in a round divisible by 16, so this ends within 16 rounds.
    while True:
        number += 1
        due = [k for k in every if k in deck.cards and is_due(deck.cards[k].box, number)]
        if due or fresh:
            break
    queue = due + fresh
    _rng(seed, tiles.name, number).shuffle(queue)
    if len(queue) > 1 and queue[0] == deck.last:
        queue[0], queue[1] = queue[1], queue[0]
    return replace(deck, round=number, queue=tuple(queue))


def next_card(
    deck: Deck, tiles: TileSet, directions: Sequence[str] = DIRECTIONS, seed: int | str = 0
) -> tuple[Card, Deck]:
    """The card to ask now and the deck to answer it on (a new round may have begun).

    Cards queued in another direction than those wanted wait; when none of the wanted
    ones is left the next round begins (and the others are asked when due again).
    """
    wanted = _directions(directions)
    fit(deck, tiles)
    for key in deck.queue:
        if key[1] in wanted:
            return Card(tiles.name, *key), deck
    deck = _start_round(deck, tiles, wanted, seed)
    return Card(tiles.name, *deck.queue[0]), deck


def answer_tile(tiles: TileSet, card: Card, text: str) -> int | None:
    """The tile that typed ``text`` names on the side ``card`` asks for (any case, an
    alias), or None when it names none."""
    if card.direction == BOARD_TO_OTHER:
        return tiles.find_other(text)
    return tiles.find_board(text)


def record(deck: Deck, card: Card, given: int | None) -> Deck:
    """The deck after ``card`` was answered with tile ``given`` (None: an answer that names
    no tile). Right moves the card up a box; wrong puts it in box 1 and, when ``given``
    names another tile, counts the confusion."""
    right = given == card.tile
    old = deck.cards.get(card.key, CardState())
    new = CardState(
        box=min(BOXES, old.box + 1) if right else 1,
        right=old.right + right,
        wrong=old.wrong + (not right),
        round=deck.round,
    )
    queue = list(deck.queue)
    if card.key in queue:
        queue.remove(card.key)
    confusions = dict(deck.confusions)
    if not right and given is not None:
        pair = (card.direction, card.tile, given)
        confusions[pair] = confusions.get(pair, 0) + 1
    return replace(
        deck,
        queue=tuple(queue),
        last=card.key,
        cards={**deck.cards, card.key: new},
        confusions=confusions,
    )


def skip(deck: Deck, card: Card) -> Deck:
    """The deck with ``card`` moved to the end of its round, its box unchanged."""
    queue = [k for k in deck.queue if k != card.key]
    return replace(deck, queue=(*queue, card.key))


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
    a shuffled order that depends only on the seed, the card and the round."""
    rng = _rng(seed, tiles.name, card.tile, card.direction, deck.round)
    picked = [t for t, _ in confused_with(deck, card.tile) if t < len(tiles)][: n - 1]
    rest = [i for i in range(len(tiles)) if i != card.tile and i not in picked]
    rng.shuffle(rest)
    out = [card.tile, *picked, *rest][: max(1, n)]
    rng.shuffle(out)
    return out


# -- what to practise ----------------------------------------------------------------------


def tile_label(tiles: TileSet, index: int) -> str:
    """A tile as the summary names it: its other face, then its board face if different
    (``IV (4)``, ``カ (か)``, ``M``)."""
    tile = tiles.tiles[index]
    if tile.other.text == tile.board.text:
        return tile.board.text
    return f"{tile.other.text} ({tile.board.text})"


def direction_label(tiles: TileSet, direction: str) -> str:
    """``number -> Roman numeral`` for people (with an arrow)."""
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
    """What a deck says about the player: cards per box, accuracy, what to practise."""

    set: str
    boxes: tuple[int, ...]
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

    def lines(self, tiles: TileSet) -> list[str]:
        """The summary as sentences."""
        boxes = ", ".join(f"box {b}: {n}" for b, n in enumerate(self.boxes, 1))
        out = [f"Cards by box: {boxes}; not seen yet: {self.unseen}."]
        if self.accuracy is None:
            out.append("No answers yet.")
            return out
        out.append(
            f"Accuracy: {self.right} right of {self.right + self.wrong} ({self.accuracy:.0%})."
        )
        for m in self.missed:
            out.append(
                f"Practise {tile_label(tiles, m.card.tile)}, "
                f"{direction_label(tiles, m.card.direction)}: missed {times(m.wrong)}, "
                f"right {times(m.right) if m.right else 'never'}."
            )
        for c in self.confusions:
            out.append(
                f"You mixed up {tile_label(tiles, c.first)} and "
                f"{tile_label(tiles, c.second)} {times(c.count)}."
            )
        return out


def summarize(
    deck: Deck, tiles: TileSet, directions: Sequence[str] = DIRECTIONS, top: int = 5
) -> Summary:
    """The summary of ``deck`` over the cards of ``directions``: the ``top`` cards most
    missed and the ``top`` pairs most confused."""
    wanted = _directions(directions)
    states = {k: s for k, s in deck.cards.items() if k[1] in wanted}
    boxes = [0] * BOXES
    for s in states.values():
        boxes[s.box - 1] += 1
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
    return Summary(
        set=tiles.name,
        boxes=tuple(boxes),
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

    ``{"version": 1, "sets": {NAME: DECK}}``, a deck being ``{"round": R, "queue":
    [[TILE, DIRECTION], ...], "last": [TILE, DIRECTION] or null, "cards": [{"tile",
    "direction", "box", "right", "wrong", "round"}, ...], "confusions": [{"direction",
    "asked", "given", "count"}, ...]}``. Tiles are numbered from 0 in the set's order.
    """

    sets: Mapping[str, Deck] = field(default_factory=dict)
    version: int = VERSION

    def deck(self, name: str) -> Deck:
        """The deck of set ``name`` (an empty one if it was never played)."""
        return self.sets.get(name, Deck())

    def with_deck(self, name: str, deck: Deck) -> Progress:
        """This progress with set ``name``'s deck replaced."""
        return replace(self, sets={**self.sets, name: deck})

    def to_json(self) -> dict[str, Any]:
        """The JSON form (see the class)."""
        return {"version": self.version, "sets": {n: _deck_json(d) for n, d in self.sets.items()}}

    @classmethod
    def from_json(cls, data: Any) -> Progress:
        """Parse the JSON form strictly; ProgressError names the first thing wrong."""
        body = _object(data, "progress", {"version", "sets"}, {"version", "sets"})
        version = _int(body["version"], "version", 1)
        if version != VERSION:
            raise ProgressError(
                f"progress: version {version!r} is not known; this taut reads version {VERSION}"
            )
        sets = _object(body["sets"], "sets", None, set())
        return cls({name: _deck(raw, f"sets.{name}") for name, raw in sets.items()})

    @classmethod
    def load(cls, path: Path) -> Progress:
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
            return cls.from_json(data)
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


def _deck_json(deck: Deck) -> dict[str, Any]:
    return {
        "round": deck.round,
        "queue": [list(k) for k in deck.queue],
        "last": None if deck.last is None else list(deck.last),
        "cards": [
            {
                "tile": t,
                "direction": d,
                "box": s.box,
                "right": s.right,
                "wrong": s.wrong,
                "round": s.round,
            }
            for (t, d), s in sorted(deck.cards.items())
        ],
        "confusions": [
            {"direction": d, "asked": a, "given": g, "count": n}
            for (d, a, g), n in sorted(deck.confusions.items())
        ],
    }


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


def _direction(value: Any, where: str) -> str:
    if value not in DIRECTIONS:
        raise ProgressError(f"{where}: {value!r} is not a direction ({', '.join(DIRECTIONS)})")
    return str(value)


def _key(value: Any, where: str) -> tuple[int, str]:
    if not isinstance(value, list) or len(value) != 2:
        raise ProgressError(f"{where}: expected [TILE, DIRECTION], got {value!r}")
    return (_int(value[0], f"{where}[0]", 0), _direction(value[1], f"{where}[1]"))


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ProgressError(f"{where}: expected a list, got {type(value).__name__}")
    return value


def _deck(data: Any, where: str) -> Deck:
    fields = {"round", "queue", "last", "cards", "confusions"}
    body = _object(data, where, fields, fields)
    cards: dict[tuple[int, str], CardState] = {}
    for i, raw in enumerate(_list(body["cards"], f"{where}.cards")):
        at = f"{where}.cards[{i}]"
        names = {"tile", "direction", "box", "right", "wrong", "round"}
        item = _object(raw, at, names, names)
        key = (_int(item["tile"], f"{at}.tile", 0), _direction(item["direction"], at))
        if key in cards:
            raise ProgressError(f"{at}: tile {key[0]} {key[1]} is listed twice")
        cards[key] = CardState(
            box=_int(item["box"], f"{at}.box", 1, BOXES),
            right=_int(item["right"], f"{at}.right", 0),
            wrong=_int(item["wrong"], f"{at}.wrong", 0),
            round=_int(item["round"], f"{at}.round", 0),
        )
    confusions: dict[tuple[str, int, int], int] = {}
    for i, raw in enumerate(_list(body["confusions"], f"{where}.confusions")):
        at = f"{where}.confusions[{i}]"
        names = {"direction", "asked", "given", "count"}
        item = _object(raw, at, names, names)
        pair = (
            _direction(item["direction"], f"{at}.direction"),
            _int(item["asked"], f"{at}.asked", 0),
            _int(item["given"], f"{at}.given", 0),
        )
        if pair[1] == pair[2]:
            raise ProgressError(f"{at}: a tile cannot be confused with itself")
        if pair in confusions:
            raise ProgressError(f"{at}: listed twice")
        confusions[pair] = _int(item["count"], f"{at}.count", 1)
    queue = tuple(
        _key(k, f"{where}.queue[{i}]") for i, k in enumerate(_list(body["queue"], f"{where}.queue"))
    )
    last = None if body["last"] is None else _key(body["last"], f"{where}.last")
    return Deck(_int(body["round"], f"{where}.round", 0), queue, last, cards, confusions)
