"""The observation encoding shared by every adapter: one flat float32 vector per seat.

:func:`observe` turns what one seat may know into a 1-D ``numpy.float32`` array of
:func:`observation_shape`. It reads nothing but ``state.view(seat)``, so whatever the view
hides (other seats' hands, a stock of tiles, another seat's fresh draw) can never leak into
it. The vector is a concatenation of named *fields*; :func:`observation_fields` lists them
with their offset, length, bounds and meaning, and :func:`observation_bounds` gives the
bounds as arrays (the ``low``/``high`` of a ``Box``). Seats are absolute: seat ``i`` is
always slot ``i`` of a per-seat field, and the ``seat`` field says which seat is looking.
One-hot fields are 0/1; counts are raw (not rescaled), with an upper bound of ``inf`` only
where the rules set no limit.

Every game starts with the same three fields (``n`` seats; see
:func:`taut.core.observation.header_fields`):

=========  ======  ===========================================================
field      length  meaning
=========  ======  ===========================================================
seat       n       one-hot: the observing seat
acting     n       1 for each seat that chooses an action now (none at chance
                   nodes or when the game is over)
over       1       1 once the game has ended
=========  ======  ===========================================================

The game's own fields follow, as its plugin's observer declares them
(:meth:`taut.core.plugin.GamePlugin.observer`; each game documents its fields in its
observation module). A game whose plugin declares no observer has the header only.

:func:`observation_string` is the same view as text (the game's own diagram, drawn by its
plugin).

Actions keep the game's own dense ids ``0 .. num_distinct_actions - 1``;
:func:`action_mask` marks the legal ones for one seat (all zeros when the seat does not act
now) and :func:`check_action` turns an adapter's action into a legal id or raises a
``ValueError`` that names the action and the legal ones.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import numpy.typing as npt

from taut.core.game import Game, State
from taut.core.observation import (
    Field,
    Layout,
    Observation,
    Observer,
    build_layout,
    fill_header,
    header_fields,
)
from taut.core.plugin import GamePlugin
from taut.core.registry import plugin_of


class _Encoding:
    """One kind of game (a plugin, a class and its options): its observer and layout."""

    __slots__ = ("layout", "observer")

    def __init__(self, observer: Observer, layout: Layout) -> None:
        self.observer = observer
        self.layout = layout


# Keyed by the plugin too, so that a game registered again gets its new observer.
_ENCODINGS: dict[tuple[GamePlugin, type[Game], Hashable], _Encoding] = {}


def _build(plugin: GamePlugin, game: Game) -> _Encoding:
    observer = plugin.observer()
    return _Encoding(observer, build_layout([*header_fields(game), *observer.fields(game)]))


def _encoding(game: Game) -> _Encoding:
    plugin = plugin_of(game)
    options = tuple(sorted(game.options.items(), key=lambda kv: kv[0]))
    key = (plugin, type(game), options)
    try:
        found = _ENCODINGS.get(key)
    except TypeError:  # an option value that cannot be hashed: build, do not cache
        return _build(plugin, game)
    if found is None:
        found = _ENCODINGS[key] = _build(plugin, game)
    return found


def observation_layout(game: Game) -> Layout:
    """The fields, size and bounds of ``game``'s observation vector (cached per options)."""
    return _encoding(game).layout


def observation_fields(game: Game) -> tuple[Field, ...]:
    """The named slices of ``game``'s observation vector, in order."""
    return observation_layout(game).fields


def observation_shape(game: Game) -> tuple[int, ...]:
    """The shape of :func:`observe`'s vector for ``game``: ``(size,)``."""
    return (observation_layout(game).size,)


def observation_bounds(game: Game) -> tuple[Observation, Observation]:
    """Copies of the lowest and highest value of every entry (``inf`` where unbounded)."""
    lay = observation_layout(game)
    return lay.low.copy(), lay.high.copy()


def observe(game: Game, state: State, seat: int) -> Observation:
    """What ``seat`` knows of ``state`` as a fresh float32 vector of
    :func:`observation_shape`, built from ``state.view(seat)`` only."""
    if not 0 <= seat < game.info.num_seats:
        raise ValueError(
            f"no seat {seat!r}; seats are 0..{game.info.num_seats - 1} "
            f"({', '.join(game.info.seats)})"
        )
    enc = _encoding(game)
    lay = enc.layout
    view = state.view(seat)
    out = np.zeros(lay.size, dtype=np.float32)
    fill_header(view, seat, out, lay)
    enc.observer.fill(game, view, seat, out, lay)
    return out


def observation_string(game: Game, state: State, seat: int) -> str:
    """What ``seat`` knows of ``state`` as text: the game's diagram of ``state.view(seat)``."""
    if not 0 <= seat < game.info.num_seats:
        raise ValueError(f"no seat {seat!r}; seats are 0..{game.info.num_seats - 1}")
    return plugin_of(game).render(state.view(seat))


#: At most this many legal ids are listed in an illegal-action message.
_LISTED = 40


def action_mask(game: Game, state: State, seat: int) -> npt.NDArray[np.int8]:
    """A fresh int8 vector of ``num_distinct_actions``: 1 for each legal action of ``seat``.

    All zeros when ``seat`` does not act at ``state`` (chance nodes, the end of the game,
    another seat's turn).
    """
    mask = np.zeros(game.info.num_distinct_actions, dtype=np.int8)
    legal = state.legal_actions(seat)
    if legal:
        mask[np.fromiter(legal, dtype=np.intp, count=len(legal))] = 1
    return mask


def describe_legal(state: State, seat: int) -> str:
    """The legal action ids of ``seat`` with their notation, for error messages."""
    legal = list(state.legal_actions(seat))
    if not legal:
        return "none"
    shown = ", ".join(f"{a} ({state.action_to_string(seat, a)})" for a in legal[:_LISTED])
    more = len(legal) - _LISTED
    return shown + (f", ... and {more} more" if more > 0 else "")


def check_action(state: State, seat: int, action: object) -> int:
    """``action`` as a legal action id of ``seat`` at ``state``.

    Accepts a Python or NumPy integer (or a one-element integer array). Raises a
    ``ValueError`` naming the action, why it is refused and the legal ids.
    """
    game = state.game
    name = state.seat_name(seat)
    if isinstance(action, np.ndarray) and action.size == 1:
        action = action.reshape(()).item()
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise ValueError(
            f"action for {name} must be an integer id, got {action!r}; "
            f"legal: {describe_legal(state, seat)}"
        )
    a = int(action)
    n = game.info.num_distinct_actions
    if not 0 <= a < n:
        raise ValueError(
            f"action {a} for {name} is outside the action ids 0..{n - 1}; "
            f"legal: {describe_legal(state, seat)}"
        )
    if not state.is_legal(seat, a):
        raise ValueError(
            f"action {a} is not legal for {name} now: {_reason(state, seat, a)}; "
            f"legal: {describe_legal(state, seat)}"
        )
    return a


def _reason(state: State, seat: int, action: int) -> str:
    if seat not in state.acting_seats():
        return f"{state.seat_name(seat)} does not act here"
    try:
        return state.illegal_reason(seat, action)
    except Exception:  # a game's explanation may not cover every id: keep the message
        return "the rules do not allow it here"


__all__ = [
    "Field",
    "Layout",
    "Observation",
    "action_mask",
    "check_action",
    "describe_legal",
    "observation_bounds",
    "observation_fields",
    "observation_layout",
    "observation_shape",
    "observation_string",
    "observe",
]
