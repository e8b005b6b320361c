"""The reply agent: one turn of look-ahead against a model of the other seats.

Where many seats move at once a full game tree is out of reach in a fraction of a second,
and with an evaluation that already values a position under random play (as a game's
evaluation may, built from the exact best reply to random play), one turn of look-ahead
against the right model of the others is most of the strength. Each rival (a seat outside
this seat's team) is modelled as a mix: with share ``q`` it plays what one-turn ``greedy``
look-ahead would play there, otherwise a uniformly random move. ``q`` is a belief, updated
every turn by whether the rivals' predicted moves reproduced the position that followed
(they do for about 95% of ``greedy``'s moves and 8% of random ones in games of four sides),
starting from ``model``. Teammates (seats of the same :meth:`Game.teams` unit) are modelled
as playing the best reply this agent finds for them, before the seat's own choice.

Each of the seat's moves is scored against the same sampled profiles of the others
(common random numbers make the comparison far less noisy than independent samples),
and sampling goes on in rounds until ``think`` seconds have passed.
"""

from __future__ import annotations

import random
import time

from taut.agents import params
from taut.agents.base import Agent, Evaluator
from taut.agents.greedy import GreedyAgent
from taut.core.game import State
from taut.core.terms import NodeKind

#: Profiles of the others sampled per round.
ROUND = 16
#: At most this many profiles in all (more changes no choice measurably).
MAX_PROFILES = 512
#: How often the rivals' predicted moves reproduce the next position when they play
#: ``greedy`` and when they play at random (measured in a game of four sides: 95%, 8%).
MATCH_GREEDY, MATCH_RANDOM = 0.9, 0.1
#: Below this belief the rivals are modelled as random.
MIN_SHARE = 0.05


class ReplyAgent(Agent):
    """One turn of look-ahead against modelled other seats (see the module docstring).

    Parameters (strings accepted): ``think`` (seconds per move, default 1), ``model``
    (the belief, before any move is seen, that the rivals play like ``greedy``; default
    0.25), ``evaluator`` (defaults to the game's heuristic).
    """

    name = "reply"

    def __init__(
        self,
        think: float | str = 1.0,
        model: float | str = 0.25,
        evaluator: Evaluator | None = None,
    ) -> None:
        self.think = params.positive("think", think, "seconds")
        self.model = params.share("model", model)
        self.evaluator = evaluator
        self._greedy = GreedyAgent(evaluator)
        self._odds = self.model / (1.0 - self.model) if self.model < 1 else 1e9
        # The last position this agent chose in, the seat, and the joint move it expected
        # there (the teammate's part free): what the next position is checked against.
        self._last: tuple[int, State, dict[int, int]] | None = None

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The move that scores best against the sampled model of the others."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            self._last = None
            return legal[0]
        return self._choose(state, seat, rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The chosen move, played for sure: with several other seats no one of them can
        exploit a pure choice."""
        return {self.act(state, seat, rng): 1.0}

    @property
    def share(self) -> float:
        """The current belief that the rivals play like ``greedy``."""
        return self._odds / (1.0 + self._odds)

    def _observe(self, state: State, seat: int, mates: set[int]) -> None:
        """Update the belief from whether the rivals' predicted moves (with this seat's
        move and any teammate move) lead to ``state``."""
        if state.transposition_key() == state.game.new_initial_state().transposition_key():
            self._odds = self.model / (1.0 - self.model) if self.model < 1 else 1e9
            self._last = None
        if self._last is None:
            return
        last_seat, before, joint = self._last
        self._last = None
        if last_seat != seat:  # one agent playing several seats: no clean evidence
            return
        target = state.transposition_key()
        mate = min(mates) if mates else None
        options: list[int | None] = [None] if mate is None else list(before.legal_actions(mate))
        matched = False
        for a in options:
            trial = dict(joint)
            if mate is not None and a is not None:
                trial[mate] = a
            if before.apply(trial).transposition_key() == target:
                matched = True
                break
        ratio = MATCH_GREEDY / MATCH_RANDOM if matched else (1 - MATCH_GREEDY) / (1 - MATCH_RANDOM)
        self._odds = min(max(self._odds * ratio, 1e-6), 1e6)

    def _choose(self, state: State, seat: int, rng: random.Random) -> int:
        start = time.perf_counter()
        game = state.game
        evaluate = self.evaluator or game.heuristic
        seats = [s for s in state.acting_seats() if s != seat]
        mates = next((set(t) for t in game.teams() if seat in t), {seat}) - {seat}
        self._observe(state, seat, mates)
        legal = {s: list(state.legal_actions(s)) for s in state.acting_seats()}
        rivals = [s for s in seats if s not in mates]
        predicted = {s: self._greedy.act(state, s, rng) for s in rivals}
        share = self.share if self.share > MIN_SHARE else 0.0
        # Teammates first reply to the modelled rivals with this seat random, then this
        # seat replies to them: the same computation in every seat of a team.
        fixed: dict[int, int] = {}
        slot = self.think / (len(mates) + 1)
        for k, mate in enumerate(sorted(mates)):
            deadline = start + slot * (k + 1)
            fixed[mate] = self._best(
                state, mate, evaluate, legal, predicted, share, fixed, rng, deadline
            )
        deadline = start + self.think
        action = self._best(state, seat, evaluate, legal, predicted, share, fixed, rng, deadline)
        if len(mates) <= 1:
            self._last = (seat, state, {**predicted, seat: action})
        return action

    def _best(
        self,
        state: State,
        seat: int,
        evaluate: Evaluator,
        legal: dict[int, list[int]],
        predicted: dict[int, int],
        share: float,
        fixed: dict[int, int],
        rng: random.Random,
        deadline: float,
    ) -> int:
        """``seat``'s move with the best mean evaluation over sampled profiles."""
        mine = legal[seat]
        others = [s for s in state.acting_seats() if s != seat]
        totals = [0.0] * len(mine)
        count = 0
        while count < MAX_PROFILES:
            for _ in range(ROUND):
                profile: dict[int, int] = {}
                for s in others:
                    if s in fixed:
                        profile[s] = fixed[s]
                    elif s in predicted and rng.random() < share:
                        profile[s] = predicted[s]
                    else:
                        profile[s] = rng.choice(legal[s])
                for i, a in enumerate(mine):
                    profile[seat] = a
                    after = state.apply(dict(profile))
                    if after.kind is NodeKind.CHANCE:
                        totals[i] += GreedyAgent(evaluate)._value(after, seat)
                    else:
                        totals[i] += evaluate(after)[seat]
                count += 1
            if time.perf_counter() >= deadline:
                break
        best = max(totals)
        ties = [a for a, t in zip(mine, totals, strict=True) if t >= best - 1e-9]
        return ties[0] if len(ties) == 1 else rng.choice(ties)
