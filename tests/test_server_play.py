"""Playing through the WebSocket: whole games of every game, commit and reveal, resends,
races, wrong moves, names, spectators, rematches, records and ``taut verify``."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from taut.cli import cli
from taut.core.registry import games, plugin
from taut.server.play.commit import commitment, new_salt
from tests.test_server_kit import (
    Person,
    app_client,
    bench,
    new_game,
    play_out,
    run,
    socket_of,
    token_of,
)

#: Options that keep a game short enough to play to its end many times.
SHORT: dict[str, dict[str, Any]] = {
    "pulling-strings": {"max_turns": 12},
    "push-pull": {"max_turns": 8},
    "tracks": {"size": 3},
    "tug-of-war": {"end": "rounds", "rounds": 1},
}


def events(client: Any, game_id: str) -> list[Any]:
    """Every stored event of a game."""
    store = client.app.state.store
    found: list[Any] = client.portal.call(store.events_after, game_id, -1)
    return found


def seats_of(game: str, options: dict[str, Any]) -> tuple[str, ...]:
    """The seat names of ``game`` with ``options``."""
    return plugin(game).game_class(**options).info.seats


@pytest.mark.parametrize("game", games())
def test_a_whole_game_against_the_computer(tmp_path: Path, game: str) -> None:
    options = SHORT.get(game, {})
    n = len(seats_of(game, options))
    with app_client(tmp_path) as client:
        made = new_game(client, game, ["me"] + ["easy"] * (n - 1), options, name="Ada")
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            assert ws.frame is not None and ws.frame["you"] == seats_of(game, options)[0]
            assert ws.frame["seats"][0]["name"] == "Ada"
            early = client.get(f"/api/games/{made['id']}/record")
            assert early.status_code == 409 and "over" in early.json()["detail"]
            last = play_out([Person(ws, made["id"], random.Random(1))])
        assert last["result"] and last["winners"] is not None
        record = client.get(f"/api/games/{made['id']}/record")
        assert record.status_code == 200
        assert "attachment" in record.headers["content-disposition"]
        report = client.post("/api/verify", content=record.content).json()
        assert report["ok"], report["problems"]
        assert report["moves"] == len(record.json()["moves"]) > 0
        replay = client.get(f"/api/games/{made['id']}/positions")
        assert replay.status_code == 200 and len(replay.json()) >= report["moves"]


@pytest.mark.parametrize("game", [g for g in games() if plugin(g).game_class().info.simultaneous])
def test_people_commit_then_reveal_and_a_spectator_sees_only_who_has_chosen(
    tmp_path: Path, game: str
) -> None:
    options = SHORT.get(game, {})
    with app_client(tmp_path) as client:
        made = new_game(client, game, ["me", "invite"], options)
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
            socket_of(client, made["id"], token_of(made["spectator"])) as watcher,
        ):
            alice, bob = (
                Person(a, made["id"], random.Random(2)),
                Person(b, made["id"], random.Random(3)),
            )
            first = alice.frame()
            assert first["phase"] == "commit" and first["legal"]
            assert alice.commit(0, first["legal"][0])["type"] == "ack"
            seen = watcher.state(lambda f: f["committed"])
            assert seen["committed"] == [first["you"]] and seen["you"] is None
            assert seen["legal"] == [] and not seen["to_reveal"]
            last = play_out([alice, bob])
        assert last["phase"] == "over"
        record = client.get(f"/api/games/{made['id']}/record").json()
        assert record["commitments"] and len(record["commitments"]) == 2 * len(record["moves"])
        for text in watcher.seen + a.seen + b.seen:
            for kept in record["commitments"]:
                assert kept["hash"] not in text and kept["salt"] not in text


def test_a_resent_move_is_acknowledged_again_and_changes_nothing(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        tokens = [token_of(link) for link in made["links"].values()]
        with socket_of(client, made["id"], tokens[0]) as ws:
            frame = ws.state(lambda f: f["legal"])
            message = {"type": "move", "move": frame["move"], "action": frame["legal"][0]}
            ws.send(ref=1, **message)
            first = ws.answer(1)
            assert first["type"] == "ack" and first["repeat"] is False
            stored = len(events(client, made["id"]))
            for ref in (2, 3):
                ws.send(ref=ref, **message)
                again = ws.answer(ref)
                assert again == {"type": "ack", "ref": ref, "seq": first["seq"], "repeat": True}
            assert len(events(client, made["id"])) == stored


def test_a_resent_commitment_and_reveal_are_acknowledged_again(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            alice, bob = (
                Person(a, made["id"], random.Random(4)),
                Person(b, made["id"], random.Random(5)),
            )
            action = alice.frame()["legal"][0]
            assert alice.commit(0, action)["type"] == "ack"
            _, salt = alice.secrets[0]
            digest = commitment(made["id"], 0, alice.frame()["you"], action, salt)
            assert alice.send(type="commit", move=0, hash=digest)["repeat"] is True
            assert bob.commit(0, bob.frame()["legal"][-1])["type"] == "ack"
            a.state(lambda f: f["to_reveal"])
            reveal = {"type": "reveal", "move": 0, "action": action, "salt": salt}
            assert alice.send(**reveal)["repeat"] is False
            assert alice.send(**reveal)["repeat"] is True
            b.state(lambda f: f["to_reveal"])
            answer = bob.turn()
            assert answer is not None and answer["type"] == "ack" and answer["repeat"] is False
            a.state(lambda f: f["move"] == 1)
            stored = len(events(client, made["id"]))
            # After the move is played, the same commitment and reveal are answered again.
            assert alice.send(type="commit", move=0, hash=digest)["repeat"] is True
            assert alice.send(**reveal)["repeat"] is True
            other = alice.send(type="commit", move=0, hash="0" * 64)
            assert other["type"] == "error" and "over" in other["message"]
            assert len(events(client, made["id"])) == stored


def test_wrong_and_stale_moves_get_an_error_and_change_nothing(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "invite"], {"size": 3})
        tokens = [token_of(link) for link in made["links"].values()]
        with (
            socket_of(client, made["id"], tokens[0]) as ns,
            socket_of(client, made["id"], tokens[1]) as we,
            socket_of(client, made["id"], token_of(made["spectator"])) as watcher,
        ):
            mover = ns if ns.frame and ns.frame["legal"] else we
            waiter = we if mover is ns else ns
            frame = mover.state(lambda f: f["legal"])
            move, legal = frame["move"], frame["legal"]
            stored = len(events(client, made["id"]))
            wrong: list[tuple[Any, dict[str, Any], str]] = [
                (mover, {"type": "move", "move": move, "action": "zz99"}, ""),
                (mover, {"type": "move", "move": move + 1, "action": legal[0]}, "not"),
                (mover, {"type": "move", "move": move + 5, "action": legal[0]}, ""),
                (mover, {"type": "commit", "move": move, "hash": "a" * 64}, "not"),
                (waiter, {"type": "move", "move": move, "action": legal[0]}, "not your move"),
                (watcher, {"type": "move", "move": move, "action": legal[0]}, "spectators"),
                (mover, {"type": "rematch"}, "finished"),
            ]
            for ref, (ws, message, says) in enumerate(wrong, start=10):
                ws.send(ref=ref, **message)
                answer = ws.answer(ref)
                assert answer["type"] == "error", (message, answer)
                assert says in answer["message"]
            assert len(events(client, made["id"])) == stored
            mover.send(ref=50, type="move", move=move, action=legal[0])
            assert mover.answer(50)["type"] == "ack"
            # The move just played, resent with another action, is stale.
            other = legal[-1] if len(legal) > 1 else "zz99"
            mover.send(ref=51, type="move", move=move, action=other)
            answer = mover.answer(51)
            assert answer["type"] == "error"


def test_a_wrong_reveal_is_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            alice, bob = (
                Person(a, made["id"], random.Random(6)),
                Person(b, made["id"], random.Random(7)),
            )
            legal = alice.frame()["legal"]
            early = alice.send(type="reveal", move=0, action=legal[0], salt=new_salt())
            assert early["type"] == "error" and "committed" in early["message"]
            alice.commit(0, legal[0])
            assert alice.send(type="move", move=0, action=legal[0])["type"] == "error"
            bob.commit(0, legal[1])
            a.state(lambda f: f["to_reveal"])
            _, salt = alice.secrets[0]
            for action, salt_sent in ((legal[1], salt), (legal[0], new_salt())):
                answer = alice.send(type="reveal", move=0, action=action, salt=salt_sent)
                assert answer["type"] == "error" and "commitment" in answer["message"]
            assert alice.send(type="reveal", move=0, action=legal[0], salt=salt)["type"] == "ack"


def test_two_moves_racing_for_one_node_resolve_to_one(tmp_path: Path) -> None:
    async def race() -> None:
        async with bench(tmp_path) as b:
            made = await b.make("tracks", ["me", "invite"], {"size": 3})
            table = b.hub.tables.get(made.id) or await b.hub.table(made.id)
            assert table is not None
            seat = table.state.acting_seats()[0]
            tabs = [await b.join(made.id, seat) for _ in range(2)]
            frame = tabs[0].recorder.last()
            move, legal = frame["move"], frame["legal"]
            actions = [legal[0], legal[-1]]
            before = table.seq
            sends = [
                b.say(tab, type="move", move=move, action=action)
                for tab, action in zip(tabs, actions, strict=True)
            ]
            answers = await asyncio.gather(*sends)
            kinds = sorted(a["type"] for a in answers)
            if actions[0] == actions[1]:
                assert kinds == ["ack", "ack"]
            else:
                assert kinds == ["ack", "error"], answers
            stored = await b.store.events_after(made.id, before)
            assert [e.payload["move"] for e in stored if e.kind == "move"][:1] == [move]
            assert sum(1 for e in stored if e.kind == "move" and e.payload["move"] == move) == 1

    run(race())


def test_names_are_kept_and_escaped_on_every_page(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "easy"], {"max_turns": 3}, name=evil)
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            assert ws.frame is not None and ws.frame["seats"][0]["name"] == evil
            person = Person(ws, made["id"], random.Random(8))
            assert person.send(type="name", name="  Bob  ")["type"] == "ack"
            assert ws.state(lambda f: f["seats"][0]["name"] == "Bob")
            bad = person.send(type="name", name="a\u202eb")
            assert bad["type"] == "error" and "not allowed" in bad["message"]
            assert person.send(type="name", name=evil)["type"] == "ack"
            play_out([person])
            for text in ws.seen:
                message = json.loads(text)
                if message["type"] == "state":
                    # A frame may leave out (``kept``) what the previous one said.
                    assert evil not in message.get("board", "")
                    assert evil not in message.get("text", "")
                    assert evil not in "".join(message.get("log", []))
        for path in ("/", "/lobby", f"/g/{made['id']}", f"/replay/{made['id']}", "/verify"):
            page = client.get(path)
            assert page.status_code == 200 and "<script>alert" not in page.text, path
        for entry in client.get(f"/api/games/{made['id']}/positions").json():
            assert "<script>alert" not in entry["board"]


def test_an_open_seat_is_claimed_once_from_the_lobby(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "tracks", ["me", "open"], {"size": 3})
        assert list(made["links"]) == ["NS"]
        lobby = client.get("/api/lobby").json()
        assert [g["id"] for g in lobby] == [made["id"]] and lobby[0]["open_seats"] == 1
        assert client.get(f"/api/games/{made['id']}/open-seats").json() == {"seats": ["WE"]}
        assert client.post(f"/api/games/{made['id']}/claim/NS").status_code == 409
        bad = client.post(f"/api/games/{made['id']}/claim/XX")
        assert bad.status_code == 404 and "no seat" in bad.json()["detail"]
        claimed = client.post(f"/api/games/{made['id']}/claim/WE")
        assert claimed.status_code == 200
        again = client.post(f"/api/games/{made['id']}/claim/WE")
        assert again.status_code == 409 and "taken" in again.json()["detail"]
        assert client.get("/api/lobby").json() == []
        assert client.get(f"/api/games/{made['id']}/open-seats").json() == {"seats": []}
        with socket_of(client, made["id"], token_of(claimed.json()["link"])) as ws:
            assert ws.frame is not None and ws.frame["you"] == "WE"
        assert client.post("/api/games/nope/claim/WE").status_code == 404


def test_a_rematch_is_one_game_whoever_asks_and_the_same_links_open_it(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"], {"max_turns": 2})
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            people = [
                Person(a, made["id"], random.Random(9)),
                Person(b, made["id"], random.Random(10)),
            ]
            play_out(people)
            assert people[0].send(type="rematch")["type"] == "ack"
            assert people[1].send(type="rematch")["type"] == "ack"
            new_id = a.state(lambda f: f["rematch"])["rematch"]
            assert b.state(lambda f: f["rematch"])["rematch"] == new_id != made["id"]
        stored = events(client, made["id"])
        assert sum(1 for e in stored if e.kind == "rematch") == 1
        with socket_of(client, new_id, b_token) as again:
            assert again.frame is not None and again.frame["you"] == "O"
            assert again.frame["move"] == 0 and again.frame["phase"] == "commit"
        with socket_of(client, new_id, token_of(made["spectator"])) as watcher:
            assert watcher.frame is not None and watcher.frame["you"] is None


def test_a_rematch_of_a_claimed_open_seat_is_not_listed_in_the_lobby(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "open"], {"max_turns": 2})
        link = client.post(f"/api/games/{made['id']}/claim/O").json()["link"]
        with (
            socket_of(client, made["id"], token_of(made["mine"])) as a,
            socket_of(client, made["id"], token_of(link)) as b,
        ):
            people = [
                Person(a, made["id"], random.Random(11)),
                Person(b, made["id"], random.Random(12)),
            ]
            play_out(people)
            assert people[1].send(type="rematch")["type"] == "ack"
        assert client.get("/api/lobby").json() == []


# -- taut verify ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A finished game of two people choosing at once, as its record."""
    folder = tmp_path_factory.mktemp("record")
    with app_client(folder) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"], {"max_turns": 6})
        a_token, b_token = (token_of(link) for link in made["links"].values())
        with (
            socket_of(client, made["id"], a_token) as a,
            socket_of(client, made["id"], b_token) as b,
        ):
            play_out(
                [Person(a, made["id"], random.Random(13)), Person(b, made["id"], random.Random(14))]
            )
        record: dict[str, Any] = client.get(f"/api/games/{made['id']}/record").json()
    assert len(record["moves"]) >= 2
    return record


def verify(tmp_path: Path, record: Any, name: str = "record.json") -> tuple[int, str]:
    """``taut verify`` on ``record`` (JSON, or text as it is); exit code and output."""
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    result = CliRunner().invoke(cli, ["verify", str(path)])
    return result.exit_code, result.output


def test_verify_a_good_record(tmp_path: Path, served_record: dict[str, Any]) -> None:
    code, out = verify(tmp_path, served_record)
    assert code == 0, out
    assert "All verified" in out
    n = len(served_record["commitments"])
    assert f"{n} of {n} commitment(s) match" in out
    assert "won" in out or "draw" in out  # a record that verifies says how the game ended


#: A Push-Pull duel served by ``taut serve`` (a person against the computer), as its record:
#: its moves are written by the pieces still on the board (M leaves after the second move),
#: so one move reads differently in another position.
PUSH_PULL_RECORD = Path(__file__).parent / "fixtures" / "push-pull-served.json"


def test_a_changed_move_is_the_one_problem_and_no_result_is_claimed(tmp_path: Path) -> None:
    """One move changed in the record: only that move is reported, never a reveal whose
    text is the move played (the changed move leads the replay through other positions),
    and the summary claims no result for a record that does not verify."""
    from taut.server.play.verify import verify_record

    record = json.loads(PUSH_PULL_RECORD.read_text())
    assert verify_record(json.dumps(record)).ok
    assert record["moves"][0]["W"] == "L=pass,M=push,S=pull"
    record["moves"][0]["W"] = "L=push,M=push,S=pull"
    report = verify_record(json.dumps(record))
    assert report.problems == [
        "move 0, seat W: revealed 'L=pass,M=push,S=pull', played 'L=push,M=push,S=pull'"
    ]
    assert report.matched == report.checked == len(record["commitments"])
    code, out = verify(tmp_path, record)
    assert code == 1, out
    assert "8 of 8 commitment(s) match" in out and "the record does not verify" in out
    assert "won" not in out, out


def _tampered(record: dict[str, Any], change: str) -> dict[str, Any]:
    out = json.loads(json.dumps(record))
    kept = out["commitments"]
    if change == "hash":
        kept[0]["hash"] = ("0" if kept[0]["hash"][0] != "0" else "1") + kept[0]["hash"][1:]
    elif change == "reveal":
        other = next(c for c in kept if c["action"] != kept[0]["action"])
        kept[0]["action"] = other["action"]
    elif change == "unsealed":
        del kept[1]
    elif change == "none":
        del out["commitments"]
    elif change == "move":
        seat = kept[0]["seat"]
        first = out["moves"][0]
        alternatives = [
            c["action"] for c in kept if c["seat"] == seat and c["action"] != first[seat]
        ]
        first[seat] = alternatives[0]
    return out


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ("hash", "the hash does not match"),
        ("reveal", "the hash does not match"),
        ("unsealed", "played without a commitment"),
        ("none", "holds no commitments"),
        ("move", "revealed"),
    ],
)
def test_verify_a_tampered_record(
    tmp_path: Path, served_record: dict[str, Any], change: str, says: str
) -> None:
    code, out = verify(tmp_path, _tampered(served_record, change))
    assert code == 1, out
    assert says in out and "All verified" not in out


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", '{"game": "nope"}'])
def test_verify_what_is_not_a_record(tmp_path: Path, text: str) -> None:
    code, out = verify(tmp_path, text)
    assert code == 2, out


def test_verify_a_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["verify", str(tmp_path / "missing.json")])
    assert result.exit_code == 2


def test_a_seat_that_does_not_reveal_in_time_forfeits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    from taut.server.play.verify import verify_record
    from taut.server.web.pages import positions

    async def go() -> None:
        async with bench(tmp_path) as b:
            made = await b.make("pulling-strings", ["me", "invite"], reveal_deadline=5)
            late, prompt = await b.join(made.id, 1), await b.join(made.id, 0)
            assert await b.step(prompt) and await b.step(late)
            frame = prompt.recorder.last()
            assert frame["deadline"] == 5 and frame["reveal_since"] is not None
            now = time.time()
            monkeypatch.setattr(time, "time", lambda: now + 6)  # the deadline has passed
            assert await b.step(prompt)  # reveals in time; the clock is set again
            for _ in range(50):
                await asyncio.sleep(0.01)
                await b.quiet()
                if prompt.recorder.last()["phase"] == "over":
                    break
            last = late.recorder.last()
            assert last["phase"] == "over" and last["winners"] == [prompt.recorder.last()["you"]]
            assert "forfeit" in last["result"] or "deadline" in last["result"]
            assert last["board"].startswith("<svg") and last["text"]
            table = b.hub.tables[made.id]
            report = verify_record(json.dumps(table.record().to_json()))
            assert report.ok, report.problems
            replayed = positions(table)
            assert replayed[-1]["result"] == last["result"] and replayed[-1]["board"]

    run(go())


def test_a_committed_move_that_cannot_be_played_forfeits() -> None:
    """A seat bound to an illegal move could never reveal: it forfeits instead of blocking."""
    from taut.server.play.commit import commitment
    from taut.server.play.position import Seat
    from taut.server.play.table import GameTable
    from taut.server.store.games import Event

    plug = plugin("pulling-strings")
    game = plug.game_class()
    table = GameTable("g1", plug, game, {"seed": 1}, [Seat("human"), Seat("human")])
    digest = {s: commitment("g1", 0, n, "zz", "0" * 32) for s, n in enumerate(("X", "O"))}
    seq = 0
    for seat in range(2):
        batch = table.commit(seat, 0, digest[seat])
        for kind, payload in batch.events:
            table.apply(Event(seq, kind, payload, 0.0))
            seq += 1
    batch = table.reveal(0, 0, "zz", "0" * 32)
    assert [kind for kind, _ in batch.events] == ["forfeit"]
    table.apply(Event(seq, "forfeit", batch.events[0][1], 0.0))
    assert table.state.outcome is not None and table.state.outcome.winners == (1,)
    assert "cannot play" in table.log[-1]
