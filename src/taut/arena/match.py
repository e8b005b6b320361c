"""Play one game between agents, recording every move."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from taut.agents.base import Agent
from taut.core.chance import derive_seed
from taut.core.errors import IllegalActionError
from taut.core.game import CHANCE_SEAT, Game, NodeKind, State
from taut.core.record import GameRecord


class DrawOffer(Exception):
    """Raised by an agent (a human) instead of choosing, to offer a draw."""

    def __init__(self, seat: int) -> None:
        super().__init__(f"seat {seat} offers a draw")
        self.seat = seat


class QuitGame(Exception):
    """Raised by an agent (a human) to stop the game; the record so far is kept."""


@dataclass
class MatchResult:
    """The final state and the complete record of a game."""

    state: State
    record: GameRecord


#: Called after each node with (state before, joint action, state after).
Observer = Callable[[State, dict[int, int], State], None]


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int | None = None,
    observer: Observer | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
    state: State | None = None,
) -> MatchResult:
    """Play ``game`` to the end with ``agents[seat]`` choosing for each seat.

    Each agent sees only ``state.view(seat)``; every seat and chance get their own random
    generator derived from ``seed``, so a match replays exactly from its seed. ``on_record``
    is called after every node (to save progress). A :class:`DrawOffer` from an agent asks
    the other seats' agents; if all accept, the game ends drawn by agreement.
    """
    base = seed if seed is not None else random.SystemRandom().getrandbits(63)
    rngs = [random.Random(derive_seed(base, "seat", i)) for i in range(game.info.num_seats)]
    chance_rng = random.Random(derive_seed(base, "chance"))
    state = state if state is not None else game.new_initial_state()
    record = GameRecord.start(game, seed=base)
    while not state.is_terminal():
        if state.kind is NodeKind.CHANCE:
            joint = {CHANCE_SEAT: state.sample_chance(chance_rng)}
        else:
            joint = {}
            try:
                for seat in state.acting_seats():
                    joint[seat] = agents[seat].act(state.view(seat), seat, rngs[seat])
            except DrawOffer as offer:
                try:
                    agreed = state.end_by_agreement()
                except IllegalActionError:
                    continue  # this game has no draw by agreement: ask again
                others = [s for s in range(game.info.num_seats) if s != offer.seat]
                if all(agents[s].accept_draw(state.view(s), s) for s in others):
                    state = agreed
                    break
                continue
        after = state.apply(joint)
        record.add(state, joint)
        if observer is not None:
            observer(state, joint, after)
        state = after
        if on_record is not None:
            on_record(record)
    record.finish(state)
    if on_record is not None:
        on_record(record)
    return MatchResult(state, record)
