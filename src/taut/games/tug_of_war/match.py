"""Playing a game to the end with a shuffled deck per round, and writing its record.

Chance here works as at a real table: at the start of each round the whole set is
shuffled (and each starter turned one way or the other) with the seeded chance generator,
and every deal and draw takes the next tile of that deck. This is the same distribution
as sampling each chance node uniformly, and it makes the record's boneyard the true order
the tiles would have been drawn in. Each seat's chooser sees only ``state.view(seat)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from taut.core.chance import derive_seed
from taut.core.game import CHANCE_SEAT, State
from taut.games.tug_of_war.record import RecordBuilder
from taut.games.tug_of_war.state import DEAL, TugState

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar


class Chooser(Protocol):
    """Anything with the agent protocol's ``act`` (agents, humans at a terminal)."""

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Choose an action id for ``seat`` at the view ``state``."""
        ...


Observer = Callable[[TugState, dict[int, int], TugState], None]
"""Called after each node with (state before, joint action, state after): full states."""


def shuffle_deck(state: TugState, rng: random.Random) -> list[int]:
    """The round's deck as chance outcomes: starters (oriented) first, then the rest."""
    ds = state.game.dominoes
    tiles = list(range(ds.size))
    rng.shuffle(tiles)
    starters = len(state.order)
    deck = []
    for k, t in enumerate(tiles):
        a, b = ds.tiles[t]
        if k < starters and a != b and rng.random() < 0.5:
            a, b = b, a
        deck.append(ds.oriented(a, b) if k < starters else ds.canonical_outcome(t))
    return deck


def play_game(
    game: TugOfWar,
    choosers: Sequence[Chooser],
    seed: int,
    observer: Observer | None = None,
    on_record: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[TugState, dict[str, Any]]:
    """Play ``game`` to the end; return the final state and the complete record.

    Seat ``i`` chooses with its own generator derived from ``seed`` (as
    :func:`taut.arena.match.play_match` does) and the deck with another, so a game
    replays exactly from its seed. ``on_record`` gets the record after every round.
    """
    rngs = [random.Random(derive_seed(seed, "seat", i)) for i in range(game.num_players)]
    chance_rng = random.Random(derive_seed(seed, "chance"))
    builder = RecordBuilder(game, seed)
    state = game.new_initial_state()
    assert isinstance(state, TugState)
    deck: list[int] = []
    position = 0
    rounds_done = 0
    while not state.is_terminal():
        if state.phase == DEAL and state.dealt == 0:
            deck = shuffle_deck(state, chance_rng)
            position = 0
            rank = {game.dominoes.index(*game.dominoes.unorient(o)): i for i, o in enumerate(deck)}
            builder.rest_order = rank
        if state.is_chance():
            joint = {CHANCE_SEAT: deck[position]}
            position += 1
        else:
            seat = state.acting_seats()[0]
            joint = {seat: choosers[seat].act(state.view(seat), seat, rngs[seat])}
        after = state.apply(joint)
        assert isinstance(after, TugState)
        builder.observe(state, joint, after)
        if observer is not None:
            observer(state, joint, after)
        state = after
        if on_record is not None and len(builder.record["rounds"]) != rounds_done:
            rounds_done = len(builder.record["rounds"])
            on_record(builder.record)
    record = builder.finish(state)
    if on_record is not None:
        on_record(record)
    return state, record
