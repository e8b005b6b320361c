"""The OpenSpiel game and state that wrap any taut game: :class:`TautGame`, :class:`TautState`.

The game's OpenSpiel type and info are read from the taut game's
:class:`~taut.core.terms.GameInfo` and its plugin (player range, game length, position keys);
nothing here depends on a particular game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import pyspiel

from taut.core.game import Game, State
from taut.core.plugin import NOMINAL_TURNS
from taut.core.registry import make, plugin_of
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.interop.openspiel.observer import TautObserver
from taut.interop.openspiel.parameters import defaults, taut_options

#: The one legal action of a seat that does not act at a simultaneous node.
NO_MOVE = 0
#: How :data:`NO_MOVE` is written.
NO_MOVE_STRING = "(no move)"

_INVALID_ACTION = int(pyspiel.INVALID_ACTION)


# -- what the game's plugin says ------------------------------------------------------------


def max_game_length(game: Game) -> int:
    """The ``max_game_length`` reported to OpenSpiel: a bound on the decision nodes of a game
    (a joint move counts once), or a nominal one where the game has none (its plugin's
    :meth:`~taut.core.plugin.GamePlugin.max_game_length`; :data:`NOMINAL_TURNS` by default)."""
    return plugin_of(game).max_game_length(game)


def state_key(state: State) -> str:
    """A string that identifies ``state``'s position (the OpenSpiel ``str(state)``): its
    plugin's :meth:`~taut.core.plugin.GamePlugin.state_key` (compact JSON by default)."""
    return plugin_of(state.game).state_key(state)


def player_range(game: Game) -> tuple[int, int]:
    """The fewest and most players that options of ``game``'s kind can give (its plugin's
    :meth:`~taut.core.plugin.GamePlugin.seats_possible`, widened to ``game``'s own count)."""
    low, high = plugin_of(game).seats_possible()
    n = game.info.num_seats
    return min(low, n), max(high, n)


def game_type(short_name: str, game: Game) -> Any:
    """The ``pyspiel.GameType`` of ``game`` registered or loaded as ``short_name``."""
    info = game.info
    dyn = pyspiel.GameType.Dynamics
    chance = pyspiel.GameType.ChanceMode
    information = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
    min_players, max_players = player_range(game)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"taut {info.title}",
        dynamics=dyn.SIMULTANEOUS if info.simultaneous else dyn.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if info.chance else chance.DETERMINISTIC,
        information=(
            information.PERFECT_INFORMATION
            if info.perfect_information
            else information.IMPERFECT_INFORMATION
        ),
        utility=utility.ZERO_SUM if info.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=info.perfect_information,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults(type(game)),
    )


# -- the game ---------------------------------------------------------------------------------


class TautGame(pyspiel.Game):  # type: ignore[misc]
    """A taut game as an OpenSpiel game (created by ``pyspiel.load_game``).

    ``taut_game`` is the taut :class:`~taut.core.game.Game` with the options the parameters
    give; its metadata fills the OpenSpiel game type and game info. Registration makes one
    subclass per game, setting :attr:`taut_name` and :attr:`short_name`.
    """

    #: The taut name of the game.
    taut_name: ClassVar[str] = ""
    #: The OpenSpiel name of the game.
    short_name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.taut_game: Game = self.make_taut_game(given)
        info = self.taut_game.info
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.num_chance_outcomes,
            num_players=info.num_seats,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=0.0 if info.zero_sum else None,
            max_game_length=max_game_length(self.taut_game),
        )
        full: dict[str, Any] = dict(defaults(type(self.taut_game)))
        full.update(given)
        super().__init__(game_type(self.short_name, self.taut_game), game_info, full)
        # Taut states are values, so every new game shares one initial state.
        self._initial = self.taut_game.new_initial_state()

    def make_taut_game(self, params: Mapping[str, Any]) -> Game:
        """The taut game for OpenSpiel parameters ``params``."""
        return make(self.taut_name, **taut_options(self.taut_name, params))

    def new_initial_state(self, data: str | Mapping[str, Any] | None = None) -> TautState:
        """The start of a game, or (given the JSON of a taut position, as text or a dict) a
        game starting from that position."""
        if data is None:
            return TautState(self, self._initial)
        position = json.loads(data) if isinstance(data, str) else dict(data)
        return TautState(self, self.taut_game.state_from_json(position))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TautObserver:
        """An observer for ``iig_obs_type`` (default: the seat's current observation)."""
        if isinstance(iig_obs_type, Mapping):  # called with the parameters only
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return TautObserver(self.taut_game, iig_obs_type)


# -- the state --------------------------------------------------------------------------------


class _Held:
    """Holds an immutable taut state: copying the holder shares the state (taut states are
    values), and pickling it writes the game's options and the state's JSON."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return self

    def __copy__(self) -> _Held:
        return self

    def __reduce__(self) -> tuple[Callable[..., _Held], tuple[str, dict[str, Any], str]]:
        game = self.state.game
        return (_restore, (game.info.name, dict(game.options), json.dumps(self.state.to_json())))


def _restore(name: str, options: dict[str, Any], data: str) -> _Held:
    """Rebuild a :class:`_Held` from what its ``__reduce__`` wrote."""
    return _Held(make(name, **options).state_from_json(json.loads(data)))


class TautState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an immutable taut state (:attr:`taut_state`)."""

    def __init__(self, game: TautGame, state: State) -> None:
        super().__init__(game)
        self._held = _Held(state)

    @property
    def taut_state(self) -> State:
        """The taut state at this point of the game."""
        return self._held.state

    # -- who acts -----------------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to move, or ``PlayerId.SIMULTANEOUS`` / ``CHANCE`` / ``TERMINAL``."""
        state = self._held.state
        kind = state.kind
        if kind is NodeKind.DECISION:
            return state.acting_seats()[0]
        if kind is NodeKind.SIMULTANEOUS:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        if kind is NodeKind.CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self._held.state.is_terminal()

    def returns(self) -> list[float]:
        """Each player's result (zeros until the game is over)."""
        return [float(r) for r in self._held.state.returns()]

    # -- actions ----------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        """Legal actions of ``player``, ascending; ``[NO_MOVE]`` for a seat that sits out a
        simultaneous node."""
        state = self._held.state
        if state.kind is NodeKind.SIMULTANEOUS and player not in state.acting_seats():
            return [NO_MOVE]
        return list(state.legal_actions(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` pairs at a chance node, ascending by outcome."""
        return sorted(self._held.state.chance_outcomes())

    def _apply_action(self, action: int) -> None:
        """Apply one seat's action or a chance outcome."""
        self._held = _Held(self._held.state.apply(int(action)))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        """Apply a joint action: one action per player, ``NO_MOVE`` (or
        ``pyspiel.INVALID_ACTION``) for seats sitting out."""
        state = self._held.state
        acting = state.acting_seats()
        for seat, action in enumerate(actions):
            if seat not in acting and int(action) not in (NO_MOVE, _INVALID_ACTION):
                raise ValueError(
                    f"{state.seat_name(seat)} does not act here; its action must be {NO_MOVE}"
                )
        joint = {seat: int(actions[seat]) for seat in acting}
        self._held = _Held(state.apply(joint))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's notation (chance outcomes too)."""
        state = self._held.state
        if player == int(pyspiel.PlayerId.CHANCE):
            return state.action_to_string(CHANCE_SEAT, int(action))
        if state.kind is NodeKind.SIMULTANEOUS and player not in state.acting_seats():
            return NO_MOVE_STRING
        return state.action_to_string(player, int(action))

    def __str__(self) -> str:
        """The position key of :func:`state_key`."""
        return state_key(self._held.state)


__all__ = [
    "NOMINAL_TURNS",
    "NO_MOVE",
    "NO_MOVE_STRING",
    "TautGame",
    "TautState",
    "game_type",
    "max_game_length",
    "player_range",
    "state_key",
]
