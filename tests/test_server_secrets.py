"""Hidden information never leaves the server.

Random games of every game are played through the hub (people at two or more seats, a
spectator, the computer at the others), and every message every client is sent is kept.
Then, for every frame:

* it is exactly the frame built from the true position at its ``seq`` for its recipient;
* where information is hidden, frames built from *any* full position consistent with the
  recipient's view (``game.determinize``) are the same frame: nothing in it depends on what
  the recipient may not know;
* where seats choose at once, frames built with the other seats' commitments and reveals
  replaced by other choices are the same frame;
* no commitment's hash or salt, no computer's kept choice and no capability token appears
  in any message to anyone;
* the clients take changed pictures as patches (as the browser does): a patch is checked
  with the frame it makes whole, and its text with the messages; the players' clients draw
  a game's table from its data where the game gives it (as the browser does), and that
  data is checked as the pictures are;
* the narrated log says only what a spectator may know: two moves leaving positions a
  spectator cannot tell apart are narrated alike.

And, message by message: what a player is sent before the reveal does not change when
another seat commits to something else.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from taut.core.game import State
from taut.core.registry import games, plugin
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.server.play.commit import commitment, new_salt
from taut.server.play.frames import state_frame
from taut.server.play.joints import parse_joint
from taut.server.play.table import GameTable, table_from_row
from tests.test_server_kit import Bench, Player, Recorder, bench, run, sample_options

#: Options that keep a game short (merged over sampled options).
SHORT: dict[str, dict[str, Any]] = {
    "pulling-strings": {"max_turns": 10},
    "push-pull": {"max_turns": 6},
    "tracks": {"size": 3},
    "tug-of-war": {"end": "rounds", "rounds": 1},
}
#: Option samples per game, and full positions drawn per frame where information is hidden.
VARIANTS, DRAWS = 3, 3


def variants(game: str) -> list[dict[str, Any]]:
    """The short options, and sampled options made short."""
    found = plugin(game)
    rng = random.Random(f"secrets {game}")
    out = [dict(SHORT.get(game, {}))]
    while len(out) < VARIANTS:
        options = {**sample_options(found, rng), **SHORT.get(game, {})}
        try:
            found.game_class(**options)
        except ValueError:
            continue
        out.append(options)
    return out


def seatings(game: str, options: dict[str, Any]) -> list[list[str]]:
    """People at two seats (the computer at the rest), and with two seats, one person
    against the computer as well."""
    n = plugin(game).game_class(**options).info.num_seats
    people = ["me", "invite"] + ["easy"] * (n - 2)
    return [people] if n > 2 else [people, ["me", "easy"]]


CASES = [
    pytest.param(game, options, seats, id=f"{game}-{i}-{'-'.join(seats)}")
    for game in games()
    for i, options in enumerate(variants(game))
    for seats in seatings(game, options)
]


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True)


def rebuilt(b: Bench, game_id: str, events: list[Any], seq: int) -> GameTable:
    """The game as it stood after event ``seq``, rebuilt from the store's events."""
    row = b.hub.rows[game_id]
    table = table_from_row(row)
    for event in events:
        if event.seq > seq:
            break
        table.apply(event)
    return table


def with_state(table: GameTable, state: State) -> GameTable:
    """``table`` with another full position."""
    other = copy.copy(table)
    other.state = state
    return other


def with_other_choices(table: GameTable, seat: int | None, rng: random.Random) -> GameTable:
    """``table`` with every other seat's commitment (and reveal) for another legal choice."""
    other = copy.copy(table)
    other.commits = dict(table.commits)
    other.reveals = dict(table.reveals)
    state = table.state
    for s in list(other.commits):
        if s == seat:
            continue
        action = state.action_to_string(s, rng.choice(list(state.legal_actions(s))))
        salt = new_salt()
        other.commits[s] = commitment(table.id, table.node, table.seat_name(s), action, salt)
        if s in other.reveals:
            other.reveals[s] = (action, salt)
    return other


def check_frames(b: Bench, game_id: str, players: list[Player], events: list[Any]) -> int:
    """Every recorded frame against the rebuilt position; the number checked."""
    rng = random.Random(7)
    by_seq: dict[int, list[tuple[int | None, bool, dict[str, Any]]]] = {}
    for player in players:
        for frame in player.recorder.frames():
            by_seq.setdefault(frame["seq"], []).append((player.conn.seat, player.conn.draws, frame))
    game = b.hub.tables[game_id].game
    hidden = not game.info.perfect_information
    checked = 0
    for seq, frames in sorted(by_seq.items()):
        table = rebuilt(b, game_id, events, seq)
        for seat, draws, frame in frames:
            assert state_frame(table, seat, drawing=draws) == frame
            if hidden:
                for viewer in range(game.info.num_seats) if seat is None else [seat]:
                    for _ in range(DRAWS):
                        full = game.determinize(table.state.view(viewer), viewer, rng)
                        assert state_frame(with_state(table, full), seat, drawing=draws) == frame
            if table.state.kind is NodeKind.SIMULTANEOUS and table.commits:
                for _ in range(DRAWS):
                    other = with_other_choices(table, seat, rng)
                    assert state_frame(other, seat, drawing=draws) == frame
            checked += 1
    return checked


def check_narration(found: Any, game_id: str, events: list[Any], b: Bench) -> None:
    """Moves that leave positions a spectator cannot tell apart are narrated alike (where
    information is hidden: elsewhere every move and every roll is public)."""
    table = table_from_row(b.hub.rows[game_id])
    if table.game.info.perfect_information:
        return
    state = table.game.new_initial_state()
    for event in events:
        if event.kind != "move":
            continue
        joint = parse_joint(state, event.payload["joint"])
        after = state.apply(joint)
        lines = found.narrate(state, joint, after)
        public = _json(after.view(None).to_json())
        if CHANCE_SEAT in joint:
            others = [{CHANCE_SEAT: o} for o, _ in state.chance_outcomes()]
        elif len(joint) == 1:
            (seat,) = joint
            others = [{seat: a} for a in state.legal_actions(seat)]
        else:
            others = []
        for other in others:
            alike = state.apply(other)
            if _json(alike.view(None).to_json()) == public:
                assert found.narrate(state, other, alike) == lines, (joint, other)
        state = after


@pytest.mark.parametrize(("game", "options", "seats"), CASES)
def test_no_frame_holds_what_its_recipient_may_not_know(
    tmp_path: Path, game: str, options: dict[str, Any], seats: list[str]
) -> None:
    async def play() -> None:
        async with bench(tmp_path, seed=len(CASES)) as b:
            made = await b.make(game, seats, options)
            table = await b.hub.table(made.id)
            assert table is not None
            # The browser's clients, which take pictures as patches (with edits of tokens)
            # and draw the table from its data where the game gives it: every frame they
            # make whole is checked, and every patch's text for the secrets. A spectator
            # takes the server's pictures.
            people = [
                await b.join(made.id, i, patches="edits", draws=True)
                for i, kind in enumerate(seats)
                if kind in ("me", "invite")
            ]
            watchers = [await b.join(made.id, None, patches="edits")]
            if table.plugin.table_drawing is not None:
                # A spectator's page draws the table from its facts too.
                watchers.append(await b.join(made.id, None, patches="edits", draws=True))
            await b.play(people, nodes=300)
            await b.quiet()
            events = await b.store.events_after(made.id, -1)
            everyone = [*people, *watchers]
            assert check_frames(b, made.id, everyone, events) > len(events) // 2
            check_narration(table.plugin, made.id, events, b)
            secrets = [e.payload["hash"] for e in events if e.kind == "commit"]
            secrets += [e.payload["salt"] for e in events if e.kind == "reveal"]
            secrets += [*made.links.values(), made.spectator]
            if game in ("pulling-strings", "push-pull"):
                assert any(e.kind == "commit" for e in events)
            for player in everyone:
                for text in player.recorder.texts:
                    for secret in secrets:
                        assert secret not in text

    run(play())


@pytest.mark.parametrize("game", [g for g in games() if plugin(g).game_class().info.simultaneous])
def test_what_a_player_is_sent_before_the_reveal_does_not_depend_on_the_other_choice(
    tmp_path: Path, game: str
) -> None:
    async def one(folder: Path, pick: int) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The messages to the first seat and to a spectator until the first move is played,
        with the second seat committing to its ``pick``-th legal choice."""
        folder.mkdir()
        async with bench(folder, seed=5) as b:
            made = await b.make(game, ["me", "invite"], SHORT.get(game, {}))
            first, second = await b.join(made.id, 0), await b.join(made.id, 1)
            watcher = await b.join(made.id, None)
            for player, index in ((first, 0), (second, pick)):
                frame = player.recorder.last()
                action = frame["legal"][index]
                salt = new_salt()
                player.secrets[0] = (action, salt)
                digest = commitment(made.id, 0, frame["you"], action, salt)
                assert (await b.say(player, type="commit", move=0, hash=digest))["type"] == "ack"
            assert await b.step(first)  # the first seat reveals; the second has not yet
            seen = []
            for player in (first, watcher):
                kept = []
                for message in player.recorder.messages():
                    if message.get("move", 0) > 0:
                        break
                    message.pop("reveal_since", None)
                    kept.append(message)
                seen.append(kept)
            return seen[0], seen[1]

    a = run(one(tmp_path / "a", 1))
    b = run(one(tmp_path / "b", 2))
    assert a == b
    assert any(m["type"] == "state" and m["phase"] == "reveal" for m in a[0])


def after_following(player: Player) -> Player:
    """``player`` as seen from its ``followed`` on: the messages of the game it followed to."""
    texts = player.recorder.texts
    at = next(i for i, t in enumerate(texts) if json.loads(t)["type"] == "followed")
    recorder = Recorder()
    recorder.texts = texts[at + 1 :]
    return Player(player.conn, recorder)


@pytest.mark.parametrize("game", games())
def test_no_frame_of_a_rematch_followed_on_the_same_socket_holds_what_it_may_not_know(
    tmp_path: Path, game: str
) -> None:
    """Clients that go on to the rematch on their sockets (``follow``) get the rematch's
    frames from their own view there, exactly as the clients of a new socket would."""

    async def play() -> None:
        async with bench(tmp_path, seed=11) as b:
            n = plugin(game).game_class(**SHORT.get(game, {})).info.num_seats
            seats = ["me", "invite"] + ["easy"] * (n - 2)
            made = await b.make(game, seats, SHORT.get(game, {}))
            people = [await b.join(made.id, i, patches="edits", draws=True) for i in (0, 1)]
            row = b.hub.rows[made.id]
            watcher = await b.join(made.id, None, patches="edits")
            for i, player in enumerate(people):
                player.conn.token_hash = row.token_hashes[i]
            watcher.conn.token_hash = str(row.config["spectator_hash"])
            await b.play(people, nodes=300)
            assert (await b.say(people[0], type="rematch"))["type"] == "ack"
            new_id = b.hub.tables[made.id].rematch
            assert new_id is not None
            for player in (*people, watcher):
                await b.say(player, type="follow")
                assert player.conn.game_id == new_id
            await b.play(people, nodes=300)
            await b.quiet()
            events = await b.store.events_after(new_id, -1)
            everyone = [after_following(p) for p in (*people, watcher)]
            assert check_frames(b, new_id, everyone, events) > len(events) // 2
            secrets = [e.payload["hash"] for e in events if e.kind == "commit"]
            secrets += [e.payload["salt"] for e in events if e.kind == "reveal"]
            secrets += [*made.links.values(), made.spectator]
            for player in everyone:
                for text in player.recorder.texts:
                    for secret in secrets:
                        assert secret not in text

    run(play())
