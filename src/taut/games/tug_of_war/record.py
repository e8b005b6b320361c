"""Tug of War's own record fields: the rounds as dealt and played, checked by replay.

Every record (:class:`~taut.core.record.GameRecord`) of a game holds, beside the moves,
these fields::

    {"players": N,
     "rounds": [{"starters": [[a, b] or null per seat], "hands": [[[a, b], ...] or null],
                 "boneyard": [[a, b], ...], "first": seat,
                 "events": [{"seat": i, "type": "play", "tile": [a, b], "train": j,
                             "end": 0 or 1},
                            {"seat": i, "type": "draw", "tile": [a, b]},
                            {"seat": i, "type": "pass"},
                            {"seat": i, "type": "bonus", "allocation": {"<seat>": k}}],
                 "scores_after": [...]}],
     "final_scores": [...], "winner": seat or null}

A starter is written as laid (its first half is end 0). Hands, the boneyard and drawn
tiles may be written in either orientation; a play's tile is written as laid (the half
that meets the end first), but either order is accepted. ``null`` marks a seat not dealt
into the round (out of the game, or sitting out a tie-break). Starters, hands and the
boneyard together hold every tile of the set exactly once; draws take the boneyard from
its start (the tiles drawn come first, in the order drawn, then the rest by tile id). A
bonus allocation's keys are the seats of the round written plainly (``"1"``, never
``"01"``), each once; in a two-player game one of its two entries holds the whole
leftover (it is never split).

Records written before the common format (with ``game``, ``options`` and ``seed`` beside
these fields and no ``moves``) are read too: their rounds are the whole game, which must be
over. In the common format a record whose ``result`` is null is a game still going on: its
rounds (only complete ones are written) may stop before the game is over.

:class:`TugRecordPart` writes and checks the fields for :class:`GameRecord`;
:func:`replay_record` and :func:`replay_lines` check records of the older form directly.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from taut.core.errors import TautError
from taut.core.game import Game, State
from taut.core.record_part import Joint, RecordPart
from taut.core.terms import JSON
from taut.games.tug_of_war.record_check import ReplayError, RoundsReplay
from taut.games.tug_of_war.record_writer import RoundsWriter
from taut.games.tug_of_war.rules import TugOfWar
from taut.games.tug_of_war.state import TugState

__all__ = ["ReplayError", "TugRecordPart", "replay_lines", "replay_record"]


def _tug(state: State) -> TugState:
    assert isinstance(state, TugState)
    return state


def is_unfinished(data: Mapping[str, Any]) -> bool:
    """True for a record of the common format (it has ``format``) with no result yet."""
    return "format" in data and data.get("result") is None


class TugRecordPart(RecordPart):
    """The rounds of a game as record fields (see the module docstring).

    ``record`` numbers the record in its file, for the messages of :class:`ReplayError`.
    """

    keys = ("players", "rounds", "final_scores", "winner")

    def __init__(self, game: Game, record: int | None = None) -> None:
        super().__init__(game)
        assert isinstance(game, TugOfWar)
        self.tug = game
        self.record = record
        self.writer = RoundsWriter(game)

    def observe(self, before: State, joint: Mapping[int, int], after: State) -> None:
        """Note one node (full states)."""
        self.writer.observe(_tug(before), joint, _tug(after))

    def fields(self) -> dict[str, JSON]:
        """The complete rounds so far, and the final scores and winner once the game is over."""
        return self.writer.fields()

    def replay(self, data: Mapping[str, JSON]) -> list[Joint]:
        """Check the rounds of ``data`` by the rules and return the joint actions they stand
        for (those of the complete rounds, for a game still going on)."""
        replay = RoundsReplay(self.tug, self.record)
        replay.check(data, unfinished=is_unfinished(data))
        return replay.joints


def replay_record(data: JSON, index: int | None = None) -> TugState:
    """Check a whole record of the older form (or the rounds of any record) by replaying
    it; return the final state.

    ``index`` is the record's number (1-based) for messages. Raises :class:`ReplayError`
    on the first impossible thing, as :meth:`RoundsReplay.check` lists; a record of another
    game, or with options the game refuses, too.
    """
    if not isinstance(data, dict):
        raise ReplayError("a record must be a JSON object", index)
    if data.get("game") != TugOfWar.name:
        raise ReplayError(f"'game' must be \"{TugOfWar.name}\", got {data.get('game')!r}", index)
    options = data.get("options")
    if not isinstance(options, dict):
        raise ReplayError("'options' is missing or not an object", index)
    try:
        game = TugOfWar(**options)
    except TautError as exc:
        raise ReplayError(f"options: {exc}", index) from None
    final = RoundsReplay(game, index).check(data, unfinished=is_unfinished(data))
    return _tug(final)


def replay_lines(lines: list[str]) -> list[TugState]:
    """Check every non-empty line of a JSON-lines file; return the final states.

    Raises :class:`ReplayError` (record numbers count non-empty lines from 1).
    """
    out = []
    for i, line in enumerate((ln for ln in lines if ln.strip()), start=1):
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"not valid JSON: {exc}", i) from None
        out.append(replay_record(data, i))
    return out
