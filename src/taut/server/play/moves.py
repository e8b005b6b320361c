"""The commands of play: naming a seat, moves, commitments and reveals, the computer's
choices, forfeits, chance, rematches and the clocks' own events.

Each checks what it is asked against the position and returns the events it would add (a
:class:`~taut.server.play.position.Batch`), or raises
:class:`~taut.server.play.position.Refused`; nothing here writes or applies anything.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from taut.core.chance import derive_seed
from taut.core.errors import ActionError
from taut.core.terms import CHANCE_SEAT, NodeKind
from taut.server.play.commit import commitment
from taut.server.play.joints import applied, parse_joint
from taut.server.play.position import Batch, Refused, TablePosition


class TableMoves(TablePosition):
    """The commands that play the game."""

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

    def commit(
        self, seat: int, move: int, digest: str, opening: tuple[str, str] | None = None
    ) -> Batch:
        """A commitment where several seats act; the last one opens the reveal (a resend
        of a commitment already played is answered again). With ``opening``, the action
        and salt behind ``digest``, the last seat to commit reveals its choice at once
        (:meth:`_committed_and_revealed`)."""
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
                if opening is not None and seat not in self.reveals and self.phase == "reveal":
                    # Committed already (the message sent again, or first without its
                    # reveal): what it reveals now is a reveal.
                    return self.reveal(seat, move, *opening)
                return Batch(repeat=True)
            raise Refused("you have committed already; reveal that choice")
        events = [("commit", {"move": move, "seat": self.seat_name(seat), "hash": digest})]
        if opening is not None:
            return self._committed_and_revealed(seat, move, digest, opening, events)
        return self._with_chance(events + self._computer_reveals({seat}, self.secrets))

    def _committed_and_revealed(
        self,
        seat: int,
        move: int,
        digest: str,
        opening: tuple[str, str],
        events: list[tuple[str, dict[str, Any]]],
    ) -> Batch:
        """The last commitment, ``events``, with its reveal: the computers' reveals, this
        seat's, and the node's move once nobody else has a choice to reveal. Refused,
        nothing kept, unless every other acting seat has committed and ``opening`` is the
        legal choice behind ``digest`` (the seat may choose again)."""
        action, salt = opening
        acting = set(self.state.acting_seats())
        if not acting <= set(self.commits) | {seat}:
            raise Refused(
                "only the last seat to commit may reveal with its commitment; commit alone, "
                "and reveal once every seat has committed"
            )
        if commitment(self.id, move, self.seat_name(seat), action, salt) != digest:
            raise Refused("this move and salt do not match the commitment sent with them")
        text = self.state.action_to_string(seat, self._legal(seat, action))
        events += self._computer_reveals({seat}, self.secrets)
        name = self.seat_name(seat)
        events.append(("reveal", {"move": move, "seat": name, "action": action, "salt": salt}))
        # Nobody had revealed (the node was still taking commitments): the computers reveal
        # with this command, and the people who committed before reveal after it.
        revealed = {s: a for s, (a, _) in self.secrets.items()} | {seat: text}
        if set(revealed) == acting:
            events.append(self._played(move, revealed))
        return self._with_chance(events)

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
            events.append(self._played(move, revealed))
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
            events.append(self._played(self.node, revealed))
        return events

    def _played(self, move: int, revealed: Mapping[int, str]) -> tuple[str, dict[str, Any]]:
        """The node ``move`` played by every acting seat's ``revealed`` choice."""
        joint = {self.seat_name(s): self._notation(s, a) for s, a in sorted(revealed.items())}
        return ("move", {"move": move, "joint": joint})

    def _with_chance(self, events: list[tuple[str, dict[str, Any]]]) -> Batch:
        """``events`` followed by the chance nodes their last move reaches, drawn from the
        game's seed and each node's number."""
        state = self.state
        node = self.node
        for kind, payload in events:
            if kind == "move":
                state = applied(state, payload["joint"])[1]
                node += 1
        while state.kind is NodeKind.CHANCE:
            outcome = state.sample_chance(random.Random(derive_seed(self.seed, "chance", node)))
            joint = {"chance": state.action_to_string(CHANCE_SEAT, outcome)}
            events.append(("move", {"move": node, "joint": joint}))
            # Read back from its notation, as the table will apply it once it is written.
            state = applied(state, joint)[1]
            node += 1
        return Batch(events)
