"""A game's end is told once: the hub's ``when_over`` hooks (ratings, the players'
history, tournaments) run when the game ends, not again when the finished game changes
(a rematch asked for, a line of chat); a server that loads the finished game afresh tells
its end again (the hooks keep each end once), so that an end missed by a stopped server is
not lost."""

from __future__ import annotations

from pathlib import Path

from taut.server.play.computer import Computer
from taut.server.play.hub import Hub
from taut.server.play.table import GameTable
from tests.test_server_kit import bench, run


def test_the_end_of_a_game_is_told_once(tmp_path: Path) -> None:
    told: list[str] = []

    async def hook(table: GameTable) -> None:
        told.append(table.id)

    async def scenario() -> None:
        async with bench(tmp_path, seed=2) as b:
            b.hub.when_over.append(hook)
            made = await b.make("tracks", ["me", "invite"], {"size": 2})
            players = [await b.join(made.id, seat) for seat in (0, 1)]
            await b.play(players)
            await b.quiet()
            assert b.hub.tables[made.id].phase == "over"
            assert told == [made.id]
            await b.say(players[1], type="chat", text="well played")
            answer = await b.say(players[0], type="rematch")
            assert answer["type"] == "ack"
            await b.quiet()
            assert b.hub.tables[made.id].rematch is not None
            assert told == [made.id], "the finished game's changes told its end again"
            # Loaded afresh (another server on the same store), its end is told there.
            again = Hub(b.store, Computer(0))
            again.when_over.append(hook)
            assert await again.table(made.id) is not None
            await again.autoplay.settle()
            assert told == [made.id, made.id]

    run(scenario())
