"""How a Tug of War state moves on: deals, draws, plays, passes, bonus steps, round ends.

:class:`TugTransitions` adds the protocol's ``_apply`` to the state model. Every step
returns a new state of the same class (``type(self)``); nothing is changed in place.
"""

from __future__ import annotations

from typing import Any, Self

from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war.model import BONUS, DEAL, DRAWING, DRAWN, OVER, TURN, Bonus, TugModel
from taut.games.tug_of_war.scoring import finish_round
from taut.games.tug_of_war.tiles import Tile


def starter_rank(ends: Tile | None) -> tuple[int, int]:
    """Starters compare by their higher half, then by the lower one."""
    assert ends is not None
    a, b = ends
    return (max(a, b), min(a, b))


class TugTransitions(TugModel):
    """The state model with its moves."""

    __slots__ = ()

    def _apply(self, joint: dict[int, int]) -> Self:
        if CHANCE_SEAT in joint:
            outcome = joint[CHANCE_SEAT]
            return self._deal(outcome) if self.phase == DEAL else self._draw_tile(outcome)
        ((seat, action),) = joint.items()
        game = self.game
        if action < game.num_plays:
            return self._play(seat, action)
        if action == game.DRAW:
            return self._with(phase=DRAWING, voids=self.after_no_play(seat, kept=False))
        if action == game.PASS:
            return self._pass()
        if action == game.KEEP:
            return self._keep()
        return self._give(action - game.GIVE0)

    # -- chance ---------------------------------------------------------------------------

    def _deal(self, outcome: int) -> Self:
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
            first = max(order, key=lambda s: starter_rank(ends_now[s]))
            changes.update(phase=TURN, first=first, current=first)
        return self._with(**changes)

    def _draw_tile(self, outcome: int) -> Self:
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

    # -- decisions ------------------------------------------------------------------------

    def _play(self, seat: int, action: int) -> Self:
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

    def _pass(self) -> Self:
        # Only passes made while the boneyard is empty count towards a block.
        passes = self.passes + 1 if self.stock_size == 0 else 0
        # After a draw the tile drawn stays in hand: it fits nowhere either.
        voids = self.after_no_play(self.current, kept=self.phase == DRAWN)
        after = self._with(passes=passes, drawn=-1, voids=voids)
        if passes >= len(self.order):
            pips, _ = after.hand_pips()
            counted = {s: p for s, p in enumerate(pips) if p is not None}
            fewest = min(counted.values())
            lowest = [s for s, p in counted.items() if p == fewest]
            if len(lowest) == 1:
                return after._won(lowest[0], blocked=True)
            return after._end_round()
        return after._with(phase=TURN, current=self.next_seat(self.current))

    # -- the round's end ------------------------------------------------------------------

    def _won(self, winner: int, blocked: bool) -> Self:
        pips, estimated = self.hand_pips()
        order = self.order
        i = order.index(winner)
        targets = tuple(order[(i + k) % len(order)] for k in range(1, len(order)))
        total = sum(p for s, p in enumerate(pips) if p is not None and s != winner)
        bonus = Bonus(winner, blocked, pips, total, targets, (), estimated)
        return self._with(phase=BONUS, bonus=bonus, current=-1)

    def _give(self, points: int) -> Self:
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

    def _keep(self) -> Self:
        bonus = self.bonus
        assert bonus is not None
        scores = list(self.scores)
        scores[bonus.winner] += bonus.remaining
        return self._with(scores=tuple(scores))._end_round()

    def _end_round(self) -> Self:
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
            voids=(0,) * n,
        )
