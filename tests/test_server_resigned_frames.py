"""A game ended by a resignation is shown to everyone: the frame of a forfeit (a wrapper of
the position, no position of the game's own) is drawn like any other, in every game, for
each seat and the spectators, whatever the moment of the resignation."""

from __future__ import annotations

from pathlib import Path

import pytest

from taut.core.registry import games
from tests.test_server_kit import bench, run


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("later", [False, True])
def test_a_resigned_game_sends_every_client_its_end(tmp_path: Path, game: str, later: bool) -> None:
    async def play() -> None:
        async with bench(tmp_path, seed=3) as b:
            options = {"players": 2} if game == "tug-of-war" else {}
            made = await b.make(game, ["me", "invite"], options)
            people = [await b.join(made.id, i, patches="edits", draws=True) for i in (0, 1)]
            watchers = [await b.join(made.id, None), await b.join(made.id, 1)]
            if later:
                # After a choice or a move: the other seat may have chosen already.
                assert await b.step(people[1]) or await b.step(people[0])
            assert (await b.say(people[0], type="resign"))["type"] == "ack"
            for player in (*people, *watchers):
                messages = player.recorder.messages()
                errors = [m for m in messages if m["type"] == "error"]
                assert errors == [], errors
                last = player.recorder.last()
                assert last["phase"] == "over" and "resigns" in " ".join(last["log"])
                assert last["legal"] == [] and last["moves"] == []

    run(play())
