"""The statistics of a balance analysis: intervals, quantiles, who leads and when it settled.

Everything here works on plain numbers and on the per-game summaries that
:mod:`taut.arena.balance` writes (one JSON object per game), so it can be checked by hand:

* rates (a seat's wins, the draws) get 95% Wilson score intervals;
* means (game length, lead changes) get 95% Student-t intervals;
* quantiles interpolate linearly between order statistics (the usual "type 7" definition,
  NumPy's default): the q-quantile of sorted ``x[0..n-1]`` is read at position ``q (n-1)``;
* the *leader* of a position is the team whose best seat has the strictly highest standing
  (the plugin's ``lead`` hook); a tie leaves nobody leading;
* a *lead change* is a position whose leader differs from the previous position that had a
  leader (positions where nobody leads are skipped);
* the lead *settled* at turn ``i`` when the eventual winner leads at position ``i`` and at
  every position after it (position 0 is the start, position ``t`` follows turn ``t``); the
  *settled share* is ``i`` divided by the game's turns: 0 means the winner led from the
  start to the end, 1 that it took the lead only with the last move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from taut.arena.stats import wilson_interval

#: Scores closer than this count as equal when deciding who leads.
TIE_TOLERANCE = 1e-9

#: The quantiles reported for game length, by name.
QUANTILES: tuple[tuple[str, float], ...] = (
    ("min", 0.0),
    ("q10", 0.1),
    ("q25", 0.25),
    ("median", 0.5),
    ("q75", 0.75),
    ("q90", 0.9),
    ("max", 1.0),
)


@dataclass(frozen=True)
class Estimate:
    """A number with its 95% interval (``low``/``high`` None when one game cannot give an
    interval)."""

    value: float
    low: float | None
    high: float | None

    def to_json(self) -> dict[str, float | None]:
        """``{"value": .., "low": .., "high": ..}`` rounded to 4 places."""
        return {
            "value": round(self.value, 4),
            "low": None if self.low is None else round(self.low, 4),
            "high": None if self.high is None else round(self.high, 4),
        }


def rate(successes: float, trials: int) -> Estimate | None:
    """The share ``successes / trials`` with its Wilson interval; None for no trials."""
    if trials <= 0:
        return None
    low, high = wilson_interval(successes, trials)
    return Estimate(successes / trials, low, high)


def mean_interval(
    values: Sequence[float],
    confidence: float = 0.95,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Estimate | None:
    """The mean with its Student-t interval, clipped to ``bounds`` (where the values must
    lie); None for no values. One value gives no interval (low and high None); values all
    equal give the mean as both ends."""
    n = len(values)
    if n == 0:
        return None
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, None, None)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    # Imported here: SciPy is loaded only when numbers are summarised.
    from scipy.stats import t

    half = float(t.ppf(0.5 + confidence / 2, n - 1)) * math.sqrt(var / n)
    return Estimate(mean, max(bounds[0], mean - half), min(bounds[1], mean + half))


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) of ``values``, interpolating linearly (type 7)."""
    if not values:
        raise ValueError("the quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"a quantile is between 0 and 1, got {q}")
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    below = math.floor(pos)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (pos - below) * (ordered[above] - ordered[below])


def leader(scores: Sequence[float], teams: Sequence[Sequence[int]]) -> int | None:
    """The team whose best seat scores strictly highest (its index); None on a tie."""
    best = [max(scores[s] for s in team) for team in teams]
    top = max(best)
    at_top = [i for i, b in enumerate(best) if top - b <= TIE_TOLERANCE]
    return at_top[0] if len(at_top) == 1 else None


def lead_changes(leaders: Sequence[int | None]) -> int:
    """How many times the leader changed (positions where nobody leads are skipped)."""
    changes = 0
    previous: int | None = None
    for who in leaders:
        if who is None:
            continue
        if previous is not None and who != previous:
            changes += 1
        previous = who
    return changes


def settled_at(leaders: Sequence[int | None], winner: int | None) -> int | None:
    """The first position from which ``winner`` leads to the end; None when nobody won or
    the winner does not lead at the last position."""
    if winner is None or not leaders or leaders[-1] != winner:
        return None
    i = len(leaders) - 1
    while i > 0 and leaders[i - 1] == winner:
        i -= 1
    return i


def trailed(leaders: Sequence[int | None], winner: int | None) -> bool:
    """Whether another team led at some position before ``winner`` won (a comeback)."""
    return winner is not None and any(w is not None and w != winner for w in leaders)


def team_of(teams: Sequence[Sequence[int]], seat: int) -> int:
    """The index of the team holding ``seat``."""
    for i, team in enumerate(teams):
        if seat in team:
            return i
    raise ValueError(f"seat {seat} is in no team")


def _rows(values: Mapping[str, Estimate | None]) -> dict[str, Any]:
    return {k: None if v is None else v.to_json() for k, v in values.items()}


def summarise(
    games: Sequence[Mapping[str, Any]],
    seats: Sequence[str],
    agents: Sequence[str],
    start_value: Sequence[float] | None = None,
    utility: tuple[float, float] = (-math.inf, math.inf),
) -> dict[str, Any]:
    """The numbers of one variant from its per-game summaries (JSON-ready).

    Each game is a mapping with ``seats`` (the agent index in each seat), ``winners``,
    ``reason``, ``turns``, ``first`` (the seat that made the first decision, or None where
    everybody moves at once), ``returns``, ``changes``, ``settled`` and ``trailed`` (see
    :func:`lead_changes`, :func:`settled_at`, :func:`trailed`). ``start_value`` is the
    exact value of the start per seat, where known; ``utility`` the range of a result.
    """
    n = len(games)
    decisive = [g for g in games if g["winners"]]
    draws = n - len(decisive)
    per_seat: list[dict[str, Any]] = []
    for s, name in enumerate(seats):
        wins = sum(1 for g in games if s in g["winners"])
        losses = len(decisive) - wins
        returns = [float(g["returns"][s]) for g in games]
        entry: dict[str, Any] = {
            "seat": name,
            "wins": wins,
            "draws": draws,
            "losses": losses,
            **_rows(
                {
                    "win_rate": rate(wins, n),
                    "draw_rate": rate(draws, n),
                    "loss_rate": rate(losses, n),
                    "mean_result": mean_interval(returns, bounds=utility),
                }
            ),
        }
        if start_value is not None:
            entry["exact_value"] = round(float(start_value[s]), 6)
        per_seat.append(entry)
    with_first = [g for g in games if g["first"] is not None]
    first_wins = sum(1 for g in with_first if g["first"] in g["winners"])
    first_draws = sum(1 for g in with_first if not g["winners"])
    first_mover: dict[str, Any] | None = None
    if with_first:
        first_mover = {
            "games": len(with_first),
            "wins": first_wins,
            "draws": first_draws,
            "losses": len(with_first) - first_wins - first_draws,
            **_rows(
                {
                    "win_rate": rate(first_wins, len(with_first)),
                    "draw_rate": rate(first_draws, len(with_first)),
                    "loss_rate": rate(len(with_first) - first_wins - first_draws, len(with_first)),
                }
            ),
        }
    turns = [float(g["turns"]) for g in games]
    reasons: dict[str, int] = {}
    for g in games:
        if not g["winners"]:
            reasons[g["reason"]] = reasons.get(g["reason"], 0) + 1
    shares = [
        g["settled"] / g["turns"] if g["turns"] else 0.0
        for g in decisive
        if g["settled"] is not None
    ]
    changes = [float(g["changes"]) for g in games]
    comebacks = sum(1 for g in decisive if g["trailed"])
    per_agent: list[dict[str, Any]] = []
    if len(agents) > 1:
        for a, spec in enumerate(agents):
            sat = [(g, s) for g in games for s, who in enumerate(g["seats"]) if who == a]
            won = sum(1 for g, s in sat if s in g["winners"])
            drawn = sum(1 for g, _ in sat if not g["winners"])
            per_agent.append(
                {
                    "agent": spec,
                    "seat_games": len(sat),
                    "wins": won,
                    "draws": drawn,
                    "losses": len(sat) - won - drawn,
                    **_rows({"score": rate(won + 0.5 * drawn, len(sat))}),
                }
            )
    return {
        "games": n,
        "seats": per_seat,
        "first_mover": first_mover,
        "draws": {"count": draws, "reasons": reasons, **_rows({"rate": rate(draws, n)})},
        "length": {
            **_rows({"mean": mean_interval(turns, bounds=(0.0, math.inf))}),
            **{name: (round(quantile(turns, q), 2) if turns else None) for name, q in QUANTILES},
        },
        "lead": {
            "decisive_games": len(decisive),
            "settled_games": len(shares),
            **_rows(
                {
                    "settled_share": mean_interval(shares, bounds=(0.0, 1.0)),
                    "changes": mean_interval(changes, bounds=(0.0, math.inf)),
                    "comeback_rate": rate(comebacks, len(decisive)),
                }
            ),
            "settled_median": round(quantile(shares, 0.5), 4) if shares else None,
            "comebacks": comebacks,
        },
        "agents": per_agent,
    }
