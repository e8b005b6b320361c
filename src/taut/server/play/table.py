"""One game at the server: its position rebuilt from its events, and the commands that add
events. No I/O here: :class:`GameTable` checks a command against the position and returns
the events it would add (a :class:`~taut.server.play.position.Batch`); the hub writes
them, then applies them here. The events themselves are listed in
:mod:`taut.server.play.position`.
"""

from __future__ import annotations

from taut.core.record import GameRecord
from taut.core.registry import plugin
from taut.server.play.moves import TableMoves
from taut.server.play.position import Seat
from taut.server.play.talk import TableTalk
from taut.server.store.games import GameRow


class GameTable(TableMoves, TableTalk):
    """A game being played: its position (:class:`~taut.server.play.position.TablePosition`)
    with the commands of play (:class:`~taut.server.play.moves.TableMoves`) and of the
    table around it (:class:`~taut.server.play.talk.TableTalk`)."""

    def record(self) -> GameRecord:
        """The game so far as a record (every commitment and reveal included)."""
        out = self.state.outcome
        result = (
            None
            if out is None
            else {
                "winners": [self.seat_name(s) for s in out.winners],
                "reason": out.reason.name,
            }
        )
        return GameRecord(
            game=self.game.name,
            options=dict(self.game.options),
            moves=[dict(m) for m in self.moves],
            seed=self.seed,
            seats={
                self.seat_name(i): (seat.agent or "computer")
                if seat.kind == "computer"
                else "human"
                for i, seat in enumerate(self.seats)
            },
            result=result,
            version=self.game.info.version,
            meta={"game_id": self.id, "server": "taut serve"}
            | ({"table": [dict(e) for e in self.table_events]} if self.table_events else {})
            | ({"clock": self.clocks.control.text()} if self.clocks is not None else {}),
            commitments=list(self.commitments),
        )


def table_from_row(row: GameRow) -> GameTable:
    """A fresh table for a stored game (before its events are applied)."""
    found = plugin(row.game)
    config = row.config
    game = found.game_class(**config["options"])
    free = set(row.free_seats)
    seats = [
        Seat(kind="computer" if s.get("agent") else "human", agent=s.get("agent"), open=i in free)
        for i, s in enumerate(config["seats"])
    ]
    return GameTable(row.id, found, game, config, seats)
