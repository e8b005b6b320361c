"""How a finished game's end is told: who won and why in words (the game's termination
text), never the record's short reason in parentheses; each seat reads it for itself in
the page ("You won", "You lost", "Drawn")."""

from __future__ import annotations

import random

from taut.core.forfeit import RESIGNED, forfeit
from taut.core.registry import make
from taut.server.play.frames import result_line


def played_out(game: str, seed: int, **options: object) -> object:
    state = make(game, **options).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.kind.name == "CHANCE":
            outcomes = state.chance_outcomes()
            state = state.apply({-1: rng.choice(outcomes)[0]})
        else:
            joint = {s: rng.choice(state.legal_actions(s)) for s in state.acting_seats()}
            state = state.apply(joint if len(joint) > 1 else next(iter(joint.values())))
    return state


def test_a_won_game_names_the_winner_and_the_reason_in_words() -> None:
    state = played_out("tracks", 1, size=3)
    line = result_line(state)  # type: ignore[arg-type]
    out = state.outcome  # type: ignore[attr-defined]
    assert line is not None and "(" not in line
    if out.is_draw:
        assert line == f"Drawn — {out.reason.text}"
    else:
        winner = state.seat_name(out.winners[0])  # type: ignore[attr-defined]
        assert line == f"{winner} won — {out.reason.text}"


def test_a_resignation_and_a_game_going_on() -> None:
    state = make("tracks", size=3).new_initial_state()
    assert result_line(state) is None
    over = forfeit(state, 0, RESIGNED)
    assert result_line(over) == f"{state.seat_name(1)} won — a seat resigned"
