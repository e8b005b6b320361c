"""At the table: chat, resigning, draw offers and takebacks, through the WebSocket."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from taut.cli import cli
from taut.core.record import GameRecord
from taut.server.play.autoplay import agent_accepts_draw
from taut.server.play.frames import state_frame
from taut.server.play.position import CHAT_RATE, MAX_CHAT
from taut.server.play.verify import verify_record
from tests.test_server_kit import Person, app_client, new_game, socket_of, token_of


def events(client: Any, game_id: str) -> list[Any]:
    """Every stored event of a game."""
    found: list[Any] = client.portal.call(client.app.state.store.events_after, game_id, -1)
    return found


def hub_of(client: Any) -> Any:
    """The application's hub."""
    return client.app.state.hub


def call(client: Any, work: Any, *args: Any) -> Any:
    """Run a coroutine function on the application's event loop."""
    return client.portal.call(work, *args)


def record_of(client: Any, game_id: str) -> dict[str, Any]:
    """The game's record, as the server hands it out (the game must be over)."""
    response = client.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def verified(record: dict[str, Any], folder: Path | None = None) -> None:
    """The record replays and verifies (also with ``taut replay`` and ``taut verify``, given
    a folder to write it to)."""
    report = verify_record(json.dumps(record))
    assert report.ok, report.problems
    GameRecord.from_json(record).replay()
    if folder is not None:
        path = folder / "record.json"
        path.write_text(json.dumps(record))
        for args in (["replay", record["game"], str(path)], ["verify", str(path)]):
            result = CliRunner().invoke(cli, args)
            assert result.exit_code == 0, result.output


def test_chat_is_limited_escaped_by_the_page_and_hidden_from_spectators(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
            socket_of(client, made["id"], token_of(made["spectator"])) as watcher,
        ):
            alice = Person(a, made["id"], random.Random(1))
            evil = "<script>alert(1)</script>"
            assert alice.send(type="chat", text=evil)["type"] == "ack"
            seen = b.state(lambda f: f["chat"])["chat"]
            assert seen == [{"seat": "X", "text": evil}]  # the page shows it as text
            long = alice.send(type="chat", text="x" * (MAX_CHAT + 1))
            assert long["type"] == "error" and str(MAX_CHAT) in long["message"]
            blank = alice.send(type="chat", text="   ")
            assert blank["type"] == "error" and "empty" in blank["message"]
            line_break = alice.send(type="chat", text="two\nlines")
            assert line_break["type"] == "error"
            for i in range(CHAT_RATE - 1):
                assert alice.send(type="chat", text=f"line {i}")["type"] == "ack"
            fast = alice.send(type="chat", text="one too many")
            assert fast["type"] == "error" and "wait" in fast["message"]
            b.state(lambda f: len(f["chat"]) == CHAT_RATE)
            watched = watcher.state(lambda f: f["seq"] >= b.frame["seq"] if b.frame else False)
            assert watched["chat"] == []
            for text in watcher.seen:
                assert "line 0" not in text and "script" not in text
            # Spectators have a chat of their own, which the players never see.
            watcher.send(type="chat", text="hi from the gallery", ref=9)
            assert watcher.answer(9)["type"] == "ack"
            gallery = watcher.state(lambda f: bool(f["gallery"]))["gallery"]
            assert [line["text"] for line in gallery] == ["hi from the gallery"]
            assert gallery[0]["who"].startswith("spectator ")
            last = b.state(lambda f: f["seq"] >= watcher.frame["seq"] if watcher.frame else False)
            assert last["gallery"] == [] and len(last["chat"]) == CHAT_RATE
            for text in a.seen + b.seen:
                assert "from the gallery" not in text
            watcher.send(type="move", move=0, action="a", ref=10)
            refused = watcher.answer(10)
            assert refused["type"] == "error" and "do not play" in refused["message"]
        page = client.get(f"/g/{made['id']}")
        assert page.status_code == 200 and "<script>alert" not in page.text


def test_spectators_chat_among_themselves_within_limits(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        watching = token_of(made["spectator"])
        with (
            socket_of(client, made["id"], watching) as one,
            socket_of(client, made["id"], watching) as two,
        ):
            for ref, text in enumerate(["<b>hello</b>", "second"], start=1):
                one.send(type="chat", text=text, ref=ref)
                assert one.answer(ref)["type"] == "ack"
            two.send(type="chat", text="me too", ref=1)
            assert two.answer(1)["type"] == "ack"
            lines = two.state(lambda f: len(f["gallery"]) == 3)["gallery"]
            assert [line["text"] for line in lines] == ["<b>hello</b>", "second", "me too"]
            assert lines[0]["who"] == lines[1]["who"] != lines[2]["who"]  # told apart
            for ref in range(3, 3 + CHAT_RATE - 2):
                one.send(type="chat", text=f"more {ref}", ref=ref)
                assert one.answer(ref)["type"] == "ack"
            one.send(type="chat", text="one too many", ref=50)
            fast = one.answer(50)
            assert fast["type"] == "error" and "wait" in fast["message"]
            one.send(type="chat", text="x" * (MAX_CHAT + 1), ref=51)
            assert one.answer(51)["type"] == "error"
        kinds = [e.kind for e in events(client, made["id"])]
        assert kinds.count("gallery") == 3 + CHAT_RATE - 2


def test_resigning_ends_the_game_and_the_record_verifies(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            alice, bob = (
                Person(a, made["id"], random.Random(2)),
                Person(b, made["id"], random.Random(3)),
            )
            assert alice.turn() is not None and bob.turn() is not None  # both commit
            a.state(lambda f: f["to_reveal"])
            assert alice.turn() is not None
            b.state(lambda f: f["to_reveal"])
            assert bob.turn() is not None
            a.state(lambda f: f["move"] == 1)
            assert bob.send(type="resign")["type"] == "ack"
            over = a.state(lambda f: f["phase"] == "over")
            assert over["winners"] == ["X"] and "resign" in over["result"]
            again = bob.send(type="resign")
            assert again["type"] == "error" and "over" in again["message"]
        record = record_of(client, made["id"])
        assert record["result"] == {"winners": ["X"], "reason": "resigned"}
        assert record["meta"]["table"] == [{"kind": "resign", "move": 1, "seat": "O"}]
        assert len(record["moves"]) == 1
        verified(record, tmp_path)


def test_a_draw_offer_declined_then_accepted(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            first, second = (
                Person(a, made["id"], random.Random(4)),
                Person(b, made["id"], random.Random(5)),
            )
            assert first.frame()["may_draw"] is True
            assert first.send(type="offer", what="draw")["type"] == "ack"
            offer = b.state(lambda f: f["offer"] is not None)["offer"]
            assert offer["what"] == "draw" and offer["seat"] == first.frame()["you"]
            twice = first.send(type="offer", what="draw")
            assert twice["type"] == "error" and "awaits" in twice["message"]
            own = first.send(type="answer", what="draw", move=offer["move"], accept=True)
            assert own["type"] == "error"
            no = second.send(type="answer", what="draw", move=offer["move"], accept=False)
            assert no["type"] == "ack"
            a.state(lambda f: f["offer"] is None and any("declines" in x for x in f["log"]))
            assert second.send(type="offer", what="draw")["type"] == "ack"
            offer = a.state(lambda f: f["offer"] is not None)["offer"]
            yes = first.send(type="answer", what="draw", move=offer["move"], accept=True)
            assert yes["type"] == "ack"
            over = b.state(lambda f: f["phase"] == "over")
            assert over["winners"] == []
        record = record_of(client, made["id"])
        assert record["result"]["reason"] == "agreement"
        assert [e["kind"] for e in record["meta"]["table"]] == [
            "offer", "answer", "offer", "answer", "draw"
        ]  # fmt: skip
        verified(record, tmp_path)


def test_a_game_without_draws_by_agreement_refuses_the_offer(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "push-pull", ["me", "invite"])
        token = token_of(next(iter(made["links"].values())))
        with socket_of(client, made["id"], token) as a:
            person = Person(a, made["id"], random.Random(6))
            assert person.frame()["may_draw"] is False
            answer = person.send(type="offer", what="draw")
            assert answer["type"] == "error" and "no draw by agreement" in answer["message"]


def test_the_computer_answers_a_draw_offer_as_its_agent_would(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "easy"], {"size": 3})
        token = token_of(next(iter(made["links"].values())))
        with socket_of(client, made["id"], token) as a:
            person = Person(a, made["id"], random.Random(7))
            frame = a.state(lambda f: f["phase"] == "play" and f["you"] in f["acting"])
            table = hub_of(client).tables[made["id"]]
            seat = 1 - table.game.seat_index(frame["you"])
            expected = agent_accepts_draw(
                "tracks", dict(table.game.options), table.state.to_json(), seat, "easy"
            )
            assert person.send(type="offer", what="draw")["type"] == "ack"
            if expected:
                a.state(lambda f: f["phase"] == "over")
            else:
                a.state(lambda f: f["offer"] is None and any("declines" in x for x in f["log"]))
        kinds = [e.kind for e in events(client, made["id"])]
        assert kinds[-2:] == (["answer", "draw"] if expected else ["offer", "answer"])


def test_takeback_refused_then_agreed_between_people(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            people = [
                Person(a, made["id"], random.Random(8)),
                Person(b, made["id"], random.Random(9)),
            ]
            start = a.state(lambda f: f["phase"] == "play")
            mover = next(p for p in people if p.frame()["you"] in start["acting"])
            other = people[1 - people.index(mover)]
            none = mover.send(type="offer", what="takeback")
            assert none["type"] == "error" and "no move" in none["message"]
            board = start["board"]
            assert mover.turn() is not None
            after = other.ws.state(lambda f: f["move"] > start["move"])
            assert mover.send(type="offer", what="takeback")["type"] == "ack"
            offer = other.ws.state(lambda f: f["offer"] is not None)["offer"]
            refused = other.send(type="answer", what="takeback", move=offer["move"], accept=False)
            assert refused["type"] == "ack"
            assert other.ws.state(lambda f: f["offer"] is None)["move"] == after["move"]
            assert mover.send(type="offer", what="takeback")["type"] == "ack"
            offer = other.ws.state(lambda f: f["offer"] is not None)["offer"]
            agreed = other.send(type="answer", what="takeback", move=offer["move"], accept=True)
            assert agreed["type"] == "ack"
            back = mover.ws.state(lambda f: f["move"] == start["move"])
            assert back["board"] == board and back["acting"] == start["acting"]
            assert any("takes back" in line for line in back["log"])
            assert mover.turn() is not None  # the game goes on from there
            other.ws.state(lambda f: f["move"] == start["move"] + 1)
            assert mover.send(type="resign")["type"] == "ack"
        verified(record_of(client, made["id"]), tmp_path)


def test_the_computer_agrees_to_a_takeback_in_a_friendly_game_only(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "easy"])
        token = token_of(next(iter(made["links"].values())))
        with socket_of(client, made["id"], token) as a:
            me = Person(a, made["id"], random.Random(10))
            first = me.frame()
            for _ in range(2):  # two turns, each committed and revealed against the computer
                move = me.frame()["move"]
                assert me.turn() is not None
                a.state(lambda f: bool(f["to_reveal"]) or f["move"] > move)  # noqa: B023
                if me.frame()["to_reveal"]:
                    assert me.turn() is not None
                a.state(lambda f: f["move"] > move)  # noqa: B023
            assert me.frame()["move"] == 2
            assert me.send(type="offer", what="takeback")["type"] == "ack"
            back = a.state(lambda f: f["move"] == 1)
            assert back["offer"] is None
            assert me.send(type="offer", what="takeback")["type"] == "ack"
            start = a.state(lambda f: f["move"] == 0)
            assert start["board"] == first["board"]
            # The same node is played again: the computer commits afresh.
            assert me.turn() is not None
            a.state(lambda f: f["to_reveal"])
            assert me.turn() is not None
            a.state(lambda f: f["move"] == 1)
            assert me.send(type="resign")["type"] == "ack"
        record = record_of(client, made["id"])
        assert len(record["moves"]) == 1 and len(record["commitments"]) == 2
        verified(record, tmp_path)

        rated = new_game(client, "pulling-strings", ["me", "easy"], rated=False)
        table = call(client, hub_of(client).table, rated["id"])
        table.config["rated"] = True  # as a rated game is (without making a player here)
        token = token_of(next(iter(rated["links"].values())))
        with socket_of(client, rated["id"], token) as a:
            me = Person(a, rated["id"], random.Random(11))
            assert me.turn() is not None
            a.state(lambda f: f["to_reveal"])
            assert me.turn() is not None
            a.state(lambda f: f["move"] == 1)
            answer = me.send(type="offer", what="takeback")
            assert answer["type"] == "error" and "rated" in answer["message"]


def test_table_events_survive_a_restart(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        a_token = token_of(next(iter(made["links"].values())))
        with socket_of(client, made["id"], a_token) as a:
            person = Person(a, made["id"], random.Random(12))
            assert person.send(type="chat", text="good luck")["type"] == "ack"
            assert person.send(type="offer", what="draw")["type"] == "ack"
    with app_client(tmp_path) as client, socket_of(client, made["id"], a_token) as a:
        frame = a.frame
        assert frame is not None
        assert frame["chat"] == [{"seat": frame["you"], "text": "good luck"}]
        assert frame["offer"] is not None and frame["offer"]["what"] == "draw"


def test_chat_and_offers_hold_nothing_hidden(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tug-of-war", ["me", "invite", "easy"])
        tokens = [token_of(link) for link in made["links"].values()]
        with (
            socket_of(client, made["id"], tokens[0]) as a,
            socket_of(client, made["id"], tokens[1]) as b,
        ):
            me, you = (
                Person(a, made["id"], random.Random(13)),
                Person(b, made["id"], random.Random(15)),
            )
            assert me.send(type="chat", text="hello")["type"] == "ack"
            for _ in range(20):  # play until a takeback can be asked
                if me.frame()["may_take_back"] or me.frame()["phase"] == "over":
                    break
                seq = max(me.frame()["seq"], you.frame()["seq"])
                for p in (me, you):
                    p.turn()
                a.state(lambda f: f["seq"] > seq)  # noqa: B023
            assert me.frame()["may_take_back"]
            assert me.send(type="offer", what="takeback")["type"] == "ack"
            table = hub_of(client).tables[made["id"]]
            assert table.offer is not None
            rng = random.Random(14)
            for seat in (0, 1, None):
                frame = state_frame(table, seat)
                assert frame["chat"] == ([] if seat is None else [{"seat": "P0", "text": "hello"}])
                for viewer in range(3) if seat is None else [seat]:
                    for _ in range(3):
                        full = table.game.determinize(table.state.view(viewer), viewer, rng)
                        other = copy.copy(table)
                        other.state = full
                        assert state_frame(other, seat) == frame
