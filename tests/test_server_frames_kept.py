"""Frames leave out what the connection's previous frame said (``kept``), and a client that
copies those members back holds exactly the whole frame. A game that lays its board out
apart for a phone (Tug of War) adds ``board_narrow``, kept like ``board``; no other game's
frame has it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taut.core.registry import plugin
from taut.server.play.frames import (
    KEPT_MEMBERS,
    FrameParts,
    Pictures,
    frame_parts,
    state_frame,
    with_kept,
)
from taut.server.play.position import Seat
from taut.server.play.table import GameTable
from taut.server.store.games import Event
from tests.test_server_kit import bench, run

#: The members every game's frame has (``board_narrow`` only some games'; ``table`` only
#: for clients that draw the table, in games that give its data).
EVERY_GAME = set(KEPT_MEMBERS) - {"board_narrow", "table"}


def _table(game: str, options: dict[str, object]) -> GameTable:
    found = plugin(game)
    config = {"options": options, "seats": [{}, {}], "seed": 1}
    return GameTable("g", found, found.game_class(**options), config, [Seat("human")] * 2)


@pytest.mark.parametrize(("game", "options"), [("pulling-strings", {}), ("tracks", {"size": 3})])
def test_the_whole_frame_is_the_state_frame(game: str, options: dict[str, object]) -> None:
    table = _table(game, options)
    whole = json.loads(frame_parts(table, 0, Pictures(), now=0.0).text())
    assert whole == json.loads(json.dumps(state_frame(table, 0, Pictures(), now=0.0)))
    assert "kept" not in whole and set(whole) >= EVERY_GAME
    assert "board_narrow" not in whole


def test_a_tug_of_war_frame_has_both_boards_kept_alike() -> None:
    table = _table("tug-of-war", {"players": 2})
    pictures = Pictures()
    whole = json.loads(frame_parts(table, 0, pictures, now=0.0).text())
    assert set(KEPT_MEMBERS) - {"table"} <= set(whole) and "table" not in whole
    assert whole == json.loads(json.dumps(state_frame(table, 0, Pictures(), now=0.0)))
    wide, narrow = whole["board"], whole["board_narrow"]
    assert 'viewBox="0 0 640 ' in wide and 'viewBox="0 0 360 ' in narrow
    sent: dict[str, str] = {}
    frame_parts(table, 0, pictures, now=0.0).text(sent)
    delta = json.loads(frame_parts(table, 0, pictures, now=0.0).text(sent))
    assert {"board", "board_narrow"} <= set(delta["kept"])
    assert "board_narrow" not in delta


def test_a_member_a_frame_lacks_is_not_kept_by_a_later_one() -> None:
    """The client's frame lost it too: a later frame that has it again sends it."""
    sent: dict[str, str] = {}
    FrameParts('{"seq":1}', {"board": '"a"', "board_narrow": '"n"'}).text(sent)
    FrameParts('{"seq":2}', {"board": '"a"'}).text(sent)
    again = json.loads(FrameParts('{"seq":3}', {"board": '"a"', "board_narrow": '"n"'}).text(sent))
    assert again == {"seq": 3, "board_narrow": "n", "kept": ["board"]}


def test_a_frame_repeated_on_a_connection_keeps_every_heavy_member() -> None:
    table = _table("pulling-strings", {})
    pictures = Pictures()
    sent: dict[str, str] = {}
    first = frame_parts(table, 0, pictures, now=0.0).text(sent)
    second = frame_parts(table, 0, pictures, now=0.0).text(sent)
    delta = json.loads(second)
    assert sorted(delta["kept"]) == sorted(EVERY_GAME)
    assert not set(KEPT_MEMBERS) & set(delta)
    assert len(second) * 4 < len(first)  # the board was most of it
    assert with_kept(json.loads(first), delta) == json.loads(first)


def test_a_member_that_changed_is_sent_again() -> None:
    parts = FrameParts('{"type":"state","seq":1}', {"board": '"a"', "log": "[]"})
    sent: dict[str, str] = {}
    assert json.loads(parts.text(sent)) == {"type": "state", "seq": 1, "board": "a", "log": []}
    changed = FrameParts('{"type":"state","seq":2}', {"board": '"b"', "log": "[]"})
    assert json.loads(changed.text(sent)) == {
        "type": "state",
        "seq": 2,
        "board": "b",
        "kept": ["log"],
    }
    assert sent == {"board": '"b"', "log": "[]"}


def test_a_frame_that_keeps_members_needs_a_frame_before_it() -> None:
    with pytest.raises(ValueError, match="no frame came before"):
        with_kept(None, {"type": "state", "kept": ["board"]})


def test_every_frame_a_client_receives_is_whole_once_kept_members_are_copied(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with bench(tmp_path, seed=3) as b:
            made = await b.make("pulling-strings", ["me", "invite"])
            players = [await b.join(made.id, seat) for seat in (0, 1)]
            await b.play(players, nodes=60)
            table = b.hub.tables[made.id]
            for player in players:
                raw = [json.loads(t) for t in player.recorder.texts]
                frames = [m for m in raw if m["type"] == "state"]
                assert "kept" not in frames[0]  # a new connection gets everything
                assert any("board" in m.get("kept", []) for m in frames[1:])
                whole = player.recorder.frames()
                for frame in whole:
                    assert set(frame) >= EVERY_GAME and "kept" not in frame
                # The last frame, made whole, is the frame of the position as it stands.
                seat = player.conn.seat
                expected = state_frame(table, seat, Pictures(), now=b.hub.now())
                last = dict(whole[-1])
                for frame in (last, expected):
                    frame.pop("clock")
                assert last == json.loads(json.dumps(expected))

    run(scenario())


def test_seats_that_share_a_view_share_its_drawings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pulling Strings hides nothing: both seats and the spectators look at one view, so its
    text is drawn once and a board with the same buttons once, and every frame is still
    what a fresh drawing gives."""
    from taut.games.pulling_strings import svg as ps_svg

    table = _table("pulling-strings", {})
    drawn = plugin("pulling-strings")
    calls = {"render": 0, "board": 0}
    render, board = type(drawn).render, ps_svg._svg

    def counted_render(self: object, state: object, markup: bool = False) -> str:
        calls["render"] += 1
        return render(self, state, markup)  # type: ignore[arg-type]

    def counted_board(*args: object, **kwargs: object) -> str:
        calls["board"] += 1
        return board(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(drawn), "render", counted_render)
    monkeypatch.setattr(ps_svg, "_svg", counted_board)
    ps_svg._DRAWN.clear()
    pictures = Pictures()
    frames = {seat: state_frame(table, seat, pictures, now=0.0) for seat in (0, 1, None)}
    assert calls["render"] == 1
    assert calls["board"] == 2  # with the ends as buttons (both seats), and without
    assert frames[0]["board"] == frames[1]["board"] != frames[None]["board"]
    ps_svg._DRAWN.clear()
    for seat, frame in frames.items():
        assert frame == state_frame(table, seat, Pictures(), now=0.0)


def test_a_kept_drawing_is_never_given_to_another_position() -> None:
    """Drawings are kept by the view's identity, checked against the view itself: a new
    position whose object takes a freed one's address is drawn afresh."""
    from taut.games.pulling_strings.svg import _DRAWN, board_svg

    table = _table("pulling-strings", {})
    state = table.state
    legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    first = board_svg(state, 0, legal)  # type: ignore[arg-type]
    after = state.apply({0: state.legal_actions(0)[0], 1: state.legal_actions(1)[-1]})
    later = [after.action_to_string(0, a) for a in after.legal_actions(0)]
    buttons = tuple((after.string_to_action(0, m), m) for m in later)
    _DRAWN[(id(after), buttons)] = (state, first)  # as if ``after`` had ``state``'s address
    again = board_svg(after, 0, later)  # type: ignore[arg-type]
    assert again != first
    _DRAWN.clear()
    assert again == board_svg(after, 0, later)  # type: ignore[arg-type]


def test_the_phase_follows_every_commitment_and_position() -> None:
    """The phase is kept between asks (a command asks several times), and found again as
    soon as a commitment comes or goes or the position changes."""
    table = _table("pulling-strings", {})
    start = table.state
    for first, second in ((0, 1), (1, 0)):
        assert table.phase == "commit"
        table.commits[first] = "h"
        assert table.phase == "commit"
        table.commits[second] = "h"
        assert table.phase == "reveal"
        table.commits.clear()
    state = start
    while not state.is_terminal():
        state = state.apply({s: state.legal_actions(s)[0] for s in state.acting_seats()})
        table.state = state
        assert table.phase == ("over" if state.is_terminal() else "commit")
    table.state = start  # a takeback to a position held before
    assert table.phase == "commit"
    sequential = _table("tracks", {"size": 3})
    assert sequential.phase == "play"


def test_a_game_gets_one_set_of_drawings_for_all_its_frames(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The frames of a game while it has clients share one :class:`Pictures` (a frame that
    made a new one only to drop it would cost every frame a dozen dictionaries)."""
    made_sets: list[Pictures] = []
    start = Pictures.__init__

    def counted(self: Pictures) -> None:
        made_sets.append(self)
        start(self)

    monkeypatch.setattr(Pictures, "__init__", counted)

    async def scenario() -> None:
        async with bench(tmp_path, seed=4) as b:
            made = await b.make("push-pull", ["me", "invite"])
            players = [await b.join(made.id, seat) for seat in (0, 1)]
            await b.play(players, nodes=12)
            await b.quiet()
            frames = sum(len(p.recorder.frames()) for p in players)
            assert frames > 12
            assert len(made_sets) == 1, f"{len(made_sets)} sets of drawings for {frames} frames"

    run(scenario())


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("pulling-strings", {}),
        ("push-pull", {}),
        ("tug-of-war", {"players": 2}),
        ("tracks", {"size": 4}),
    ],
)
def test_every_frame_made_from_kept_parts_is_the_frame_made_afresh(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, object]
) -> None:
    """A seat's drawn members are kept, encoded, while the position stays (a commitment, a
    reveal, a line of chat draws nothing): every frame the hub builds so, for each seat
    and way of drawing, is the frame a fresh drawing of the table gives at that moment."""
    from taut.server.play import audience

    checked: list[int | None] = []  # the seats of the frames compared

    def compared(*args: Any) -> FrameParts:
        # Called as the audience calls it: every argument given, in order.
        table, seat, pictures, now, want, text, drawing = args
        for way in (want, None):  # as asked, and with both pictures
            _as_fresh(table, seat, pictures, now, way, text, drawing)
        checked.append(seat)
        return frame_parts(*args)

    monkeypatch.setattr(audience, "frame_parts", compared)

    async def scenario() -> None:
        async with bench(tmp_path, seed=5) as b:
            made = await b.make(game, ["me", "invite"], options)
            # One client of each kind: pictures sent whole, and the table drawn by the page.
            players = [
                await b.join(made.id, 0),
                await b.join(made.id, 1, patches="edits", draws=True),
            ]
            watcher = await b.join(made.id, None)
            await b.say(players[0], type="chat", text="good luck")
            await b.play(players, nodes=80)
            assert watcher.recorder.frames()

    run(scenario())
    assert set(checked) == {0, 1, None}
    assert len(checked) > 20


@pytest.mark.parametrize("game", ["pulling-strings", "push-pull"])
def test_a_seat_that_committed_is_not_sent_the_moves_it_was_offered(game: str) -> None:
    """Within one position a seat's frame changes as it commits and as the others do: the
    kept parts go by the seat's turn, and each frame is the one a fresh drawing gives."""
    table = _table(game, {})
    pictures = Pictures()
    ways = [(None, True, False), ("board", False, False), (None, False, True)]

    def check(seat: int | None) -> dict[str, Any]:
        frames = [_as_fresh(table, seat, pictures, 0.0, *way) for way in ways]
        return frames[0]

    assert all(check(seat)["legal"] for seat in (0, 1))
    for seq, seat in enumerate((0, 1), start=table.seq + 1):
        table.apply(Event(seq, "commit", {"seat": table.seat_name(seat), "hash": "ab" * 32}, 0.0))
        assert check(seat)["legal"] == []  # it has chosen
        assert check(None)["committed"] == [table.seat_name(s) for s in range(seat + 1)]
    assert check(0)["to_reveal"] and check(1)["to_reveal"]


def _as_fresh(
    table: GameTable,
    seat: int | None,
    pictures: Pictures,
    now: float | None,
    want: str | None,
    text: bool,
    drawing: bool,
) -> dict[str, Any]:
    """The whole frame built from ``pictures`` (what was kept), checked equal to the frame a
    fresh drawing gives."""
    kept = json.loads(frame_parts(table, seat, pictures, now, want, text, drawing).text())
    fresh = json.loads(frame_parts(table, seat, Pictures(), now, want, text, drawing).text())
    assert kept == fresh, (table.seq, seat, want, text, drawing)
    return kept
