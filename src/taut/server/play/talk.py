"""The commands at the table around a game: chat, resigning, offers of a draw or a takeback
and their answers. Like :mod:`taut.server.play.moves`, each returns the events it would
add or refuses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from taut.core.errors import TautError
from taut.server.play.position import (
    CHAT_RATE,
    CHAT_WINDOW,
    MAX_CHAT,
    Batch,
    Refused,
    TablePosition,
)


class TableTalk(TablePosition):
    """The commands at the table: chat, resignations, offers and takebacks."""

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
