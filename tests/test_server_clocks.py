"""Clocks at ``taut serve``: time controls through the API, the clocks in every frame, a
flag that falls by the hub's timer, before a command or when the game is looked at, and a
restart that charges nobody for the time the server was down. The store's clock is moved
on by hand (a real clock plus an offset), so nothing waits for a minute to pass."""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from taut.server.play import computer as computer_module
from taut.server.play.computer import think_on_clock, within
from taut.server.play.position import Seat, clocks_for
from taut.server.play.verify import verify_record
from taut.server.players.profile import clock_text
from taut.server.web.app import create_app
from taut.server.web.settings import Settings
from tests.test_server_kit import Person, app_client, new_game, socket_of, sqlite_url, token_of


class Clock:
    """The time now plus an offset that the test moves on."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def skip(self, seconds: float) -> None:
        """Move the time on."""
        self.offset += seconds


@contextlib.contextmanager
def served(folder: Path, clock: Clock) -> Iterator[TestClient]:
    """The application on a SQLite file in ``folder``, its store on ``clock`` from the
    start (a restart resumes the clocks when it starts)."""
    app = create_app(Settings(database=sqlite_url(folder), computer_workers=0))
    app.state.store.clock = clock
    with TestClient(app) as client:
        yield client


def events(client: TestClient, game_id: str) -> list[Any]:
    """Every stored event of a game."""
    found: list[Any] = client.portal.call(client.app.state.store.events_after, game_id, -1)  # type: ignore[attr-defined]
    return found


def left(frame: dict[str, Any], seat: str) -> float:
    """Seconds ``seat`` had left when the frame was made."""
    return float(frame["clock"]["left"][seat]) / 1000


def two_players(client: TestClient, control: str) -> tuple[str, str, str]:
    """A new Pulling Strings game of two people with ``control``: its id and its two
    seats' links."""
    made = new_game(client, "pulling-strings", ["me", "invite"], time_control=control)
    return made["id"], made["mine"], made["links"]["O"]


def test_time_controls_are_checked_kept_and_listed(tmp_path: Path) -> None:
    with served(tmp_path, Clock()) as client:
        body = {
            "game": "pulling-strings",
            "options": {},
            "seats": [{"kind": "me"}, {"kind": "open"}],
        }
        for bad in ("banana", "0+3", "5 days", "5+99"):
            response = client.post("/api/games", json={**body, "time_control": bad})
            assert response.status_code == 422, response.text
            message = response.json()["error"]
            assert message.startswith("time_control:") and '"M+S"' in message and "days" in message
            assert "Value error" not in message  # the reader gets the check's own words
        made = client.post("/api/games", json={**body, "time_control": "5+3"}).json()
        plain = client.post("/api/games", json=body).json()
        lobby = {g["id"]: g for g in client.get("/api/lobby").json()}
        assert lobby[made["id"]]["time_control"] == "5+3"
        assert lobby[plain["id"]]["time_control"] is None
        with socket_of(client, plain["id"], token_of(plain["mine"])) as ws:
            assert ws.frame is not None and ws.frame["clock"] is None  # no clock: as before
        with socket_of(client, made["id"], token_of(made["mine"])) as ws:
            assert ws.frame is not None
            clock = ws.frame["clock"]
            assert clock["control"] == "5+3" and clock["running"] == []
            assert clock["left"] == {"X": 300_000, "O": 300_000}
        claimed = client.post(f"/api/games/{made['id']}/claim/O")
        assert claimed.status_code == 200
        assert [e.payload for e in events(client, made["id"]) if e.kind == "seated"] == [
            {"seat": "O"}
        ]


def test_frames_carry_the_clocks_and_a_command_after_the_flag_ends_the_game(
    tmp_path: Path,
) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        game_id, mine, theirs = two_players(client, "1+0")
        with (
            socket_of(client, game_id, token_of(mine)) as a,
            socket_of(client, game_id, token_of(theirs)) as b,
        ):
            x = Person(a, game_id, random.Random(1))
            answer = x.turn()
            assert answer is not None and answer["type"] == "ack"
            frame = b.state(lambda f: f["clock"]["running"] == ["O"])
            assert left(frame, "O") == pytest.approx(60.0, abs=1.0)
            assert abs(frame["clock"]["now"] / 1000 - clock()) < 5
            clock.skip(30.0)
            assert x.send(type="chat", text="thirty seconds gone")["type"] == "ack"
            frame = b.state(lambda f: bool(f["chat"]))
            assert left(frame, "O") == pytest.approx(30.0, abs=1.0)
            assert left(frame, "X") == pytest.approx(60.0, abs=0.01)  # X has chosen: stopped
            clock.skip(31.0)
            o = Person(b, game_id, random.Random(2))
            late = o.turn()  # O commits too late: the flag falls first
            assert late is not None and late["type"] == "error"
            over = b.state(lambda f: f["phase"] == "over")
            assert over["clock"]["flagged"] == "O" and over["clock"]["running"] == []
            assert over["clock"]["left"]["O"] == 0
            assert over["winners"] == ["X"] and "time" in over["result"]
            assert "time" in " ".join(over["log"])
        downloaded = client.get(f"/api/games/{game_id}/record")
        record = downloaded.json()
        assert record["result"] == {"winners": ["X"], "reason": "time"}
        assert record["meta"]["clock"] == "1+0"
        # A game lost on time replays and verifies: the reason is one the rules know.
        report = verify_record(downloaded.content)
        assert report.ok, report.problems
        flags = [e.payload for e in events(client, game_id) if e.kind == "forfeit"]
        assert len(flags) == 1 and flags[0]["reason"] == "time"
        assert flags[0]["at"] == pytest.approx(frame["clock"]["now"] / 1000 + 30, abs=1.0)


def test_the_hubs_timer_ends_the_game_with_nobody_sending_anything(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        game_id, mine, theirs = two_players(client, "1+0")
        with (
            socket_of(client, game_id, token_of(mine)) as a,
            socket_of(client, game_id, token_of(theirs)) as b,
        ):
            x = Person(a, game_id, random.Random(1))
            x.turn()
            clock.skip(59.6)
            x.send(type="chat", text="the timer is set again after every change")
            over = b.state(lambda f: f["phase"] == "over", wait=5.0)
            assert over["clock"]["flagged"] == "O"


def test_looking_at_the_game_ends_it_when_a_flag_has_fallen(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        game_id, mine, theirs = two_players(client, "1+0")
        with socket_of(client, game_id, token_of(mine)) as a:
            Person(a, game_id, random.Random(1)).turn()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        for timer in hub.autoplay.clock_timers.values():  # only the look-up is left to notice
            timer.cancel()
        clock.skip(120.0)
        with socket_of(client, game_id, token_of(theirs)) as b:
            assert b.frame is not None and b.frame["phase"] == "over"
            assert b.frame["clock"]["flagged"] == "O"


def test_a_restart_charges_nobody_for_the_time_the_server_was_down(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        game_id, mine, theirs = two_players(client, "1+0")
        with socket_of(client, game_id, token_of(mine)) as a:
            x = Person(a, game_id, random.Random(1))
            x.turn()
            clock.skip(20.0)
            x.send(type="chat", text="the last thing before the server stops")
        clock.skip(3600.0)  # the server is down for an hour
    with served(tmp_path, clock) as client:
        kinds = [e.kind for e in events(client, game_id)]
        assert kinds[-1] == "resume"
        with socket_of(client, game_id, token_of(theirs)) as b:
            assert b.frame is not None and b.frame["phase"] == "commit"
            assert b.frame["clock"]["running"] == ["O"]
            assert left(b.frame, "O") == pytest.approx(40.0, abs=1.0)


def test_computer_seats_have_no_clock_and_correspondence_has_deadlines(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        made = new_game(client, "tracks", ["me", "easy"], {"size": 3}, time_control="2 days")
        with socket_of(client, made["id"], token_of(made["mine"])) as a:
            me = Person(a, made["id"], random.Random(3))
            frame = a.state(lambda f: "NS" in f["acting"])
            assert list(frame["clock"]["left"]) == ["NS"]
            assert frame["clock"]["kind"] == "days" and frame["clock"]["control"] == (
                "2 days per move"
            )
            me.turn()
            frame = a.state(lambda f: f["clock"]["running"] == ["NS"] or f["phase"] == "over")
            assert frame["phase"] != "over"
            assert left(frame, "NS") == pytest.approx(2 * 86400, abs=5)
            clock.skip(2 * 86400 + 1)
            assert me.send(type="chat", text="too late")["type"] == "ack"
            over = a.state(lambda f: f["phase"] == "over")
            assert over["clock"]["flagged"] == "NS" and over["winners"] == ["WE"]


def test_a_rematch_of_a_lobby_game_keeps_its_clock_and_its_taken_seat(tmp_path: Path) -> None:
    with served(tmp_path, Clock()) as client:
        made = new_game(client, "pulling-strings", ["me", "open"], time_control="3+2")
        link = client.post(f"/api/games/{made['id']}/claim/O").json()["link"]
        with socket_of(client, made["id"], token_of(made["mine"])) as a:
            x = Person(a, made["id"], random.Random(1))
            assert x.send(type="resign")["type"] == "ack"
            assert x.send(type="rematch")["type"] == "ack"
            again = a.state(lambda f: f["rematch"] is not None)["rematch"]
        with (
            socket_of(client, again, token_of(made["mine"])) as a,
            socket_of(client, again, token_of(link)) as b,
        ):
            assert a.frame is not None and a.frame["clock"]["control"] == "3+2"
            Person(a, again, random.Random(1)).turn()
            frame = b.state(lambda f: f["clock"]["running"] == ["O"])
            assert left(frame, "O") == pytest.approx(180.0, abs=1.0)
        assert [e.payload for e in events(client, again) if e.kind == "seated"] == [{"seat": "O"}]


def test_the_player_page_says_by_when_a_slow_game_needs_a_move(tmp_path: Path) -> None:
    with served(tmp_path, Clock()) as client:
        made_player = client.post("/api/players", json={"name": "slowcoach"}).json()
        seats = [{"kind": "me"}, {"kind": "easy"}]
        body = {"game": "tracks", "options": {"size": 3}, "seats": seats, "time_control": "1 days"}
        made = client.post("/api/games", json=body, headers={"X-Taut-Player": made_player["key"]})
        assert made.status_code == 200, made.text
        game_id, mine = made.json()["id"], made.json()["mine"]
        with socket_of(client, game_id, token_of(mine)) as a:
            # The clocks start with the first choice: play it, then wait for the next turn.
            Person(a, game_id, random.Random(1)).turn()
            a.state(lambda f: f["clock"]["running"] == ["NS"] or f["phase"] == "over")
        playing = client.get("/api/players/slowcoach").json()["playing"]
        (entry,) = [g for g in playing if g["id"] == game_id]
        assert entry["your_move"] and entry["deadline"] is not None
        assert entry["time_control"] == "1 day per move"
        assert entry["deadline"] == pytest.approx(time.time() + 86400, abs=120)
        page = client.get("/players/slowcoach").text
        assert f"(move by {entry['deadline_text']})" in page


def test_the_computer_is_timed_in_live_games_and_thinks_within_its_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computer's seat has a clock in a live game; what it has left caps its think
    time (the spec it is run with says so); a computer that thinks too long loses on time."""
    clock = Clock()
    asked: list[str] = []
    slow = [55.0, 10.0]  # seconds the computer's first two choices "take"
    original = computer_module.choose

    def spy(game: str, options: Any, position: Any, seat: int, spec: str, seed: int) -> int:
        asked.append(spec)
        if slow:
            clock.skip(slow.pop(0))
        return original(game, options, position, seat, spec, seed)

    monkeypatch.setattr(computer_module, "choose", spy)
    with served(tmp_path, clock) as client:
        made = new_game(client, "tracks", ["me", "hard"], {"size": 4}, time_control="1+0")
        with socket_of(client, made["id"], token_of(made["mine"])) as a:
            me = Person(a, made["id"], random.Random(5))
            frame = a.state(lambda f: "NS" in f["acting"])
            assert sorted(frame["clock"]["left"]) == ["NS", "WE"]
            started = time.monotonic()
            me.turn()  # the first choice starts the computer's clock
            frame = a.state(lambda f: "NS" in f["acting"] or f["phase"] == "over")
            took = time.monotonic() - started
            assert frame["phase"] != "over"
            # Its first choice took 55 s of its 60, and the real time its turn took here (a
            # busy machine's): about 5 s left, less that.
            assert 5.0 - took - 0.5 <= left(frame, "WE") <= 5.5
            me.turn()
            over = a.state(lambda f: f["phase"] == "over")
            assert over["clock"]["flagged"] == "WE" and over["winners"] == ["NS"]
    # The first choice had its full two seconds; the second, with 5 s left, a fraction.
    assert asked[0] == "hard"
    name, think = asked[1].split(":think=")
    assert name == "hard" and 0 < float(think) < 0.25


def test_a_game_stored_before_the_computer_was_timed_keeps_its_clocks() -> None:
    people = [Seat("human", None), Seat("computer", "hard")]
    config: dict[str, Any] = {
        "clock": {"kind": "live", "minutes": 5, "increment": 3},
        "seats": [{"kind": "me"}, {"kind": "hard"}],
    }
    old = clocks_for(config, people)
    new = clocks_for({**config, "computer_clock": True}, people)
    assert old is not None and old.clocked == [True, False]
    assert new is not None and new.clocked == [True, True]


def test_the_think_time_a_clock_allows() -> None:
    assert think_on_clock(300, 3) == pytest.approx(12.4)  # more than any level asks
    assert think_on_clock(60, 0) == pytest.approx(2.0)
    assert think_on_clock(10, 0) == pytest.approx(1 / 3)
    assert think_on_clock(1.0, 0) == pytest.approx(1 / 30)
    assert think_on_clock(1.0, 2) == pytest.approx(0.125)  # a quarter of what is past 0.5 s
    assert think_on_clock(0.0, 0) == pytest.approx(0.02)  # never nothing
    for left_s in (0.1, 0.7, 3.0, 45.0, 600.0):
        for increment in (0, 2, 10):
            assert think_on_clock(left_s, increment) <= max(0.02, (left_s - 0.5) / 4)
    assert within("hard", 0.5) == "hard:think=0.500"
    assert within("hard:think=5", 1.25) == "hard:think=1.250"
    assert within("hard:think=0.1", 1.25) == "hard:think=0.1"  # already within
    assert within("hard", 3.0) == "hard"  # its default 2 s fits
    assert within("random", 0.1) == "random"  # does not think
    assert within("hard:think=x", 0.1) == "hard:think=x"  # refused later, in its own words


def test_the_player_page_says_how_much_time_a_live_game_has_left(tmp_path: Path) -> None:
    clock = Clock()
    with served(tmp_path, clock) as client:
        me = client.post("/api/players", json={"name": "quick"}).json()
        body = {
            "game": "tracks",
            "options": {"size": 3},
            "seats": [{"kind": "me"}, {"kind": "easy"}],
            "time_control": "3+2",
        }
        made = client.post("/api/games", json=body, headers={"X-Taut-Player": me["key"]})
        game_id, mine = made.json()["id"], made.json()["mine"]
        with socket_of(client, game_id, token_of(mine)) as a:
            Person(a, game_id, random.Random(1)).turn()  # free, and +2 s
            a.state(lambda f: f["clock"]["running"] == ["NS"] or f["phase"] == "over")
            clock.skip(20)
            (entry,) = [
                g for g in client.get("/api/players/quick").json()["playing"] if g["id"] == game_id
            ]
            assert entry["time_control"] == "3+2"
            assert entry["time_left"] == pytest.approx(162.0, abs=2.0)
            assert entry["time_left_text"] in ("2:41", "2:42", "2:43")
            page = client.get("/players/quick").text
            assert f"({entry['time_left_text']} left)" in page


def test_clock_text() -> None:
    assert [clock_text(s) for s in (0, 9.9, 65, 3599, 3600, 7322.5)] == [
        "0:00", "0:09", "1:05", "59:59", "1:00:00", "2:02:02",
    ]  # fmt: skip


def test_the_form_says_the_computer_has_a_clock_in_a_live_game(tmp_path: Path) -> None:
    # It said the computer plays without a clock, while a live game's computer is timed.
    with app_client(tmp_path) as client:
        page = client.get("/new/tracks").text
        assert "the computer plays without a clock" not in page
        assert "the computer has a clock too" in page
