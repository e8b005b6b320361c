"""Writing a game's own record fields: the rounds, as dealt and played, and the result.

:class:`RoundsWriter` watches every node of a game (full states, never views) and keeps the
fields described in :mod:`.record`: per round the starters, the hands, the boneyard (the
tiles drawn, in the order drawn, then the tiles never drawn by tile id), the first player,
the events and the scores after the round; and once the game is over the final scores and
the winner. Only complete rounds are written, so the fields of a game still going on stop
at the last round finished.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from taut.core.terms import CHANCE_SEAT, JSON
from taut.games.tug_of_war.model import DEAL, OVER, TugModel, ends_round

if TYPE_CHECKING:
    from taut.games.tug_of_war.rules import TugOfWar


class RoundsWriter:
    """The record fields of one game, written node by node."""

    def __init__(self, game: TugOfWar) -> None:
        self.game = game
        self.rounds: list[dict[str, Any]] = []
        self.final_scores: list[int] | None = None
        self.winner: int | None = None
        self._round: dict[str, Any] | None = None
        self._drawn: list[int] = []

    def fields(self) -> dict[str, JSON]:
        """``players``, ``rounds`` (the complete ones), ``final_scores`` and ``winner``
        (null while the game goes on)."""
        return {
            "players": self.game.num_players,
            "rounds": list(self.rounds),
            "final_scores": self.final_scores,
            "winner": self.winner,
        }

    def observe(self, before: TugModel, joint: Mapping[int, int], after: TugModel) -> None:
        """Note one node: ``before`` and ``after`` are full states."""
        assert not before.is_view, "records are written from full states"
        if before.phase == DEAL and before.dealt == 0:
            self._start_round(before)
        rnd = self._round
        # A game taken up in the middle of a round (nothing of its deal seen) is not written
        # until the next round starts.
        if rnd is not None:
            if CHANCE_SEAT in joint:
                self._chance(rnd, before, joint[CHANCE_SEAT], after)
            else:
                ((seat, action),) = joint.items()
                self._decision(rnd["events"], before, seat, action)
            if ends_round(before, after):
                self._end_round(rnd, before, after)
        if after.phase == OVER and before.phase != OVER:
            self.final_scores = list(after.scores)
            out = after.outcome
            self.winner = out.winners[0] if out is not None and out.winners else None

    def _start_round(self, before: TugModel) -> None:
        n = self.game.num_players
        self._round = {
            "starters": [None] * n,
            "hands": [[] if before.playing[s] else None for s in range(n)],
            "boneyard": [],
            "first": None,
            "events": [],
            "scores_after": None,
        }
        self._drawn = []

    def _chance(self, rnd: dict[str, Any], before: TugModel, outcome: int, after: TugModel) -> None:
        ds = self.game.dominoes
        a, b = ds.unorient(outcome)
        if before.phase != DEAL:
            self._drawn.append(ds.index(a, b))
            rnd["events"].append({"seat": before.current, "type": "draw", "tile": [a, b]})
            return
        owner = before.deal_owner()
        if owner is None:
            rnd["starters"][before.order[before.dealt]] = [a, b]
        else:
            rnd["hands"][owner].append([a, b])
        if after.phase != DEAL:
            rnd["first"] = after.first

    def _decision(
        self, events: list[dict[str, Any]], before: TugModel, seat: int, action: int
    ) -> None:
        game = self.game
        if action < game.num_plays:
            # The tile as laid: the half that meets the end, then the half left open.
            tile, train, end = game.decode_play(action)
            ends = before.ends[train]
            assert ends is not None
            matched = ends[end]
            laid = [matched, game.dominoes.other[tile][matched]]
            events.append({"seat": seat, "type": "play", "tile": laid, "train": train, "end": end})
        elif action == game.PASS:
            events.append({"seat": seat, "type": "pass"})
        elif action == game.KEEP:
            # The shares are written once, whole, when the last step (keep) is taken.
            bonus = before.bonus
            assert bonus is not None
            allocation = {str(s): p for s, p in bonus.allocation().items()}
            events.append({"seat": seat, "type": "bonus", "allocation": allocation})

    def _end_round(self, rnd: dict[str, Any], before: TugModel, after: TugModel) -> None:
        ds = self.game.dominoes
        assert before.stock is not None
        rest = sorted(before.stock)
        rnd["boneyard"] = [list(ds.tiles[t]) for t in (*self._drawn, *rest)]
        rnd["scores_after"] = list(after.scores)
        self.rounds.append(rnd)
        self._round = None
