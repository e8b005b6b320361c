"""A picture sent as what changed: a patch of the picture the client holds.

A move changes a few pieces of a board, yet the board is most of a frame. A client that asks
for patches (its hello's ``patches``) is sent, in place of a changed ``board`` (or
``board_narrow``), a ``board_patch``: the picture it holds, cut into tokens (a tag, or the
text between two tags: :data:`TOKEN`), turned into the new one by ``ops``. Each op is a
number (keep that many tokens) or ``[n, text]`` (drop ``n`` tokens, put ``text`` in their
place); ``tokens`` is the new picture's count of tokens, a check the client makes before it
draws (a client whose picture does not come out whole reconnects, and a new connection gets
whole pictures). The page draws exactly the picture the server drew: only the wire is
shorter.

A patch is made from the two pictures of the receiving client's own seat (the one it holds
and the one it is due): it holds nothing its whole frame would not.
"""

from __future__ import annotations

import difflib
import json
import re
from collections import OrderedDict
from typing import Any

#: A tag, or the text between two tags. The page cuts pictures with the same expression.
TOKEN = re.compile(r"<[^>]*>|[^<]+")
#: A patch is sent only where it is at most this share of the whole picture's text.
WORTH = 0.7
#: Pictures whose tokens, and pairs of pictures whose patch, are kept (a game's last few
#: positions, for every seat, in a busy server).
KEPT = 512


class _Kept:
    """The last :data:`KEPT` results, keyed by the identity of the strings they were made
    from (held with them, so that an identity is never reused while it is a key)."""

    def __init__(self) -> None:
        self._items: OrderedDict[tuple[int, ...], tuple[tuple[str, ...], Any]] = OrderedDict()

    def get(self, strings: tuple[str, ...]) -> tuple[bool, Any]:
        key = tuple(id(s) for s in strings)
        found = self._items.get(key)
        if found is None or any(a is not b for a, b in zip(found[0], strings, strict=True)):
            return False, None
        self._items.move_to_end(key)
        return True, found[1]

    def put(self, strings: tuple[str, ...], value: Any) -> None:
        self._items[tuple(id(s) for s in strings)] = (strings, value)
        if len(self._items) > KEPT:
            self._items.popitem(last=False)


_tokens = _Kept()
_patches = _Kept()


def tokens(picture: str) -> list[str]:
    """``picture`` cut into tokens (kept: a picture is cut once, though it is the new
    picture of one patch and the old one of the next)."""
    hit, found = _tokens.get((picture,))
    if not hit:
        found = TOKEN.findall(picture)
        _tokens.put((picture,), found)
    return found  # type: ignore[no-any-return]


def patch(old: str, new: str) -> str | None:
    """The patch turning ``old`` into ``new``, as JSON text; None where it would not be much
    shorter than ``new`` itself (:data:`WORTH`). Made once per pair of pictures, whatever
    the number of clients it is sent to."""
    hit, found = _patches.get((old, new))
    if hit:
        return found  # type: ignore[no-any-return]
    made = _made(old, new)
    _patches.put((old, new), made)
    return made


def _made(old: str, new: str) -> str | None:
    a, b = tokens(old), tokens(new)
    # Most of a picture stays: what is the same at both ends is counted, not compared
    # token by token in the matcher.
    most = min(len(a), len(b))
    head = 0
    while head < most and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < most - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle_a, middle_b = a[head : len(a) - tail], b[head : len(b) - tail]
    ops: list[Any] = [head] if head else []
    matcher = difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(i2 - i1)
        else:
            ops.append([i2 - i1, "".join(middle_b[j1:j2])])
    if tail:
        ops.append(tail)
    text = json.dumps({"ops": ops, "tokens": len(b)}, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= WORTH * len(new) else None


def apply(old: str, sent: dict[str, Any]) -> str:
    """The picture a patch ``sent`` (read from JSON) makes of ``old``; ValueError where it
    does not come out whole (the client holds another picture than the server thinks)."""
    before = TOKEN.findall(old)
    out: list[str] = []
    at = 0
    for op in sent["ops"]:
        if isinstance(op, int):
            out.extend(before[at : at + op])
            at += op
        else:
            at += op[0]
            out.append(op[1])
    picture = "".join(out)
    if at != len(before) or len(TOKEN.findall(picture)) != sent["tokens"]:
        raise ValueError("the patch does not fit the picture held")
    return picture
