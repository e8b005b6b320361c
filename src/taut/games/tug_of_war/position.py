"""States as JSON, and positions built by hand (for tests, puzzles and analysis).

The JSON of a state lists tiles as ``[a, b]``. Hands and the boneyard are sorted lists of
tiles (low half first); in a view, hidden hands, the boneyard and another seat's drawn tile
are ``null`` while their sizes stay. Trains keep their shape: the starter as laid, then the
tiles laid on end 0 and on end 1 as ``[half matched, half left open]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from taut.core.errors import PositionError
from taut.core.game import JSON, Outcome
from taut.games.tug_of_war.state import DEAL, OVER, PHASES, TURN, Bonus, Line, TugState
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar


def _tiles_json(state: TugState, tiles: frozenset[int] | None) -> list[list[int]] | None:
    if tiles is None:
        return None
    ds = state.game.dominoes
    return [list(ds.tiles[t]) for t in sorted(tiles)]


def state_to_json(state: TugState) -> JSON:
    """The state as a JSON object (see the module docstring)."""
    ds = state.game.dominoes
    trains: list[Any] = []
    for line, ends in zip(state.trains, state.ends, strict=True):
        if line is None or ends is None:
            trains.append(None)
            continue
        starter, side0, side1 = line
        trains.append(
            {
                "starter": list(starter),
                "end0": [list(t) for t in side0],
                "end1": [list(t) for t in side1],
                "ends": list(ends),
            }
        )
    bonus = state.bonus
    out = state.outcome_
    if state.is_view:
        view: Any = "spectator" if state.viewer is None else state.viewer
    else:
        view = None
    return {
        "view": view,
        "round": state.round,
        "phase": state.phase,
        "in_game": list(state.in_game),
        "playing": list(state.playing),
        "pool": None if state.pool is None else list(state.pool),
        "scores": list(state.scores),
        "start_scores": list(state.start_scores),
        "round_points": list(state.points),
        "trains": trains,
        "hands": [_tiles_json(state, h) for h in state.hands],
        "hand_sizes": list(state.sizes),
        "boneyard": _tiles_json(state, state.stock),
        "boneyard_size": state.stock_size,
        "dealt": state.dealt,
        "first": None if state.first < 0 else state.first,
        "current": None if state.current < 0 else state.current,
        "passes": state.passes,
        "drawn": None if state.drawn < 0 else list(ds.tiles[state.drawn]),
        "bonus": None
        if bonus is None
        else {
            "winner": bonus.winner,
            "blocked": bonus.blocked,
            "pips": list(bonus.pips),
            "total": bonus.total,
            "targets": list(bonus.targets),
            "given": list(bonus.given),
            "estimated": bonus.estimated,
        },
        "outcome": None if out is None else {"winners": list(out.winners), "reason": out.reason},
    }


class _Reader:
    """Field readers that raise PositionError naming the field."""

    def __init__(self, game: TugOfWar, data: dict[str, Any]) -> None:
        self.game = game
        self.data = data
        self.n = game.num_players

    def get(self, key: str, default: Any = ...) -> Any:
        """Field ``key`` (``default`` when missing; required when no default)."""
        if key not in self.data:
            if default is ...:
                raise PositionError(f"position field {key!r} is missing")
            return default
        return self.data[key]

    def int_(self, key: str, default: Any = ..., low: int | None = None) -> int:
        """An integer field, at least ``low``."""
        v = self.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low):
            raise PositionError(f"position field {key!r} must be an integer, got {v!r}")
        return v

    def seat_or_none(self, key: str) -> int:
        """A seat number, or -1 for null."""
        v = self.get(key, None)
        if v is None:
            return -1
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < self.n:
            raise PositionError(f"position field {key!r} must be a seat 0..{self.n - 1} or null")
        return v

    def per_seat(self, key: str, kind: type, default: Any = ...) -> list[Any]:
        """A list with one ``kind`` value per seat."""
        v = self.get(key, default)
        if (
            not isinstance(v, list)
            or len(v) != self.n
            or not all(isinstance(x, kind) and (kind is bool or not isinstance(x, bool)) for x in v)
        ):
            raise PositionError(
                f"position field {key!r} must list one {kind.__name__} per seat ({self.n})"
            )
        return v

    def tile(self, data: Any, where: str) -> Tile:
        """A tile ``[a, b]`` of the set."""
        try:
            return self.game.dominoes.from_json(data)
        except ValueError as exc:
            raise PositionError(f"{where}: {exc}") from None

    def tile_set(self, data: Any, where: str) -> frozenset[int]:
        """A list of distinct tiles, as tile ids."""
        if not isinstance(data, list):
            raise PositionError(f"{where} must be a list of tiles [a, b]")
        ids = [self.game.dominoes.index(*self.tile(t, where)) for t in data]
        if len(set(ids)) != len(ids):
            raise PositionError(f"{where} lists a tile twice")
        return frozenset(ids)


def state_from_json(game: TugOfWar, data: JSON) -> TugState:
    """Rebuild a state (or a view) from :func:`state_to_json`; PositionError if malformed."""
    if not isinstance(data, dict):
        raise PositionError("a Tug of War position must be a JSON object")
    r = _Reader(game, data)
    n = r.n
    ds = game.dominoes
    view = r.get("view", None)
    if view is None:
        is_view, viewer = False, None
    elif view == "spectator":
        is_view, viewer = True, None
    elif isinstance(view, int) and not isinstance(view, bool) and 0 <= view < n:
        is_view, viewer = True, view
    else:
        raise PositionError(f"'view' must be null, 'spectator' or a seat, got {view!r}")
    phase = r.get("phase")
    if phase not in PHASES:
        raise PositionError(f"'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
    trains: list[Line | None] = []
    ends: list[Tile | None] = []
    raw_trains = r.get("trains")
    if not isinstance(raw_trains, list) or len(raw_trains) != n:
        raise PositionError(f"'trains' must list one train (or null) per seat ({n})")
    for j, raw in enumerate(raw_trains):
        if raw is None:
            trains.append(None)
            ends.append(None)
            continue
        if not isinstance(raw, dict):
            raise PositionError(f"train {j} must be an object with starter, end0, end1")
        starter = r.tile(raw.get("starter"), f"train {j} starter")
        sides: list[tuple[Tile, ...]] = []
        open_ends = list(starter)
        for e in (0, 1):
            side = raw.get(f"end{e}", [])
            if not isinstance(side, list):
                raise PositionError(f"train {j} end{e} must be a list of tiles")
            laid = []
            for t in side:
                a, b = r.tile(t, f"train {j} end{e}")
                if a != open_ends[e]:
                    raise PositionError(
                        f"train {j} end{e}: [{a}, {b}] does not match the open end {open_ends[e]}"
                    )
                open_ends[e] = b
                laid.append((a, b))
            sides.append(tuple(laid))
        trains.append((starter, sides[0], sides[1]))
        ends.append((open_ends[0], open_ends[1]))
    raw_hands = r.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        raise PositionError(f"'hands' must list one hand (or null) per seat ({n})")
    hands = tuple(
        None if h is None else r.tile_set(h, f"hand {s}") for s, h in enumerate(raw_hands)
    )
    if not is_view and any(h is None for h in hands):
        raise PositionError("a full position must show every hand (only views hide them)")
    sizes = tuple(r.per_seat("hand_sizes", int))
    for s, h in enumerate(hands):
        if h is not None and len(h) != sizes[s]:
            raise PositionError(f"hand {s} has {len(h)} tiles but hand_sizes says {sizes[s]}")
    raw_stock = r.get("boneyard", None)
    stock = None if raw_stock is None else r.tile_set(raw_stock, "boneyard")
    if not is_view and stock is None:
        raise PositionError("a full position must list the boneyard (only views hide it)")
    stock_size = r.int_("boneyard_size", low=0)
    if stock is not None and len(stock) != stock_size:
        raise PositionError(
            f"the boneyard has {len(stock)} tiles but boneyard_size is {stock_size}"
        )
    if not is_view:
        _check_partition(game, trains, hands, stock)
    raw_drawn = r.get("drawn", None)
    drawn = -1 if raw_drawn is None else ds.index(*r.tile(raw_drawn, "drawn"))
    raw_pool = r.get("pool", None)
    if raw_pool is not None and (
        not isinstance(raw_pool, list)
        or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < n for s in raw_pool)
    ):
        raise PositionError("'pool' must be null or a list of seats")
    bonus = _read_bonus(r, r.get("bonus", None))
    raw_out = r.get("outcome", None)
    outcome = None
    if raw_out is not None:
        if (
            not isinstance(raw_out, dict)
            or not isinstance(raw_out.get("winners"), list)
            or not isinstance(raw_out.get("reason"), str)
        ):
            raise PositionError("'outcome' must be null or {winners: [...], reason: '...'}")
        outcome = Outcome(tuple(int(w) for w in raw_out["winners"]), raw_out["reason"])
    if (phase == OVER) != (outcome is not None):
        raise PositionError("'outcome' must be given exactly when the phase is 'over'")
    state = TugState._make(
        game=game,
        viewer=viewer,
        is_view=is_view,
        phase=phase,
        round=r.int_("round", low=1),
        in_game=tuple(r.per_seat("in_game", bool)),
        playing=tuple(r.per_seat("playing", bool)),
        pool=None if raw_pool is None else tuple(raw_pool),
        scores=tuple(r.per_seat("scores", int)),
        start_scores=tuple(r.per_seat("start_scores", int)),
        points=tuple(r.per_seat("round_points", int)),
        trains=tuple(trains),
        ends=tuple(ends),
        hands=hands,
        sizes=sizes,
        stock=stock,
        stock_size=stock_size,
        dealt=r.int_("dealt", low=0),
        first=r.seat_or_none("first"),
        current=r.seat_or_none("current"),
        passes=r.int_("passes", 0, low=0),
        drawn=drawn,
        bonus=bonus,
        outcome_=outcome,
    )
    if phase not in (DEAL, OVER) and len(state.order) < 2:
        raise PositionError("a round needs at least two players")
    return state


def _check_partition(
    game: TugOfWar,
    trains: Sequence[Line | None],
    hands: Sequence[frozenset[int] | None],
    stock: frozenset[int] | None,
) -> None:
    """Every tile is in exactly one place (trains, hands, boneyard) or out of the round."""
    ds = game.dominoes
    seen: dict[int, str] = {}

    def put(tile: int, where: str) -> None:
        if tile in seen:
            raise PositionError(f"tile {ds.name(tile)} is both in {seen[tile]} and in {where}")
        seen[tile] = where

    for j, line in enumerate(trains):
        if line is None:
            continue
        starter, side0, side1 = line
        for laid in (starter, *side0, *side1):
            put(ds.index(*laid), f"train {j}")
    for s, hand in enumerate(hands):
        for t in hand or ():
            put(t, f"hand {s}")
    for t in stock or ():
        put(t, "the boneyard")


def _read_bonus(r: _Reader, raw: Any) -> Bonus | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise PositionError("'bonus' must be null or an object")
    try:
        pips = tuple(None if p is None else int(p) for p in raw["pips"])
        return Bonus(
            winner=int(raw["winner"]),
            blocked=bool(raw["blocked"]),
            pips=pips,
            total=int(raw["total"]),
            targets=tuple(int(s) for s in raw["targets"]),
            given=tuple(int(g) for g in raw["given"]),
            estimated=bool(raw.get("estimated", False)),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise PositionError(f"'bonus' is malformed: {exc}") from None


def position(
    game: TugOfWar,
    starters: Sequence[Tile | None],
    hands: Sequence[Sequence[Tile] | None],
    boneyard: Sequence[Tile] = (),
    current: int = 0,
    scores: Sequence[int] | None = None,
    laid: Sequence[tuple[Sequence[Tile], Sequence[Tile]]] | None = None,
    round_no: int = 1,
) -> TugState:
    """A mid-round position built by hand: ``current`` to play.

    ``starters[s]`` is seat ``s``'s starter as laid (None: seat not in the round);
    ``laid[s]`` optionally gives the tiles already laid on its end 0 and end 1 as
    ``(half matched, half left open)``. Tiles not named anywhere are simply out of play.
    """
    n = game.num_players
    scores = list(scores) if scores is not None else [0] * n
    trains: list[Any] = []
    for s, st in enumerate(starters):
        if st is None:
            trains.append(None)
            continue
        sides = laid[s] if laid is not None else ((), ())
        trains.append(
            {
                "starter": list(st),
                "end0": [list(t) for t in sides[0]],
                "end1": [list(t) for t in sides[1]],
            }
        )
    playing = [st is not None for st in starters]
    hand_lists = [[list(t) for t in h] if h is not None else [] for h in hands]
    data = {
        "view": None,
        "round": round_no,
        "phase": TURN,
        "in_game": [True] * n,
        "playing": playing,
        "pool": None,
        "scores": scores,
        "start_scores": scores,
        "round_points": [0] * n,
        "trains": trains,
        "hands": hand_lists,
        "hand_sizes": [len(h) for h in hand_lists],
        "boneyard": [list(t) for t in boneyard],
        "boneyard_size": len(boneyard),
        "dealt": sum(playing) * (1 + game.hand_size),
        "first": current,
        "current": current,
        "passes": 0,
        "drawn": None,
        "bonus": None,
        "outcome": None,
    }
    return state_from_json(game, data)
