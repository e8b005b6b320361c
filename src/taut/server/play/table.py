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
* ``rematch``: ``{"game"}``, a new game with the same settings and seats was made;
* ``chat``: ``{"seat", "text"}``, a line of the seated players' chat;
* ``gallery``: ``{"who", "text"}``, a line of the spectators' chat (``who``: the label a
  spectator's connection was given);
* ``resign``: ``{"move", "seat"}``, a seat resigned (the game ends as by a forfeit, with the
  reason ``resigned``);
* ``offer``: ``{"move", "seat", "what"}``, a seat offers a draw (``what`` ``draw``) or asks
  to take back its last turn (``takeback``); a move played withdraws it;
* ``answer``: ``{"move", "seat", "what", "accept"}``, another seat's answer; a refusal ends
  the offer;
* ``draw``: ``{"move"}``, every seat agreed: the game ends drawn by agreement;
* ``takeback``: ``{"move", "seat", "to"}``, the game goes back to ``to`` moves played (the
  asker's last decision, and whatever followed it, chance included, is undone);
* ``seated``: ``{"seat"}``, an open seat of a game with clocks was taken;
* ``resume``: ``{"move"}``, a server started again while the clocks of the game ran: the
  time since the event before is charged to nobody (see :mod:`taut.server.play.clocks`).

A ``forfeit`` with ``"reason": "time"`` is a clock that reached zero (``"at"``: when); the
game ends as by a forfeit, with the reason ``time``. The clocks themselves are rebuilt from
the times the events were stored at.

``move`` numbers nodes from 0 (the moves played before). Chance nodes are drawn at once,
from the game's seed and the node's number, in the batch of the move that reached them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.chance import derive_seed
from taut.core.errors import ActionError, TautError
from taut.core.forfeit import RESIGNED, forfeit
from taut.core.game import CHANCE_SEAT, Game, NodeKind, State
from taut.core.plugin import GamePlugin
from taut.core.record import GameRecord
from taut.server.play.clocks import TIME, Clocks, TimeControl
from taut.server.play.commit import commitment
from taut.server.store.games import Event

#: How many narrated lines a table keeps for its clients.
LOG_LINES = 12
#: The longest chat line, in characters.
MAX_CHAT = 300
#: Chat lines a seat may send per :data:`CHAT_WINDOW` seconds.
CHAT_RATE, CHAT_WINDOW = 5, 10.0
#: Chat lines a table keeps (and shows).
CHAT_KEPT = 100
#: Computer secrets are kept under ``move + epoch * EPOCH_STRIDE``: a node played again after
#: a takeback has keys of its own.
EPOCH_STRIDE = 1_000_000

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
        self.chat: list[dict[str, Any]] = []
        """The seated players' chat: ``{"seat", "text", "at"}``, oldest first."""
        self.gallery: list[dict[str, Any]] = []
        """The spectators' chat: ``{"who", "text", "at"}``, oldest first."""
        self.offer: dict[str, Any] | None = None
        """The open offer: ``{"move", "seat", "what", "accepted": [seats]}``."""
        self.table_events: list[dict[str, Any]] = []
        """Resignations, offers, answers and takebacks, for the record."""
        self.epoch = 0
        """Takebacks applied so far."""
        self.clocks = clocks_for(config, self.seats)
        """The seats' clocks (None: the game has no time control)."""

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
        movers = self._clock_before(kind, payload, event.created_at)
        self._apply(kind, payload, event.created_at)
        if self.clocks is not None:
            self._clock_after(kind, movers, event.created_at)

    def _apply(self, kind: str, payload: Mapping[str, Any], at: float) -> None:
        if kind == "name":
            self.seats[self._seat(payload["seat"])].name = str(payload["name"])
        elif kind == "commit":
            self.commits[self._seat(payload["seat"])] = str(payload["hash"])
            if self.phase == "reveal":
                self.reveal_since = at
        elif kind == "reveal":
            self.reveals[self._seat(payload["seat"])] = (payload["action"], payload["salt"])
        elif kind == "move":
            self._move(payload["joint"])
        elif kind == "forfeit" and payload.get("reason") == "time":
            self.state = forfeit(self.state, self._seat(payload["seat"]), TIME)
            self.offer = None
            self.log.append(f"{payload['seat']} ran out of time and loses on time.")
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
        elif kind == "seated" or kind == "resume":
            pass  # only the clocks read these
        else:
            self._apply_table(kind, payload, at)

    # -- the clocks ---------------------------------------------------------------------------

    def _clock_before(self, kind: str, payload: Mapping[str, Any], at: float) -> list[int]:
        """Carry out what an event does to the clocks before the position changes; the
        seats whose move it plays at a node where one seat acts (their choice completes)."""
        clocks = self.clocks
        if clocks is None:
            return []
        if kind == "move" and self.state.kind is NodeKind.DECISION:
            return [s for s in self.state.acting_seats() if s != CHANCE_SEAT]
        if kind == "commit":
            clocks.chose(self._seat(payload["seat"]), at)
        elif kind == "seated":
            clocks.taken(self._seat(payload["seat"]))
        elif kind == "resume":
            clocks.resume(at)
        elif kind == "forfeit" and payload.get("reason") == "time":
            clocks.fell(self._seat(payload["seat"]), float(payload.get("at", at)))
        elif kind in ("forfeit", "resign", "draw", "takeback"):
            clocks.halt(at)
        return []

    def _clock_after(self, kind: str, movers: list[int], at: float) -> None:
        """Carry out what an event does to the clocks once the position has changed."""
        clocks = self.clocks
        assert clocks is not None
        for seat in movers:
            clocks.chose(seat, at)
        if kind in ("created", "move", "takeback"):
            acting = () if self.state.is_terminal() else self.state.acting_seats()
            clocks.node(at, acting)
        clocks.saw(at)

    def clock_frame(self, now: float) -> dict[str, Any] | None:
        """The clocks as frames carry them at ``now`` (None: no time control)."""
        if self.clocks is None:
            return None
        return self.clocks.snapshot(now, self.game.info.seats)

    def clock_deadline(self, seat: int) -> float | None:
        """When ``seat`` loses on time unless it chooses (None: its clock does not run)."""
        if self.clocks is None or self.state.is_terminal():
            return None
        return self.clocks.deadline(seat)

    def flag(self, now: float) -> Batch:
        """The seat whose clock has reached zero by ``now`` loses on time (nothing when
        none has)."""
        fallen = None if self.clocks is None else self.clocks.fallen(now)
        if fallen is None or self.state.is_terminal():
            return Batch(repeat=True)
        at, seat = fallen
        payload = {"move": self.node, "seat": self.seat_name(seat), "reason": "time", "at": at}
        return Batch([("forfeit", payload)])

    def resumed(self) -> Batch:
        """A server starts serving the game again: the clocks that ran when it stopped run
        again from now (nothing when none runs)."""
        if self.clocks is None or not self.clocks.running or self.state.is_terminal():
            return Batch(repeat=True)
        return Batch([("resume", {"move": self.node})])

    def seated(self, seat: int) -> Batch:
        """An open seat was taken (kept where the game has clocks: they wait for it)."""
        if self.clocks is None or seat not in self.clocks.open:
            return Batch(repeat=True)
        return Batch([("seated", {"seat": self.seat_name(seat)})])

    def _apply_table(self, kind: str, payload: Mapping[str, Any], at: float) -> None:
        """The events of the table itself: chat, resignations, offers and takebacks."""
        if kind == "chat":
            line = {"seat": str(payload["seat"]), "text": str(payload["text"]), "at": at}
            self.chat.append(line)
            del self.chat[:-CHAT_KEPT]
            return
        if kind == "gallery":
            said = {"who": str(payload["who"]), "text": str(payload["text"]), "at": at}
            self.gallery.append(said)
            del self.gallery[:-CHAT_KEPT]
            return
        if kind not in ("resign", "offer", "answer", "draw", "takeback"):
            return  # a kind a later version writes: nothing this one knows to do
        self.table_events.append({"kind": kind, **payload})
        if kind == "resign":
            self.state = forfeit(self.state, self._seat(payload["seat"]), RESIGNED)
            self.offer = None
            self.log.append(f"{payload['seat']} resigns.")
        elif kind == "offer":
            self.offer = {
                "move": int(payload["move"]),
                "seat": str(payload["seat"]),
                "what": str(payload["what"]),
                "accepted": [],
            }
        elif kind == "answer":
            if self.offer is not None and payload["accept"]:
                self.offer["accepted"].append(str(payload["seat"]))
            elif self.offer is not None:
                self.log.append(f"{payload['seat']} declines the {self._offered()}.")
                self.offer = None
        elif kind == "draw":
            self.state = self.state.end_by_agreement()
            self.offer = None
            self.log.append("The game is drawn by agreement.")
        elif kind == "takeback":
            self._rebuild(int(payload["to"]))
            self.log.append(f"{payload['seat']} takes back a turn.")
            del self.log[:-LOG_LINES]

    def _offered(self) -> str:
        return "draw offer" if self.offer and self.offer["what"] == "draw" else "takeback"

    def _rebuild(self, to: int) -> None:
        """Go back to ``to`` moves played: the position replayed from the start."""
        state = self.game.new_initial_state()
        self.log = []
        for i, joint_text in enumerate(self.moves[:to]):
            joint = parse_joint(state, joint_text)
            after = state.apply(joint)
            if i >= to - LOG_LINES:
                self.log.extend(self.plugin.narrate(state, joint, after))
            state = after
        del self.log[:-LOG_LINES]
        self.state = state
        self.moves = self.moves[:to]
        self.commitments = [c for c in self.commitments if c["move"] < to]
        self.commits.clear()
        self.reveals.clear()
        self.secrets.clear()
        self.reveal_since = None
        self.offer = None
        self.epoch += 1

    def secret_key(self, move: int) -> int:
        """The key a computer's secret at ``move`` is kept under (see :data:`EPOCH_STRIDE`)."""
        return move + self.epoch * EPOCH_STRIDE

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
        self.offer = None  # an offer stands for the position it was made at
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
        batch.secrets = [(self.secret_key(move), seat, text, salt)]
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

    # -- at the table -----------------------------------------------------------------------

    def people(self) -> list[int]:
        """The seats people sit at."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def say(self, seat: int, text: str, now: float) -> Batch:
        """A chat line from a seated player (``now``: the time, for the rate limit)."""
        name = self.seat_name(seat)
        text = _chat_line(text, [c for c in self.chat if c["seat"] == name], now)
        return Batch([("chat", {"seat": name, "text": text})])

    def say_watching(self, who: str, text: str, now: float) -> Batch:
        """A line of the spectators' chat from the spectator labelled ``who``."""
        text = _chat_line(text, [c for c in self.gallery if c["who"] == who], now)
        return Batch([("gallery", {"who": who, "text": text})])

    def resign(self, seat: int) -> Batch:
        """``seat`` resigns: the other seats win (as by a forfeit, reason ``resigned``)."""
        if self.state.is_terminal():
            raise Refused("the game is over already")
        return Batch([("resign", {"move": self.node, "seat": self.seat_name(seat)})])

    def draws_allowed(self) -> bool:
        """Whether this game (with its options) can end drawn by agreement now."""
        if self.state.is_terminal():
            return False
        try:
            self.state.end_by_agreement()
        except TautError:
            return False
        return True

    def takeback_to(self, seat: int) -> int | None:
        """The moves played before ``seat``'s last decision (None: it has made none)."""
        name = self.seat_name(seat)
        for i in range(len(self.moves) - 1, -1, -1):
            if name in self.moves[i]:
                return i
        return None

    def propose(self, seat: int, what: str, agreed: Sequence[int] = ()) -> Batch:
        """``seat`` offers a draw or asks to take back its last turn; the seats in ``agreed``
        (the computer's, which agree at once) accept with it."""
        if self.state.is_terminal():
            raise Refused("the game is over")
        if self.offer is not None:
            raise Refused(f"{self.offer['seat']}'s {self._offered()} awaits an answer")
        if what == "draw" and not self.draws_allowed():
            raise Refused(f"{self.game.title} has no draw by agreement (with these options)")
        if what == "takeback" and self.takeback_to(seat) is None:
            raise Refused("you have made no move to take back")
        name = self.seat_name(seat)
        events: list[tuple[str, dict[str, Any]]] = [
            ("offer", {"move": self.node, "seat": name, "what": what})
        ]
        for other in agreed:
            events.append(
                (
                    "answer",
                    {"move": self.node, "seat": self.seat_name(other), "what": what,
                     "accept": True},
                )
            )  # fmt: skip
        if set(agreed) >= set(self._others(seat)):
            events.append(self._agreed(seat, what))
        return Batch(events)

    def answer(self, seat: int, move: int, what: str, accept: bool) -> Batch:
        """``seat``'s answer to the open offer (made at ``move``)."""
        offer = self.offer
        if offer is None or offer["move"] != move or offer["what"] != what:
            raise Refused(f"there is no {'draw offer' if what == 'draw' else 'takeback'} to answer")
        name = self.seat_name(seat)
        if name == offer["seat"]:
            raise Refused("you cannot answer your own offer")
        if name in offer["accepted"]:
            return Batch(repeat=True)
        answer = ("answer", {"move": move, "seat": name, "what": what, "accept": accept})
        events: list[tuple[str, dict[str, Any]]] = [answer]
        offering = self._seat(offer["seat"])
        accepted = {self._seat(s) for s in offer["accepted"]} | {seat}
        if accept and accepted >= set(self._others(offering)):
            events.append(self._agreed(offering, what))
        return Batch(events)

    def _others(self, seat: int) -> list[int]:
        return [s for s in range(len(self.seats)) if s != seat]

    def _agreed(self, seat: int, what: str) -> tuple[str, dict[str, Any]]:
        if what == "draw":
            return ("draw", {"move": self.node})
        to = self.takeback_to(seat)
        return ("takeback", {"move": self.node, "seat": self.seat_name(seat), "to": to})

    def computers_to_answer(self) -> list[int]:
        """Computer seats that have not answered the open draw offer (takebacks are answered
        when asked)."""
        if self.offer is None or self.offer["what"] != "draw":
            return []
        return [
            s
            for s, seat in enumerate(self.seats)
            if seat.kind == "computer"
            and self.seat_name(s) != self.offer["seat"]
            and self.seat_name(s) not in self.offer["accepted"]
        ]

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
            meta={"game_id": self.id, "server": "taut serve"}
            | ({"table": [dict(e) for e in self.table_events]} if self.table_events else {})
            | ({"clock": self.clocks.control.text()} if self.clocks is not None else {}),
            commitments=list(self.commitments),
        )


def clocks_for(config: Mapping[str, Any], seats: Sequence[Seat]) -> Clocks | None:
    """The clocks of a game made with ``config`` (None: no time control; a game stored
    before clocks existed has none). People's seats have clocks; the computer's too where
    ``computer_clock`` is set (live games made since the computer is timed), so that a
    game stored before keeps the clocks it was played with."""
    kept = config.get("clock")
    if not kept:
        return None
    kinds = [str(s.get("kind", "")) for s in config.get("seats", [])]
    open_seats = [i for i, kind in enumerate(kinds) if kind == "open"]
    timed = bool(config.get("computer_clock"))
    clocked = [s.kind != "computer" or timed for s in seats]
    return Clocks(TimeControl.from_json(kept), clocked, open_seats)


def parse_joint(state: State, joint_text: Mapping[str, str]) -> Joint:
    """A stored joint action in notation, read at the state it was played at."""
    game = state.game
    joint: Joint = {}
    for name, text in joint_text.items():
        seat = CHANCE_SEAT if name == "chance" else game.seat_index(name)
        joint[seat] = state.string_to_action(seat, text)
    return joint


def _chat_line(text: str, earlier: list[dict[str, Any]], now: float) -> str:
    """``text`` as a chat line, refused when empty, too long, or when the same speaker
    (whose ``earlier`` lines are given) says too much too fast."""
    text = text.strip()
    if not text:
        raise Refused("say something: the message is empty")
    if len(text) > MAX_CHAT:
        raise Refused(f"a chat message holds at most {MAX_CHAT} characters; this has {len(text)}")
    if len([c for c in earlier if c["at"] > now - CHAT_WINDOW]) >= CHAT_RATE:
        raise Refused(
            f"at most {CHAT_RATE} chat messages in {CHAT_WINDOW:g} seconds; wait a little"
        )
    return text
