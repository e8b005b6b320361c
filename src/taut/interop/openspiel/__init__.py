"""OpenSpiel adapter: every taut game as a pyspiel Python game.

Importing this package registers every game the registry knows with ``pyspiel``, each
under its plugin's :attr:`~taut.core.plugin.GamePlugin.openspiel_name` (``taut_`` and the
game's name with ``_`` for ``-``)::

    import pyspiel
    import taut.interop.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game(openspiel_name(name))               # default options
    game = pyspiel.load_game(openspiel_name(name), {"max_turns": 30})

A game added to the registry later is registered with :func:`register`.
``docs/openspiel.md`` describes each game as OpenSpiel sees it.

**Parameters** (:mod:`~taut.interop.openspiel.parameters`). Every option of the taut game is
a game parameter with the same default; a dash becomes an underscore. OpenSpiel parameters
cannot be ``None``, so an option whose value may be ``none`` takes a stand-in value: ``0``
for a number that is otherwise at least 1 (or a choice of positive numbers), ``-1`` for any
other number, and ``""`` for text. :func:`parameters` lists the parameters of a game with
their defaults, and :func:`taut_options` turns parameters into taut options.

**Game types** (:mod:`~taut.interop.openspiel.game`) are read from the game's
:class:`~taut.core.terms.GameInfo`, per instance: ``SIMULTANEOUS`` dynamics when the game has
simultaneous nodes, ``EXPLICIT_STOCHASTIC`` chance when it has chance nodes,
``IMPERFECT_INFORMATION`` when a view hides something, ``ZERO_SUM`` utility when the returns
always add up to zero (else ``GENERAL_SUM``), and a terminal reward. The registered type
(what ``pyspiel.registered_games()`` shows) is the default instance's, with the player range
of the plugin's :meth:`~taut.core.plugin.GamePlugin.seats_possible`.

**Actions** keep taut's dense ids, and ``action_to_string`` is the game's own notation
(chance outcomes as the game writes them). Chance outcomes and their probabilities are
taut's.

**Simultaneous nodes.** OpenSpiel wants an action from every player at a simultaneous node.
A seat that a game leaves out of a simultaneous node gets the single legal action
:data:`NO_MOVE` (id 0, written ``"(no move)"``), which is ignored when the joint action is
applied (``pyspiel.INVALID_ACTION``, which some OpenSpiel tools send for a player without
moves, is accepted in its place).

**Game length.** OpenSpiel needs a finite ``max_game_length`` (decision nodes along a game;
a joint move counts once): the plugin's
:meth:`~taut.core.plugin.GamePlugin.max_game_length`, which is the game's own bound where its
rules set one and a nominal bound (by default :data:`NOMINAL_TURNS` turns) where they do
not. Random play stays far below the nominal bounds, but the games themselves do not stop
there; set ``max_turns`` where a game has it and a hard bound matters.

**State strings.** ``str(state)`` identifies the position and nothing else, so that
OpenSpiel's state enumeration (``get_all_states``, ``value_iteration`` with
``cyclic_game=True``) treats a position reached along different lines as one state: the
plugin's :meth:`~taut.core.plugin.GamePlugin.state_key` (by default the state's JSON, sorted
and compact). ``state.taut_state`` is the taut state itself, whose ``str`` is the game's
diagram.

**Observations** (:mod:`~taut.interop.openspiel.observer`) come from
:mod:`taut.interop.encoding`, built from ``state.view(seat)`` only.
"""

from __future__ import annotations

from taut.interop.openspiel.game import (
    NO_MOVE,
    NO_MOVE_STRING,
    NOMINAL_TURNS,
    TautGame,
    TautState,
    max_game_length,
    state_key,
)
from taut.interop.openspiel.observer import TautObserver
from taut.interop.openspiel.parameters import ParameterSpec, ParamValue, parameters, taut_options
from taut.interop.openspiel.registration import (
    game_classes,
    openspiel_name,
    register,
    register_all,
)

register_all()

__all__ = [
    "NOMINAL_TURNS",
    "NO_MOVE",
    "NO_MOVE_STRING",
    "ParamValue",
    "ParameterSpec",
    "TautGame",
    "TautObserver",
    "TautState",
    "game_classes",
    "max_game_length",
    "openspiel_name",
    "parameters",
    "register",
    "register_all",
    "state_key",
    "taut_options",
]
