"""A frame as written for one connection: what it leaves out and shortens for that client.

:class:`FrameParts` holds a frame encoded once per seat; :meth:`FrameParts.text` writes it
for one connection: the members its previous frame held are ``kept``, a changed picture is
a patch of the one it holds (:mod:`taut.server.play.patches`), a changed log the lines it
gained (:func:`log_more`), and of two pictures of the board only the one that fits its room
(:func:`unfit`). :func:`with_kept` makes such a frame whole again, as every client does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from taut.server.play.clients import as_text
from taut.server.play.kept import Kept
from taut.server.play.patches import CUT, LINES, patch
from taut.server.play.patches import apply as apply_patch

#: The members that may be sent as a patch of the client's previous one (the pictures, and
#: the position as text), with where each is cut into tokens.
PATCHED = {"board": CUT, "board_narrow": CUT, "text": LINES}


@dataclass(frozen=True, eq=False)
class FrameParts:
    """A frame as JSON text: the members sent every time (``light``, an object), each of
    :data:`KEPT_MEMBERS` encoded apart (``members``), the pictures as drawn (``pictures``:
    what a patch is made from, and what a picture sent whole is encoded from) and the log's
    lines (``log``: what its window moved from)."""

    light: str
    members: dict[str, str | None]
    """Each member's JSON text; None for a picture (of ``pictures``), encoded only where it
    is sent whole: a client that takes patches never needs it after its first frame."""
    pictures: dict[str, str] = field(default_factory=dict)
    log: list[str] | None = None
    moves_like: str | None = None
    """Where every listed move's words are one sentence with its notation in the place of
    ``{move}`` (:func:`words_like`), that sentence: a client that takes patches is sent it
    (``moves_like``) in the place of ``moves``, and makes them from ``legal``."""

    def text(
        self,
        sent: dict[str, str] | None = None,
        held: dict[str, Any] | None = None,
        room: int | None = None,
        edits: bool = False,
    ) -> str:
        """The frame for a connection whose previous frame's members were ``sent`` (None:
        the whole frame); ``sent`` is updated to this frame's. With ``held``, the pictures
        that connection holds (it takes patches): a changed picture is sent as a patch of
        the one held (:mod:`taut.server.play.patches`) where that is shorter, and ``held``
        is updated, and a changed log as the lines it gained (:func:`log_more`). With
        ``room`` (the width the client draws the board in), a frame with two pictures of the
        board carries only the one that fits (:func:`unfit`). With ``edits``, a patch may
        edit a token of the picture held."""
        out = [self.light[:-1]]
        kept = []
        left_out = unfit(self.pictures, room)
        if sent is not None:
            # A member this frame lacks is gone from the client's frame too: it cannot be
            # kept by a later frame.
            for name in [n for n in sent if n not in self.members]:
                del sent[name]
        if held is not None:
            for name in [n for n in held if n not in self.pictures and n != "log"]:
                del held[name]
        for name, value in self.members.items():
            if name == left_out:
                # Not sent, so not held either: a client whose room changes is sent it whole.
                if sent is not None:
                    sent.pop(name, None)
                if held is not None:
                    held.pop(name, None)
                continue
            # A picture is compared as drawn, and encoded only where it is sent whole.
            current = value if value is not None else self.pictures[name]
            if sent is not None:
                before = sent.get(name)
                if before is not None and (before is current or before == current):
                    kept.append(name)
                    continue
                sent[name] = current
            if held is not None and name == "log" and self.log is not None:
                had = held.get("log")
                held["log"] = self.log
                more = None if had is None else log_more(had, self.log)
                if more is not None:
                    out.append(f',"log_more":{as_text(more)}')
                    continue
            if held is not None and name == "moves" and self.moves_like is not None:
                out.append(f',"moves_like":{as_text(self.moves_like)}')
                continue
            if held is not None and name in self.pictures:
                picture = self.pictures[name]
                had = held.get(name)
                held[name] = picture
                if had is not None:
                    change = patch(had, picture, PATCHED[name], edits)
                    if change is not None:
                        out.append(f',"{name}_patch":{change}')
                        continue
            out.append(f',"{name}":{encoded(current) if value is None else value}')
        if kept:
            out.append(',"kept":' + as_text(kept))
        out.append("}")
        return "".join(out)


#: Pictures whose JSON is kept (a busy server's last positions, for every seat).
ENCODED_KEPT = 256
#: Pictures encoded as JSON, by the picture's identity: one sent whole to several clients is
#: encoded once.
_ENCODED: Kept[str] = Kept(ENCODED_KEPT)


def encoded(picture: str) -> str:
    """``picture`` as a JSON string, encoded once however many clients are sent it whole."""
    text = _ENCODED.get(picture, None, None)[1]
    if text is None:
        text = as_text(picture)
        _ENCODED.put(picture, None, None, text)
    return text


def words_like(legal: list[str], words: list[str]) -> str | None:
    """The one sentence that says every move of ``legal`` as ``words`` does, with the move's
    notation in the place of ``{move}`` (``place kind 2 on {move}``); None where there is no
    such sentence (or no move)."""
    if not legal or len(words) != len(legal):
        return None
    first, said = legal[0], words[0]
    if not first or said.count(first) != 1 or "{move}" in said:
        return None
    like = said.replace(first, "{move}")
    if any(like.replace("{move}", n) != w for n, w in zip(legal, words, strict=True)):
        return None
    return like


def moves_from(like: str, legal: list[str]) -> list[dict[str, str]]:
    """A frame's ``moves`` made from its ``legal`` and its ``moves_like`` sentence (what every
    client that takes patches does)."""
    return [{"notation": n, "words": like.replace("{move}", n)} for n in legal]


def log_more(old: list[str], new: list[str]) -> dict[str, Any] | None:
    """The log ``new`` as a change of ``old``: the window of its last lines moved on,
    ``{"drop": K, "add": LINES}`` (``new`` is ``old`` without its first K lines, then LINES);
    None where no line of ``old`` is kept."""
    for drop in range(len(old)):
        rest = len(old) - drop
        if new[:rest] == old[drop:]:
            return {"drop": drop, "add": new[rest:]}
    return None


_TOUCH = re.compile(r'data-touch-width="([\d.]+)"')


def touch_width(picture: str) -> float | None:
    """The ``data-touch-width`` on ``picture``'s root, in CSS pixels: the least room the
    page draws it in (None: it has none, and fits every room)."""
    found = _TOUCH.search(picture, 0, picture.find(">"))
    return None if found is None else float(found.group(1))


def fitting(room: float, touch: float) -> str:
    """Of a game's two pictures of the board, the one a board ``room`` pixels wide draws,
    as the page chooses: ``board`` where the room holds the wide picture (``touch``, its
    ``data-touch-width``), else ``board_narrow``."""
    return "board" if room >= touch else "board_narrow"


def unfit(pictures: dict[str, str], room: int | None) -> str | None:
    """Of a frame's two pictures of the board, the one that does not fit a board ``room``
    pixels wide, as the page chooses (:func:`boards`): ``board_narrow`` where the room holds
    the wide picture (its root's ``data-touch-width``), else ``board``; None where there are
    not two, or no room is known."""
    if room is None or "board_narrow" not in pictures or "board" not in pictures:
        return None
    touch = touch_width(pictures["board"])
    if touch is None:
        return None
    return "board_narrow" if fitting(room, touch) == "board" else "board"


def with_kept(previous: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    """A received frame made whole: the members it lists as ``kept`` copied from the
    previous frame of the same connection (what every client does), and the pictures sent
    as patches made from the previous frame's (what a client that asked for them does);
    ValueError where a patch does not fit."""
    kept = frame.pop("kept", None)
    if kept:
        if previous is None:
            raise ValueError("a frame keeps members but no frame came before it")
        for name in kept:
            frame[name] = previous[name]
    for name in PATCHED:
        change = frame.pop(f"{name}_patch", None)
        if change is not None:
            if previous is None or not isinstance(previous.get(name), str):
                raise ValueError(f"a frame patches {name} but no frame before held one")
            frame[name] = apply_patch(previous[name], change)
    like = frame.pop("moves_like", None)
    if like is not None:
        frame["moves"] = moves_from(like, frame["legal"])
    more = frame.pop("log_more", None)
    if more is not None:
        if previous is None or not isinstance(previous.get("log"), list):
            raise ValueError("a frame adds to the log but no frame before held one")
        frame["log"] = previous["log"][more["drop"] :] + more["add"]
    return frame
