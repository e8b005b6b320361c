"""Tug of War as numbers: the fields of a seat's observation vector.

After the common header (see :mod:`taut.core.observation`); ``n`` players, ``T`` tiles
ordered ``0-0, 0-1, ..., m-m`` (``m`` the set's top number), ``P`` the set's total pips:

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
"""

from __future__ import annotations

from collections.abc import Sequence

from taut.core.game import Game, State
from taut.core.observation import INF, FieldSpec, Layout, Observation, Observer
from taut.games.tug_of_war.model import OVER, PHASES, TugModel
from taut.games.tug_of_war.rules import TugOfWar


class TugOfWarObserver(Observer):
    """The table as a seat sees it: phase, scores, own hand, trains and the bonus."""

    def fields(self, game: Game) -> Sequence[FieldSpec]:
        """The fields after the common header, in vector order."""
        assert isinstance(game, TugOfWar)
        n = game.num_players
        ds = game.dominoes
        t = ds.size
        faces = ds.top + 1
        pips = float(ds.total_pips)
        return [
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

    def fill(self, game: Game, view: State, seat: int, out: Observation, layout: Layout) -> None:
        """Write ``seat``'s view: public facts, its own hand and the tile it just drew."""
        assert isinstance(game, TugOfWar) and isinstance(view, TugModel)
        out[layout.start("phase") + PHASES.index(view.phase)] = 1.0
        out[layout.start("round")] = view.round
        out[layout.slice("in_game")] = view.in_game
        out[layout.slice("playing")] = view.playing
        out[layout.slice("scores")] = view.scores
        out[layout.slice("start_scores")] = view.start_scores
        out[layout.slice("round_points")] = view.points
        out[layout.slice("hand_sizes")] = view.sizes
        out[layout.start("boneyard_size")] = view.stock_size
        own = view.hands[seat]
        if own is not None:
            at = layout.start("hand")
            for tile in own:
                out[at + tile] = 1.0
        if view.drawn >= 0:
            # A view keeps the drawn tile only for the seat that drew it.
            out[layout.start("drawn") + view.drawn] = 1.0
        _fill_trains(game, view, out, layout)
        if view.first >= 0:
            out[layout.start("first") + view.first] = 1.0
        out[layout.start("passes")] = view.passes
        _fill_bonus(view, out, layout)


def _fill_trains(game: TugOfWar, view: TugModel, out: Observation, layout: Layout) -> None:
    ds = game.dominoes
    t = ds.size
    faces = ds.top + 1
    ends_at = layout.start("open_ends")
    tiles_at = layout.start("train_tiles")
    index = ds.index
    for j in range(game.num_players):
        ends = view.ends[j]
        if ends is not None:
            base = ends_at + j * 2 * faces
            out[base + ends[0]] = 1.0
            out[base + faces + ends[1]] = 1.0
        line = view.trains[j]
        if line is not None:
            starter, side0, side1 = line
            base = tiles_at + j * t
            out[base + index(*starter)] = 1.0
            for laid in (*side0, *side1):
                out[base + index(*laid)] = 1.0


def _fill_bonus(view: TugModel, out: Observation, layout: Layout) -> None:
    bonus = view.bonus
    if bonus is None:
        return
    out[layout.start("bonus_winner") + bonus.winner] = 1.0
    target = bonus.target
    if target is not None and view.phase != OVER:
        out[layout.start("bonus_target") + target] = 1.0
    pips_at = layout.start("bonus_pips")
    for s, p in enumerate(bonus.pips):
        if p is not None:
            out[pips_at + s] = p
    given_at = layout.start("bonus_given")
    for s, g in zip(bonus.targets, bonus.given, strict=False):
        out[given_at + s] = g
    out[layout.start("bonus_total")] = bonus.total
    out[layout.start("bonus_remaining")] = bonus.remaining
    out[layout.start("bonus_blocked")] = 1.0 if bonus.blocked else 0.0
