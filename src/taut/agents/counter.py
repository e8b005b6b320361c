"""The counter agent: on a solved game, the best reply to what the opponent is seen to play.

Where a two-seat simultaneous game's plugin offers the one-turn games of a solution
(:meth:`~taut.core.plugin.GamePlugin.one_turn_games`), the value of every pair of moves is
known, and all that is left to decide is what the opponent will play. Playing the
solution's equilibrium mix guarantees the position's value and no more: against an
opponent who errs, it wins only what the errors give away. This agent keeps a belief over
three models of the opponent:

* ``equilibrium``: the solution's own mix;
* ``greedy``: one turn of look-ahead with the game's evaluation (the ``greedy`` agent;
  where that agent samples its candidate moves, its mix is estimated from ``samples``
  draws);
* ``random``: every legal move alike.

The belief starts at 20% / 60% / 20% (most opponents, people included, look about one
turn ahead) and is updated after each turn by Bayes' rule: how likely each model made the
position that followed, given this agent's own move. Each model's likelihood is blended
half and half with the random one's, because a few draws of a sampling ``greedy`` predict
its moves only roughly, and an unblended estimate would reject the model on one miss.

The agent replies to the most believed model: of the moves that lose at most ``safety``
(in the game's utility) against the equilibrium mix, it plays the one best against the
model, unless that gains less than ``margin`` over the equilibrium mix itself; then it
plays the equilibrium mix, which no opponent can exploit. A best reply to a blend of the
models would mostly answer the random model, whose moves swing the values most.
"""

from __future__ import annotations

import random

import numpy as np

from taut.agents import params
from taut.agents.base import Agent
from taut.agents.greedy import GreedyAgent
from taut.core.chance import sample_mix
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State
from taut.core.one_turn import OneTurnGame, OneTurnGames
from taut.core.registry import plugin_of

#: The opponent models, in the order of the belief's entries.
MODELS = ("equilibrium", "greedy", "random")
#: The belief in each model before any move is seen.
PRIOR = (0.2, 0.6, 0.2)
#: Share of the random model's likelihood blended into every model's (see the docstring).
SMOOTHING = 0.5


class CounterAgent(Agent):
    """Best reply to a believed mix of the opponent (see the module docstring).

    Parameters (strings accepted): ``margin`` (the least gain, in utility, for which the
    agent leaves the equilibrium mix; default 0.01), ``safety`` (the most a move may lose
    against the equilibrium mix; default 0.02), ``samples`` (draws of ``greedy``'s mix per
    move; default 8), ``prior`` (the starting belief in the models, ``equilibrium,greedy,
    random``; default ``0.2,0.6,0.2``; scaled to sum to 1).
    """

    name = "counter"

    def __init__(
        self,
        margin: float | str = 0.01,
        safety: float | str = 0.02,
        samples: int | str = 8,
        prior: str | tuple[float, float, float] = PRIOR,
    ) -> None:
        self.prior = _prior(prior)
        self.margin = params.at_least("margin", margin, 0.0)
        self.safety = params.at_least("safety", safety, 0.0)
        self.samples = params.count("samples", samples, 1)
        self._greedy = GreedyAgent()
        self._log_belief = self._start_belief()
        # The last position's key, this seat, the successors of the move played there and
        # each model's predicted mix of the opponent: what the next position is checked with.
        self._last: tuple[int, np.ndarray, np.ndarray] | None = None
        self._games: tuple[Game, OneTurnGames] | None = None

    @classmethod
    def refuses(cls, game: Game) -> str | None:
        """The counter agent needs a game whose plugin has the one-turn games of a solution."""
        info = game.info
        if info.num_seats != 2 or not info.simultaneous:
            return "needs a two-seat game where both seats move at once"
        if plugin_of(game).one_turn_games(game) is None:
            return "needs a solved game (one whose plugin has one-turn games of a solution)"
        return None

    def _start_belief(self) -> np.ndarray:
        """The log-belief before any evidence (a model given no weight stays at -inf)."""
        with np.errstate(divide="ignore"):
            start: np.ndarray = np.log(np.array(self.prior))
        return start

    @property
    def belief(self) -> dict[str, float]:
        """The current belief over the opponent models."""
        weights = np.exp(self._log_belief - self._log_belief.max())
        return dict(zip(MODELS, (weights / weights.sum()).tolist(), strict=True))

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """Observe what the last turn says of the opponent, then play the chosen mix."""
        games = self._one_turn_games(state.game)
        one = games.game(state)
        if one is None:
            return rng.choice(list(state.legal_actions(seat)))
        self._observe(games.key(state), seat)
        predicted = self._predict(state, seat, one, rng)
        mix = self._choose(one, seat, predicted, rng)
        mine = one.moves(seat)
        index = sample_mix({k: p for k, p in enumerate(mix) if p > 0}, rng)
        played = one.successors[index] if seat == 0 else one.successors[:, index]
        self._last = (seat, played, predicted)
        return int(mine[index])

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The mix the agent would play at ``state`` with its current belief."""
        one = self._one_turn_games(state.game).game(state)
        if one is None:
            legal = list(state.legal_actions(seat))
            return {a: 1.0 / len(legal) for a in legal}
        mix = self._choose(one, seat, self._predict(state, seat, one, rng), rng)
        mine = one.moves(seat)
        return {int(mine[k]): float(p) for k, p in enumerate(mix) if p > 0}

    def _one_turn_games(self, game: Game) -> OneTurnGames:
        if self._games is None or self._games[0] is not game:
            games = plugin_of(game).one_turn_games(game)
            if games is None:
                raise ValueError(f"{game.title} has no solution to counter with")
            self._games = (game, games)
            self._log_belief = self._start_belief()
            self._last = None
        return self._games[1]

    def _observe(self, key: int, seat: int) -> None:
        """Bayes' rule on the position reached from the last one this agent played in."""
        if self._last is None:
            return
        last_seat, played, predicted = self._last
        self._last = None
        if last_seat != seat:  # one agent playing both seats: no clean evidence
            return
        reached = played == key
        if not reached.any():  # not a successor: another game has begun
            self._log_belief = self._start_belief()
            return
        share = predicted[:, reached].sum(axis=1)
        likelihood = (1 - SMOOTHING) * share + SMOOTHING * reached.mean()
        self._log_belief += np.log(np.maximum(likelihood, 1e-300))
        self._log_belief -= self._log_belief.max()

    def _predict(self, state: State, seat: int, one: OneTurnGame, rng: random.Random) -> np.ndarray:
        """Each model's mix of the opponent over its moves (rows: :data:`MODELS`)."""
        other = 1 - seat
        theirs = one.moves(other)
        column = {a: k for k, a in enumerate(theirs)}
        uniform = np.full(len(theirs), 1.0 / len(theirs))
        greedy = np.zeros(len(theirs))
        for _ in range(self.samples):
            draw = random.Random(rng.getrandbits(64))
            for action, p in self._greedy.strategy(state, other, draw).items():
                greedy[column[action]] += p / self.samples
        return np.stack([one.mix(other), greedy, uniform])

    def _choose(
        self, one: OneTurnGame, seat: int, predicted: np.ndarray, rng: random.Random
    ) -> np.ndarray:
        """The best safe reply to the most believed model, or the equilibrium mix where
        that gains less than ``margin`` over it (see the module docstring)."""
        model = predicted[int(np.argmax(self._log_belief))]
        values = one.reply_values(seat, model)
        equilibrium = one.mix(seat)
        guaranteed = one.reply_values(seat, one.mix(1 - seat))
        safe = guaranteed >= float(equilibrium @ guaranteed) - self.safety
        best_value = float(values[safe].max())
        if best_value - float(equilibrium @ values) < self.margin:
            return equilibrium
        best = np.flatnonzero(safe & (values >= best_value - 1e-12))
        mix = np.zeros(len(values))
        mix[best[rng.randrange(len(best))]] = 1.0
        return mix


def _prior(value: str | tuple[float, float, float]) -> tuple[float, float, float]:
    """A starting belief from ``"e,g,r"`` (or three numbers): non-negative, not all zero,
    scaled to sum to 1."""
    parts = value.split(",") if isinstance(value, str) else list(value)
    allowed = "three numbers e,g,r (equilibrium, greedy, random), >= 0, not all 0"
    if len(parts) != len(MODELS):
        raise InvalidOptionError(f"prior must be {allowed}, got {value!r}")
    try:
        weights = [params.at_least("prior", part, 0.0) for part in parts]
    except InvalidOptionError:
        raise InvalidOptionError(f"prior must be {allowed}, got {value!r}") from None
    total = sum(weights)
    if total <= 0:
        raise InvalidOptionError(f"prior must be {allowed}, got {value!r}")
    e, g, r = (w / total for w in weights)
    return e, g, r
