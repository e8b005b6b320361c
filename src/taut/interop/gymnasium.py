"""A Gymnasium environment for one seat of a taut game, the other seats played by agents.

``make(name, seat=1, opponents="greedy", **options)`` builds a ``gymnasium.Env`` in which the
learner plays one seat and fixed taut agents (``taut.agents.make_agent`` specs, or
``Agent`` objects) play all the others. Every step is one decision of the learner: the
environment then plays the opponents and resolves chance (deals, draws, dice) until the
learner must choose again or the game is over. At a simultaneous node the opponents choose
from their own views of the same state, never seeing the learner's choice.

* Action space: ``Discrete(game.info.num_distinct_actions)``, the game's own action ids.
* Observation space: ``Dict({"observation": Box(float32), "action_mask": Box(int8)})``.
  ``"observation"`` is :func:`taut.interop.encoding.observe` of the learner's view;
  ``"action_mask"`` has a 1 for each legal action now. :meth:`TautEnv.action_masks`
  returns the same mask as booleans (the hook that maskable policies look for).
* Reward: 0 until the game ends, then the learner's return (``state.returns()``, e.g.
  +1 / -1 / 0). ``terminated`` is True when the game is over, ``truncated``
  when ``max_steps`` decisions were taken first.
* An illegal action raises ``ValueError`` naming the action and the legal ones
  (``illegal="raise"``, the default). With ``illegal="lose"`` it ends the episode instead,
  with the game's lowest utility as reward and ``info["illegal_action"]`` set.
  ``gymnasium.utils.env_checker.check_env`` steps with actions drawn without the mask, so
  run it with ``illegal="lose"``.
* Seeding: ``reset(seed=s)`` seeds chance and every opponent; the same seed and the same
  actions give the same episode. ``reset()`` without a seed continues the generator.

Importing this module registers every game the registry knows for ``gymnasium.make``, each
under its plugin's :attr:`~taut.core.plugin.GamePlugin.env_id` (``taut/`` and the game's
name in CamelCase, ``-v0``); keyword arguments are passed on to :func:`make`. A game added to
the registry later is registered with :func:`register`; :func:`env_ids` lists the ids.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt

from taut.agents import Agent, make_agent
from taut.core.game import Game, State
from taut.core.registry import make as make_game
from taut.core.registry import plugin
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.interop.encoding import action_mask, check_action, observation_layout, observe
from taut.interop.plugins import available_plugins

ObsDict = dict[str, npt.NDArray[Any]]
"""The learner's observation: ``{"observation": float32 vector, "action_mask": int8}``."""

#: What an illegal action does: raise ValueError, or end the episode as a loss.
ILLEGAL_MODES = ("raise", "lose")
#: Render modes: ``ansi`` returns the game's text diagram, ``human`` prints it.
RENDER_MODES = ("ansi", "human")
# The Gymnasium id registered for each taut game name.
_REGISTERED: dict[str, str] = {}

OpponentSpec = str | Agent


class TautEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One seat of a taut game against fixed agents (see the module docstring)."""

    # A text diagram has no frame rate; render_fps only tells wrappers how fast to show it.
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: Game,
        seat: int | str = 0,
        opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
        render_mode: str | None = None,
        max_steps: int | None = None,
        illegal: str = "raise",
    ) -> None:
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, got {illegal!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}"
            )
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1 (or None), got {max_steps}")
        self.game = game
        try:
            self.seat: int = game.seat_index(seat)
        except ValueError:
            raise ValueError(
                f"{game.info.title} has no seat {seat!r}; seats are "
                f"{', '.join(game.info.seats)} (or 0..{game.info.num_seats - 1})"
            ) from None
        self.opponents: dict[int, Agent] = _opponents(game, self.seat, opponents)
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.illegal = illegal
        lay = observation_layout(game)
        n = game.info.num_distinct_actions
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    low=lay.low.copy(), high=lay.high.copy(), shape=(lay.size,), dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(0, 1, shape=(n,), dtype=np.int8),
            }
        )
        self.action_space = gymnasium.spaces.Discrete(n)
        self.state: State = game.new_initial_state()
        self.steps = 0
        self._chance = random.Random(0)
        self._agent_rngs: dict[int, random.Random] = {}
        self._started = False
        self._done = False

    # -- episode ---------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Start a new game and play until the learner's first decision."""
        super().reset(seed=seed)
        # The engine and the agents take random.Random: derive them from np_random.
        self._chance = random.Random(self._draw_seed())
        self._agent_rngs = {s: random.Random(self._draw_seed()) for s in sorted(self.opponents)}
        self.steps = 0
        self._started = True
        self.state = self._advance(self.game.new_initial_state())
        self._done = self.state.is_terminal()
        if self.render_mode == "human":
            self.render()
        return self._observation(), {}

    def _draw_seed(self) -> int:
        return int(self.np_random.integers(0, 2**63 - 1))

    def _advance(self, state: State) -> State:
        """Play chance and the opponents until the learner acts or the game ends."""
        while True:
            kind = state.kind
            if kind is NodeKind.TERMINAL:
                return state
            if kind is NodeKind.CHANCE:
                state = state.apply_unchecked({CHANCE_SEAT: state.sample_chance(self._chance)})
                continue
            acting = state.acting_seats()
            if self.seat in acting:
                return state
            state = state.apply(self._opponent_moves(state, acting))

    def _opponent_moves(self, state: State, acting: Sequence[int]) -> dict[int, int]:
        joint: dict[int, int] = {}
        for s in acting:
            if s != self.seat:
                joint[s] = self.opponents[s].act(state.view(s), s, self._agent_rngs[s])
        return joint

    def step(self, action: Any) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's ``action``, then the opponents and chance."""
        if not self._started:
            raise ValueError("call reset() before step()")
        if self._done:
            raise ValueError("the episode is over; call reset() to play again")
        state = self.state
        try:
            chosen = check_action(state, self.seat, action)
        except ValueError:
            if self.illegal == "raise":
                raise
            self._done = True
            info: dict[str, Any] = {"illegal_action": action}
            return self._observation(), float(self.game.info.min_utility), True, False, info
        joint = self._opponent_moves(state, state.acting_seats())
        joint[self.seat] = chosen
        self.state = self._advance(state.apply(joint))
        self.steps += 1
        terminated = self.state.is_terminal()
        truncated = not terminated and self.max_steps is not None and self.steps >= self.max_steps
        self._done = terminated or truncated
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        info = {"outcome": self.state.describe_outcome()} if terminated else {}
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, info

    # -- observations ----------------------------------------------------------------------

    def _observation(self) -> ObsDict:
        if self._done:
            mask = np.zeros(self.game.info.num_distinct_actions, dtype=np.int8)
        else:
            mask = action_mask(self.game, self.state, self.seat)
        return {"observation": observe(self.game, self.state, self.seat), "action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now as booleans (all False once the episode is over)."""
        if self._done or not self._started:
            return np.zeros(self.game.info.num_distinct_actions, dtype=np.bool_)
        return action_mask(self.game, self.state, self.seat).astype(np.bool_)

    def legal_actions(self) -> list[int]:
        """The learner's legal action ids now, ascending."""
        if self._done or not self._started:
            return []
        return list(self.state.legal_actions(self.seat))

    def render(self) -> str | None:
        """The game's text diagram of the learner's view (``ansi``), or print it (``human``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode")
            return None
        text = str(self.state.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponents(
    game: Game, seat: int, spec: OpponentSpec | Sequence[OpponentSpec]
) -> dict[int, Agent]:
    others = [s for s in range(game.info.num_seats) if s != seat]
    if isinstance(spec, str | Agent):
        specs: list[OpponentSpec] = [spec] * len(others)
    else:
        specs = list(spec)
        if len(specs) != len(others):
            names = ", ".join(game.info.seats[s] for s in others)
            raise ValueError(
                f"{len(specs)} opponent(s) given for {len(others)} other seat(s) ({names}); "
                "give one agent per other seat, in seat order, or a single spec for all"
            )
    return {
        s: make_agent(a) if isinstance(a, str) else a for s, a in zip(others, specs, strict=True)
    }


def make(
    game: str | Game,
    seat: int | str = 0,
    opponents: OpponentSpec | Sequence[OpponentSpec] = "random",
    *,
    render_mode: str | None = None,
    max_steps: int | None = None,
    illegal: str = "raise",
    **options: Any,
) -> TautEnv:
    """A single-agent environment: ``seat`` of ``game`` (built with ``options``) against
    ``opponents`` (one spec or agent for every other seat, or one per other seat in seat
    order)."""
    if isinstance(game, Game):
        if options:
            raise ValueError("pass game options to taut.make, not with a game object")
        built = game
    else:
        built = make_game(game, **options)
    return TautEnv(built, seat, opponents, render_mode, max_steps, illegal)


def register(name: str) -> str:
    """Register taut game ``name`` for ``gymnasium.make`` under its plugin's ``env_id`` (once);
    returns the id. For a game added to the registry after this module was imported."""
    env_id = plugin(name).env_id
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point=f"{__name__}:make", kwargs={"game": name})
    _REGISTERED[name] = env_id
    return env_id


def env_ids() -> dict[str, str]:
    """The Gymnasium ids registered by this module, each with the taut game it plays."""
    return {env_id: name for name, env_id in sorted(_REGISTERED.items())}


def _register_all() -> None:
    for found in available_plugins():
        register(found.name)


_register_all()

__all__ = ["ILLEGAL_MODES", "RENDER_MODES", "TautEnv", "env_ids", "make", "register"]
