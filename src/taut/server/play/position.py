"""A game at the server as its events make it: the position, the table around it, the
clocks. :class:`TablePosition` applies stored events; the commands that add events are
in :mod:`taut.server.play.moves` and :mod:`taut.server.play.talk`.

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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from taut.core.forfeit import RESIGNED, forfeit
from taut.core.game import Game, State
from taut.core.plugin import GamePlugin
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.server.play.clocks import TIME, Clocks, TimeControl
from taut.server.play.joints import applied, parse_joint
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
    open: bool = False
    """A seat for anyone that nobody has taken yet (frames say so, and say it at once
    when it is taken)."""


class TablePosition:
    """A game being played, rebuilt from its events (no commands: see
    :class:`~taut.server.play.table.GameTable`)."""

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
        self._phase_of: tuple[State | None, tuple[int, ...]] = (None, ())
        """The position and the commitments :attr:`phase` was last found for."""
        self._phase = ""
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
        self.over_told = False
        """The hub's ``when_over`` hooks have been started for this game's end here (a
        finished game changes still: a rematch, a line of chat; its end is told once)."""

    # -- where the game stands --------------------------------------------------------------

    @property
    def node(self) -> int:
        """Moves played so far (the number of the next move)."""
        return len(self.moves)

    @property
    def phase(self) -> str:
        """``over``, ``play`` (one seat acts), ``commit`` or ``reveal`` (several act)."""
        state = self.state
        committed = tuple(self.commits)
        # Asked several times a command: kept until the position or the commitments change.
        if self._phase_of[0] is state and self._phase_of[1] == committed:
            return self._phase
        if state.is_terminal():
            phase = "over"
        elif state.kind is not NodeKind.SIMULTANEOUS:
            phase = "play"
        else:
            acting = state.acting_seats()
            phase = "reveal" if all(s in self.commits for s in acting) else "commit"
        self._phase_of, self._phase = (state, committed), phase
        return phase

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
        joint, after = applied(before, joint_text)
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
