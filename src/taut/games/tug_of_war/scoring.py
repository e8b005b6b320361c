"""How rounds and the game end: round points, players going out, winners and tie-breaks.

Everything here is a pure function of scores and flags, so each way of ending the game can
be tested on its own. :func:`finish_round` is called once per round, after the round's
bonus (if any) has been added.

Ties for the win never end the game: the tied players (``tiebreak=tied``) or everybody
still in the game (``tiebreak=all``) play extra rounds, and after each extra round the
highest total (``end=rounds`` and ``end=target``) or the most round points
(``end=round-points``) among them wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from taut.core.terms import Outcome, Termination

#: A player reached the target score.
TARGET = Termination("target", "reached the target score")
#: A player went out and the game stopped there (``out=stop``): the highest score wins.
OUT = Termination("out", "a player went out")
#: Everybody else went out.
LAST_STANDING = Termination("last standing", "the last player still in")
#: The fixed number of rounds was played (``end=rounds``).
ROUNDS = Termination("rounds", "the rounds were played")
#: The fixed number of rounds was played and round points decide (``end=round-points``).
ROUND_POINTS = Termination("round points", "most round points")
#: A tie for the win was broken by extra rounds.
TIE_BREAK = Termination("tie-break", "won the extra rounds")
#: Every way a game of Tug of War ends.
TERMINATIONS = (TARGET, OUT, LAST_STANDING, ROUNDS, ROUND_POINTS, TIE_BREAK)


@dataclass(frozen=True)
class EndRules:
    """The options that decide when the game ends."""

    end: str
    """``target``, ``rounds`` or ``round-points``."""
    target: int
    out: str
    """``continue`` or ``stop`` (target mode only)."""
    rounds: int
    tiebreak: str
    """``tied`` or ``all``."""
    round_score: str
    """``gain`` (points won in the round) or ``total`` (score after the round)."""


@dataclass(frozen=True)
class RoundEnd:
    """What :func:`finish_round` decided."""

    points: tuple[int, ...]
    """Round points after this round."""
    in_game: tuple[bool, ...]
    """Seats still in the game (False: out)."""
    pool: tuple[int, ...] | None
    """Seats that play the next (tie-break) round; None outside a tie-break."""
    outcome: Outcome | None
    """How the game ended, or None when another round follows."""


def award_round_points(
    rules: EndRules,
    scores: Sequence[int],
    start_scores: Sequence[int],
    points: Sequence[int],
    playing: Sequence[bool],
) -> tuple[int, ...]:
    """Round points after a round: one for each player of the round with the best result.

    The result is the round's gain (``round-score=gain``) or the total after the round
    (``round-score=total``). Players tied for the best result each get a point.
    """
    seats = [s for s, p in enumerate(playing) if p]
    if rules.round_score == "total":
        result = {s: scores[s] for s in seats}
    else:
        result = {s: scores[s] - start_scores[s] for s in seats}
    best = max(result.values())
    return tuple(p + 1 if s in result and result[s] == best else p for s, p in enumerate(points))


def finish_round(
    rules: EndRules,
    round_no: int,
    scores: Sequence[int],
    start_scores: Sequence[int],
    points: Sequence[int],
    in_game: Sequence[bool],
    playing: Sequence[bool],
    pool: Sequence[int] | None,
) -> RoundEnd:
    """Apply the end-of-round rules after round ``round_no`` (1-based).

    ``playing`` marks the seats dealt into the round; ``pool`` is set when the round was a
    tie-break round.
    """
    n = len(scores)
    new_points = tuple(points)
    if rules.end == "round-points":
        new_points = award_round_points(rules, scores, start_scores, points, playing)
    metric: Sequence[int] = new_points if rules.end == "round-points" else scores
    stay = tuple(in_game)

    def decide(candidates: Sequence[int], reason: Termination) -> RoundEnd:
        best = max(metric[s] for s in candidates)
        top = tuple(s for s in candidates if metric[s] == best)
        if len(top) == 1:
            return RoundEnd(new_points, stay, None, Outcome((top[0],), reason))
        if rules.tiebreak == "tied":
            next_pool = top
        else:
            next_pool = tuple(sorted({s for s in range(n) if stay[s]} | set(top)))
        return RoundEnd(new_points, stay, next_pool, None)

    if pool is not None:
        return decide(tuple(pool), TIE_BREAK)
    seats = [s for s in range(n) if playing[s]]
    if rules.end == "target":
        # Checked only here, at the end of a round: out first, then the target.
        outs = [s for s in seats if scores[s] <= -rules.target]
        stay = tuple(False if s in outs else in_game[s] for s in range(n))
        reached = [s for s in seats if scores[s] >= rules.target]
        if reached:
            return decide(reached, TARGET)
        if outs and rules.out == "stop":
            return decide(seats, OUT)
        remaining = [s for s in range(n) if stay[s]]
        if len(remaining) == 1:
            return RoundEnd(new_points, stay, None, Outcome((remaining[0],), LAST_STANDING))
        if not remaining:
            # The last players went out together: the least far out is the last standing.
            return decide(outs, LAST_STANDING)
        return RoundEnd(new_points, stay, None, None)
    if round_no >= rules.rounds:
        return decide(seats, ROUNDS if rules.end == "rounds" else ROUND_POINTS)
    return RoundEnd(new_points, stay, None, None)


def game_returns(num_seats: int, outcome: Outcome | None) -> tuple[float, ...]:
    """+1 for the winner and ``-1/(n-1)`` for every other seat; all 0 without a winner."""
    if outcome is None or not outcome.winners:
        return tuple(0.0 for _ in range(num_seats))
    winner = outcome.winners[0]
    loss = -1.0 / (num_seats - 1)
    return tuple(1.0 if s == winner else loss for s in range(num_seats))
