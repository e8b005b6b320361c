"""Difficulty levels: ``easy``, ``medium`` and ``hard`` opponents for every game.

A level is an agent spec like any other (``hard``, ``easy``, ``hard:think=0.5`` wherever
``taut play`` or ``taut arena`` take an agent). It picks the algorithm that suits the game
it is asked to play, from what the game declares about itself (:class:`GameInfo` and its
plugin), so new games get levels without code here:

* ``easy`` - the one-turn look-ahead of ``greedy``, except that a share of its moves
  (``blunder``, default 0.35) are uniformly random: it sees a win in one and takes it most
  of the time, and a new player can beat it.
* ``medium`` - ``greedy``: one turn of look-ahead with the game's evaluation (and, where
  players move at once, the equilibrium mix of the one-turn matrix game).
* ``hard`` - search within ``think`` seconds per move (default 2):

  - a solved game (its plugin has an exact policy) is played exactly (``perfect``);
  - a two-seat simultaneous game whose plugin has the one-turn games of a solution, exact
    or near-exact, but no exact policy: ``counter``, the best reply (safe against the
    solution's equilibrium) to the opponent model its play matches best (equilibrium,
    greedy or random);
  - a two-seat zero-sum simultaneous game with a few dozen moves a side: depth-limited
    Nash search, deepened one turn at a time up to three turns while ``think`` lasts
    (the deepest completed search plays), the matrix games solved with double oracle and
    the horizon scored by the game's evaluation;
  - simultaneous games of more than two seats: ``reply``, one turn of look-ahead with
    the evaluation against the other seats modelled as random or as ``greedy``, the
    model chosen by how well each predicts their moves so far;
  - other two-seat simultaneous games (hundreds of moves a side): SM-MCTS with
    decoupled UCT, each root move starting from 100 virtual visits at its one-turn
    estimate (``prior=100``, ``c=0.3``), its move sampled from the root's mix;
  - hidden information: information-set MCTS, which samples only what the seat cannot
    see, with the evaluation as a prior on new moves (``bias=5`` virtual visits),
    ``c=0.3`` and three plies of evaluation-best play before scoring a leaf;
  - anything else (sequential play with perfect information, chance included): MCTS with
    UCT, chance nodes sampled, leaves scored by the game's evaluation.
"""

from __future__ import annotations

import random

from taut.agents import params
from taut.agents.base import Agent
from taut.agents.counter import CounterAgent
from taut.agents.greedy import GreedyAgent
from taut.agents.ismcts import ISMCTSAgent
from taut.agents.nash import NashSearchAgent
from taut.agents.perfect import PerfectAgent
from taut.agents.reply import ReplyAgent
from taut.agents.smmcts import SMMCTSAgent
from taut.core.errors import InvalidOptionError
from taut.core.game import Game, State

#: The level names, weakest first.
LEVELS = ("easy", "medium", "hard")
#: Seconds per move that ``hard`` thinks unless told otherwise.
DEFAULT_THINK = 2.0
#: Share of random moves that ``easy`` makes.
DEFAULT_BLUNDER = 0.35
#: Largest action count per seat for which ``hard`` uses Nash search (its matrix games
#: grow with the square of it); above it, SM-MCTS samples instead.
NASH_ACTIONS = 64


class BlunderingAgent(Agent):
    """Plays like ``base`` except that a ``blunder`` share of its moves are random."""

    name = "blundering"

    def __init__(self, base: Agent, blunder: float | str = DEFAULT_BLUNDER) -> None:
        self.base = base
        self.blunder = params.share("blunder", blunder)

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """A random legal move with probability ``blunder``, else ``base``'s move."""
        if rng.random() < self.blunder:
            return rng.choice(state.legal_actions(seat))
        return self.base.act(state, seat, rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """``base``'s mix, blended with the uniform one."""
        legal = state.legal_actions(seat)
        mix = {a: self.blunder / len(legal) for a in legal}
        for a, p in self.base.strategy(state, seat, rng).items():
            mix[a] += (1.0 - self.blunder) * p
        return mix


def level_agent(level: str, game: Game, think: float = DEFAULT_THINK) -> Agent:
    """The agent that plays ``game`` at ``level`` (see the module docstring)."""
    if level == "easy":
        return BlunderingAgent(GreedyAgent())
    if level == "medium":
        return GreedyAgent()
    if level != "hard":
        raise InvalidOptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
    info = game.info
    if PerfectAgent.refuses(game) is None:
        return PerfectAgent()
    if CounterAgent.refuses(game) is None:
        return CounterAgent()
    if info.simultaneous:
        if info.num_seats == 2 and info.zero_sum and info.num_distinct_actions <= NASH_ACTIONS:
            # Three turns where time allows: against `medium` it won 28 of 31 decisive
            # games, two turns 62% (docs/agents.md).
            return NashSearchAgent(depth=3, think=think)
        if info.num_seats > 2:
            # With more than two sides a tree of joint moves is too wide for a fraction of
            # a second; one turn of look-ahead against rivals modelled as random or greedy
            # (whichever their play matches) wins more (measured in games of four sides).
            return ReplyAgent(think=think)
        return SMMCTSAgent("uct", think=think, rollout=0, prior=100, c=0.3, final="mix")
    if not info.perfect_information:
        return ISMCTSAgent(think=think, rollout=0, bias=5, c=0.3, playout=3)
    return SMMCTSAgent("uct", think=think, rollout=0)


class LevelAgent(Agent):
    """A difficulty level; the algorithm is chosen when the first position arrives.

    Parameters (strings accepted, as from ``NAME:key=value`` specs): ``think`` (seconds per
    move for ``hard``, default 2; ignored by the other levels).
    """

    def __init__(self, level: str, think: float | str | None = None) -> None:
        if level not in LEVELS:
            raise InvalidOptionError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        self.think = DEFAULT_THINK if think is None else params.positive("think", think, "seconds")
        self.level = level
        self.name = level
        self._chosen: tuple[Game, Agent] | None = None

    def agent_for(self, game: Game) -> Agent:
        """The agent this level uses for ``game`` (chosen again when the game changes)."""
        if self._chosen is None or self._chosen[0] is not game:
            self._chosen = (game, level_agent(self.level, game, self.think))
        return self._chosen[1]

    def act(self, state: State, seat: int, rng: random.Random) -> int:
        """The chosen algorithm's move."""
        return self.agent_for(state.game).act(state, seat, rng)

    def strategy(self, state: State, seat: int, rng: random.Random) -> dict[int, float]:
        """The chosen algorithm's mix."""
        return self.agent_for(state.game).strategy(state, seat, rng)

    def accept_draw(self, state: State, seat: int) -> bool:
        """The chosen algorithm's answer to a draw offer."""
        return self.agent_for(state.game).accept_draw(state, seat)

    def __repr__(self) -> str:
        return f"LevelAgent({self.level!r}, think={self.think})"
