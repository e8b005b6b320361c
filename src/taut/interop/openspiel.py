"""OpenSpiel adapter: every taut game as a pyspiel Python game.

Importing this module registers four games with ``pyspiel``::

    import pyspiel
    import taut.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("taut_push_pull")                     # the duel
    game = pyspiel.load_game("taut_push_pull", {"variant": "four"})
    game = pyspiel.load_game("taut_tug_of_war(players=4,round_score=total)")

=========================  =================  ==========================================
OpenSpiel name             taut game          kind
=========================  =================  ==========================================
``taut_pulling_strings``   pulling-strings    simultaneous, deterministic, perfect info
``taut_push_pull``         push-pull          simultaneous, deterministic, perfect info
``taut_tug_of_war``        tug-of-war         sequential, explicit chance, hidden hands
``taut_tracks``            tracks             sequential, explicit chance, perfect info
=========================  =================  ==========================================

**Parameters.** Every option of the taut game is a game parameter with the same default.
A dash becomes an underscore (``round-score`` is ``round_score``). OpenSpiel parameters
cannot be ``None``, so an option whose value may be ``none`` takes a stand-in value:
``0`` for a number that is otherwise at least 1 (``max_turns``, ``hand``) or a choice of
positive numbers (``set``), ``-1`` for a number without bounds (``seed``; negative seeds
are not available here), and ``""`` for text (``letters``, ``teams``). :func:`parameters`
lists the parameters of a game with their defaults, and :func:`taut_options` turns
parameters into taut options.

**Game types** are read from the game's :class:`~taut.core.game.GameInfo`, per instance:
``SIMULTANEOUS`` dynamics when the game has simultaneous nodes, ``EXPLICIT_STOCHASTIC``
chance when it has chance nodes, ``IMPERFECT_INFORMATION`` when a view hides something,
``ZERO_SUM`` utility when the returns always add up to zero (every game and variant but
Push-Pull ``four``, whose winners may share, which is ``GENERAL_SUM``), and a terminal
reward. The registered type (what ``pyspiel.registered_games()`` shows) is the default
instance's, with the player range of the game (2 to 4 for Push-Pull, 2 to 8 for Tug of War).

**Actions** keep taut's dense ids, and ``action_to_string`` is the game's own notation
(``c`` for a Pulling Strings pull, ``L=pull,M=push,S=pass`` for Push-Pull, ``3-5@1.0`` for
Tug of War, ``c3`` for Track Tiles; chance outcomes as the game writes them, e.g. die faces
``1``..``6``). Chance outcomes and their probabilities are taut's.

**Simultaneous nodes.** OpenSpiel wants an action from every player at a simultaneous node.
In the current games every seat acts at every simultaneous node (a Push-Pull piece that has
left the board is simply passed on: its part of every action is "pass"). Should a game leave
a seat out of a simultaneous node, that seat gets the single legal action
:data:`NO_MOVE` (id 0, written ``"(no move)"``), which is ignored when the joint action is
applied (``pyspiel.INVALID_ACTION``, which some OpenSpiel tools send for a player without
moves, is accepted in its place).

**Game length.** OpenSpiel needs a finite ``max_game_length`` (decision nodes along a game;
a joint move counts once). Track Tiles is bounded by its cells, and a game with a
``max_turns`` limit by that limit. Without a limit Pulling Strings and Push-Pull can go on
for ever (pieces and stacks can move back and forth), and Tug of War can in principle play
any number of rounds (scores swing, and ties call extra rounds), so a nominal bound is
reported: :data:`NOMINAL_TURNS` turns, or for Tug of War :data:`NOMINAL_ROUNDS` rounds of the
most decisions a round can take. Random play stays far below these, but the games
themselves do not stop there; set ``max_turns`` where a hard bound matters.

**State strings.** ``str(state)`` identifies the position and nothing else, so that
OpenSpiel's state enumeration (``get_all_states``, ``value_iteration`` with
``cyclic_game=True``) treats a position reached along different lines as one state. For
Push-Pull it is the position key of the pieces (``"2,W,3"`` in the duel, as in
:func:`taut.solve.push_pull.duel_position_key`; ``"2:2"`` is row 2, column 2 on the board),
with the turn when ``max_turns`` is set and the outcome once the game is over. The other
games use the state's JSON (``state.to_json()``, sorted and compact; Pulling Strings leaves
out the turn when there is no turn limit). ``state.taut_state`` is the taut state itself,
whose ``str`` is the game's diagram.

**Observations** come from :mod:`taut.interop.encoding`, built from ``state.view(seat)``
only: the tensor is ``encoding.observe`` (with one named piece per encoding field in
``observer.dict``) and the string ``encoding.observation_string``. A public observer
(``private_info=NONE``) sees what a spectator sees (``state.view(None)``); for Tug of War it
has a string only. Perfect-recall observers (information states) are offered for the
perfect-information games, as the history of actions; Tug of War has none.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pyspiel

import taut
from taut.core.game import CHANCE_SEAT, Game, NodeKind, State
from taut.core.options import OptionSpec, OptionValue
from taut.core.registry import game_class
from taut.interop import encoding

__all__ = [
    "GAMES",
    "GAME_CLASSES",
    "NOMINAL_ROUNDS",
    "NOMINAL_TURNS",
    "NO_MOVE",
    "NO_MOVE_STRING",
    "ParameterSpec",
    "PullingStringsGame",
    "PushPullGame",
    "TautGame",
    "TautObserver",
    "TautState",
    "TracksGame",
    "TugOfWarGame",
    "max_game_length",
    "parameters",
    "register",
    "state_key",
    "taut_options",
]

#: The OpenSpiel name of each taut game.
GAMES: dict[str, str] = {
    "pulling-strings": "taut_pulling_strings",
    "push-pull": "taut_push_pull",
    "tug-of-war": "taut_tug_of_war",
    "tracks": "taut_tracks",
}

#: ``max_game_length`` reported for a simultaneous game without a ``max_turns`` limit.
NOMINAL_TURNS = 10_000
#: Rounds assumed by Tug of War's nominal ``max_game_length``.
NOMINAL_ROUNDS = 1_000
#: The one legal action of a seat that does not act at a simultaneous node.
NO_MOVE = 0
#: How :data:`NO_MOVE` is written.
NO_MOVE_STRING = "(no move)"

ParamValue = bool | int | str
_INVALID_ACTION = int(pyspiel.INVALID_ACTION)


# -- parameters ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParameterSpec:
    """One OpenSpiel game parameter and the taut option it sets."""

    name: str
    """The parameter name (the option's name with ``-`` written ``_``)."""
    option: OptionSpec
    default: ParamValue
    """The parameter's default: the option's default, or :attr:`none` for ``None``."""
    none: ParamValue | None
    """The value that stands for ``None`` (None when the option cannot be ``None``)."""

    def to_option(self, value: Any) -> OptionValue:
        """The taut option value for a parameter value (checked by the game later)."""
        if self.none is not None and value == self.none and type(value) is type(self.none):
            return None
        kind = self.option.kind
        if kind is bool:
            if not isinstance(value, bool):
                raise ValueError(f"parameter {self.name!r} must be true or false, got {value!r}")
            return value
        if kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"parameter {self.name!r} must be an integer, got {value!r}")
            return value
        if not isinstance(value, str):
            raise ValueError(f"parameter {self.name!r} must be text, got {value!r}")
        return value


def _none_value(spec: OptionSpec) -> ParamValue:
    """The stand-in for ``None`` of a nullable option."""
    if spec.kind is str:
        return ""
    if spec.kind is int:
        positive = (spec.minimum is not None and spec.minimum >= 1) or (
            bool(spec.choices) and all(isinstance(c, int) and c >= 1 for c in spec.choices)
        )
        return 0 if positive else -1
    raise TypeError(f"option {spec.name!r}: no stand-in for none of kind {spec.kind.__name__}")


def _parameter(spec: OptionSpec) -> ParameterSpec:
    none = _none_value(spec) if spec.nullable else None
    default: OptionValue = spec.default
    if default is None:
        assert none is not None  # a None default needs a nullable option
        return ParameterSpec(spec.name.replace("-", "_"), spec, none, none)
    return ParameterSpec(spec.name.replace("-", "_"), spec, default, none)


@functools.cache
def _parameters_of(cls: type[Game]) -> tuple[ParameterSpec, ...]:
    return tuple(_parameter(spec) for spec in cls.OPTIONS)


def parameters(name: str) -> tuple[ParameterSpec, ...]:
    """The OpenSpiel parameters of taut game ``name``, in the order of its options."""
    return _parameters_of(game_class(name))


def taut_options(name: str, params: Mapping[str, Any]) -> dict[str, OptionValue]:
    """The taut options of game ``name`` for OpenSpiel parameters (missing ones: defaults).

    Raises ValueError for an unknown parameter or a value of the wrong type; the game
    itself checks the values (:class:`~taut.core.errors.InvalidOptionError`).
    """
    specs = {p.name: p for p in parameters(name)}
    unknown = sorted(set(params) - set(specs))
    if unknown:
        allowed = ", ".join(specs) or "none"
        raise ValueError(
            f"{GAMES.get(name, name)} has no parameter {unknown[0]!r}; its parameters: {allowed}"
        )
    out: dict[str, OptionValue] = {}
    for pname, spec in specs.items():
        out[spec.option.name] = spec.to_option(params.get(pname, spec.default))
    return out


# -- game length and state keys -----------------------------------------------------------------


def max_game_length(game: Game) -> int:
    """The ``max_game_length`` reported to OpenSpiel: a bound on the decision nodes of a game
    (a joint move counts once), or a nominal one where the game has none (module docstring)."""
    name = game.info.name
    if name == "tracks":
        size = int(str(game.options["size"]))
        return size * size
    if name == "tug-of-war":
        from taut.games.tug_of_war.rules import TugOfWar

        assert isinstance(game, TugOfWar)
        tiles, n = game.dominoes.size, game.num_players
        # One round: at most a play per tile, a draw and a pass after it per boneyard tile,
        # fewer than n passes in a row between plays with the boneyard empty, and the
        # bonus steps (one per opponent and the keep step).
        per_round = tiles + 2 * tiles + n * (tiles + 1) + n
        return per_round * NOMINAL_ROUNDS
    bound = game.info.max_game_length
    return NOMINAL_TURNS if bound is None else bound


def _compact(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def state_key(state: State) -> str:
    """A string that identifies ``state``'s position (the OpenSpiel ``str(state)``).

    Push-Pull: the pieces' locations in the order L, M, S (``"2,W,3"``; ``"2:2"`` for row
    2, column 2 on the board), then ``turn T`` when the game has a turn limit, then the
    outcome once it is over. Pulling Strings: the JSON without the turn unless there is a
    turn limit. Other games: the JSON of the state.
    """
    game = state.game
    name = game.info.name
    if name == "push-pull":
        from taut.games.push_pull.rules import PushPull, PushPullState

        assert isinstance(game, PushPull) and isinstance(state, PushPullState)
        parts = []
        for loc in state.locs:
            where = game.location_to_json(loc)
            parts.append(f"{where[0]}:{where[1]}" if isinstance(where, list) else str(where))
        key = ",".join(parts)
        if game.max_turns is not None:
            key += f" turn {state.turn}"
        if state.is_terminal():
            key += f" ({state.describe_outcome()})"
        return key
    data = state.to_json()
    if name == "pulling-strings" and game.options.get("max_turns") is None:
        data = {k: v for k, v in data.items() if k != "turn"}
    return _compact(data)


# -- games and states ---------------------------------------------------------------------------


def _game_type(short_name: str, game: Game, min_players: int, max_players: int) -> Any:
    info = game.info
    dyn = pyspiel.GameType.Dynamics
    chance = pyspiel.GameType.ChanceMode
    information = pyspiel.GameType.Information
    utility = pyspiel.GameType.Utility
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
        parameter_specification={p.name: p.default for p in _parameters_of(type(game))},
    )


def _player_range(game: Game) -> tuple[int, int]:
    """The fewest and most players that options of ``game``'s kind can give."""
    name = game.info.name
    if name == "push-pull":
        return 2, 4
    if name == "tug-of-war":
        spec = next(s for s in type(game).OPTIONS if s.name == "players")
        assert spec.minimum is not None and spec.maximum is not None
        return spec.minimum, spec.maximum
    return game.info.num_seats, game.info.num_seats


class TautGame(pyspiel.Game):  # type: ignore[misc]
    """A taut game as an OpenSpiel game (created by ``pyspiel.load_game``).

    ``taut_game`` is the taut :class:`~taut.core.game.Game` with the options the parameters
    give; its metadata fills the OpenSpiel game type and game info.
    """

    #: The taut name of the game (set by each game's subclass).
    taut_name: ClassVar[str] = ""
    #: The OpenSpiel name of the game (set by each game's subclass).
    short_name: ClassVar[str] = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.taut_game: Game = self.make_taut_game(given)
        info = self.taut_game.info
        game_type = _game_type(self.short_name, self.taut_game, *_player_range(self.taut_game))
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=info.num_chance_outcomes,
            num_players=info.num_seats,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=0.0 if info.zero_sum else None,
            max_game_length=max_game_length(self.taut_game),
        )
        full: dict[str, Any] = {p.name: p.default for p in _parameters_of(type(self.taut_game))}
        full.update(given)
        super().__init__(game_type, game_info, full)
        # Taut states are values, so every new game shares one initial state.
        self._initial = self.taut_game.new_initial_state()

    def make_taut_game(self, params: Mapping[str, Any]) -> Game:
        """The taut game for OpenSpiel parameters ``params``."""
        return taut.make(self.taut_name, **taut_options(self.taut_name, params))

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
    return _Held(taut.make(name, **options).state_from_json(json.loads(data)))


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


# -- observations -------------------------------------------------------------------------------


class TautObserver:
    """The Python observer OpenSpiel asks for observations (``set_from``, ``string_from``).

    ``tensor`` is :func:`taut.interop.encoding.observe` of the state for the player (None
    where this kind of observation has no tensor), and ``dict`` holds one named view of it
    per encoding field.
    """

    def __init__(self, game: Game, iig_obs_type: Any) -> None:
        self.game = game
        perfect = game.info.perfect_information
        private = iig_obs_type.private_info
        kinds = pyspiel.PrivateInfoType
        if iig_obs_type.perfect_recall:
            if not perfect:
                raise ValueError(
                    f"{game.info.title} offers no perfect-recall information states "
                    "(only observations)"
                )
            self.mode = "history"
        elif perfect:
            # Nothing is private: everything a seat sees is public.
            self.mode = "seat" if iig_obs_type.public_info else "nothing"
        elif private == kinds.NONE:
            self.mode = "public" if iig_obs_type.public_info else "nothing"
        elif not iig_obs_type.public_info:
            raise ValueError(
                f"{game.info.title} has no private-only observations; ask for the public "
                "information too"
            )
        else:
            self.mode = "seat" if private == kinds.SINGLE_PLAYER else "full"
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if self.mode == "seat":
            (size,) = encoding.observation_shape(game)
            self.tensor = np.zeros(size, np.float32)
            for field in encoding.observation_fields(game):
                self.dict[field.name] = self.tensor[field.offset : field.stop]

    def set_from(self, state: TautState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into :attr:`tensor`."""
        if self.tensor is not None:
            self.tensor[:] = encoding.observe(self.game, state.taut_state, player)

    def string_from(self, state: TautState, player: int) -> str:
        """``player``'s observation of ``state`` as text."""
        taut_state = state.taut_state
        if self.mode == "seat":
            return encoding.observation_string(self.game, taut_state, player)
        if self.mode == "public":
            return str(taut_state.view(None))
        if self.mode == "full":
            return str(taut_state)
        if self.mode == "history":
            return str(state.history_str())
        return ""


# -- registration -------------------------------------------------------------------------------


class PullingStringsGame(TautGame):
    """``taut_pulling_strings``: Pulling Strings."""

    taut_name = "pulling-strings"
    short_name = "taut_pulling_strings"


class PushPullGame(TautGame):
    """``taut_push_pull``: Push-Pull, every variant."""

    taut_name = "push-pull"
    short_name = "taut_push_pull"


class TugOfWarGame(TautGame):
    """``taut_tug_of_war``: Tug of War with dominoes."""

    taut_name = "tug-of-war"
    short_name = "taut_tug_of_war"


class TracksGame(TautGame):
    """``taut_tracks``: Track Tiles, the two-player game."""

    taut_name = "tracks"
    short_name = "taut_tracks"


#: The game class registered for each taut game.
GAME_CLASSES: dict[str, type[TautGame]] = {
    cls.taut_name: cls for cls in (PullingStringsGame, PushPullGame, TugOfWarGame, TracksGame)
}


def register(name: str) -> None:
    """Register taut game ``name`` with pyspiel as ``GAMES[name]`` (once)."""
    short_name = GAMES[name]
    if short_name in {t.short_name for t in pyspiel.registered_games()}:
        return
    default = taut.make(name)
    game_type = _game_type(short_name, default, *_player_range(default))
    # The class itself is the factory: pyspiel keeps it until the interpreter exits.
    pyspiel.register_game(game_type, GAME_CLASSES[name])


for _name in GAMES:
    register(_name)
