"""One game at the server: its position rebuilt from its events, and the commands that add
events. No I/O here: :class:`GameTable` checks a command against the position and returns
the events it would add (a :class:`Batch`); the hub writes them, then applies them here.

Events (``kind``: payload):

* ``created``: the game's settings;
* ``name``: ``{"seat", "name"}``, a player names themself;
* ``move``: ``{"move", "joint"}``, one node of the game, every acting seat's action (or
  ``chance``'s outcome) in the game's notation;
* ``commit``: ``{"move", "seat", "hash"}``, a seat's commitment at a node where several act;
* ``reveal``: ``{"move", "seat", "action", "salt"}``, the choice behind it;
* ``forfeit``: ``{"move", "seat"}``, a seat missed its deadline to reveal;
* ``rematch``: ``{"game"}``, a new game with the same settings and seats was made.

``move`` numbers nodes from 0 (the moves played before). Chance nodes are drawn at once,
from the game's seed and the node's number, in the batch of the move that reached them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.chance import derive_seed
from taut.core.errors import ActionError
from taut.core.forfeit import forfeit
from taut.core.game import CHANCE_SEAT, Game, NodeKind, State
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.server.commit import commitment
from taut.server.store import Event

#: How many narrated lines a table keeps for its clients.
LOG_LINES = 12

Joint = dict[int, int]


class Refused(Exception):
    """A command that changes nothing: the message says why (sent to that client only)."""


@dataclass
class Batch:
    """Events a command adds, computer secrets to keep, and whether it was a resend."""

    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    secrets: list[tuple[int, int, str, str]] = field(default_factory=list)
    repeat: bool = False
    """True when the command had already been carried out (a resend): nothing to add."""


@dataclass
class Seat:
    """Who sits at a seat: a person (``human``) or the computer (``computer``, ``agent``)."""

    kind: str
    agent: str | None = None
    name: str = ""


class GameTable:
    """A game being played, rebuilt from its events."""

    def __init__(
        self,
        game_id: str,
        plugin: GamePlugin,
        game: Game,
        config: Mapping[str, Any],
        seats: Sequence[Seat],
    ) -> None:
        self.id = game_id
        self.plugin = plugin
        self.game = game
        self.config = dict(config)
        self.seats = list(seats)
        self.seed = int(config.get("seed", 0))
        self.state: State = game.new_initial_state()
        self.seq = -1
        self.moves: list[dict[str, str]] = []
        self.commits: dict[int, str] = {}
        self.reveals: dict[int, tuple[str, str]] = {}
        self.secrets: dict[int, tuple[str, str]] = {}
        """The computer seats' choices at the current node, until revealed."""
        self.commitments: list[dict[str, Any]] = []
        self.log: list[str] = []
        self.reveal_since: float | None = None
        self.rematch: str | None = None

    # -- where the game stands --------------------------------------------------------------

    @property
    def node(self) -> int:
        """Moves played so far (the number of the next move)."""
        return len(self.moves)

    @property
    def phase(self) -> str:
        """``over``, ``play`` (one seat acts), ``commit`` or ``reveal`` (several act)."""
        state = self.state
        if state.is_terminal():
            return "over"
        if state.kind is not NodeKind.SIMULTANEOUS:
            return "play"
        acting = state.acting_seats()
        return "reveal" if all(s in self.commits for s in acting) else "commit"

    def seat_name(self, seat: int) -> str:
        """The game's name of ``seat``."""
        return self.game.info.seats[seat]

    def computers_to_act(self) -> list[int]:
        """Computer seats that must choose now (and have not)."""
        phase = self.phase
        if phase not in ("play", "commit"):
            return []
        return [
            s
            for s in self.state.acting_seats()
            if s != CHANCE_SEAT and self.seats[s].kind == "computer" and s not in self.commits
        ]

    # -- applying events --------------------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Carry out one stored event (in ``seq`` order)."""
        if event.seq != self.seq + 1:
            raise ValueError(f"{self.id}: event {event.seq} after {self.seq}")
        self.seq = event.seq
        payload = event.payload
        kind = event.kind
        if kind == "name":
            self.seats[self._seat(payload["seat"])].name = str(payload["name"])
        elif kind == "commit":
            self.commits[self._seat(payload["seat"])] = str(payload["hash"])
            if self.phase == "reveal":
                self.reveal_since = event.created_at
        elif kind == "reveal":
            self.reveals[self._seat(payload["seat"])] = (payload["action"], payload["salt"])
        elif kind == "move":
            self._move(payload["joint"])
        elif kind == "forfeit":
            seat = self._seat(payload["seat"])
            self.state = forfeit(self.state, seat)
            why = (
                "committed to a move it cannot play"
                if payload.get("reason") == "illegal"
                else "did not reveal in time"
            )
            self.log.append(f"{payload['seat']} {why} and forfeits.")
        elif kind == "rematch":
            self.rematch = str(payload["game"])

    def _seat(self, name: str) -> int:
        return self.game.seat_index(name)

    def _move(self, joint_text: Mapping[str, str]) -> None:
        before = self.state
        joint = parse_joint(before, joint_text)
        after = before.apply(joint)
        for seat, (action, salt) in sorted(self.reveals.items()):
            self.commitments.append(
                {
                    "move": self.node,
                    "seat": self.seat_name(seat),
                    "hash": self.commits[seat],
                    "action": action,
                    "salt": salt,
                }
            )
        self.moves.append(dict(joint_text))
        self.state = after
        self.commits.clear()
        self.reveals.clear()
        self.secrets.clear()
        self.reveal_since = None
        self.log.extend(self.plugin.narrate(before, joint, after))
        del self.log[:-LOG_LINES]

    # -- commands ---------------------------------------------------------------------------

    def name(self, seat: int, name: str) -> Batch:
        """A player names themself."""
        if self.seats[seat].kind != "human":
            raise Refused("only a player's own seat can be named")
        if self.seats[seat].name == name:
            return Batch(repeat=True)
        return Batch([("name", {"seat": self.seat_name(seat), "name": name})])

    def move(self, seat: int, move: int, action: str) -> Batch:
        """A move at a node where ``seat`` alone acts (or a resend of one already made)."""
        past = self._past(seat, move, action)
        if past is not None:
            return past
        if self.phase != "play" or seat not in self.state.acting_seats():
            raise Refused("it is not your move")
        self._current(move)
        action_id = self._legal(seat, action)
        joint = {self.seat_name(seat): self.state.action_to_string(seat, action_id)}
        return self._with_chance([("move", {"move": move, "joint": joint})])

    def commit(self, seat: int, move: int, digest: str) -> Batch:
        """A commitment where several seats act; the last one opens the reveal (a resend
        of a commitment already played is answered again)."""
        if move < self.node:
            name = self.seat_name(seat)
            for kept in self.commitments:
                if (kept["move"], kept["seat"], kept["hash"]) == (move, name, digest):
                    return Batch(repeat=True)
            raise Refused(f"move {move} is over")
        self._current(move)
        if self.phase not in ("commit", "reveal") or seat not in self.state.acting_seats():
            raise Refused("you do not choose now")
        if seat in self.commits:
            if self.commits[seat] == digest:
                return Batch(repeat=True)
            raise Refused("you have committed already; reveal that choice")
        events = [("commit", {"move": move, "seat": self.seat_name(seat), "hash": digest})]
        return self._with_chance(events + self._computer_reveals({seat}, self.secrets))

    def reveal(self, seat: int, move: int, action: str, salt: str) -> Batch:
        """The choice behind ``seat``'s commitment; the last reveal plays the node."""
        past = self._past(seat, move, action)
        if past is not None:
            return past
        self._current(move)
        if self.phase != "reveal":
            raise Refused("not every seat has committed yet")
        if seat not in self.commits:
            raise Refused("you do not choose now")
        if seat in self.reveals:
            if self.reveals[seat] == (action, salt):
                return Batch(repeat=True)
            raise Refused("you have revealed already")
        if commitment(self.id, move, self.seat_name(seat), action, salt) != self.commits[seat]:
            raise Refused("this move and salt do not match your commitment")
        try:
            action_id = self._legal(seat, action)
        except Refused:
            # Bound to a move it cannot play: the seat cannot reveal a legal one, ever.
            forfeited = {"move": move, "seat": self.seat_name(seat), "reason": "illegal"}
            return Batch([("forfeit", forfeited)])
        text = self.state.action_to_string(seat, action_id)
        name = self.seat_name(seat)
        reveal = ("reveal", {"move": move, "seat": name, "action": action, "salt": salt})
        revealed = {**{s: a for s, (a, _) in self.reveals.items()}, seat: text}
        events: list[tuple[str, dict[str, Any]]] = [reveal]
        if set(revealed) == set(self.state.acting_seats()):
            joint = {self.seat_name(s): self._notation(s, a) for s, a in sorted(revealed.items())}
            events.append(("move", {"move": move, "joint": joint}))
            return self._with_chance(events)
        return Batch(events)

    def computer(self, seat: int, move: int, action_id: int, salt: str) -> Batch:
        """A computer seat's choice: a move where it acts alone, else its commitment (and,
        when it is the last to commit, every computer's reveal)."""
        if move != self.node or seat not in self.computers_to_act():
            return Batch(repeat=True)  # the node moved on meanwhile
        text = self.state.action_to_string(seat, action_id)
        if self.phase == "play":
            joint = {self.seat_name(seat): text}
            return self._with_chance([("move", {"move": move, "joint": joint})])
        digest = commitment(self.id, move, self.seat_name(seat), text, salt)
        events = [("commit", {"move": move, "seat": self.seat_name(seat), "hash": digest})]
        known = {**self.secrets, seat: (text, salt)}
        events += self._computer_reveals({seat}, known)
        batch = self._with_chance(events)
        batch.secrets = [(move, seat, text, salt)]
        return batch

    def forfeit_late(self, move: int) -> Batch:
        """The first seat still to reveal forfeits (its deadline passed)."""
        if move != self.node or self.phase != "reveal":
            return Batch(repeat=True)
        late = [s for s in self.state.acting_seats() if s not in self.reveals]
        if not late:
            return Batch(repeat=True)
        return Batch([("forfeit", {"move": move, "seat": self.seat_name(late[0])})])

    def chance(self) -> Batch:
        """The chance nodes the game stands at, drawn (a game that opens with a deal or a
        roll); nothing when it stands elsewhere."""
        if self.state.kind is not NodeKind.CHANCE:
            return Batch(repeat=True)
        return self._with_chance([])

    def rematched(self, new_id: str) -> Batch:
        """Announce the rematch ``new_id`` (once)."""
        if self.rematch is not None:
            return Batch(repeat=True)
        return Batch([("rematch", {"game": new_id})])

    # -- helpers ----------------------------------------------------------------------------

    def _current(self, move: int) -> None:
        if move != self.node:
            raise Refused(f"the game is at move {self.node}, not {move}")

    def _past(self, seat: int, move: int, action: str) -> Batch | None:
        """For a move already played: a resend of this seat's action there is answered
        again; anything else about it is stale."""
        if move >= self.node:
            return None
        played = self.moves[move].get(self.seat_name(seat))
        if played is not None and played == self._notation_at(move, seat, action):
            return Batch(repeat=True)
        raise Refused(f"move {move} is over")

    def _notation_at(self, move: int, seat: int, action: str) -> str | None:
        """``action`` in canonical notation at past move ``move`` (None if it reads as none)."""
        state = self.game.new_initial_state()
        for joint_text in self.moves[:move]:
            state = state.apply(parse_joint(state, joint_text))
        try:
            return state.action_to_string(seat, state.string_to_action(seat, action))
        except ActionError:
            return None

    def _legal(self, seat: int, action: str) -> int:
        try:
            action_id = self.state.string_to_action(seat, action)
        except ActionError as exc:
            raise Refused(str(exc)) from None
        if not self.state.is_legal(seat, action_id):
            raise Refused(self.state.illegal_reason(seat, action_id))
        return action_id

    def _notation(self, seat: int, action: str) -> str:
        return self.state.action_to_string(seat, self.state.string_to_action(seat, action))

    def _computer_reveals(
        self, extra: set[int], secrets: Mapping[int, tuple[str, str]]
    ) -> list[tuple[str, dict[str, Any]]]:
        """Once every acting seat has committed (counting ``extra``), the computers reveal
        the choices kept in ``secrets``."""
        acting = set(self.state.acting_seats())
        if not acting <= set(self.commits) | extra:
            return []
        events: list[tuple[str, dict[str, Any]]] = [
            ("reveal", {"move": self.node, "seat": self.seat_name(s), "action": a, "salt": salt})
            for s, (a, salt) in sorted(secrets.items())
            if s not in self.reveals
        ]
        revealed = {s: a for s, (a, _) in self.reveals.items()}
        revealed.update((s, a) for s, (a, _) in secrets.items() if s not in revealed)
        if set(revealed) == acting:
            # Every seat is the computer's (or the people have revealed already): nobody
            # else will play the node, so its move follows the reveals at once.
            joint = {self.seat_name(s): self._notation(s, a) for s, a in sorted(revealed.items())}
            events.append(("move", {"move": self.node, "joint": joint}))
        return events

    def _with_chance(self, events: list[tuple[str, dict[str, Any]]]) -> Batch:
        """``events`` followed by the chance nodes their last move reaches, drawn from the
        game's seed and each node's number."""
        state = self.state
        node = self.node
        for kind, payload in events:
            if kind == "move":
                state = state.apply(parse_joint(state, payload["joint"]))
                node += 1
        while state.kind is NodeKind.CHANCE:
            outcome = state.sample_chance(random.Random(derive_seed(self.seed, "chance", node)))
            text = state.action_to_string(CHANCE_SEAT, outcome)
            events.append(("move", {"move": node, "joint": {"chance": text}}))
            state = state.apply({CHANCE_SEAT: outcome})
            node += 1
        return Batch(events)

    # -- the record -------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game so far as a record (every commitment and reveal included)."""
        out = self.state.outcome
        result = (
            None
            if out is None
            else {
                "winners": [self.seat_name(s) for s in out.winners],
                "reason": out.reason.name,
            }
        )
        return GameRecord(
            game=self.game.name,
            options=dict(self.game.options),
            moves=[dict(m) for m in self.moves],
            seed=self.seed,
            seats={
                self.seat_name(i): (seat.agent or "computer")
                if seat.kind == "computer"
                else "human"
                for i, seat in enumerate(self.seats)
            },
            result=result,
            version=self.game.info.version,
            meta={"game_id": self.id, "server": "taut serve"},
            commitments=list(self.commitments),
        )


def parse_joint(state: State, joint_text: Mapping[str, str]) -> Joint:
    """A stored joint action in notation, read at the state it was played at."""
    game = state.game
    joint: Joint = {}
    for name, text in joint_text.items():
        seat = CHANCE_SEAT if name == "chance" else game.seat_index(name)
        joint[seat] = state.string_to_action(seat, text)
    return joint
