"""Play one game between agents, recording every node: the one match loop of every game."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from taut.agents.base import Agent
from taut.core.chance import derive_seed
from taut.core.errors import IllegalActionError
from taut.core.game import Game, State
from taut.core.record import GameRecord
from taut.core.terms import CHANCE_SEAT, NodeKind


class DrawOffer(Exception):
    """Raised by an agent (a human) instead of choosing, to offer a draw."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} offers a draw")
        self.seat = seat


class QuitGame(Exception):
    """Raised by an agent (a human) to stop the game; the record so far is kept."""


class Undo(Exception):
    """Raised by an agent (a human) to take back its last turn and what followed it."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} takes back its last turn")
        self.seat = seat


@dataclass
class MatchResult:
    """The final state and the complete record of a game."""

    state: State
    record: GameRecord


#: Called after each node with (state before, joint action, state after).
Observer = Callable[[State, dict[int, int], State], None]


@dataclass
class MatchEvents:
    """Optional callbacks of a match besides its observer (for a table with people).

    ``on_draw(offering seat, {seat: accepted})`` after a draw offer is answered;
    ``on_undo(seat, state)`` after a take-back, with the position play goes on from;
    ``on_refused_undo(seat)`` when there is nothing to take back.
    """

    on_draw: Callable[[int, dict[int, bool]], None] | None = None
    on_undo: Callable[[int, State], None] | None = None
    on_refused_undo: Callable[[int], None] | None = None


def resume_record(
    game: Game, record: GameRecord, seats: Mapping[str, str] | None = None
) -> tuple[State, GameRecord]:
    """Replay ``record`` (checking every move) and return the position it stops at with a
    fresh record holding the same moves, ready to be continued by :func:`play_match`."""
    fresh = GameRecord.start(game, seed=record.seed, seats=dict(seats) if seats else record.seats)
    # Not passed as keywords: a record's meta may hold any key, "seed" or "seats" included
    # (older records kept the seed there).
    fresh.meta.update(record.meta)
    state: State | None = None
    for joint, after in record.positions(game):
        if joint and state is not None:
            fresh.add(state, joint, after)
        state = after
    assert state is not None  # positions() always yields the start
    fresh.finish(state)
    return state, fresh


@dataclass
class _Trail:
    """The positions a match passed through (for take-backs) and its record."""

    record: GameRecord
    states: list[State] = field(default_factory=list)
    """``states[i]``: the position before move ``first + i`` of the record."""
    first: int = 0

    def back_to_last_turn_of(self, game: Game, seat: int) -> State | None:
        """Cut the record back to ``seat``'s previous decision; None if it has none here."""
        for i in range(len(self.states) - 1, -1, -1):
            state = self.states[i]
            if state.kind is not NodeKind.CHANCE and seat in state.acting_seats():
                moves = (self.record.moves or [])[: self.first + i]
                _, self.record = resume_record(game, replace(self.record, moves=moves))
                del self.states[i:]
                return state
        return None


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int | None = None,
    observer: Observer | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    state: State | None = None,
    record: GameRecord | None = None,
    seats: Mapping[str, str] | None = None,
    events: MatchEvents | None = None,
) -> MatchResult:
    """Play ``game`` to the end with ``agents[seat]`` choosing for each seat.

    Each agent sees only ``state.view(seat)``; every seat gets its own random generator
    derived from ``seed``, and the chance outcome at each node is drawn from a generator
    derived from ``seed`` and the node's number, so a match replays exactly from its seed
    and a position reached again after a take-back meets the same luck. ``on_record`` is
    called after every decision and at the end (to save progress). A :class:`DrawOffer`
    from an agent asks the other seats' agents; if all accept, the game ends drawn by
    agreement. An :class:`Undo` goes back to the offering seat's previous decision.
    ``state`` and ``record`` continue a game (see :func:`resume_record`); ``seats`` names
    who sits where, for the record.
    """
    base = seed if seed is not None else random.SystemRandom().getrandbits(63)
    events = events or MatchEvents()
    if record is None:
        record = GameRecord.start(game, seed=base, seats=seats)
    trail = _Trail(record, first=len(record.moves or ()))
    labels: tuple[int | str, ...] = () if trail.first == 0 else ("resumed", trail.first)
    rngs = [
        random.Random(derive_seed(base, "seat", i, *labels)) for i in range(game.info.num_seats)
    ]
    state = state if state is not None else game.new_initial_state()
    while not state.is_terminal():
        node = trail.first + len(trail.states)
        if state.kind is NodeKind.CHANCE:
            luck = random.Random(derive_seed(base, "chance", node))
            joint = {CHANCE_SEAT: state.sample_chance(luck)}
        else:
            try:
                joint = {s: agents[s].act(state.view(s), s, rngs[s]) for s in state.acting_seats()}
            except DrawOffer as offer:
                agreed = _offer_draw(game, agents, state, offer.seat, events)
                if agreed is None:
                    continue
                state = agreed
                break
            except Undo as undo:
                earlier = trail.back_to_last_turn_of(game, undo.seat)
                if earlier is None:
                    if events.on_refused_undo is not None:
                        events.on_refused_undo(undo.seat)
                    continue
                state = earlier
                if events.on_undo is not None:
                    events.on_undo(undo.seat, state)
                continue
        after = state.apply(joint)
        trail.states.append(state)
        trail.record.add(state, joint, after)
        if observer is not None:
            observer(state, joint, after)
        decided = CHANCE_SEAT not in joint
        state = after
        if on_record is not None and decided:
            trail.record.finish(state)  # a save at the last move already holds the result
            on_record(trail.record)
    trail.record.finish(state)
    if on_record is not None:
        on_record(trail.record)
    return MatchResult(state, trail.record)


def _offer_draw(
    game: Game, agents: Sequence[Agent], state: State, offering: int, events: MatchEvents
) -> State | None:
    """The drawn position if every other seat accepts ``offering``'s offer, else None
    (also None in a game without draws by agreement: the offer is then not put)."""
    try:
        agreed = state.end_by_agreement()
    except IllegalActionError:
        return None
    others = [s for s in range(game.info.num_seats) if s != offering]
    answers = {s: agents[s].accept_draw(state.view(s), s) for s in others}
    if events.on_draw is not None:
        events.on_draw(offering, answers)
    return agreed if all(answers.values()) else None
