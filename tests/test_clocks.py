"""The clocks of served games, without a server: time controls as typed, and the clocks of
a game table rebuilt from events stored at made-up times (no sleeping, no I/O)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from taut.core.registry import plugin
from taut.server.play.clocks import DAY, TIME, Clocks, TimeControl, TimeControlError
from taut.server.play.clocks import parse_time_control as parse
from taut.server.play.commit import commitment, new_salt
from taut.server.play.position import Batch, Seat
from taut.server.play.table import GameTable
from taut.server.store.games import Event

# -- time controls ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "control", "shown"),
    [
        ("5+3", TimeControl(minutes=5, increment=3), "5+3"),
        (" 1 + 0 ", TimeControl(minutes=1), "1+0"),
        ("15+10", TimeControl(minutes=15, increment=10), "15+10"),
        ("1 day", TimeControl(days=1), "1 day per move"),
        ("3 days per move", TimeControl(days=3), "3 days per move"),
        ("7d", TimeControl(days=7), "7 days per move"),
    ],
)
def test_time_controls_as_typed(text: str, control: TimeControl, shown: str) -> None:
    assert parse(text) == control
    assert control.text() == shown
    assert TimeControl.from_json(control.to_json()) == control
    assert parse(shown) == control


@pytest.mark.parametrize("text", [None, "", "none", " None "])
def test_no_time_control(text: str | None) -> None:
    assert parse(text) is None


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("0+5", "0 minutes"),
        ("181+0", "181 minutes"),
        ("5+61", "61 seconds"),
        ("4 days", "4 days"),
        ("5 minutes", "not a time control"),
        ("5+", "not a time control"),
        ("-1+0", "not a time control"),
    ],
)
def test_refused_time_controls_say_what_is_allowed(text: str, why: str) -> None:
    with pytest.raises(TimeControlError) as caught:
        parse(text)
    message = str(caught.value)
    assert why in message
    assert '"M+S"' in message and "D days" in message and "1, 2, 3, 7" in message


# -- the model alone --------------------------------------------------------------------------


def test_a_resume_charges_up_to_the_last_event_and_no_further() -> None:
    clocks = Clocks(TimeControl(minutes=1), [True, True])
    clocks.node(0.0, [0])
    clocks.chose(0, 0.0)  # the first choice starts the clocks
    clocks.node(0.0, [1])
    clocks.saw(0.0)
    clocks.saw(20.0)  # something else (a chat line) was written at 20 s
    clocks.resume(500.0)  # the server went down after 20 s and came back at 500 s
    assert clocks.left_at(1, 500.0) == pytest.approx(40.0)
    assert clocks.left_at(1, 510.0) == pytest.approx(30.0)
    assert clocks.next_fall() == (pytest.approx(540.0), 1)
    assert clocks.fallen(539.9) is None
    assert clocks.fallen(540.0) == (pytest.approx(540.0), 1)


# -- a game table driven by events at made-up times -----------------------------------------


class Table:
    """A :class:`GameTable` whose events are stored at times the test gives."""

    def __init__(
        self,
        game: str,
        control: str,
        kinds: Sequence[str] = ("me", "invite"),
        options: dict[str, Any] | None = None,
    ) -> None:
        found = plugin(game)
        built = found.game_class(**(options or {}))
        clock = parse(control)
        assert clock is not None
        config = {
            "options": dict(built.options),
            "seats": [
                {"kind": k, "agent": k if k in ("easy", "medium", "hard") else None} for k in kinds
            ],
            "seed": 7,
            "clock": clock.to_json(),
        }
        seats = [
            Seat("computer", k) if k in ("easy", "medium", "hard") else Seat("human") for k in kinds
        ]
        self.table = GameTable("g1", found, built, config, seats)
        self.salts: dict[int, tuple[str, str]] = {}
        self.put(Batch([("created", {"game": game})]), 0.0)
        self.put(self.table.chance(), 0.0)

    def put(self, batch: Batch, at: float) -> None:
        """Store ``batch``'s events at ``at``."""
        for kind, payload in batch.events:
            self.table.apply(Event(self.table.seq + 1, kind, payload, at))

    def left(self, now: float) -> dict[str, float]:
        """Seconds left per seat at ``now``."""
        frame = self.table.clock_frame(now)
        assert frame is not None
        return {seat: ms / 1000 for seat, ms in frame["left"].items()}

    def running(self) -> list[str]:
        """The seats whose clock runs."""
        frame = self.table.clock_frame(0.0)
        assert frame is not None
        return list(frame["running"])

    def move(self, at: float) -> None:
        """The seat to move plays its first legal move at ``at``."""
        table = self.table
        seat = table.state.acting_seats()[0]
        action = table.state.action_to_string(seat, table.state.legal_actions(seat)[0])
        self.put(table.move(seat, table.node, action), at)

    def commit(self, seat: int, at: float) -> None:
        """``seat`` commits to its first legal choice at ``at``."""
        table = self.table
        action = table.state.action_to_string(seat, table.state.legal_actions(seat)[0])
        salt = new_salt()
        self.salts[seat] = (action, salt)
        digest = commitment(table.id, table.node, table.seat_name(seat), action, salt)
        self.put(table.commit(seat, table.node, digest), at)

    def reveal_all(self, at: float) -> None:
        """Every seat reveals at ``at`` (the node is played)."""
        node = self.table.node
        for seat, (action, salt) in sorted(self.salts.items()):
            self.put(self.table.reveal(seat, node, action, salt), at)
        self.salts.clear()


def test_a_turn_game_charges_the_mover_only_and_adds_the_increment() -> None:
    t = Table("tracks", "1+2", options={"size": 3})
    assert t.running() == []  # nobody is charged before the first move
    assert t.left(100.0) == {"NS": 60.0, "WE": 60.0}
    mover = t.table.seat_name(t.table.state.acting_seats()[0])
    other = "WE" if mover == "NS" else "NS"
    t.move(100.0)  # the first move is free and starts the clocks
    assert t.running() == [other]
    assert t.left(110.0)[other] == pytest.approx(50.0)
    assert t.left(110.0)[mover] == pytest.approx(62.0)  # every choice gains 2 s
    t.move(115.0)  # 15 s spent, 2 s gained
    assert t.left(115.0)[other] == pytest.approx(47.0)
    assert t.running() == [mover]
    assert t.left(125.0)[mover] == pytest.approx(52.0)
    clocks = t.table.clocks
    assert clocks is not None and clocks.deadline(t.table.game.seat_index(mover)) == 177.0


def test_at_a_simultaneous_node_every_seat_still_to_choose_is_charged() -> None:
    t = Table("pulling-strings", "1+0")
    t.commit(0, 10.0)  # X's first choice starts the clocks: O's runs from here
    assert t.running() == ["O"]
    t.commit(1, 25.0)
    assert t.running() == []  # both have chosen: nobody is charged while the choices show
    t.reveal_all(40.0)
    assert t.table.node == 1
    assert t.running() == ["X", "O"]
    assert t.left(40.0) == {"X": 60.0, "O": pytest.approx(45.0)}
    t.commit(1, 50.0)
    assert t.running() == ["X"]
    assert t.left(70.0) == {"X": pytest.approx(30.0), "O": pytest.approx(35.0)}


def test_a_clock_reaching_zero_loses_on_time() -> None:
    t = Table("pulling-strings", "1+0")
    t.commit(0, 0.0)
    assert t.table.flag(59.9).repeat
    batch = t.table.flag(75.0)
    assert [kind for kind, _ in batch.events] == ["forfeit"]
    payload = batch.events[0][1]
    assert payload["seat"] == "O" and payload["reason"] == "time"
    assert payload["at"] == pytest.approx(60.0)  # when it fell, not when it was seen
    t.put(batch, 75.0)
    outcome = t.table.state.outcome
    assert outcome is not None and outcome.reason == TIME
    assert [t.table.seat_name(s) for s in outcome.winners] == ["X"]
    assert t.table.record().result == {"winners": ["X"], "reason": "time"}
    assert t.table.record().meta["clock"] == "1+0"
    assert t.left(100.0) == {"X": 60.0, "O": 0.0}
    assert t.running() == []
    assert "time" in t.table.log[-1]
    assert t.table.flag(1000.0).repeat  # once over, nothing more falls


def test_a_restart_does_not_charge_the_time_the_server_was_down() -> None:
    t = Table("pulling-strings", "1+0")
    t.commit(0, 0.0)
    t.put(Batch([("chat", {"seat": "X", "text": "hi"})]), 20.0)  # the server ran until 20 s
    assert not t.table.resumed().repeat
    t.put(t.table.resumed(), 3600.0)  # and came back an hour later
    assert t.left(3600.0)["O"] == pytest.approx(40.0)
    assert t.table.flag(3639.0).repeat
    assert t.table.flag(3641.0).events[0][1]["at"] == pytest.approx(3640.0)


def test_a_correspondence_game_gives_each_move_its_own_deadline() -> None:
    t = Table("tracks", "2 days", options={"size": 3})
    t.move(0.0)
    waiting = t.running()[0]
    assert t.left(DAY)[waiting] == pytest.approx(DAY)
    t.move(1.5 * DAY)  # in time: the next move has two whole days again
    mover = t.running()[0]
    assert mover != waiting
    assert t.left(1.5 * DAY)[mover] == pytest.approx(2 * DAY)
    assert t.table.clock_deadline(t.table.game.seat_index(mover)) == pytest.approx(3.5 * DAY)
    assert t.table.clock_deadline(t.table.game.seat_index(waiting)) is None
    assert t.table.flag(3.4 * DAY).repeat
    late = t.table.flag(3.6 * DAY)
    assert late.events[0][1]["seat"] == mover and late.events[0][1]["reason"] == "time"


def test_computer_seats_have_no_clock() -> None:
    t = Table("tracks", "1+0", kinds=("me", "easy"), options={"size": 3})
    t.move(0.0)
    t.move(30.0)
    frame = t.table.clock_frame(30.0)
    assert frame is not None
    assert list(frame["left"]) == ["NS"]  # the computer's seat shows no clock
    assert all(t.table.seats[t.table.game.seat_index(s)].kind == "human" for s in t.running())


def test_the_clocks_wait_for_an_open_seat_to_be_taken() -> None:
    t = Table("pulling-strings", "1+0", kinds=("me", "open"))
    t.commit(0, 0.0)
    assert t.running() == []  # O's seat is still in the lobby
    assert not t.table.seated(1).repeat
    t.put(t.table.seated(1), 100.0)
    assert t.table.seated(1).repeat
    t.commit(1, 120.0)  # O's first choice, now that every seat is taken, starts them
    t.reveal_all(121.0)
    assert t.running() == ["X", "O"]
    assert t.left(121.0) == {"X": 60.0, "O": 60.0}


def test_a_takeback_keeps_the_time_spent() -> None:
    t = Table("tracks", "1+0", options={"size": 3})
    first = t.table.seat_name(t.table.state.acting_seats()[0])
    t.move(0.0)
    t.move(10.0)  # the second seat spent 10 s
    t.put(t.table.propose(t.table.game.seat_index(first), "takeback"), 12.0)
    other = t.table.game.seat_index("WE" if first == "NS" else "NS")
    t.put(t.table.answer(other, t.table.node, "takeback", True), 15.0)
    assert t.running() == [first]  # the position before its move: its clock runs again
    left = t.left(20.0)
    assert left[first] == pytest.approx(60.0 - 5.0 - 5.0)  # 10 to 15 s, then 15 to 20 s
