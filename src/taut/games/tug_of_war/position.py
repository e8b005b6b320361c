"""States as JSON, and positions built by hand (for tests, puzzles and analysis).

The JSON of a state lists tiles as ``[a, b]``. Hands and the boneyard are sorted lists of
tiles (low half first); in a view, hidden hands, the boneyard and another seat's drawn tile
are ``null`` while their sizes stay. Trains keep their shape: the starter as laid, then the
tiles laid on end 0 and on end 1 as ``[half matched, half left open]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from taut.core.errors import PositionError
from taut.core.terms import JSON, Outcome
from taut.games.tug_of_war.model import DEAL, OVER, PHASES, TURN, Bonus, Line, TugModel
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar
    from taut.games.tug_of_war.state import TugState

M = TypeVar("M", bound=TugModel)


def _tiles_json(state: TugModel, tiles: frozenset[int] | None) -> list[list[int]] | None:
    if tiles is None:
        return None
    ds = state.game.dominoes
    return [list(ds.tiles[t]) for t in sorted(tiles)]


def _train_json(line: Line | None, ends: Tile | None) -> JSON:
    if line is None or ends is None:
        return None
    starter, side0, side1 = line
    return {
        "starter": list(starter),
        "end0": [list(t) for t in side0],
        "end1": [list(t) for t in side1],
        "ends": list(ends),
    }


def _bonus_json(bonus: Bonus | None) -> JSON:
    if bonus is None:
        return None
    return {
        "winner": bonus.winner,
        "blocked": bonus.blocked,
        "pips": list(bonus.pips),
        "total": bonus.total,
        "targets": list(bonus.targets),
        "given": list(bonus.given),
        "estimated": bonus.estimated,
    }


def state_to_json(state: TugModel) -> JSON:
    """The state as a JSON object (see the module docstring)."""
    ds = state.game.dominoes
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
        "trains": [_train_json(*pair) for pair in zip(state.trains, state.ends, strict=True)],
        "hands": [_tiles_json(state, h) for h in state.hands],
        "hand_sizes": list(state.sizes),
        "boneyard": _tiles_json(state, state.stock),
        "boneyard_size": state.stock_size,
        "dealt": state.dealt,
        "first": None if state.first < 0 else state.first,
        "current": None if state.current < 0 else state.current,
        "passes": state.passes,
        "drawn": None if state.drawn < 0 else list(ds.tiles[state.drawn]),
        "bonus": _bonus_json(state.bonus),
        "outcome": None
        if out is None
        else {"winners": list(out.winners), "reason": out.reason.name},
    }


class _Reader:
    """Field readers that raise PositionError naming the field."""

    def __init__(self, game: TugOfWar, data: dict[str, Any]) -> None:
        self.game = game
        self.data = data
        self.n = game.num_players

    # -- single values ------------------------------------------------------------------

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

    def per_seat(self, key: str, kind: type, default: Any = ...) -> tuple[Any, ...]:
        """One ``kind`` value per seat."""
        v = self.get(key, default)
        if (
            not isinstance(v, list)
            or len(v) != self.n
            or not all(isinstance(x, kind) and (kind is bool or not isinstance(x, bool)) for x in v)
        ):
            raise PositionError(
                f"position field {key!r} must list one {kind.__name__} per seat ({self.n})"
            )
        return tuple(v)

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

    # -- the parts of a position --------------------------------------------------------

    def viewer(self) -> tuple[bool, int | None]:
        """``(is_view, viewer)`` from the ``view`` field."""
        view = self.get("view", None)
        if view is None:
            return False, None
        if view == "spectator":
            return True, None
        if isinstance(view, int) and not isinstance(view, bool) and 0 <= view < self.n:
            return True, view
        raise PositionError(f"'view' must be null, 'spectator' or a seat, got {view!r}")

    def phase(self) -> str:
        """The phase, one of :data:`PHASES`."""
        phase = self.get("phase")
        if phase not in PHASES:
            raise PositionError(f"'phase' must be one of {', '.join(PHASES)}, got {phase!r}")
        return str(phase)

    def trains(self) -> tuple[tuple[Line | None, ...], tuple[Tile | None, ...]]:
        """Every seat's train and its two open ends (each laid tile must match its end)."""
        raw_trains = self.get("trains")
        if not isinstance(raw_trains, list) or len(raw_trains) != self.n:
            raise PositionError(f"'trains' must list one train (or null) per seat ({self.n})")
        trains: list[Line | None] = []
        ends: list[Tile | None] = []
        for j, raw in enumerate(raw_trains):
            if raw is None:
                trains.append(None)
                ends.append(None)
                continue
            if not isinstance(raw, dict):
                raise PositionError(f"train {j} must be an object with starter, end0, end1")
            line = self.train(j, raw)
            trains.append(line)
            ends.append(_open_ends(line))
        return tuple(trains), tuple(ends)

    def train(self, j: int, raw: dict[str, Any]) -> Line:
        """Train ``j``: its starter and the tiles laid on each end."""
        starter = self.tile(raw.get("starter"), f"train {j} starter")
        sides: list[tuple[Tile, ...]] = []
        for e in (0, 1):
            side = raw.get(f"end{e}", [])
            if not isinstance(side, list):
                raise PositionError(f"train {j} end{e} must be a list of tiles")
            showing = starter[e]
            laid = []
            for t in side:
                a, b = self.tile(t, f"train {j} end{e}")
                if a != showing:
                    raise PositionError(
                        f"train {j} end{e}: [{a}, {b}] does not match the open end {showing}"
                    )
                showing = b
                laid.append((a, b))
            sides.append(tuple(laid))
        return starter, sides[0], sides[1]

    def hands(self, is_view: bool) -> tuple[tuple[frozenset[int] | None, ...], tuple[int, ...]]:
        """The hands (None where hidden; only a view hides them) and their sizes."""
        raw_hands = self.get("hands")
        if not isinstance(raw_hands, list) or len(raw_hands) != self.n:
            raise PositionError(f"'hands' must list one hand (or null) per seat ({self.n})")
        hands = tuple(
            None if h is None else self.tile_set(h, f"hand {s}") for s, h in enumerate(raw_hands)
        )
        if not is_view and any(h is None for h in hands):
            raise PositionError("a full position must show every hand (only views hide them)")
        sizes = self.per_seat("hand_sizes", int)
        for s, h in enumerate(hands):
            if h is not None and len(h) != sizes[s]:
                raise PositionError(f"hand {s} has {len(h)} tiles but hand_sizes says {sizes[s]}")
        return hands, sizes

    def stock(self, is_view: bool) -> tuple[frozenset[int] | None, int]:
        """The boneyard (None where hidden; only a view hides it) and its size."""
        raw_stock = self.get("boneyard", None)
        stock = None if raw_stock is None else self.tile_set(raw_stock, "boneyard")
        if not is_view and stock is None:
            raise PositionError("a full position must list the boneyard (only views hide it)")
        stock_size = self.int_("boneyard_size", low=0)
        if stock is not None and len(stock) != stock_size:
            raise PositionError(
                f"the boneyard has {len(stock)} tiles but boneyard_size is {stock_size}"
            )
        return stock, stock_size

    def drawn(self) -> int:
        """The drawn tile's id, or -1."""
        raw = self.get("drawn", None)
        return -1 if raw is None else self.game.dominoes.index(*self.tile(raw, "drawn"))

    def pool(self) -> tuple[int, ...] | None:
        """The seats of a tie-break, or None."""
        raw = self.get("pool", None)
        if raw is None:
            return None
        if not isinstance(raw, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < self.n for s in raw
        ):
            raise PositionError("'pool' must be null or a list of seats")
        return tuple(raw)

    def outcome(self, phase: str) -> Outcome | None:
        """The outcome, given exactly when the phase is ``over``."""
        raw = self.get("outcome", None)
        outcome = None
        if raw is not None:
            if (
                not isinstance(raw, dict)
                or not isinstance(raw.get("winners"), list)
                or not isinstance(raw.get("reason"), str)
            ):
                raise PositionError("'outcome' must be null or {winners: [...], reason: '...'}")
            try:
                reason = self.game.termination(raw["reason"])
            except ValueError as exc:
                raise PositionError(f"'outcome': {exc}") from None
            outcome = Outcome(tuple(int(w) for w in raw["winners"]), reason)
        if (phase == OVER) != (outcome is not None):
            raise PositionError("'outcome' must be given exactly when the phase is 'over'")
        return outcome


def _open_ends(line: Line) -> Tile:
    """The numbers showing at the two ends of a train."""
    starter, side0, side1 = line
    return (side0[-1][1] if side0 else starter[0], side1[-1][1] if side1 else starter[1])


def read_state(cls: type[M], game: TugOfWar, data: JSON) -> M:
    """Rebuild a state (or a view) of class ``cls`` from :func:`state_to_json`; raises
    PositionError naming the first malformed or impossible field."""
    if not isinstance(data, dict):
        raise PositionError("a Tug of War position must be a JSON object")
    r = _Reader(game, data)
    is_view, viewer = r.viewer()
    phase = r.phase()
    trains, ends = r.trains()
    hands, sizes = r.hands(is_view)
    stock, stock_size = r.stock(is_view)
    if not is_view:
        _check_partition(game, trains, hands, stock)
    drawn = r.drawn()
    pool = r.pool()
    bonus = _read_bonus(r.get("bonus", None))
    split = bonus is not None and any(g not in (0, bonus.total) for g in bonus.given)
    if bonus is not None and split and not game.split_bonus:
        raise PositionError(
            f"'bonus': with two players the leftover is not split; 'given' "
            f"{list(bonus.given)} must be [0] or [{bonus.total}]"
        )
    outcome = r.outcome(phase)
    state = cls.make(
        game=game,
        viewer=viewer,
        is_view=is_view,
        phase=phase,
        round=r.int_("round", low=1),
        in_game=r.per_seat("in_game", bool),
        playing=r.per_seat("playing", bool),
        pool=pool,
        scores=r.per_seat("scores", int),
        start_scores=r.per_seat("start_scores", int),
        points=r.per_seat("round_points", int),
        trains=trains,
        ends=ends,
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
        # What draws and passes revealed is not part of a position's JSON: nothing known.
        voids=(0,) * game.num_players,
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


def _read_bonus(raw: Any) -> Bonus | None:
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
    # The game builds its own state class from the JSON (this module sits below it).
    return cast("TugState", game.state_from_json(data))
