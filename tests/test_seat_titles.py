"""Every game's seat titles read right for everyone: the players' list of the play page
shows each seat's title to all the players, so no title speaks to its own player."""

from __future__ import annotations

import re

import pytest

from taut.core.registry import games, plugin

#: Words that address the reader, which only the seat's own player could be.
SECOND_PERSON = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


@pytest.mark.parametrize("name", sorted(games()))
def test_seat_titles_speak_of_the_seat_not_to_its_player(name: str) -> None:
    found = plugin(name)
    game = found.game_class()
    for seat in range(game.info.num_seats):
        title = found.seat_title(game, seat)
        assert title.startswith(game.info.seats[seat]), title
        assert not SECOND_PERSON.search(title), f"{name} seat {seat}: {title!r}"
