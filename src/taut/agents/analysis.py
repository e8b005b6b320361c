"""Move-by-move analysis of a recorded game: what each choice cost the seat that made it.

(Longer than 400 lines: judging each kind of node (one seat, seats at once, chance) and the
report share the same value helpers.)

Every node of a record where a seat had a choice (more than one legal action) is judged for
that seat; chance nodes and forced moves are not judged. For each such (node, seat):

* ``value``: the position's value for the seat before the move, in the game's utility
  units;
* ``loss``: how much the move played gave away, in the same units (never below 0):

  - where several seats choose at once, the seat's value when it plays its equilibrium
    mix against the other seats' equilibrium mixes, minus its value when it plays the
    chosen action against those same mixes (an expectation: a move outside the mix's
    support can lose even when the dice of the others make it turn out well);
  - where one seat chooses, the value of the best move minus the value of the chosen one;

* ``best``: the engine's move: the most likely action of the seat's equilibrium mix, or
  the best move where it chooses alone;
* ``label``: ``inaccuracy``, ``mistake`` or ``blunder`` when the loss reaches
  :data:`INACCURACY`, :data:`MISTAKE` or :data:`BLUNDER` of the game's utility range
  (``max_utility - min_utility``), else None.

Where the values come from, in order (``method`` names it):

* ``exact``: the game's plugin knows every position's exact value
  (:meth:`~taut.core.plugin.GamePlugin.exact_values`); the mixes are its exact policy
  (:meth:`~taut.core.plugin.GamePlugin.exact_policy`), or, without one, the solution of
  the matrix game of the successors' values;
* ``solution``: the plugin has the one-turn matrix games of a near-exact solution
  (:meth:`~taut.core.plugin.GamePlugin.one_turn_games`; ``exact`` when it says its values
  are exact);
* ``search``: a search within ``think`` seconds (or ``iterations`` descents) per node, the
  algorithms of the ``hard`` level (:mod:`taut.agents.levels`):

  - two seats choosing at once, a few hundred joint moves: SM-MCTS with full-width regret
    matching at the root, whose children's values form the root's payoff matrix; that
    matrix is solved by linear programming for both mixes;
  - more seats, or too many joint moves: SM-MCTS with decoupled UCT (each root action
    starting from virtual visits at a one-turn estimate); each seat's action values are
    its root statistics, against the other seats' play in the search, and its mix is its
    visit frequencies;
  - one seat choosing, perfect information: MCTS with UCT; a move that ends the game is
    scored exactly by its result;
  - hidden information: information-set MCTS from the seat's own view
    (``state.view(seat)``): what the seat knew then, never the other hands.

Searches are seeded from ``seed``, the move and the seat, so a given budget of
``iterations`` gives the same analysis every time; a budget of ``think`` seconds depends
on the machine's speed.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.agents.analysis_model import (
    BLUNDER,
    DEFAULT_THINK,
    EXACT,
    INACCURACY,
    MISTAKE,
    SEARCH,
    SOLUTION,
    THRESHOLDS,
    TOLERANCE,
    SeatEstimate,
)
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.plugin import Policy, Values
from taut.core.record import GameRecord
from taut.core.registry import plugin_of
from taut.core.terms import NodeKind

# The thresholds and constants live in analysis_model; callers read them here.
__all__ = [
    "BLUNDER",
    "DEFAULT_THINK",
    "EXACT",
    "INACCURACY",
    "MISTAKE",
    "SEARCH",
    "SOLUTION",
    "THRESHOLDS",
    "TOLERANCE",
    "GameAnalysis",
    "Judgement",
    "Node",
    "Progress",
    "SeatEstimate",
    "SeatSummary",
    "analyse_node",
    "analyse_record",
    "check_budget",
    "judge_node",
    "judged_nodes",
    "label",
    "node_rng",
    "summarize",
    "thresholds",
]

Progress = Callable[[int, int], None]
"""Told ``(nodes done, nodes to judge)`` after each node."""


@dataclass(frozen=True)
class Judgement:
    """One seat's move at one node, judged."""

    move: int
    """The node's number in the record's moves, from 1."""
    seat: int
    seat_name: str
    action: str
    """The move played, in the game's notation."""
    value: float
    loss: float
    best: str
    """The engine's move, in notation."""
    label: str | None
    method: str

    def to_json(self) -> dict[str, Any]:
        """``{"move", "seat", "action", "value", "loss", "best", "label", "method"}``."""
        return {
            "move": self.move,
            "seat": self.seat_name,
            "action": self.action,
            "value": self.value,
            "loss": self.loss,
            "best": self.best,
            "label": self.label,
            "method": self.method,
        }


@dataclass(frozen=True)
class SeatSummary:
    """One seat's moves over the game."""

    seat: int
    seat_name: str
    moves: int
    """Moves judged."""
    total_loss: float
    counts: Mapping[str, int]
    """Moves per label (every label present, 0 included)."""

    @property
    def average_loss(self) -> float:
        """Mean loss per judged move (0 with none)."""
        return self.total_loss / self.moves if self.moves else 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"moves", "average_loss", "inaccuracy", "mistake", "blunder"}``."""
        return {"moves": self.moves, "average_loss": self.average_loss, **self.counts}


@dataclass(frozen=True)
class GameAnalysis:
    """Every judged move of a game and a summary per seat."""

    game: str
    judgements: tuple[Judgement, ...]
    summaries: tuple[SeatSummary, ...]
    thresholds: Mapping[str, float] = field(default_factory=dict)
    """Each label's least loss, in utility units."""

    def to_json(self) -> list[dict[str, Any]]:
        """A list: one object per judgement (:meth:`Judgement.to_json`), then
        ``{"summary": {SEAT: SeatSummary.to_json()}, "thresholds": {LABEL: loss},
        "game": NAME}``."""
        out: list[dict[str, Any]] = [j.to_json() for j in self.judgements]
        out.append(
            {
                "summary": {s.seat_name: s.to_json() for s in self.summaries},
                "thresholds": dict(self.thresholds),
                "game": self.game,
            }
        )
        return out


def thresholds(game: Game) -> dict[str, float]:
    """Each label's least loss in ``game``'s utility units."""
    span = game.info.max_utility - game.info.min_utility
    return {name: share * span for name, share in THRESHOLDS}


def label(loss: float, limits: Mapping[str, float]) -> str | None:
    """The label a loss earns with ``limits`` (:func:`thresholds`), or None."""
    found = None
    for name, _ in THRESHOLDS:
        if loss >= limits[name] - TOLERANCE:
            found = name
    return found


def check_budget(think: float, iterations: int | None) -> None:
    """Refuse a budget that is not a positive finite time or a positive count."""
    if isinstance(think, bool) or not isinstance(think, (int, float)):
        raise InvalidOptionError(f"think must be a number of seconds, got {think!r}")
    if not math.isfinite(think) or think <= 0:
        raise InvalidOptionError(f"think must be a positive finite number of seconds, got {think}")
    if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
        raise InvalidOptionError(f"iterations must be a whole number >= 1, got {iterations!r}")


# -- one node ------------------------------------------------------------------------------


def analyse_node(
    state: State,
    seats: Collection[int] | None = None,
    *,
    think: float = DEFAULT_THINK,
    iterations: int | None = None,
    rng: random.Random | None = None,
) -> dict[int, SeatEstimate]:
    """Estimate the choices of the acting seats of ``state`` (a full state), only those in
    ``seats`` when given; seats with one legal action are left out, and so are chance and
    finished positions. A seat with hidden information is analysed from its view alone."""
    check_budget(think, iterations)
    rng = rng or random.Random(0)
    if state.kind in (NodeKind.CHANCE, NodeKind.TERMINAL):
        return {}
    judged = [
        s
        for s in state.acting_seats()
        if (seats is None or s in seats) and len(state.legal_actions(s)) > 1
    ]
    if not judged:
        return {}
    game = state.game
    plugin = plugin_of(game)
    values = plugin.exact_values(game)
    if values is not None:
        found = _exact(state, judged, values, plugin.exact_policy(game))
        if found is not None:
            return found
    simultaneous = state.kind is NodeKind.SIMULTANEOUS
    if simultaneous and len(state.acting_seats()) == 2:
        games = plugin.one_turn_games(game)
        one = games.game(state) if games is not None else None
        if games is not None and one is not None:
            return _one_turn(one, judged, EXACT if games.exact else SOLUTION)
    if not game.info.perfect_information:
        if simultaneous:
            raise InvalidOptionError(
                f"{game.title}: moves made at once with hidden information cannot be analysed"
            )
        from taut.agents.analysis_search import hidden_search

        return {s: hidden_search(state, s, think, iterations, rng) for s in judged}
    from taut.agents.analysis_search import simultaneous_search, turn_search

    if simultaneous:
        return {
            s: e
            for s, e in simultaneous_search(state, think, iterations, rng).items()
            if s in judged
        }
    return {s: turn_search(state, s, think, iterations, rng) for s in judged}


def _exact(
    state: State, judged: list[int], values: Values, policy: Policy | None
) -> dict[int, SeatEstimate] | None:
    """Exact estimates from the solved values (None where they cannot be had: several
    seats at once without an exact policy, beyond two seats)."""
    acting = state.acting_seats()
    legal = {s: list(state.legal_actions(s)) for s in acting}
    cache: dict[tuple[int, ...], Sequence[float]] = {}

    def after(joint: dict[int, int]) -> Sequence[float]:
        key = tuple(joint[s] for s in acting)
        if key not in cache:
            cache[key] = values(state.apply_unchecked(joint))
        return cache[key]

    if len(acting) == 1:
        (seat,) = acting
        q = {a: float(after({seat: a})[seat]) for a in legal[seat]}
        best = max(legal[seat], key=lambda a: q[a])  # the first of equals
        return {seat: SeatEstimate(q, q[best], best, EXACT)}
    if policy is not None:
        mixes = {s: {a: p for a, p in policy(state, s).items() if p > 0} for s in acting}
    elif len(acting) == 2:
        mixes = _solved_mixes(state, acting, legal, after)
    else:
        return None
    out = {}
    for seat in judged:
        others = [s for s in acting if s != seat]
        q = {}
        for a in legal[seat]:
            total = 0.0
            for picks in itertools.product(*(mixes[s].items() for s in others)):
                weight = math.prod(p for _, p in picks)
                joint = {s: b for s, (b, _) in zip(others, picks, strict=True)}
                joint[seat] = a
                total += weight * after(joint)[seat]
            q[a] = total
        mix = mixes[seat]
        value = sum(p * q[a] for a, p in mix.items())
        best = max(mix, key=lambda a: (mix[a], -a))
        out[seat] = SeatEstimate(q, value, best, EXACT)
    return out


def _solved_mixes(
    state: State,
    acting: Sequence[int],
    legal: Mapping[int, list[int]],
    after: Callable[[dict[int, int]], Sequence[float]],
) -> dict[int, dict[int, float]]:
    """Both seats' equilibrium mixes of the matrix game of the successors' exact values
    (the first seat's values; the game is taken as zero-sum)."""
    from taut.solve.matrix import solve_matrix_game

    s0, s1 = acting
    payoff = [[after({s0: a, s1: b})[s0] for b in legal[s1]] for a in legal[s0]]
    _, x, y = solve_matrix_game(payoff)
    return {
        s0: {a: float(p) for a, p in zip(legal[s0], x, strict=True) if p > 0},
        s1: {b: float(p) for b, p in zip(legal[s1], y, strict=True) if p > 0},
    }


def _one_turn(one: Any, judged: list[int], method: str) -> dict[int, SeatEstimate]:
    """Estimates from a one-turn game (:class:`~taut.core.one_turn.OneTurnGame`)."""
    out = {}
    for seat in judged:
        moves = list(one.moves(seat))
        reply = one.reply_values(seat, one.mix(1 - seat))
        mix = one.mix(seat)
        q = {int(a): float(v) for a, v in zip(moves, reply, strict=True)}
        value = float(mix @ reply)
        top = max(range(len(moves)), key=lambda k: (float(mix[k]), -k))
        out[seat] = SeatEstimate(q, value, int(moves[top]), method)
    return out


# -- a whole record --------------------------------------------------------------------------


def node_rng(seed: int, move: int, seat: int | None = None) -> random.Random:
    """The generator of the search at ``move`` (for ``seat`` where seats search apart):
    the same for the same arguments in every process."""
    return random.Random(f"analysis/{seed}/{move}/{'' if seat is None else seat}")


#: A node to judge: its number in the record's moves (from 1), the position before the
#: move, and the joint action played there.
Node = tuple[int, State, dict[int, int]]


def judged_nodes(record: GameRecord, game: Game | None = None) -> tuple[Game, list[Node]]:
    """The game and the nodes of ``record`` where seats chose (chance left out), the record
    replayed first with every step checked (a :class:`RecordError` names the first bad
    one), in ``game`` when given, else in the game the record names."""
    steps = list(record.positions(game))
    game = steps[0][1].game
    nodes: list[Node] = []
    for k in range(1, len(steps)):
        joint, before = steps[k][0], steps[k - 1][1]
        if joint and before.kind in (NodeKind.DECISION, NodeKind.SIMULTANEOUS):
            nodes.append((k, before, joint))
    return game, nodes


def judge_node(
    node: Node,
    seats: Collection[int] | None = None,
    *,
    think: float = DEFAULT_THINK,
    iterations: int | None = None,
    seed: int = 0,
) -> list[Judgement]:
    """The judgements of one node (of :func:`judged_nodes`), in seat order: the same for
    the same arguments in any process, so nodes may be judged apart and in parallel."""
    check_budget(think, iterations)
    k, before, joint = node
    game = before.game
    if before.kind is NodeKind.SIMULTANEOUS or game.info.perfect_information:
        found = analyse_node(
            before, seats, think=think, iterations=iterations, rng=node_rng(seed, k)
        )
    else:
        found = {}
        for seat in before.acting_seats():
            found.update(
                analyse_node(
                    before,
                    [seat] if seats is None or seat in seats else [],
                    think=think,
                    iterations=iterations,
                    rng=node_rng(seed, k, seat),
                )
            )
    limits = thresholds(game)
    return [_judge(k, before, seat, joint[seat], found[seat], limits) for seat in sorted(found)]


def summarize(game: Game, judgements: Sequence[Judgement]) -> GameAnalysis:
    """The analysis made of ``judgements`` (in the order of the game), with each seat's
    summary."""
    return GameAnalysis(
        game.name, tuple(judgements), _summaries(game, judgements), thresholds(game)
    )


def analyse_record(
    record: GameRecord,
    seats: Collection[int] | None = None,
    *,
    think: float = DEFAULT_THINK,
    iterations: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    game: Game | None = None,
) -> GameAnalysis:
    """Judge every choice along ``record`` (only those of ``seats`` when given).

    The record is replayed first, every step checked (a :class:`RecordError` names the
    first bad one), in ``game`` when given, else in the game the record names.
    ``progress`` is told ``(done, total)`` after each node analysed.
    """
    check_budget(think, iterations)
    game, nodes = judged_nodes(record, game)
    judgements: list[Judgement] = []
    for done, node in enumerate(nodes, start=1):
        judgements.extend(judge_node(node, seats, think=think, iterations=iterations, seed=seed))
        if progress is not None:
            progress(done, len(nodes))
    return summarize(game, judgements)


def _judge(
    move: int,
    state: State,
    seat: int,
    action: int,
    estimate: SeatEstimate,
    limits: Mapping[str, float],
) -> Judgement:
    loss = estimate.loss(action)
    return Judgement(
        move=move,
        seat=seat,
        seat_name=state.seat_name(seat),
        action=state.action_to_string(seat, action),
        value=estimate.value + 0.0,  # never -0.0
        loss=loss,
        best=state.action_to_string(seat, estimate.best),
        label=label(loss, limits),
        method=estimate.method,
    )


def _summaries(game: Game, judgements: Sequence[Judgement]) -> tuple[SeatSummary, ...]:
    """One summary per seat that has a judged move, in seat order."""
    out = []
    for seat, name in enumerate(game.info.seats):
        mine = [j for j in judgements if j.seat == seat]
        if not mine:
            continue
        counts = {n: sum(1 for j in mine if j.label == n) for n, _ in THRESHOLDS}
        out.append(SeatSummary(seat, name, len(mine), sum(j.loss for j in mine), counts))
    return tuple(out)
