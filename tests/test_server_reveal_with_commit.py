"""The last seat to commit may reveal in the same message (a commit's ``reveal``): every
other seat is bound already, so nothing is given away, and the node takes one command
less. It is refused, and nothing kept, from a seat that is not the last to commit, or
where the choice does not match the commitment or is not legal; the record is the same
events as a commit and a reveal sent apart, and verifies."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from taut.server.play.commit import commitment, new_salt
from tests.test_server_kit import (
    Person,
    app_client,
    new_game,
    play_out,
    socket_of,
    stored_events,
    token_of,
    two_people,
)


def _kinds(client: Any, game_id: str) -> list[str]:
    return [event.kind for event in stored_events(client, game_id)]


def _verified(client: Any, game_id: str) -> dict[str, Any]:
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    report: dict[str, Any] = client.post("/api/verify", content=record.content).json()
    assert report["ok"], report["problems"]
    return report


def _opening(person: Person, move: int, action: str, salt: str | None = None) -> dict[str, Any]:
    """A commitment to ``action`` with its reveal (``salt``: the one revealed, if not the
    one committed to)."""
    committed = new_salt()
    digest = commitment(person.game_id, move, person.frame()["you"], action, committed)
    reveal = {"action": action, "salt": salt or committed}
    return person.send(type="commit", move=move, hash=digest, reveal=reveal)


def test_the_last_to_commit_reveals_with_its_commitment(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"], {"max_turns": 6})
        with two_people(client, made, (1, 2)) as (alice, bob):
            a, b = alice.ws, bob.ws
            legal = alice.frame()["legal"]
            assert alice.commit(0, legal[0])["type"] == "ack"
            b.state(lambda f: f["committed"])
            assert bob.commit(0, legal[1], reveal=True)["type"] == "ack"
            # Bob's choice is in; Alice still reveals hers, and the node is played.
            frame = a.state(lambda f: f["to_reveal"])
            assert frame["revealed"] == [bob.frame()["you"]]
            assert _kinds(client, made["id"])[-3:] == ["commit", "commit", "reveal"]
            assert alice.turn() is not None
            a.state(lambda f: f["move"] == 1)
            # The rest of the game likewise, whoever commits last.
            alice.reveal_last = bob.reveal_last = True
            last = play_out([alice, bob])
        assert last["phase"] == "over"
        report = _verified(client, made["id"])
        record = client.get(f"/api/games/{made['id']}/record").json()
        assert len(record["commitments"]) == 2 * report["moves"]


def test_against_the_computer_a_node_takes_one_command(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "push-pull", ["me", "easy"], {"max_turns": 6})
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            me = Person(ws, made["id"], random.Random(3), reveal_last=True)
            frame = ws.state(lambda f: len(f["committed"]) == 1)  # the computer's
            answer = me.commit(0, frame["legal"][0], reveal=True)
            assert answer["type"] == "ack"
            # The first node: the computer's commitment, then the one command's events.
            # (The computer may already be choosing the next node.)
            first = [e for e in stored_events(client, made["id"]) if e.payload.get("move") == 0]
            kinds = [e.kind for e in first]
            assert kinds == ["commit", "commit", "reveal", "reveal", "move"], kinds
            assert len({e.seq for e in first[1:]}) == 4 and answer["seq"] == first[-1].seq
            assert ws.state(lambda f: f["move"] == 1)["phase"] == "commit"
            last = play_out([me])
        assert last["phase"] == "over"
        _verified(client, made["id"])


def test_a_seat_that_is_not_the_last_to_commit_may_not_reveal_with_it(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            me = Person(ws, made["id"], random.Random(4))
            stored = len(stored_events(client, made["id"]))
            answer = _opening(me, 0, me.frame()["legal"][0])
            assert answer["type"] == "error" and "last seat to commit" in answer["message"]
            assert len(stored_events(client, made["id"])) == stored
            # Nothing was kept: the seat commits as usual.
            assert me.commit(0, me.frame()["legal"][1])["type"] == "ack"


def test_a_reveal_that_does_not_match_or_is_not_legal_is_refused_and_kept_nowhere(
    tmp_path: Path,
) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        with two_people(client, made, (5, 6)) as (alice, bob):
            b = bob.ws
            legal = alice.frame()["legal"]
            alice.commit(0, legal[0])
            b.state(lambda f: f["committed"])
            stored = len(stored_events(client, made["id"]))
            wrong_salt = _opening(bob, 0, legal[1], salt=new_salt())
            assert wrong_salt["type"] == "error" and "commitment" in wrong_salt["message"]
            not_an_end = _opening(bob, 0, "N9")
            assert not_an_end["type"] == "error" and "N9" in not_an_end["message"]
            malformed = bob.send(
                type="commit", move=0, hash="0" * 64, reveal={"action": legal[1], "salt": "x"}
            )
            assert malformed["type"] == "error" and "salt" in malformed["message"]
            assert len(stored_events(client, made["id"])) == stored
            assert bob.commit(0, legal[1], reveal=True)["type"] == "ack"
            # A resend of the same message is answered again and changes nothing.
            digest = commitment(made["id"], 0, bob.frame()["you"], *bob.secrets[0])
            action, salt = bob.secrets[0]
            again = bob.send(
                type="commit", move=0, hash=digest, reveal={"action": action, "salt": salt}
            )
            assert again["type"] == "ack" and again["repeat"] is True


def test_a_commitment_sent_again_with_its_reveal_reveals_it(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        made = new_game(client, "pulling-strings", ["me", "invite"])
        with two_people(client, made, (7, 8)) as (alice, bob):
            b = bob.ws
            legal = alice.frame()["legal"]
            alice.commit(0, legal[0])
            b.state(lambda f: f["committed"])
            assert bob.commit(0, legal[1])["type"] == "ack"  # last, without its reveal
            action, salt = bob.secrets[0]
            digest = commitment(made["id"], 0, bob.frame()["you"], action, salt)
            answer = bob.send(
                type="commit", move=0, hash=digest, reveal={"action": action, "salt": salt}
            )
            assert answer["type"] == "ack" and answer["repeat"] is False
            assert _kinds(client, made["id"])[-1] == "reveal"
            assert b.state(lambda f: not f["to_reveal"] and f["revealed"])["revealed"] == [
                bob.frame()["you"]
            ]
