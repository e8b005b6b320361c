"""The observation encoding shared by every adapter: one flat float32 vector per seat.

:func:`observe` turns what one seat may know into a 1-D ``numpy.float32`` array of
:func:`observation_shape`. It reads nothing but ``state.view(seat)``, so hidden hands, the
boneyard and another seat's freshly drawn tile can never leak into it. The vector is a
concatenation of named *fields*; :func:`observation_fields` lists them with their offset,
length, bounds and meaning, and :func:`observation_bounds` gives the bounds as arrays (the
``low``/``high`` of a ``Box``). Seats are absolute: seat ``i`` is always slot ``i`` of a
per-seat field, and the ``seat`` field says which seat is looking. One-hot fields are 0/1;
counts are raw (not rescaled), with an upper bound of ``inf`` only where the rules set no
limit.

Every game starts with the same three fields (``n`` seats):

=========  ======  ===========================================================
field      length  meaning
=========  ======  ===========================================================
seat       n       one-hot: the observing seat
acting     n       1 for each seat that chooses an action now (none at chance
                   nodes or when the game is over)
over       1       1 once the game has ended
=========  ======  ===========================================================

Then, per game:

``pulling-strings`` (cells ``row * 5 + col``; ends ``N0..N4 E0..E4 S0..S4 W0..W4``):

* ``stacks`` (25): disks on each cell (0 = empty), ``[0, inf)``;
* ``broken`` (20): 1 for each broken end, in end-id order (the action ids);
* ``home`` (2): disks on X's four homes, on O's four homes;
* ``turn`` (1): turns played, up to ``max_turns`` (``inf`` without one).

``push-pull`` (``r`` rows: 1 for the duel strip, 5 otherwise; ``u`` scoring units):

* ``pieces`` (3 x (5r + 8)): for L, then M, then S, a one-hot block: ``5r`` squares
  (``row * 5 + col``; strip positions 0..4 in the duel), then the 8 ways off the board it
  left by, ``N E S W NE SE SW NW`` (corners only in team games);
* ``scores`` (u): pieces scored by each unit (a player, or a team such as ``N+E``);
* ``turn`` (1): turns played, up to ``max_turns`` (``inf`` without one).

``tug-of-war`` (``n`` players, ``T`` tiles ordered ``0-0, 0-1, ..., m-m``, ``m`` the
set's top number, ``P`` the set's total pips):

* ``phase`` (6): one-hot ``deal, turn, drawing, drawn, bonus, over``;
* ``round`` (1): the round number, from 1;
* ``in_game`` (n), ``playing`` (n): 1 for seats still in the game / dealt into this round;
* ``scores`` (n), ``start_scores`` (n): scores now and when the round began (any sign);
* ``round_points`` (n): round points (``end=round-points``);
* ``hand_sizes`` (n): tiles in each hand; ``boneyard_size`` (1): tiles in the boneyard;
* ``hand`` (T): 1 for each tile in the observing seat's own hand;
* ``drawn`` (T): the tile this seat has just drawn and must play if it can (phase
  ``drawn``), else zeros;
* ``open_ends`` (n x 2 x (m + 1)): for train ``j``, end 0 then end 1, one-hot of the number
  showing (zeros when seat ``j`` has no train this round);
* ``train_tiles`` (n x T): 1 when tile ``t`` lies on train ``j`` (starter included);
* ``first`` (n): one-hot, the round's first player;
* ``passes`` (1): passes in a row made with the boneyard empty;
* ``bonus_winner`` (n), ``bonus_target`` (n): one-hot, the round winner handing out the
  leftover and the opponent whose share is chosen now (zeros outside the bonus);
* ``bonus_pips`` (n): pips left in each hand when the round was won (public at that point);
* ``bonus_given`` (n): points taken so far from each opponent;
* ``bonus_total`` (1), ``bonus_remaining`` (1): the leftover and what is still to hand out;
* ``bonus_blocked`` (1): 1 when the round was won on fewest pips after a block.

``tracks`` (``s x s`` cells ``row * s + col``, the action ids):

* ``board`` (s*s x 4): per cell, one-hot ``empty, kind 1, kind 2, kind 3``;
* ``kinds`` (2 x 4): per seat (NS, WE), one-hot of its current tile kind: ``not rolled,
  1, 2, 3``;
* ``first`` (2): one-hot, the seat that placed first (zeros until the coin falls);
* ``last`` (s*s): one-hot, the cell of the last placement;
* ``placed`` (1): tiles on the board.

:func:`observation_string` is the same view as text (the game's own diagram).

Actions keep the game's own dense ids ``0 .. num_distinct_actions - 1``;
:func:`action_mask` marks the legal ones for one seat (all zeros when the seat does not act
now) and :func:`check_action` turns an adapter's action into a legal id or raises a
``ValueError`` that names the action and the legal ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from taut.core.game import Game, NodeKind, State
from taut.core.options import OptionValue

Observation = npt.NDArray[np.float32]
"""A flat float32 observation vector."""

INF = math.inf


@dataclass(frozen=True)
class Field:
    """One named slice of the observation vector."""

    name: str
    offset: int
    """Index of the field's first entry."""
    size: int
    low: float
    high: float
    description: str

    @property
    def stop(self) -> int:
        """One past the field's last entry."""
        return self.offset + self.size


@dataclass(frozen=True)
class Layout:
    """The fields of one game (with its options) and their bounds."""

    fields: tuple[Field, ...]
    size: int
    low: Observation
    high: Observation

    def slice(self, name: str) -> slice:
        """The slice of field ``name``; raises KeyError naming the fields."""
        for f in self.fields:
            if f.name == name:
                return slice(f.offset, f.stop)
        raise KeyError(f"no field {name!r}; fields: {', '.join(f.name for f in self.fields)}")


_Spec = list[tuple[str, int, float, float, str]]
"""Fields as ``(name, size, low, high, description)`` in vector order."""


class _Encoder:
    """How one game is encoded: its field list and a function filling the vector."""

    def __init__(
        self,
        spec: Callable[[Game], _Spec],
        fill: Callable[[Game, State, int, Observation, Layout], None],
    ) -> None:
        self.spec = spec
        self.fill = fill


def _header(game: Game) -> _Spec:
    n = game.info.num_seats
    return [
        ("seat", n, 0.0, 1.0, "one-hot: the observing seat"),
        ("acting", n, 0.0, 1.0, "1 for each seat that chooses an action now"),
        ("over", 1, 0.0, 1.0, "1 once the game has ended"),
    ]


def _fill_header(state: State, seat: int, out: Observation, lay: Layout) -> None:
    seat_at = lay.slice("seat").start
    out[seat_at + seat] = 1.0
    kind = state.kind
    if kind is NodeKind.DECISION or kind is NodeKind.SIMULTANEOUS:
        acting_at = lay.slice("acting").start
        for s in state.acting_seats():
            out[acting_at + s] = 1.0
    elif kind is NodeKind.TERMINAL:
        out[lay.slice("over").start] = 1.0


def _turn_bound(game: Game) -> float:
    mt = game.options.get("max_turns")
    return INF if mt is None else float(int(mt))


# -- Pulling Strings -------------------------------------------------------------------------


def _ps_spec(game: Game) -> _Spec:
    from taut.games.pulling_strings.board import NUM_CELLS, NUM_ENDS

    return [
        *_header(game),
        ("stacks", NUM_CELLS, 0.0, INF, "disks on each cell (row * 5 + col)"),
        ("broken", NUM_ENDS, 0.0, 1.0, "1 for each broken end, in end-id order"),
        ("home", 2, 0.0, INF, "disks on X's homes, on O's homes"),
        ("turn", 1, 0.0, _turn_bound(game), "turns played"),
    ]


def _ps_fill(game: Game, state: State, seat: int, out: Observation, lay: Layout) -> None:
    from taut.games.pulling_strings.rules import PullingStringsState

    assert isinstance(state, PullingStringsState)
    at = lay.slice("stacks").start
    for cell, n in state.stacks.items():
        out[at + cell] = n
    at = lay.slice("broken").start
    for end in state.broken_ends():
        out[at + end] = 1.0
    out[lay.slice("home")] = state.home()
    out[lay.slice("turn").start] = state.turn


# -- Push-Pull -------------------------------------------------------------------------------

_EXITS = 8


def _pp_spec(game: Game) -> _Spec:
    from taut.games.push_pull.rules import PushPull

    assert isinstance(game, PushPull)
    lay = game.layout
    block = lay.rows * 5 + _EXITS
    return [
        *_header(game),
        (
            "pieces",
            3 * block,
            0.0,
            1.0,
            f"L, M, S: one-hot over {lay.rows * 5} squares then exits N E S W NE SE SW NW",
        ),
        ("scores", len(lay.units), 0.0, 3.0, "pieces scored by each unit: " + " ".join(lay.units)),
        ("turn", 1, 0.0, _turn_bound(game), "turns played"),
    ]


def _pp_fill(game: Game, state: State, seat: int, out: Observation, lay: Layout) -> None:
    from taut.games.push_pull.board import OFF
    from taut.games.push_pull.rules import PushPull, PushPullState

    assert isinstance(game, PushPull) and isinstance(state, PushPullState)
    squares = game.layout.rows * 5
    block = squares + _EXITS
    at = lay.slice("pieces").start
    for p, loc in enumerate(state.locs):
        index = loc if loc < OFF else squares + (loc - OFF)
        out[at + p * block + index] = 1.0
    out[lay.slice("scores")] = state.scores()
    out[lay.slice("turn").start] = state.turn


# -- Tug of War ------------------------------------------------------------------------------


def _tw_spec(game: Game) -> _Spec:
    from taut.games.tug_of_war.rules import TugOfWar
    from taut.games.tug_of_war.state import PHASES

    assert isinstance(game, TugOfWar)
    n = game.num_players
    ds = game.dominoes
    t = ds.size
    faces = ds.top + 1
    pips = float(ds.total_pips)
    return [
        *_header(game),
        ("phase", len(PHASES), 0.0, 1.0, "one-hot: " + " ".join(PHASES)),
        ("round", 1, 1.0, INF, "round number, from 1"),
        ("in_game", n, 0.0, 1.0, "1 for seats still in the game"),
        ("playing", n, 0.0, 1.0, "1 for seats dealt into this round"),
        ("scores", n, -INF, INF, "scores now"),
        ("start_scores", n, -INF, INF, "scores when this round began"),
        ("round_points", n, 0.0, INF, "round points"),
        ("hand_sizes", n, 0.0, float(t), "tiles in each hand"),
        ("boneyard_size", 1, 0.0, float(t), "tiles in the boneyard"),
        ("hand", t, 0.0, 1.0, "1 for each tile in the observing seat's hand"),
        ("drawn", t, 0.0, 1.0, "one-hot: the tile this seat just drew (phase drawn)"),
        (
            "open_ends",
            n * 2 * faces,
            0.0,
            1.0,
            f"per train, end 0 then end 1: one-hot of the number showing (0..{ds.top})",
        ),
        ("train_tiles", n * t, 0.0, 1.0, "per train: 1 for each tile lying on it"),
        ("first", n, 0.0, 1.0, "one-hot: the round's first player"),
        ("passes", 1, 0.0, float(n), "passes in a row with the boneyard empty"),
        ("bonus_winner", n, 0.0, 1.0, "one-hot: the round's winner handing out the leftover"),
        ("bonus_target", n, 0.0, 1.0, "one-hot: the opponent whose share is chosen now"),
        ("bonus_pips", n, 0.0, pips, "pips left in each hand when the round was won"),
        ("bonus_given", n, 0.0, pips, "points taken so far from each opponent"),
        ("bonus_total", 1, 0.0, pips, "the leftover to hand out"),
        ("bonus_remaining", 1, 0.0, pips, "the leftover not yet handed out"),
        ("bonus_blocked", 1, 0.0, 1.0, "1 when the round was won on fewest pips"),
    ]


def _tw_fill(game: Game, state: State, seat: int, out: Observation, lay: Layout) -> None:
    from taut.games.tug_of_war.rules import TugOfWar
    from taut.games.tug_of_war.state import PHASES, TugState

    assert isinstance(game, TugOfWar) and isinstance(state, TugState)
    n = game.num_players
    ds = game.dominoes
    t = ds.size
    faces = ds.top + 1
    out[lay.slice("phase").start + PHASES.index(state.phase)] = 1.0
    out[lay.slice("round").start] = state.round
    out[lay.slice("in_game")] = state.in_game
    out[lay.slice("playing")] = state.playing
    out[lay.slice("scores")] = state.scores
    out[lay.slice("start_scores")] = state.start_scores
    out[lay.slice("round_points")] = state.points
    out[lay.slice("hand_sizes")] = state.sizes
    out[lay.slice("boneyard_size").start] = state.stock_size
    own = state.hands[seat]
    if own is not None:
        at = lay.slice("hand").start
        for tile in own:
            out[at + tile] = 1.0
    if state.drawn >= 0:
        # A view keeps the drawn tile only for the seat that drew it.
        out[lay.slice("drawn").start + state.drawn] = 1.0
    ends_at = lay.slice("open_ends").start
    tiles_at = lay.slice("train_tiles").start
    index = ds.index
    for j in range(n):
        ends = state.ends[j]
        if ends is not None:
            base = ends_at + j * 2 * faces
            out[base + ends[0]] = 1.0
            out[base + faces + ends[1]] = 1.0
        line = state.trains[j]
        if line is not None:
            starter, side0, side1 = line
            base = tiles_at + j * t
            out[base + index(*starter)] = 1.0
            for laid in (*side0, *side1):
                out[base + index(*laid)] = 1.0
    if state.first >= 0:
        out[lay.slice("first").start + state.first] = 1.0
    out[lay.slice("passes").start] = state.passes
    bonus = state.bonus
    if bonus is not None:
        out[lay.slice("bonus_winner").start + bonus.winner] = 1.0
        target = bonus.target
        if target is not None and state.phase != "over":
            out[lay.slice("bonus_target").start + target] = 1.0
        pips_at = lay.slice("bonus_pips").start
        for s, p in enumerate(bonus.pips):
            if p is not None:
                out[pips_at + s] = p
        given_at = lay.slice("bonus_given").start
        for s, g in zip(bonus.targets, bonus.given, strict=False):
            out[given_at + s] = g
        out[lay.slice("bonus_total").start] = bonus.total
        out[lay.slice("bonus_remaining").start] = bonus.remaining
        out[lay.slice("bonus_blocked").start] = 1.0 if bonus.blocked else 0.0


# -- Track Tiles -----------------------------------------------------------------------------


def _tr_spec(game: Game) -> _Spec:
    from taut.games.tracks.rules import Tracks

    assert isinstance(game, Tracks)
    cells = game.size * game.size
    return [
        *_header(game),
        ("board", cells * 4, 0.0, 1.0, "per cell (row * size + col): empty, kind 1, 2, 3"),
        ("kinds", 2 * 4, 0.0, 1.0, "per seat NS, WE: one-hot not rolled, kind 1, 2, 3"),
        ("first", 2, 0.0, 1.0, "one-hot: the seat that placed first"),
        ("last", cells, 0.0, 1.0, "one-hot: the cell of the last placement"),
        ("placed", 1, 0.0, float(cells), "tiles on the board"),
    ]


def _tr_fill(game: Game, state: State, seat: int, out: Observation, lay: Layout) -> None:
    from taut.games.tracks.rules import TracksState

    assert isinstance(state, TracksState)
    at = lay.slice("board").start
    for cell, kind in enumerate(state.board):
        out[at + cell * 4 + kind] = 1.0
    at = lay.slice("kinds").start
    for s, kind in enumerate(state.kinds):
        out[at + s * 4 + kind] = 1.0
    if state.first is not None:
        out[lay.slice("first").start + state.first] = 1.0
    if state.last is not None:
        out[lay.slice("last").start + state.last] = 1.0
    out[lay.slice("placed").start] = state.placed()


_ENCODERS: dict[str, _Encoder] = {
    "pulling-strings": _Encoder(_ps_spec, _ps_fill),
    "push-pull": _Encoder(_pp_spec, _pp_fill),
    "tug-of-war": _Encoder(_tw_spec, _tw_fill),
    "tracks": _Encoder(_tr_spec, _tr_fill),
}


def register_encoding(
    name: str,
    spec: Callable[[Game], Sequence[tuple[str, int, float, float, str]]],
    fill: Callable[[Game, State, int, Observation, Layout], None],
) -> None:
    """Teach the encoding a new game.

    ``spec(game)`` lists the game-specific fields as ``(name, size, low, high, description)``
    (the common ``seat``/``acting``/``over`` header is added in front); ``fill(game, view,
    seat, out, layout)`` writes them into the zeroed vector ``out`` using
    ``layout.slice(name)``. ``view`` is already ``state.view(seat)``.
    """

    def full_spec(game: Game) -> _Spec:
        return [*_header(game), *spec(game)]

    _ENCODERS[name] = _Encoder(full_spec, fill)
    # Layouts already built for that name are stale now.
    for key in [k for k in _LAYOUTS if k[0] == name]:
        del _LAYOUTS[key]


def _encoder(game: Game) -> _Encoder:
    try:
        return _ENCODERS[game.info.name]
    except KeyError:
        raise ValueError(
            f"no observation encoding for game {game.info.name!r}; "
            f"encoded games: {', '.join(sorted(_ENCODERS))}"
        ) from None


_LAYOUTS: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], Layout] = {}


def _build_layout(game: Game) -> Layout:
    fields: list[Field] = []
    offset = 0
    for fname, size, low, high, text in _encoder(game).spec(game):
        fields.append(Field(fname, offset, size, low, high, text))
        offset += size
    low_arr = np.empty(offset, dtype=np.float32)
    high_arr = np.empty(offset, dtype=np.float32)
    for f in fields:
        low_arr[f.offset : f.stop] = f.low
        high_arr[f.offset : f.stop] = f.high
    # Shared by every caller through the cache, so nobody may change them in place.
    low_arr.flags.writeable = False
    high_arr.flags.writeable = False
    return Layout(tuple(fields), offset, low_arr, high_arr)


def observation_layout(game: Game) -> Layout:
    """The fields, size and bounds of ``game``'s observation vector (cached per options)."""
    key = (game.info.name, tuple(sorted(game.options.items(), key=lambda kv: kv[0])))
    lay = _LAYOUTS.get(key)
    if lay is None:
        lay = _LAYOUTS[key] = _build_layout(game)
    return lay


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
    lay = observation_layout(game)
    view = state.view(seat)
    out = np.zeros(lay.size, dtype=np.float32)
    _fill_header(view, seat, out, lay)
    _encoder(game).fill(game, view, seat, out, lay)
    return out


def observation_string(game: Game, state: State, seat: int) -> str:
    """What ``seat`` knows of ``state`` as text: the game's diagram of ``state.view(seat)``."""
    if not 0 <= seat < game.info.num_seats:
        raise ValueError(f"no seat {seat!r}; seats are 0..{game.info.num_seats - 1}")
    return str(state.view(seat))


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
    "register_encoding",
]
