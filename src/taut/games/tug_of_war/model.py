"""The Tug of War state model: a position's fields, the facts derived from them, who acts,
the legal actions and chance.

(Longer than 400 lines: one immutable state: its fields, the facts derived from them,
legality and chance, read together by every phase.)

A state is an immutable value. Its ``phase`` says what happens next:

* ``deal`` (chance): the next tile of the deal. Starters come first, one per seat in the
  round in seat order (an oriented tile: its first half is end 0 of that seat's train),
  then the hands, seat by seat;
* ``turn`` (decision): the player to move plays a tile, or draws when nothing fits and the
  boneyard has tiles, or passes when it is empty;
* ``drawing`` (chance): the tile drawn after a ``draw`` action;
* ``drawn`` (decision): the drawing player must play the drawn tile if it fits anywhere
  (choosing where), otherwise passes;
* ``bonus`` (decision): the round's winner allocates the leftover pips (see ``rules.py``;
  with two players it is kept whole or taken whole from the opponent);
* ``over``: the game has ended.

A state is either the full truth or a *view* for one seat (``viewer``) or a spectator
(``viewer`` None, ``is_view`` True): hidden hands are None (their sizes stay known), the
boneyard's content is None (its size stays known) and a tile just drawn by someone else is
unknown. A view can still be played forward for its own seat; where it must know hidden
pips (a hypothetical round end) it uses their expected value over the unseen tiles.

How a state moves on is in :mod:`.transitions`; the protocol's notation, JSON and views
are added by :class:`~taut.games.tug_of_war.state.TugState`. New states are always made
with ``type(self)``, so every state of a game has the game's full state class.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Self

from taut.core.game import State
from taut.core.terms import CHANCE_SEAT, NodeKind, Outcome
from taut.games.tug_of_war.scoring import game_returns
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:  # annotations only: the rules import this module (through state)
    from taut.games.tug_of_war.rules import TugOfWar

DEAL, TURN, DRAWING, DRAWN, BONUS, OVER = "deal", "turn", "drawing", "drawn", "bonus", "over"
PHASES = (DEAL, TURN, DRAWING, DRAWN, BONUS, OVER)

Line = tuple[Tile, tuple[Tile, ...], tuple[Tile, ...]]
"""A train: its starter ``(end-0 half, end-1 half)`` and the tiles laid on end 0 and on end
1, each as ``(half matched, half left open)``, in the order they were laid."""


@dataclass(frozen=True)
class Bonus:
    """The leftover pips of a won round and how much of them is handed out so far."""

    winner: int
    blocked: bool
    """True when the round was blocked and won on fewest pips."""
    pips: tuple[int | None, ...]
    """Pips left in each hand at the round's end (None: seat not in the round)."""
    total: int
    """The leftover: every other hand's pips."""
    targets: tuple[int, ...]
    """The winner's opponents in allocation order (clockwise from the winner)."""
    given: tuple[int, ...]
    """Points taken from ``targets[0]``, ``targets[1]``, ... so far."""
    estimated: bool = False
    """True in a view that guessed hidden pips (never in a real game)."""

    @property
    def remaining(self) -> int:
        """Leftover not yet handed out."""
        return self.total - sum(self.given)

    @property
    def target(self) -> int | None:
        """The opponent whose share is chosen now; None at the final keep step."""
        if self.remaining == 0 or len(self.given) >= len(self.targets):
            return None
        return self.targets[len(self.given)]

    def allocation(self) -> dict[int, int]:
        """Seat -> points: the winner's entry is what it keeps (the rest, so far)."""
        out = {s: 0 for s in self.targets}
        out.update(zip(self.targets, self.given, strict=False))
        out[self.winner] = self.remaining
        return dict(sorted(out.items()))


_set = object.__setattr__

FIELDS = (
    "game", "viewer", "is_view", "phase", "round", "in_game", "playing", "pool", "scores",
    "start_scores", "points", "trains", "ends", "hands", "sizes", "stock", "stock_size",
    "dealt", "first", "current", "passes", "drawn", "bonus", "outcome_", "voids",
)  # fmt: skip
"""Every field of a state, in the order :meth:`TugModel.make` expects them."""


def _copier() -> Callable[[Any, Any], None]:
    """A function copying every field of :data:`FIELDS` from one state to another, written
    out one field a line: a move copies its state a few times, and a loop over the names
    costs five times as much."""
    lines = "".join(f"    new.{name} = old.{name}\n" for name in FIELDS)
    found: dict[str, Any] = {}
    # The text is made from FIELDS alone.
    exec(f"def copied(old, new):\n{lines}", found)
    copied: Callable[[Any, Any], None] = found["copied"]
    return copied


_copied = _copier()


class TugModel(State):
    """A Tug of War position (or a seat's view of one). Fields are read-only by contract."""

    __slots__ = (*FIELDS, "_legal", "_order", "_said")

    game: TugOfWar
    viewer: int | None
    """The seat this view belongs to (None: the full state or a spectator's view)."""
    is_view: bool
    phase: str
    round: int
    """The round being played, from 1 (tie-break rounds continue the count)."""
    in_game: tuple[bool, ...]
    """False for a seat that is out of the game."""
    playing: tuple[bool, ...]
    """True for the seats dealt into this round."""
    pool: tuple[int, ...] | None
    """During tie-break rounds: the seats that play them."""
    scores: tuple[int, ...]
    start_scores: tuple[int, ...]
    """Scores when this round began."""
    points: tuple[int, ...]
    """Round points (``end=round-points``)."""
    trains: tuple[Line | None, ...]
    ends: tuple[Tile | None, ...]
    """The two open ends of each train (None: no train this round, or not dealt yet)."""
    hands: tuple[frozenset[int] | None, ...]
    """Tile ids in each hand; None where this view cannot see the hand."""
    sizes: tuple[int, ...]
    """Tiles in each hand."""
    stock: frozenset[int] | None
    """Tiles still to be dealt or drawn (the boneyard after the deal); None in a view."""
    stock_size: int
    dealt: int
    """Tiles dealt so far this round."""
    first: int
    """The round's first player (-1 until the deal is complete)."""
    current: int
    """The seat to move in ``turn``/``drawing``/``drawn`` (-1 otherwise)."""
    passes: int
    """Passes in a row made with the boneyard empty."""
    drawn: int
    """The tile just drawn (phase ``drawn``), or -1 (none, or unknown to this view)."""
    bonus: Bonus | None
    """The won round's leftover being handed out (phase ``bonus``; kept when the game ends)."""
    outcome_: Outcome | None
    """The outcome's value (the protocol's ``outcome`` property reads it)."""
    voids: tuple[int, ...]
    """Per seat, a bit mask of the numbers its hand is known not to hold (bit ``v``: no
    tile with a half ``v``), learnt from its draws and passes this round; public, since
    everyone sees the open ends and who draws. See :meth:`after_no_play`."""
    _legal: tuple[int, ...] | None
    _order: tuple[int, ...] | None
    _said: dict[tuple[int, str], int] | None  # moves read here, by seat and notation

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, game: TugOfWar) -> Self:
        """The first round, about to be dealt."""
        n = game.num_players
        zeros = (0,) * n
        everyone = (True,) * n
        return cls.make(
            game=game,
            viewer=None,
            is_view=False,
            phase=DEAL,
            round=1,
            in_game=everyone,
            playing=everyone,
            pool=None,
            scores=zeros,
            start_scores=zeros,
            points=zeros,
            trains=(None,) * n,
            ends=(None,) * n,
            hands=(frozenset(),) * n,
            sizes=zeros,
            stock=frozenset(range(game.dominoes.size)),
            stock_size=game.dominoes.size,
            dealt=0,
            first=-1,
            current=-1,
            passes=0,
            drawn=-1,
            bonus=None,
            outcome_=None,
            voids=zeros,
        )

    @classmethod
    def make(cls, **fields: Any) -> Self:
        """A state with every field of :data:`FIELDS` given (nothing is checked here: a
        position read from outside is checked by :mod:`.position`)."""
        new = object.__new__(cls)
        for name in FIELDS:
            _set(new, name, fields[name])
        new._legal = new._order = new._said = None
        return new

    def _with(self, **changes: Any) -> Self:
        """A copy with ``changes`` (the hot path of every move)."""
        new = object.__new__(type(self))
        _copied(self, new)
        for name, value in changes.items():
            _set(new, name, value)
        new._legal = new._said = None
        new._order = None if "playing" in changes else self._order
        return new

    # -- derived facts ----------------------------------------------------------------------

    @property
    def order(self) -> tuple[int, ...]:
        """Seats in this round, in seat (clockwise) order."""
        if self._order is None:
            self._order = tuple(s for s, p in enumerate(self.playing) if p)
        return self._order

    def next_seat(self, seat: int) -> int:
        """The next seat of this round clockwise after ``seat``."""
        order = self.order
        return order[(order.index(seat) + 1) % len(order)]

    def deal_length(self) -> int:
        """Tiles dealt in this round: a starter and a hand per seat."""
        return len(self.order) * (1 + self.game.hand_size)

    def is_starter_deal(self) -> bool:
        """True when the next chance outcome is a starter (an oriented tile)."""
        return self.phase == DEAL and self.dealt < len(self.order)

    def deal_owner(self) -> int | None:
        """At a deal: the seat the next tile goes to (None: a starter, dealt face up)."""
        order = self.order
        k = self.dealt
        if k < len(order):
            return None
        return order[(k - len(order)) // self.game.hand_size]

    def train_tiles(self) -> set[int]:
        """Ids of the tiles lying on the trains (known to everyone)."""
        index = self.game.dominoes.index
        out: set[int] = set()
        for line in self.trains:
            if line is None:
                continue
            starter, side0, side1 = line
            out.add(index(*starter))
            out.update(index(*t) for t in side0)
            out.update(index(*t) for t in side1)
        return out

    def open_numbers(self) -> int:
        """A bit mask of the numbers showing on the open ends of this round's trains."""
        mask = 0
        for j in self.order:
            e = self.ends[j]
            if e is not None:
                mask |= (1 << e[0]) | (1 << e[1])
        return mask

    def after_no_play(self, seat: int, kept: bool) -> tuple[int, ...]:
        """The voids once ``seat`` has shown that nothing in its hand fits an open end.

        Drawing, or passing with an empty boneyard, shows that no tile in hand has a
        number showing on an open end. A drawn tile that fits is played at once, leaving
        the hand as it was; one that does not fit (``kept``) lacks those numbers too but
        may hold numbers learnt earlier, so the seat's voids are then only the numbers
        showing now.
        """
        now = self.open_numbers()
        voids = list(self.voids)
        voids[seat] = now if kept else voids[seat] | now
        return tuple(voids)

    def unseen(self) -> list[int]:
        """Tiles this state's viewer cannot see, ascending: the boneyard and other hands.

        For the full state this is the boneyard's content (the only unknown to nature).
        """
        if not self.is_view:
            assert self.stock is not None
            return sorted(self.stock)
        hidden = set(range(self.game.dominoes.size)) - self.train_tiles()
        if self.viewer is not None:
            own = self.hands[self.viewer]
            if own is not None:
                hidden -= own
        return sorted(hidden)

    def hand_pips(self) -> tuple[tuple[int | None, ...], bool]:
        """Pips in each hand of the round (None for seats not in it) and whether any of
        them is an estimate (a hidden hand in a view: size times the unseen mean)."""
        pips = self.game.dominoes.pips
        mean: float | None = None
        estimated = False
        out: list[int | None] = []
        for s in range(self.game.num_players):
            hand = self.hands[s]
            if not self.playing[s]:
                out.append(None)
            elif hand is not None:
                out.append(sum(pips[t] for t in hand))
            else:
                if mean is None:
                    unseen = self.unseen()
                    mean = sum(pips[t] for t in unseen) / len(unseen) if unseen else 0.0
                out.append(round(self.sizes[s] * mean))
                estimated = True
        return tuple(out), estimated

    # -- who acts -----------------------------------------------------------------------

    @property
    def kind(self) -> NodeKind:
        """CHANCE while dealing or drawing, TERMINAL when over, else DECISION."""
        phase = self.phase
        if phase in (DEAL, DRAWING):
            return NodeKind.CHANCE
        if phase == OVER:
            return NodeKind.TERMINAL
        return NodeKind.DECISION

    def acting_seats(self) -> tuple[int, ...]:
        """The seat to move, the bonus winner, chance, or nobody."""
        phase = self.phase
        if phase in (DEAL, DRAWING):
            return (CHANCE_SEAT,)
        if phase == OVER:
            return ()
        if phase == BONUS:
            assert self.bonus is not None
            return (self.bonus.winner,)
        return (self.current,)

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.phase == OVER

    # -- actions ------------------------------------------------------------------------

    def plays(self, tiles: Sequence[int]) -> list[int]:
        """Play ids of ``tiles`` on every open end they fit, ascending for ascending tiles."""
        game = self.game
        other = game.dominoes.other
        n = game.num_players
        ends = self.ends
        order = self.order
        out: list[int] = []
        for t in tiles:
            fits = other[t]
            for j in order:
                e = ends[j]
                assert e is not None
                base = (t * n + j) * 2
                if fits[e[0]] >= 0:
                    out.append(base)
                if fits[e[1]] >= 0:
                    out.append(base + 1)
        return out

    def _compute_legal(self) -> tuple[int, ...]:
        phase = self.phase
        game = self.game
        if phase == TURN:
            hand = self.hands[self.current]
            if hand is None:
                return ()  # a view cannot know another seat's options
            plays = self.plays(sorted(hand))
            if plays:
                return tuple(plays)
            return (game.DRAW,) if self.stock_size > 0 else (game.PASS,)
        if phase == DRAWN:
            if self.drawn < 0:
                return ()
            return tuple(self.plays((self.drawn,))) or (game.PASS,)
        if phase == BONUS:
            bonus = self.bonus
            assert bonus is not None
            if bonus.target is None:
                return (game.KEEP,)
            if not game.split_bonus:
                # Two players: the leftover is kept whole or taken whole from the opponent.
                return (game.GIVE0, game.GIVE0 + bonus.remaining)
            return tuple(range(game.GIVE0, game.GIVE0 + bonus.remaining + 1))
        return ()

    def legal_actions(self, seat: int) -> Sequence[int]:
        """Legal action ids of ``seat``, ascending (empty when it does not act, or when this
        view cannot see what the acting seat holds)."""
        if seat not in self.acting_seats() or seat == CHANCE_SEAT:
            return ()
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    # -- chance -------------------------------------------------------------------------

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a deal or draw: oriented tile ids with their odds (uniform over the tiles
        this state's viewer cannot see; a starter's two orientations are equally likely)."""
        if self.phase != DEAL and self.phase != DRAWING:
            return []
        ds = self.game.dominoes
        tiles = self.unseen()
        if not tiles:
            return []
        if self.is_starter_deal():
            out: list[tuple[int, float]] = []
            p = 1.0 / len(tiles)
            for t in tiles:
                a, b = ds.tiles[t]
                if a == b:
                    out.append((ds.oriented(a, b), p))
                else:
                    out.append((ds.oriented(a, b), p / 2))
                    out.append((ds.oriented(b, a), p / 2))
            return sorted(out)
        p = 1.0 / len(tiles)
        canonical = ds.canonical
        return [(canonical[t], p) for t in tiles]

    def chance_observation(self, seat: int, outcome: int) -> object:
        """A starter is dealt face up; a hand tile or a drawn tile is seen by its owner only."""
        if self.phase == DEAL:
            owner = self.deal_owner()
            if owner is None:
                return outcome
        elif self.phase == DRAWING:
            owner = self.current
        else:
            return outcome
        return outcome if owner == seat else None

    def sample_chance(self, rng: random.Random) -> int:
        """Draw a chance outcome with one ``rng.random()``: a tile uniformly from the unseen
        ones (by index), and for a starter its orientation from the same number."""
        ds = self.game.dominoes
        tiles = self.unseen()
        if self.phase not in (DEAL, DRAWING) or not tiles:
            raise ValueError("not a chance node")
        count = len(tiles)
        r = rng.random()
        if self.is_starter_deal():
            k = min(int(r * 2 * count), 2 * count - 1)
            a, b = ds.tiles[tiles[k >> 1]]
            return ds.oriented(b, a) if k & 1 else ds.oriented(a, b)
        return ds.canonical_outcome(tiles[min(int(r * count), count - 1)])

    # -- results -------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """The winner and why (``target``, ``out``, ``last standing``, ``rounds``,
        ``round points``, ``tie-break``), or None while the game goes on."""
        return self.outcome_

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, ``-1/(n-1)`` for the others; zeros while the game goes on."""
        return game_returns(self.game.num_players, self.outcome_)

    def __repr__(self) -> str:
        who = "" if not self.is_view else f", view={self.viewer}"
        return (
            f"{type(self).__name__}(round={self.round}, phase={self.phase!r}, "
            f"scores={list(self.scores)}{who})"
        )


def ends_round(before: TugModel, after: TugModel) -> bool:
    """True when the step from ``before`` to ``after`` finished a round (or the game)."""
    return after.round != before.round or (after.phase == OVER and before.phase != OVER)
