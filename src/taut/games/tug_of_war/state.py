"""The Tug of War state machine: deals, turns, draws, passes, bonuses and round ends.

A state is an immutable value. Its ``phase`` says what happens next:

* ``deal`` (chance): the next tile of the deal. Starters come first, one per seat in the
  round in seat order (an oriented tile: its first half is end 0 of that seat's train),
  then the hands, seat by seat;
* ``turn`` (decision): the player to move plays a tile, or draws when nothing fits and the
  boneyard has tiles, or passes when it is empty;
* ``drawing`` (chance): the tile drawn after a ``draw`` action;
* ``drawn`` (decision): the drawing player must play the drawn tile if it fits anywhere
  (choosing where), otherwise passes;
* ``bonus`` (decision): the round's winner allocates the leftover pips (see ``rules.py``);
* ``over``: the game has ended.

A state is either the full truth or a *view* for one seat (``viewer``) or a spectator
(``viewer`` None, ``is_view`` True): hidden hands are None (their sizes stay known), the
boneyard's content is None (its size stays known) and a tile just drawn by someone else is
unknown. A view can still be played forward for its own seat; where it must know hidden
pips (a hypothetical round end) it uses their expected value over the unseen tiles.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from taut.core.game import CHANCE_SEAT, JSON, NodeKind, Outcome, State
from taut.games.tug_of_war.scoring import finish_round, game_returns
from taut.games.tug_of_war.tiles import Tile

if TYPE_CHECKING:
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


_get = object.__getattribute__
_set = object.__setattr__

_FIELDS = (
    "game",
    "viewer",
    "is_view",
    "phase",
    "round",
    "in_game",
    "playing",
    "pool",
    "scores",
    "start_scores",
    "points",
    "trains",
    "ends",
    "hands",
    "sizes",
    "stock",
    "stock_size",
    "dealt",
    "first",
    "current",
    "passes",
    "drawn",
    "bonus",
    "outcome_",
)


class TugState(State):
    """A Tug of War position (or a seat's view of one). Fields are read-only by contract."""

    __slots__ = (*_FIELDS, "_legal", "_order")

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
    _legal: tuple[int, ...] | None
    _order: tuple[int, ...] | None

    # -- construction ----------------------------------------------------------------------

    @classmethod
    def start(cls, game: TugOfWar) -> TugState:
        """The first round, about to be dealt."""
        n = game.num_players
        zeros = (0,) * n
        everyone = (True,) * n
        return cls._make(
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
        )

    @classmethod
    def _make(cls, **fields: Any) -> TugState:
        new = object.__new__(cls)
        for name in _FIELDS:
            object.__setattr__(new, name, fields[name])
        new._legal = None
        new._order = None
        return new

    def _with(self, **changes: Any) -> TugState:
        """A copy with ``changes`` (the hot path of every move)."""
        new = object.__new__(TugState)
        for name in _FIELDS:
            _set(new, name, _get(self, name))
        for name, value in changes.items():
            _set(new, name, value)
        new._legal = None
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

    def _plays(self, tiles: Sequence[int]) -> list[int]:
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
            plays = self._plays(sorted(hand))
            if plays:
                return tuple(plays)
            return (game.DRAW,) if self.stock_size > 0 else (game.PASS,)
        if phase == DRAWN:
            if self.drawn < 0:
                return ()
            return tuple(self._plays((self.drawn,))) or (game.PASS,)
        if phase == BONUS:
            bonus = self.bonus
            assert bonus is not None
            if bonus.target is None:
                return (game.KEEP,)
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

    def illegal_reason(self, seat: int, action: int) -> str:
        """Explain why ``action`` is not allowed for ``seat`` here."""
        from taut.games.tug_of_war.notation import explain_illegal

        return explain_illegal(self, seat, action)

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
            order = self.order
            k = self.dealt
            if k < len(order):
                return outcome
            owner = order[(k - len(order)) // self.game.hand_size]
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

    # -- transitions --------------------------------------------------------------------

    def _apply(self, joint: dict[int, int]) -> TugState:
        if CHANCE_SEAT in joint:
            outcome = joint[CHANCE_SEAT]
            return self._deal(outcome) if self.phase == DEAL else self._draw_tile(outcome)
        ((seat, action),) = joint.items()
        game = self.game
        if action < game.num_plays:
            return self._play(seat, action)
        if action == game.DRAW:
            return self._with(phase=DRAWING)
        if action == game.PASS:
            return self._pass()
        if action == game.KEEP:
            return self._keep()
        return self._give(action - game.GIVE0)

    def _deal(self, outcome: int) -> TugState:
        game = self.game
        ds = game.dominoes
        a, b = ds.unorient(outcome)
        tile = ds.index(a, b)
        order = self.order
        k = self.dealt
        stock = None if self.stock is None else self.stock - {tile}
        changes: dict[str, Any] = {
            "dealt": k + 1,
            "stock": stock,
            "stock_size": self.stock_size - 1,
        }
        if k < len(order):
            seat = order[k]
            trains = list(self.trains)
            ends = list(self.ends)
            trains[seat] = ((a, b), (), ())
            ends[seat] = (a, b)
            changes["trains"] = tuple(trains)
            changes["ends"] = tuple(ends)
        else:
            seat = order[(k - len(order)) // game.hand_size]
            hand = self.hands[seat]
            if hand is not None:
                hands = list(self.hands)
                hands[seat] = hand | {tile}
                changes["hands"] = tuple(hands)
            sizes = list(self.sizes)
            sizes[seat] += 1
            changes["sizes"] = tuple(sizes)
        if k + 1 == self.deal_length():
            ends_now: tuple[Tile | None, ...] = changes.get("ends", self.ends)
            first = max(order, key=lambda s: _starter_rank(ends_now[s]))
            changes.update(phase=TURN, first=first, current=first)
        return self._with(**changes)

    def _draw_tile(self, outcome: int) -> TugState:
        ds = self.game.dominoes
        tile = ds.index(*ds.unorient(outcome))
        seat = self.current
        hands = self.hands
        drawn = -1
        hand = hands[seat]
        if hand is not None:
            hands = (*hands[:seat], hand | {tile}, *hands[seat + 1 :])
            drawn = tile
        sizes = list(self.sizes)
        sizes[seat] += 1
        return self._with(
            phase=DRAWN,
            hands=hands,
            sizes=tuple(sizes),
            stock=None if self.stock is None else self.stock - {tile},
            stock_size=self.stock_size - 1,
            drawn=drawn,
        )

    def _play(self, seat: int, action: int) -> TugState:
        game = self.game
        tile, train, end = game.decode_play(action)
        ends_j = self.ends[train]
        line = self.trains[train]
        assert ends_j is not None and line is not None
        matched = ends_j[end]
        opened = game.dominoes.other[tile][matched]
        new_ends = (opened, ends_j[1]) if end == 0 else (ends_j[0], opened)
        starter, side0, side1 = line
        if end == 0:
            line = (starter, (*side0, (matched, opened)), side1)
        else:
            line = (starter, side0, (*side1, (matched, opened)))
        total = new_ends[0] + new_ends[1]
        scores = list(self.scores)
        # Own train: the player gains the open ends' sum; another's: its owner loses it.
        scores[train] += total if train == seat else -total
        hand = self.hands[seat]
        assert hand is not None
        hands = (*self.hands[:seat], hand - {tile}, *self.hands[seat + 1 :])
        sizes = list(self.sizes)
        sizes[seat] -= 1
        ends = (*self.ends[:train], new_ends, *self.ends[train + 1 :])
        trains = (*self.trains[:train], line, *self.trains[train + 1 :])
        after = self._with(
            scores=tuple(scores),
            hands=hands,
            sizes=tuple(sizes),
            ends=ends,
            trains=trains,
            passes=0,
            drawn=-1,
        )
        if sizes[seat] == 0:
            return after._won(seat, blocked=False)
        return after._with(phase=TURN, current=self.next_seat(seat))

    def _pass(self) -> TugState:
        # Only passes made while the boneyard is empty count towards a block.
        passes = self.passes + 1 if self.stock_size == 0 else 0
        after = self._with(passes=passes, drawn=-1)
        if passes >= len(self.order):
            pips, _ = after.hand_pips()
            counted = {s: p for s, p in enumerate(pips) if p is not None}
            fewest = min(counted.values())
            lowest = [s for s, p in counted.items() if p == fewest]
            if len(lowest) == 1:
                return after._won(lowest[0], blocked=True)
            return after._end_round()
        return after._with(phase=TURN, current=self.next_seat(self.current))

    def _won(self, winner: int, blocked: bool) -> TugState:
        pips, estimated = self.hand_pips()
        order = self.order
        i = order.index(winner)
        targets = tuple(order[(i + k) % len(order)] for k in range(1, len(order)))
        total = sum(p for s, p in enumerate(pips) if p is not None and s != winner)
        bonus = Bonus(winner, blocked, pips, total, targets, (), estimated)
        return self._with(phase=BONUS, bonus=bonus, current=-1)

    def _give(self, points: int) -> TugState:
        bonus = self.bonus
        assert bonus is not None and bonus.target is not None
        scores = list(self.scores)
        scores[bonus.target] -= points
        new_bonus = Bonus(
            bonus.winner,
            bonus.blocked,
            bonus.pips,
            bonus.total,
            bonus.targets,
            (*bonus.given, points),
            bonus.estimated,
        )
        return self._with(scores=tuple(scores), bonus=new_bonus)

    def _keep(self) -> TugState:
        bonus = self.bonus
        assert bonus is not None
        scores = list(self.scores)
        scores[bonus.winner] += bonus.remaining
        return self._with(scores=tuple(scores))._end_round()

    def _end_round(self) -> TugState:
        game = self.game
        result = finish_round(
            game.end_rules,
            self.round,
            self.scores,
            self.start_scores,
            self.points,
            self.in_game,
            self.playing,
            self.pool,
        )
        if result.outcome is not None:
            return self._with(
                phase=OVER,
                points=result.points,
                in_game=result.in_game,
                current=-1,
                outcome_=result.outcome,
            )
        n = game.num_players
        playing = (
            tuple(s in result.pool for s in range(n)) if result.pool is not None else result.in_game
        )
        if self.is_view:
            hands: tuple[frozenset[int] | None, ...] = tuple(
                frozenset() if s == self.viewer else None for s in range(n)
            )
            stock = None
        else:
            hands = (frozenset(),) * n
            stock = frozenset(range(game.dominoes.size))
        return self._with(
            phase=DEAL,
            round=self.round + 1,
            in_game=result.in_game,
            playing=playing,
            pool=result.pool,
            start_scores=self.scores,
            points=result.points,
            trains=(None,) * n,
            ends=(None,) * n,
            hands=hands,
            sizes=(0,) * n,
            stock=stock,
            stock_size=game.dominoes.size,
            dealt=0,
            first=-1,
            current=-1,
            passes=0,
            drawn=-1,
            bonus=None,
        )

    # -- notation -------------------------------------------------------------------------

    def action_to_string(self, seat: int, action: int) -> str:
        """The action in Tug of War notation (``3-5@1.0``, ``draw``, ``-12@2``, ...)."""
        from taut.games.tug_of_war.notation import action_to_string

        return action_to_string(self, seat, action)

    def string_to_action(self, seat: int, text: str) -> int:
        """Parse notation; raises MalformedActionError naming what is allowed."""
        from taut.games.tug_of_war.notation import string_to_action

        return string_to_action(self, seat, text)

    def action_to_json(self, seat: int, action: int) -> JSON:
        """The action as an object, e.g. ``{"type": "play", "tile": [3, 5], ...}``."""
        from taut.games.tug_of_war.notation import action_to_json

        return action_to_json(self, seat, action)

    def action_from_json(self, seat: int, data: JSON) -> int:
        """Inverse of :meth:`action_to_json` (also accepts a notation string)."""
        from taut.games.tug_of_war.notation import action_from_json

        return action_from_json(self, seat, data)

    # -- results -------------------------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """The winner and why (``target``, ``out``, ``last standing``, ``rounds``,
        ``round points``, ``tie-break``), or None while the game goes on."""
        return self.outcome_

    def returns(self) -> tuple[float, ...]:
        """+1 for the winner, ``-1/(n-1)`` for the others; zeros while the game goes on."""
        return game_returns(self.game.num_players, self.outcome_)

    # -- information ----------------------------------------------------------------------

    def view(self, seat: int | None) -> TugState:
        """What ``seat`` may know (None: a spectator); see :mod:`.view`."""
        from taut.games.tug_of_war.view import make_view

        return make_view(self, seat)

    def to_json(self) -> JSON:
        """The state (or view) as JSON; a view's JSON holds no hidden tile."""
        from taut.games.tug_of_war.position import state_to_json

        return state_to_json(self)

    def __str__(self) -> str:
        from taut.games.tug_of_war.render import render

        return render(self)

    def __repr__(self) -> str:
        who = "" if not self.is_view else f", view={self.viewer}"
        return (
            f"TugState(round={self.round}, phase={self.phase!r}, scores={list(self.scores)}{who})"
        )


def _starter_rank(ends: Tile | None) -> tuple[int, int]:
    """Starters compare by their higher half, then by the lower one."""
    assert ends is not None
    a, b = ends
    return (max(a, b), min(a, b))


def state_from_json(game: TugOfWar, data: JSON) -> TugState:
    """Rebuild a state or a view (see :func:`taut.games.tug_of_war.position.state_from_json`)."""
    from taut.games.tug_of_war.position import state_from_json as read

    return read(game, data)
