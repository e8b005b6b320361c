"""Tables drawn by the page: a client that says it draws a game's table (its hello's
``draws``) is sent, for a game that gives the data its table is drawn from (its plugin's
``table_drawing`` and ``table``), that data in place of the server's pictures; the server
draws no picture for it. A client that does not say so (even at the seat of one that does)
and a game without such data get pictures, as before."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taut.core.registry import games, plugin
from taut.server.play.pictures import Pictures
from tests.test_server_kit import app_client, bench, new_game, next_state, run, token_of

PICTURES = {"board", "board_narrow", "board_patch", "board_narrow_patch"}
#: Options for a game of two seats.
OPTIONS: dict[str, dict[str, Any]] = {"tug-of-war": {"players": 2}}


def _drawn() -> list[str]:
    """The games whose page draws the table from data."""
    return [g for g in games() if plugin(g).table_drawing is not None]


DRAWN = _drawn()


def test_some_game_gives_its_table_as_data_and_the_rest_do_not() -> None:
    assert DRAWN, "no game gives its table as data"
    for name in games():
        found = plugin(name)
        if found.table_drawing is None:
            state = found.game_class().new_initial_state()
            assert found.table(state, None, []) is None
        else:
            # The page's module is one of the game's files for the browser.
            assert found.static_files()[found.table_drawing].is_file()


@contextlib.contextmanager
def _socket(
    tmp_path: Path, game: str, hello: dict[str, Any], options: dict[str, Any] | None = None
) -> Iterator[Any]:
    """A socket of a new game's first seat that has said ``hello`` (its token added); the
    game made with ``options`` (by default :data:`OPTIONS`)."""
    options = OPTIONS.get(game, {}) if options is None else options
    with app_client(tmp_path) as client:
        made = new_game(client, game, ["me", "invite"], options)
        token = token_of(next(iter(made["links"].values())))
        with client.websocket_connect(f"/ws/{made['id']}") as session:
            session.send_text(json.dumps({"type": "hello", "token": token, **hello}))
            yield session


def test_the_pages_drawing_modules_and_what_they_share_are_served(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        for name in DRAWN:
            found = plugin(name)
            answer = client.get(f"/game-files/{name}/{found.table_drawing}")
            assert answer.status_code == 200
            # What a module imports from beside its folder is served there too.
            for shared in re.findall(r'from "\.\./([\w.]+)"', answer.text):
                assert client.get(f"/game-files/{shared}").status_code == 200, shared
        missing = client.get("/game-files/nothing.js")
        assert missing.status_code == 404 and "page_text.js" in missing.json()["detail"]


@pytest.mark.parametrize("game", DRAWN)
def test_a_client_that_draws_is_sent_the_data_and_no_picture(tmp_path: Path, game: str) -> None:
    with _socket(tmp_path, game, {"patches": "edits", "draws": True}) as session:
        first = next_state(session)
        assert isinstance(first["table"], dict) and first["table"]
        assert not PICTURES & set(first)
        # No markup in it: the page draws.
        assert "<" not in json.dumps(first["table"])


@pytest.mark.parametrize("game", DRAWN)
def test_a_client_that_does_not_draw_is_sent_pictures(tmp_path: Path, game: str) -> None:
    with _socket(tmp_path, game, {"patches": "edits"}) as session:
        first = next_state(session)
        assert "table" not in first
        assert first["board"].startswith("<svg")


#: A game whose table has no data (a learning game's picture holds its tiles' other
#: faces, drawn by the server).
WITHOUT_DATA = ("pulling-strings", {"edition": "published", "learning": "strict", "seed": 1})


def test_a_game_without_table_data_sends_pictures_to_a_client_that_draws(tmp_path: Path) -> None:
    game, options = WITHOUT_DATA
    state = plugin(game).game_class(**options).new_initial_state()
    assert plugin(game).table(state, None, []) is None
    hello = {"patches": "edits", "draws": True}
    with _socket(tmp_path, game, hello, options) as session:
        first = next_state(session)
        assert "table" not in first
        assert first["board"].startswith("<svg")


@pytest.mark.parametrize("game", DRAWN)
def test_a_hello_whose_draws_is_no_yes_or_no_is_refused(tmp_path: Path, game: str) -> None:
    with _socket(tmp_path, game, {"draws": "yes"}) as session:
        answer = json.loads(session.receive_text())
        assert answer["type"] == "error"
        assert "draws" in answer["message"]


@pytest.mark.parametrize("game", DRAWN)
def test_moves_keep_the_data_coming_and_draw_no_picture(tmp_path: Path, game: str) -> None:
    drawn: list[tuple[Any, ...]] = []
    original = Pictures._draw

    def counted(self: Pictures, *args: Any) -> Any:
        drawn.append(args)
        return original(self, *args)

    async def play() -> None:
        async with bench(tmp_path) as b:
            made = await b.make(game, ["me", "invite"], OPTIONS.get(game, {}))
            people = [await b.join(made.id, i, patches="edits", draws=True) for i in (0, 1)]
            Pictures._draw = counted  # type: ignore[method-assign, assignment]
            try:
                await b.play(people, nodes=30)
            finally:
                Pictures._draw = original  # type: ignore[method-assign]
            for person in people:
                frames = person.recorder.frames()
                assert len(frames) > 10
                tables = [f["table"] for f in frames if "table" in f]
                assert len(tables) > 10
                assert not any(PICTURES & set(f) for f in frames)
                # The data changes with the position: a frame that keeps it says so.
                assert len({json.dumps(t, sort_keys=True) for t in tables}) > 5
        # Every seat's client draws: the server drew no picture.
        assert drawn == []

    run(play())


@pytest.mark.parametrize("game", DRAWN)
def test_a_seat_shared_with_one_that_does_not_draw_gets_both(tmp_path: Path, game: str) -> None:

    async def play() -> None:
        async with bench(tmp_path) as b:
            made = await b.make(game, ["me", "invite"], OPTIONS.get(game, {}))
            drawing = await b.join(made.id, 0, patches="edits", draws=True)
            other = await b.join(made.id, 1, patches="edits", draws=True)
            await b.play([drawing, other], nodes=4)
            assert "table" in drawing.recorder.last()
            # A second client at seat 0 that takes pictures: it is sent pictures, the first
            # the data still.
            pictures = await b.join(made.id, 0, patches="edits")
            await b.play([drawing, other], nodes=4)
            assert pictures.recorder.last()["board"].startswith("<svg")
            assert "table" not in pictures.recorder.last()
            last = drawing.recorder.last()
            assert "board" not in last and last["table"]
            assert last["seq"] == pictures.recorder.last()["seq"]
            assert "table" in other.recorder.last()

    run(play())
