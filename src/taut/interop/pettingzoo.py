"""PettingZoo environments for every taut game: ``parallel_env`` and ``env`` (AEC).

(Longer than 400 lines: both PettingZoo interfaces, parallel and AEC, share the spaces, the
masks and the bookkeeping of seats, and read best side by side.)

``parallel_env(name, **options)`` and ``env(name, **options)`` build environments from a
game name and the game's own options (a game object works too). Agents are the game's seat
names (``game.info.seats``, in seat order) and every agent stays in ``agents`` until the
game ends.

Every observation is a dict:

* ``"observation"``: the float32 vector of :func:`taut.interop.encoding.observe`, built
  from the agent's own view of the state only (hidden hands never show);
* ``"action_mask"``: int8, one entry per action id (``game.info.num_distinct_actions``),
  1 for each action the agent may take now.

An agent that does not act now has an all-zero mask. In the parallel environment its entry
in the actions dict is ignored (it may be left out; ``0``, what ``Discrete.sample`` returns
for an all-zero mask, is the customary filler). In a simultaneous game every acting seat
chooses in the same ``step``; in a sequential game one seat acts per ``step``. The AEC
environment's ``agent_selection`` is always a seat that acts now: at a simultaneous node
the acting seats choose one after another (in seat order) and the joint action is applied
once the last has chosen, so no seat sees another's choice of the same turn.

Chance nodes (deals, draws, dice, coins) are resolved inside the environment by a
generator seeded from ``reset(seed=...)``; ``reset()`` without a seed goes on with the
generator of the previous episode.

Rewards are 0 until the game ends; then each agent receives its return from the game
(``state.returns()``, e.g. +1 / -1 for win and loss and 0 for a draw; a game with several
losers may share the loss among them). A finished game sets every termination;
``max_steps`` (counted in applied turns) sets every truncation with zero reward instead.
Games with a ``max_turns`` option end by their own rules (a draw) when it is reached, which
is a termination.

An illegal action raises ``ValueError`` naming the action and the legal ones
(``illegal="raise"``, the default). With ``illegal="lose"`` the episode ends at once
instead: each offending agent gets the game's lowest utility, every other agent 0, and the
offender's info holds ``"illegal_action"``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv

from taut.core.game import Game, State
from taut.core.registry import make as make_game
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.interop.encoding import action_mask, check_action, observation_layout, observe

ObsDict = dict[str, npt.NDArray[Any]]
"""One agent's observation: ``{"observation": float32 vector, "action_mask": int8}``."""

#: What an illegal action does: raise ValueError, or end the episode as a loss.
ILLEGAL_MODES = ("raise", "lose")
#: Render modes: ``ansi`` returns the game's text diagram, ``human`` prints it.
RENDER_MODES = ("ansi", "human")


def _game(game: str | Game, options: dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if options:
            raise ValueError("pass game options to taut.make, not with a game object")
        return game
    return make_game(game, **options)


def _check_modes(illegal: str, render_mode: str | None, max_steps: int | None) -> None:
    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}"
        )
    if max_steps is not None and max_steps < 1:
        raise ValueError(f"max_steps must be at least 1 (or None), got {max_steps}")


def observation_space(game: Game) -> gymnasium.spaces.Dict:
    """The observation space of one seat: the encoded view and the action mask."""
    lay = observation_layout(game)
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(
                low=lay.low.copy(), high=lay.high.copy(), shape=(lay.size,), dtype=np.float32
            ),
            "action_mask": gymnasium.spaces.Box(
                0, 1, shape=(game.info.num_distinct_actions,), dtype=np.int8
            ),
        }
    )


class _Table:
    """One game in progress with its chance generator; both environments build on it."""

    def __init__(self, game: Game, max_steps: int | None) -> None:
        self.game = game
        self.max_steps = max_steps
        self.state: State = game.new_initial_state()
        self.steps = 0
        self.np_random: np.random.Generator | None = None
        self.chance = random.Random(0)
        self.started = False

    def reset(self, seed: int | None) -> None:
        """A new game; ``seed`` restarts the generator, None continues it."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        # The engine's chance API takes a random.Random: derive one per episode.
        self.chance = random.Random(int(self.np_random.integers(0, 2**63 - 1)))
        self.state = self._settle(self.game.new_initial_state())
        self.steps = 0
        self.started = True

    def _settle(self, state: State) -> State:
        # Nature's moves are not the agents' business: resolve them until someone decides.
        while state.kind is NodeKind.CHANCE:
            state = state.apply_unchecked({CHANCE_SEAT: state.sample_chance(self.chance)})
        return state

    def acting(self) -> tuple[int, ...]:
        """Seats that choose now (none once the game is over)."""
        if self.state.kind is NodeKind.TERMINAL:
            return ()
        return self.state.acting_seats()

    def play(self, joint: dict[int, int]) -> None:
        """Apply a validated joint action, then resolve chance."""
        self.state = self._settle(self.state.apply_unchecked(joint))
        self.steps += 1

    @property
    def terminal(self) -> bool:
        """True when the game is over by its rules."""
        return self.state.is_terminal()

    @property
    def truncated(self) -> bool:
        """True when ``max_steps`` turns were played and the game goes on."""
        return not self.terminal and self.max_steps is not None and self.steps >= self.max_steps

    def observation(self, seat: int, may_act: bool) -> ObsDict:
        """The observation dict of ``seat``; its mask is all zeros unless ``may_act``."""
        if may_act:
            mask = action_mask(self.game, self.state, seat)
        else:
            mask = np.zeros(self.game.info.num_distinct_actions, dtype=np.int8)
        return {"observation": observe(self.game, self.state, seat), "action_mask": mask}

    def render(self, mode: str | None) -> str | None:
        """The whole state as text (hidden parts included), printed in ``human`` mode."""
        if mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        text = str(self.state)
        if mode == "human":
            print(text)
            return None
        return text


class _SeatEnv:
    """What both environments share: the game, one space per agent, the table, rendering."""

    def _setup(
        self, game: Game, render_mode: str | None, max_steps: int | None, illegal: str
    ) -> None:
        _check_modes(illegal, render_mode, max_steps)
        self.game = game
        self.render_mode = render_mode
        self.illegal = illegal
        self.metadata = {
            "name": f"taut_{game.info.name.replace('-', '_')}_v0",
            "render_modes": list(RENDER_MODES),
            "is_parallelizable": True,
            "render_fps": 4,
        }
        self.possible_agents: list[str] = list(game.info.seats)
        self.agents: list[str] = []
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        # One space object per agent, so that seeding one agent's space leaves the others.
        self._obs_spaces = {a: observation_space(game) for a in self.possible_agents}
        self._act_spaces = {
            a: gymnasium.spaces.Discrete(game.info.num_distinct_actions)
            for a in self.possible_agents
        }
        self._table = _Table(game, max_steps)

    @property
    def game_state(self) -> State:
        """The full game state (hidden parts included): for analysis, not for agents."""
        return self._table.state

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        """The observation space of ``agent`` (the same object on every call)."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        """``Discrete(num_distinct_actions)``: the game's action ids."""
        return self._act_spaces[agent]

    def render(self) -> str | None:
        """The game's text diagram of the whole state (``ansi``), or print it (``human``)."""
        return self._table.render(self.render_mode)

    def close(self) -> None:
        """Nothing to release."""


class TautParallelEnv(_SeatEnv, ParallelEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """A taut game as a PettingZoo ``ParallelEnv`` (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal: str = "raise",
    ) -> None:
        self._setup(game, render_mode, max_steps, illegal)

    def _observations(self, live: bool) -> dict[str, ObsDict]:
        acting = set(self._table.acting()) if live else set()
        return {a: self._table.observation(i, i in acting) for a, i in self._index.items()}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Start a new game; ``options`` is accepted for the API and ignored."""
        self._table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observations(True), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Apply the acting agents' actions (others are ignored) and resolve chance."""
        if not self._table.started:
            raise ValueError("call reset() before step()")
        if not self.agents:
            raise ValueError("the episode is over; call reset() to play again")
        unknown = [a for a in actions if a not in self._index]
        if unknown:
            raise ValueError(
                f"unknown agent(s) {', '.join(map(str, unknown))}; "
                f"agents are {', '.join(self.possible_agents)}"
            )
        table = self._table
        joint: dict[int, int] = {}
        offenders: dict[int, Any] = {}
        for seat in table.acting():
            name = self.possible_agents[seat]
            if name not in actions:
                acting = ", ".join(self.possible_agents[s] for s in table.acting())
                raise ValueError(f"no action for {name}, which acts now (acting: {acting})")
            try:
                joint[seat] = check_action(table.state, seat, actions[name])
            except ValueError:
                if self.illegal == "raise":
                    raise
                offenders[seat] = actions[name]
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if offenders:
            low = self.game.info.min_utility
            rewards = {a: (low if i in offenders else 0.0) for a, i in self._index.items()}
            for seat, action in offenders.items():
                infos[self.possible_agents[seat]]["illegal_action"] = action
            done, cut = True, False
        else:
            table.play(joint)
            done, cut = table.terminal, table.truncated
            returns = table.state.returns() if done else None
            rewards = {
                a: (float(returns[i]) if returns is not None else 0.0)
                for a, i in self._index.items()
            }
            if done:
                for info in infos.values():
                    info["outcome"] = table.state.describe_outcome()
        observations = self._observations(not (done or cut))
        terminations = {a: done for a in self.agents}
        truncations = {a: cut for a in self.agents}
        if done or cut:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos


class TautAECEnv(_SeatEnv, AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """A taut game as a PettingZoo ``AECEnv`` (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal: str = "raise",
    ) -> None:
        super().__init__()
        self._setup(game, render_mode, max_steps, illegal)
        self._pending: dict[int, int] = {}
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = self.possible_agents[0]

    def _waiting(self) -> list[int]:
        """Acting seats that have not chosen yet this turn, in seat order."""
        return [s for s in self._table.acting() if s not in self._pending]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``options`` is accepted for the API and ignored."""
        self._table.reset(seed)
        self._pending = {}
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        waiting = self._waiting()
        if waiting:
            self.agent_selection = self.possible_agents[waiting[0]]
        else:  # a game over before anyone moves (a position, not a start): all are done
            self.agent_selection = self.possible_agents[0]
            self._finish(terminated=True)

    def observe(self, agent: str) -> ObsDict:
        """The observation of ``agent``; its mask is all zeros unless it is selected now."""
        seat = self._index[agent]
        may_act = (
            agent == self.agent_selection
            and not (self.terminations.get(agent) or self.truncations.get(agent))
            and seat in self._waiting()
        )
        return self._table.observation(seat, may_act)

    def step(self, action: Any) -> None:
        """Record the selected agent's action; apply the turn once every acting seat chose."""
        if not self._table.started:
            raise ValueError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table
        seat = self._index[agent]
        try:
            chosen: int | None = check_action(table.state, seat, action)
        except ValueError:
            if self.illegal == "raise":
                raise
            chosen = None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if chosen is None:
            low = self.game.info.min_utility
            self.rewards[agent] = low
            self.infos[agent] = {"illegal_action": action}
            self._finish(terminated=True)
        else:
            self._pending[seat] = chosen
            waiting = self._waiting()
            if waiting:
                self.agent_selection = self.possible_agents[waiting[0]]
            else:
                table.play(self._pending)
                self._pending = {}
                if table.terminal:
                    returns = table.state.returns()
                    for a, i in self._index.items():
                        self.rewards[a] = float(returns[i])
                    for a in self.agents:
                        self.infos[a] = {"outcome": table.state.describe_outcome()}
                    self._finish(terminated=True)
                elif table.truncated:
                    self._finish(terminated=False)
                else:
                    self.agent_selection = self.possible_agents[self._waiting()[0]]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self, terminated: bool) -> None:
        # Every agent is done; agent_selection stays put and _was_dead_step walks the dead.
        self._pending = {}
        for a in self.agents:
            if terminated:
                self.terminations[a] = True
            else:
                self.truncations[a] = True


def parallel_env(
    game: str | Game,
    *,
    render_mode: str | None = None,
    max_steps: int | None = None,
    illegal: str = "raise",
    **options: Any,
) -> TautParallelEnv:
    """A PettingZoo ``ParallelEnv`` for ``game`` built with the game's ``options``.

    ``max_steps`` truncates an episode after that many turns; ``illegal`` is ``"raise"``
    (ValueError) or ``"lose"`` (the episode ends, the offender gets the lowest utility).
    """
    return TautParallelEnv(_game(game, options), render_mode, max_steps, illegal)


def env(
    game: str | Game,
    *,
    render_mode: str | None = None,
    max_steps: int | None = None,
    illegal: str = "raise",
    **options: Any,
) -> TautAECEnv:
    """A PettingZoo ``AECEnv`` for ``game``: ``agent_selection`` is always a seat that acts.

    Arguments as for :func:`parallel_env`.
    """
    return TautAECEnv(_game(game, options), render_mode, max_steps, illegal)


__all__ = [
    "ILLEGAL_MODES",
    "RENDER_MODES",
    "TautAECEnv",
    "TautParallelEnv",
    "env",
    "observation_space",
    "parallel_env",
]
