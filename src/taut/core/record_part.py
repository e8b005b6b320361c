"""A game's own fields in its records (:class:`RecordPart`), beside the generic moves."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from taut.core.game import Game, State
from taut.core.terms import JSON

Joint = dict[int, int]


class RecordPart(ABC):
    """A game's own fields in its records, beside the moves that every record holds.

    A plugin returns a new one per game (:meth:`~taut.core.plugin.GamePlugin.record_part`).
    While a game is played it sees every node (:meth:`observe`, on full states) and writes
    :meth:`fields`; when a record is read back, :meth:`replay` checks those fields by the
    rules and says which joint actions they stand for, so that records made of the part
    alone (older formats) replay too.
    """

    #: The top-level record fields this part writes.
    keys: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def observe(self, before: State, joint: Mapping[int, int], after: State) -> None:
        """Note one node of the game being played (full states, never views)."""

    @abstractmethod
    def fields(self) -> dict[str, JSON]:
        """The part's fields so far (a game still going on included)."""

    @abstractmethod
    def replay(self, data: Mapping[str, JSON]) -> list[Joint]:
        """Check the part's fields of the record ``data`` (the whole JSON object) and return
        the joint actions they stand for, from the start. Raises :class:`RecordError`
        naming the first problem.

        ``data`` has no ``format`` field when the record predates the format (its game's
        own fields are then all it has, result included). A record whose ``result`` is
        null is an unfinished game: its fields stop where the game was left.
        """
