"""The position as text is drawn only for clients that show it: a client whose hello says
``text: false`` (the page, while its "position as text" is closed) gets frames without it,
and the server does not draw it for that client's seat; a ``text`` message that says it is
shown brings it at once, whole, and its frames carry it from then on."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taut.core.registry import plugin
from taut.server.play.frames import with_kept
from taut.server.play.session import handle
from tests.test_server_kit import app_client, bench, new_game, next_state, run, token_of


def test_over_a_socket_the_text_comes_while_it_is_shown(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 6})
        token = token_of(next(iter(made["links"].values())))
        with client.websocket_connect(f"/ws/{made['id']}") as session:
            hello = {"type": "hello", "token": token, "patches": "edits", "text": False}
            session.send_text(json.dumps(hello))
            first = with_kept(None, next_state(session))
            assert "text" not in first and "text_patch" not in first
            assert first["board"].startswith("<svg")
            session.send_text(json.dumps({"type": "text", "shown": True}))
            shown = next_state(session)
            assert isinstance(shown.get("text"), str) and shown["text"].strip()
            frame = with_kept(first, shown)
            session.send_text(json.dumps({"type": "text", "shown": False}))
            hidden = next_state(session)
            assert "text" not in with_kept(frame, hidden)
            # A message that does not say shown or not is refused; the socket goes on.
            session.send_text(json.dumps({"type": "text", "shown": "yes"}))
            refused = session.receive_json()
            assert refused["type"] == "error" and "shown" in refused["message"]
            session.send_text(json.dumps({"type": "ping"}))
            assert session.receive_json()["type"] == "pong"


@pytest.mark.parametrize(
    ("name", "options"), [("tracks", {"size": 6}), ("tug-of-war", {"players": 2})]
)
def test_a_text_no_client_shows_is_not_drawn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, options: dict[str, Any]
) -> None:
    drawn: list[int] = []
    kind = type(plugin(name))
    render = kind.render
    monkeypatch.setattr(kind, "render", lambda self, s: drawn.append(1) or render(self, s))

    async def scenario() -> None:
        async with bench(tmp_path, seed=3) as b:
            made = await b.make(name, ["me", "invite"], options)
            players = [await b.join(made.id, seat, patches="edits") for seat in (0, 1)]
            for player in players:
                player.conn.text = False
            drawn.clear()
            await b.play(players, nodes=6)
            await b.quiet()
            assert drawn == [], "the text was drawn though no client shows it"
            texts = [json.loads(t) for p in players for t in p.recorder.texts[1:]]
            assert not any("text" in m or "text_patch" in m for m in texts)
            # Shown again: the seat's next frame carries it whole, drawn once.
            before = len(players[0].recorder.texts)
            await handle(b.hub, players[0].conn, json.dumps({"type": "text", "shown": True}))
            await b.quiet()
            frame = json.loads(players[0].recorder.texts[before])
            assert isinstance(frame.get("text"), str) and frame["text"] and drawn == [1]
            await b.play(players, nodes=2)
            await b.quiet()
            assert len(drawn) >= 2, "the text is drawn again for the seat that shows it"

    run(scenario())
