"""What a flash card's memory is, and when it comes back: FSRS, by the ``fsrs`` library.

FSRS (the Free Spaced Repetition Scheduler) models each card's memory with a *stability*
(the days after which the chance of recalling it falls to 90%) and a *difficulty* (1..10),
and schedules the next review for when recall is predicted to fall to the desired
retention (90%). A new or missed card first goes through short learning steps (1 and 10
minutes; 10 minutes after a miss) before it is spaced in days.

:class:`Memory` is the library's card state as a frozen value with UTC times; :func:`review`
applies one answer: right rates ``Good``, wrong rates ``Again`` (there is no ``Hard`` or
``Easy``: the answer is right or not, so the scheduler never guesses how sure it was).
Fuzzing is off, so the same answers at the same times give the same dates everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

#: The scheduler every flash card uses: the library's default parameters, no fuzz.
SCHEDULER = Scheduler(enable_fuzzing=False)
#: The FSRS states by the names the progress JSON uses.
STATES: dict[str, State] = {
    "learning": State.Learning,
    "review": State.Review,
    "relearning": State.Relearning,
}
_NAMES = {state: name for name, state in STATES.items()}
#: The ratings of a right and a wrong answer.
RIGHT, WRONG = Rating.Good, Rating.Again
#: The difficulty a card converted from a Leitner box starts with (the middle of 1..10).
CONVERTED_DIFFICULTY = 5.0


def utc(moment: datetime, where: str = "time") -> datetime:
    """``moment`` in UTC; ValueError when it has no time zone."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{where}: {moment.isoformat()} has no time zone (give one, e.g. Z)")
    return moment.astimezone(UTC)


@dataclass(frozen=True)
class Memory:
    """One card's FSRS state: ``state`` (``learning``, ``review``, ``relearning``), the
    learning ``step`` (None in review), ``stability`` in days and ``difficulty`` (None
    before the first answer), when it is ``due`` and when it was last answered."""

    state: str
    step: int | None
    stability: float | None
    difficulty: float | None
    due: datetime
    last_review: datetime | None

    def to_fsrs(self) -> FsrsCard:
        """The library's card (its id is not used: cards are named by tile and direction)."""
        return FsrsCard(
            card_id=0,
            state=STATES[self.state],
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=self.due,
            last_review=self.last_review,
        )

    @classmethod
    def from_fsrs(cls, card: FsrsCard) -> Memory:
        """The memory of the library's ``card``."""
        return cls(
            _NAMES[State(card.state)],
            card.step,
            card.stability,
            card.difficulty,
            utc(card.due),
            None if card.last_review is None else utc(card.last_review),
        )


def new_memory(now: datetime) -> Memory:
    """A card never answered, due ``now``."""
    return Memory.from_fsrs(FsrsCard(card_id=0, due=utc(now)))


def review(memory: Memory, right: bool, now: datetime) -> Memory:
    """The memory after an answer at ``now``: right rates Good, wrong rates Again."""
    card, _ = SCHEDULER.review_card(memory.to_fsrs(), RIGHT if right else WRONG, utc(now))
    return Memory.from_fsrs(card)


def from_box(interval_days: float, now: datetime) -> Memory:
    """A card of an old Leitner box reviewed every ``interval_days``, as FSRS memory:
    in review, with that many days of stability, last answered that long ago, so its
    predicted recall is the desired retention and it is due ``now``."""
    now = utc(now)
    return Memory(
        "review",
        None,
        float(interval_days),
        CONVERTED_DIFFICULTY,
        now,
        now - timedelta(days=interval_days),
    )


def retrievability(memory: Memory, now: datetime) -> float:
    """The predicted chance of recalling the card at ``now`` (0 before any answer)."""
    return float(SCHEDULER.get_card_retrievability(memory.to_fsrs(), utc(now)))
