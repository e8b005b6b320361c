"""A picture sent as what changed: a patch of the picture the client holds.

A move changes a few pieces of a board, yet the board is most of a frame. A client that asks
for patches (its hello's ``patches``) is sent, in place of a changed ``board`` (or
``board_narrow``, or the position as text, ``text``), a ``board_patch``: the picture it
holds, cut into tokens at each ``<`` (a tag and the text after it; ``picture.split("<")``,
the same in every language; a text is cut at each line's end, the patch's ``cut``), turned
into the new one by ``ops``. Each op is a number (keep that many tokens), ``[n]`` (drop
``n`` tokens) or ``[n, text]`` (drop ``n`` tokens and put in the tokens of ``text``, joined
by ``<``); ``tokens`` is the new picture's count of tokens, a check the client makes before
it draws (a client whose picture does not come out whole reconnects, and a new connection
gets whole pictures). The page draws exactly the picture the server drew: only the wire is
shorter.

A client that also takes edits (its hello's ``patches`` is ``"edits"``) may be sent a fourth
kind of op, ``[k, text, j]``: the next token held, its first ``k`` and last ``j`` characters
kept and ``text`` put between them (one token in, one out). A move mostly changes a number
or a word inside a tag (a ``translate``, a label, a count), and an edit sends that and not
the whole tag. Edits are made only where both tokens are ASCII, so that a length counts the
same in every language (JavaScript counts UTF-16 units, Python code points).

A picture a plugin joined from parts (:func:`taut.core.svg.picture`) is compared part by
part first: parts alike (mostly the same objects, kept by the plugin's caches) become counts
of tokens kept, and only the tokens of changed parts are cut and compared. The patch says
the same as one made from the whole texts; it costs a fraction where a move changes a few
parts (a move on a board of cells: a cell or a few, the hands and the words).

A patch is made from the two pictures of the receiving client's own seat (the one it holds
and the one it is due): it holds nothing its whole frame would not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import orjson
from rapidfuzz.distance import Indel, Postfix, Prefix

from taut.core.svg import Picture
from taut.server.play.kept import Kept

#: Where a picture is cut into tokens (the page cuts it at the same character); a text is
#: cut at its lines' ends.
CUT = "<"
LINES = "\n"
#: A patch is sent only where it is at most this share of the whole picture's text.
WORTH = 0.7
#: An edit of a token (``[k, text, j]``) is sent in place of the whole token where it keeps
#: at least this many of its characters (what the op's brackets and numbers cost).
EDIT_KEEPS = 12
#: Pictures whose tokens, and pairs of pictures whose patch, are kept (a game's last few
#: positions, for every seat, in a busy server).
KEPT = 512

_tokens: Kept[list[str]] = Kept(KEPT)
_patches: Kept[str | None] = Kept(KEPT)
_edited: Kept[str | None] = Kept(KEPT)
_offsets: Kept[tuple[int, ...] | None] = Kept(KEPT)


def tokens(picture: str, cut: str = CUT) -> list[str]:
    """``picture`` cut into tokens at ``cut`` (kept: a picture is cut once, though it is the
    new picture of one patch and the old one of the next)."""
    found = _tokens.get(picture, None, cut)[1]
    if found is None:
        found = picture.split(cut)
        _tokens.put(picture, None, cut, found)
    return found


def patch(old: str, new: str, cut: str = CUT, edits: bool = False) -> str | None:
    """The patch turning ``old`` into ``new`` (cut at ``cut``), as JSON text; None where it
    would not be much shorter than ``new`` itself (:data:`WORTH`). With ``edits``, a changed
    token may be sent as an edit of the one held. Made once per pair of pictures, whatever
    the number of clients it is sent to."""
    kept = _edited if edits else _patches
    hit, found = kept.get(old, new, cut)
    if hit:
        return found
    made = _made(old, new, cut, edits)
    kept.put(old, new, cut, made)
    return made


def _made(old: str, new: str, cut: str = CUT, edits: bool = False) -> str | None:
    out: list[Any] = []
    found = _by_parts(old, new, cut)
    if found is None:
        b = tokens(new, cut)
        _diffed(out, tokens(old, cut), b, cut, edits)
        count = len(b)
    else:
        runs, count = found
        for run in runs:
            if isinstance(run, int):
                _kept(out, run)
            else:
                _diffed(out, run[0], run[1], cut, edits)
    shape: dict[str, Any] = {"ops": out, "tokens": count}
    if cut != CUT:
        shape["cut"] = cut
    text = orjson.dumps(shape).decode()
    return text if len(text) <= WORTH * len(new) else None


def _by_parts(
    old: str, new: str, cut: str
) -> tuple[list[int | tuple[list[str], list[str]]], int] | None:
    """Where both pictures keep the parts they were joined from (:class:`~taut.core.svg.
    Picture`), each starting at a cut, the two compared part by part: a run of parts alike
    is a count of tokens kept, a run of changed parts the tokens to compare, old and new;
    with the new picture's count of tokens. A move changes a few parts of such a picture:
    the tokens of the rest are neither cut nor compared. None where the parts cannot be used
    (the whole texts are compared)."""
    if cut != CUT or not isinstance(old, Picture) or not isinstance(new, Picture):
        return None
    at, now_at = _starts(old), _starts(new)
    if at is None or now_at is None:
        return None
    was, now = old.parts, new.parts
    # The text before the first cut is empty in both: the first token, always kept.
    runs: list[int | tuple[list[str], list[str]]] = [1]
    for changed, i1, i2, j1, j2 in _gathered(Indel.opcodes(was, now).as_list()):  # type: ignore[arg-type]
        if changed:
            runs.append((_part_tokens(was[i1:i2]), _part_tokens(now[j1:j2])))
        else:
            runs.append(at[i2] - at[i1])
    return runs, now_at[-1]


def _starts(drawn: Picture) -> tuple[int, ...] | None:
    """The token each part of ``drawn`` starts at, and last the count of its tokens; None
    where a part does not start with a tag. Worked out once a picture (the new picture of
    one patch is the old one of the next)."""
    hit, found = _offsets.get(drawn, None, CUT)
    if hit:
        return found
    out = [1]
    for part in drawn.parts:
        if part[0] != CUT:
            break
        out.append(out[-1] + part.count(CUT))
    made = tuple(out) if drawn.parts and len(out) == len(drawn.parts) + 1 else None
    _offsets.put(drawn, None, CUT, made)
    return made


def _part_tokens(parts: tuple[str, ...]) -> list[str]:
    """The tokens of a run of parts, each starting at a tag."""
    return "".join(parts).split(CUT)[1:]


def _kept(out: list[Any], count: int) -> None:
    """``count`` tokens kept, added to ``out`` (to the count before it, if any)."""
    if count:
        if out and isinstance(out[-1], int):
            out[-1] += count
        else:
            out.append(count)


def _diffed(out: list[Any], a: list[str], b: list[str], cut: str, edits: bool) -> None:
    """The ops turning the tokens ``a`` into ``b``, added to ``out``."""
    # The fewest tokens dropped and put in, found by rapidfuzz's bit-parallel edit distance
    # (a picture's thousand tokens in a tenth of a millisecond).
    for changed, i1, i2, j1, j2 in _gathered(Indel.opcodes(a, b).as_list()):  # type: ignore[arg-type]
        if changed:
            _changed(out, a, b, i1, i2, j1, j2, cut, edits)
        else:
            _kept(out, i2 - i1)


def _gathered(
    found: list[tuple[str, int, int, int, int]],
) -> Iterator[tuple[bool, int, int, int, int]]:
    """rapidfuzz's opcodes as ``(changed, i1, i2, j1, j2)``: the old items from ``i1`` to
    ``i2`` are kept as, or (``changed``) turned into, the new ones from ``j1`` to ``j2``.
    Changes side by side (a drop next to an insertion) come as one."""
    start = stop = begin = end = 0
    for tag, i1, i2, j1, j2 in found:
        if tag != "equal":
            if stop != i1 or end != j1 or (start == stop and begin == end):
                start, begin = i1, j1
            stop, end = i2, j2
            continue
        if start != stop or begin != end:
            yield True, start, stop, begin, end
            start = stop = begin = end = 0
        yield False, i1, i2, j1, j2
    if start != stop or begin != end:
        yield True, start, stop, begin, end


def _changed(
    out: list[Any],
    a: list[str],
    b: list[str],
    start: int,
    stop: int,
    begin: int,
    end: int,
    cut: str,
    edits: bool,
) -> None:
    """The ops turning the tokens ``a[start:stop]`` into ``b[begin:end]``, added to ``out``:
    with ``edits`` and as many of each, one by one, each an edit where that keeps enough of
    the old token (:data:`EDIT_KEEPS`), the rest put in whole (side by side ones as one op);
    else one op for all."""
    if not edits or stop - start != end - begin:
        out.append([stop - start, cut.join(b[begin:end])] if end > begin else [stop - start])
        return
    whole = begin  # the first new token not yet sent (put in whole from there)
    for k in range(end - begin):
        was, now = a[start + k], b[begin + k]
        if was.isascii() and now.isascii():
            head = int(Prefix.similarity(was, now))
            tail = min(int(Postfix.similarity(was, now)), len(was) - head, len(now) - head)
            if head + tail >= EDIT_KEEPS:
                if whole < begin + k:
                    out.append([begin + k - whole, cut.join(b[whole : begin + k])])
                out.append([head, now[head : len(now) - tail], tail])
                whole = begin + k + 1
    if whole < end:
        out.append([end - whole, cut.join(b[whole:end])])


def apply(old: str, sent: dict[str, Any]) -> str:
    """The picture a patch ``sent`` (read from JSON) makes of ``old``; ValueError where it
    does not come out whole (the client holds another picture than the server thinks)."""
    cut = sent.get("cut", CUT)
    before = old.split(cut)
    out: list[str] = []
    at = 0
    for op in sent["ops"]:
        if isinstance(op, int):
            out.extend(before[at : at + op])
            at += op
        elif len(op) == 3:
            head, middle, tail = op
            if at >= len(before) or head + tail > len(before[at]):
                raise ValueError("the patch does not fit the picture held")
            token = before[at]
            out.append(token[:head] + middle + token[len(token) - tail :])
            at += 1
        else:
            at += op[0]
            if len(op) > 1:
                out.extend(op[1].split(cut))
    if at != len(before) or len(out) != sent["tokens"]:
        raise ValueError("the patch does not fit the picture held")
    return str(cut).join(out)
