"""A one-move evaluation of Tug of War positions for look-ahead agents.

Each seat still in the game gets an *estimate*: its score (or, with ``end=round-points``,
its round points weighted heavily plus what it has gained this round), plus any bonus it is
about to keep, minus a share of the pips it still holds (the round's winner may turn them
against it) and a little per tile (every tile in hand is a turn further from going out).
A seat's value is its estimate against the field (half the opponents' mean, half the
strongest opponent), squashed into (-0.95, 0.95) so a finished game (+1 / -1) always
outranks any evaluation. Hidden hands count at their expected pips (a view never knows
them).
"""

from __future__ import annotations

import math

from taut.games.tug_of_war.model import BONUS, DEAL, TugModel

#: Points lost per pip still in hand.
PIP_WEIGHT = 0.5
#: Points lost per tile still in hand.
TILE_WEIGHT = 1.5
#: A round point is worth this many score points (end=round-points).
ROUND_POINT = 25.0
#: Score advantage that maps to about 0.76 of the range.
SCALE = 25.0
#: The largest value an unfinished game gets.
CAP = 0.95


def estimates(state: TugModel) -> list[float | None]:
    """Each seat's estimated standing in points (None for a seat out of the game)."""
    game = state.game
    rules = game.end_rules
    count_hands = state.phase not in (DEAL, BONUS)
    pips = state.hand_pips()[0] if count_hands else (None,) * game.num_players
    bonus = state.bonus if state.phase == BONUS else None
    out: list[float | None] = []
    for s in range(game.num_players):
        if not state.in_game[s] and not state.playing[s]:
            out.append(None)
            continue
        if rules.end == "round-points":
            base = ROUND_POINT * state.points[s] + state.scores[s] - state.start_scores[s]
        else:
            base = float(state.scores[s])
        if bonus is not None and bonus.winner == s:
            base += bonus.remaining
        p = pips[s]
        if count_hands and p is not None:
            base -= PIP_WEIGHT * p + TILE_WEIGHT * state.sizes[s]
        out.append(base)
    return out


def evaluate(state: TugModel) -> tuple[float, ...]:
    """Value per seat in ``[-1, 1]``; exact returns for a finished game."""
    if state.is_terminal():
        return state.returns()
    est = estimates(state)
    values: list[float] = []
    for s, mine in enumerate(est):
        if mine is None:
            values.append(-CAP)
            continue
        others = [v for j, v in enumerate(est) if j != s and v is not None]
        if not others:
            values.append(CAP)
            continue
        field = 0.5 * sum(others) / len(others) + 0.5 * max(others)
        values.append(CAP * math.tanh((mine - field) / SCALE))
    return tuple(values)
