"""Push-Pull action notation: canonical strings, a forgiving parser and the JSON form.

The canonical string names every piece still on the board, in the order L, M, S::

    L=pull,M=push,S=pass        (a one-sided player)
    L=pull/pass,M=push/push     (a two-teams player: one choice per side, in the order of
                                 the seat's name, e.g. N then E for seat NE)

The parser also accepts, case-insensitively:

* spaces or semicolons between pieces, ``:`` for ``=``, and pieces left out (they pass):
  ``l=pull m=push``;
* choices by position, one per piece on the board (or one per piece L, M, S, a scored
  piece passing): ``pull push pass``;
* one choice for every piece: ``pass``;
* abbreviations and symbols: ``+`` / ``pl`` / ``in`` pull, ``-`` / ``ps`` / ``out`` push,
  ``0`` / ``.`` / ``x`` pass, ``<`` left, ``>`` right, and any prefix of three letters or
  more (``pul``, ``righ``);
* a compact run of symbols (see :func:`compact_action`): one symbol per piece on the board,
  or one per piece L, M, S with ``0`` for a scored one, so with L scored ``+-`` and ``0+-``
  both mean M=pull, S=push. A two-teams player writes one run per side, in the order of
  the seat's name, joined by ``/``: ``+-0/00-`` is N's ``+-0`` and E's ``00-`` for seat NE
  (a run of one symbol is that side's choice for every piece). A run of symbol pairs
  without ``/``, one pair per piece (``+0-+00``), is read too.

A piece off the board can only pass (its choice is the fixed digit 0 of the action id).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from taut.core.errors import IllegalActionError, MalformedActionError
from taut.core.terms import JSON
from taut.games.push_pull.arrows import CHOICE_NAMES, LEFT, PASS, PULL, PUSH, RIGHT, SIDE_NAMES
from taut.games.push_pull.variants import NUM_PIECES, PIECES, Layout

_ALIASES: dict[str, int] = {
    "+": PULL,
    "pl": PULL,
    "in": PULL,
    "-": PUSH,
    "ps": PUSH,
    "out": PUSH,
    "0": PASS,
    ".": PASS,
    "x": PASS,
    "^": PASS,
    "none": PASS,
    "stay": PASS,
    "<": LEFT,
    "lt": LEFT,
    ">": RIGHT,
    "rt": RIGHT,
}
for _code, _name in enumerate(CHOICE_NAMES):
    for _k in range(3, len(_name) + 1):
        _ALIASES[_name[:_k]] = _code
_SYMBOLS = "+-0.x^<>"
#: The symbol that writes each choice code in the compact form.
SYMBOLS: tuple[str, ...] = ("0", "+", "-", "<", ">")
_ASSIGNMENT = re.compile(r"([lms])\s*[=:]\s*([^\s,;=:]+)")
_ASSIGNMENTS = re.compile(r"\s*(?:[lms]\s*[=:]\s*[^\s,;=:]+\s*[,;]?\s*)+")

Chosen = dict[int, tuple[int, ...]]
"""Per piece given, the seat's choice for each of its sides."""


def allowed_choices(lay: Layout) -> str:
    """The choice names and their symbols: ``pull, push, pass (or + - 0)``."""
    if lay.shifts:
        return "pull, push, pass, left, right (or + - 0 < >)"
    return "pull, push, pass (or + - 0)"


def _choice(lay: Layout, word: str, piece: int) -> int:
    code = _ALIASES.get(word)
    if code is None:
        raise MalformedActionError(
            f"{word!r} is not a choice for piece {PIECES[piece]}; choices: {allowed_choices(lay)}"
        )
    if code >= lay.n_choices:
        raise MalformedActionError(
            f"{CHOICE_NAMES[code]!r} (piece {PIECES[piece]}) is a sideways shift, allowed only "
            f"with shifts=on; choices: {allowed_choices(lay)}"
        )
    return code


def _piece_choice(lay: Layout, seat: int, spec: str, piece: int) -> tuple[int, ...]:
    """One piece's choices for each side of ``seat`` from ``pull``, ``pull/push`` or ``+-``."""
    m = len(lay.seat_sides[seat])
    parts = spec.split("/")
    if len(parts) == 1 and len(spec) == m and m > 1 and all(ch in _SYMBOLS for ch in spec):
        parts = list(spec)
    if len(parts) == 1:
        code = _choice(lay, parts[0], piece)
        return (code,) * m  # one word for a two-sided player applies to both sides
    if len(parts) != m:
        sides = "/".join(SIDE_NAMES[s] for s in lay.seat_sides[seat])
        raise MalformedActionError(
            f"piece {PIECES[piece]}: {spec!r} gives {len(parts)} choices; "
            f"{lay.seats[seat]} chooses one per side ({sides})"
        )
    return tuple(_choice(lay, part, piece) for part in parts)


#: Canonical strings of the legal actions, both ways, per (variant options, seat, mask):
#: printing and re-reading canonical text is then a dict lookup.
_CANON: dict[tuple[str, bool, str, int, int], tuple[dict[int, str], dict[str, int]]] = {}


def _canon(lay: Layout, seat: int, mask: int) -> tuple[dict[int, str], dict[str, int]]:
    key = (lay.variant, lay.shifts, lay.teams, seat, mask)
    found = _CANON.get(key)
    if found is None:
        on_board = [bool(mask >> p & 1) for p in range(NUM_PIECES)]
        to_text = {a: _format(lay, seat, a, on_board) for a in lay.legal[mask]}
        found = (to_text, {t: a for a, t in to_text.items()})
        _CANON[key] = found
    return found


def legal_texts(lay: Layout, seat: int, mask: int) -> list[str]:
    """The canonical strings of every legal action when the pieces in ``mask`` are on the
    board, in the order of ``lay.legal[mask]`` (a new list)."""
    return list(_canon(lay, seat, mask)[0].values())


def format_action(lay: Layout, seat: int, action: int, mask: int) -> str:
    """The canonical string of ``action`` when the pieces in ``mask`` (bit p for piece p) are
    on the board. Pieces off the board are left out unless given a choice other than pass,
    so that even an illegal id prints faithfully."""
    text = _canon(lay, seat, mask)[0].get(action)
    if text is not None:
        return text
    return _format(lay, seat, action, [bool(mask >> p & 1) for p in range(NUM_PIECES)])


def _format(lay: Layout, seat: int, action: int, on_board: Sequence[bool]) -> str:
    if not 0 <= action < lay.num_actions:
        return f"#{action}"
    parts = []
    for p, per_side in enumerate(lay.decode(seat, action)):
        if on_board[p] or any(per_side):
            parts.append(f"{PIECES[p]}=" + "/".join(CHOICE_NAMES[c] for c in per_side))
    return ",".join(parts) if parts else "pass"


def compact_action(lay: Layout, seat: int, action: int, mask: int, full: bool = False) -> str:
    """The compact form of ``action``: one symbol per piece on the board (``+-0``), or per
    piece L, M, S when ``full`` (a scored piece's symbol is then its choice, ``0`` when
    legal). A two-sided seat writes one such run per side, joined by ``/`` in the order of
    the seat's name (``+-0/00-``)."""
    choices = lay.decode(seat, action)
    pieces = [p for p in range(NUM_PIECES) if full or mask >> p & 1] or list(range(NUM_PIECES))
    return "/".join(
        "".join(SYMBOLS[choices[p][t]] for p in pieces) for t in range(len(lay.seat_sides[seat]))
    )


def _is_run(text: str) -> bool:
    return bool(text) and all(ch in _SYMBOLS for ch in text)


def sample_action(lay: Layout, seat: int, mask: int) -> int:
    """A legal action to show as an example: the pieces on the board, in order, get pull,
    push (left with shifts) and pass; a two-sided seat's second side varies them."""
    firsts = (PULL, LEFT if lay.shifts else PUSH, PASS)
    seconds = (RIGHT if lay.shifts else PASS, PULL, PASS)
    m = len(lay.seat_sides[seat])
    live = [p for p in range(NUM_PIECES) if mask >> p & 1]
    choices = [(PASS,) * m] * NUM_PIECES
    for i, p in enumerate(live):
        choices[p] = (firsts[i], seconds[i])[:m]
    return lay.encode(seat, tuple(choices))


def _run_pieces(lay: Layout, count: int, live: list[int], what: str) -> list[int]:
    """The pieces a run of ``count`` symbols (or symbol pairs) stands for; ``what`` names
    the run in the message when it fits none."""
    if count == len(live):
        return live
    if count == NUM_PIECES:
        return list(range(NUM_PIECES))
    names = ", ".join(PIECES[p] for p in live) or "none"
    full = " or one for each of L, M, S with 0 for a scored piece" if len(live) < 3 else ""
    raise MalformedActionError(
        f"{what}; give one for each piece on the board ({names}){full} "
        f"(choices: {allowed_choices(lay)})"
    )


def _pairs(lay: Layout, seat: int, token: str, live: list[int], mask: int) -> Chosen:
    """A two-sided seat's run without ``/``: one pair of symbols per piece."""
    m = len(lay.seat_sides[seat])
    if len(token) % m:
        sides = "/".join(SIDE_NAMES[s] for s in lay.seat_sides[seat])
        # Read as one symbol per piece, the same for both sides, when that is legal.
        both = len(token) == len(live) or (
            len(token) == NUM_PIECES
            and all(_ALIASES[ch] == PASS for p, ch in enumerate(token) if p not in live)
        )
        like = (
            "/".join([token] * m)
            if both
            else compact_action(lay, seat, sample_action(lay, seat, mask), mask)
        )
        raise MalformedActionError(
            f"{token!r}: {lay.seats[seat]} chooses for two sides ({sides}); write one run of "
            f"symbols per side joined by /, e.g. {like}" + (" (both sides alike)" if both else "")
        )
    what = f"{token!r} has {len(token) // m} pairs of symbols"
    pieces = _run_pieces(lay, len(token) // m, live, what)
    return {
        p: tuple(_choice(lay, ch, p) for ch in token[i * m : (i + 1) * m])
        for i, p in enumerate(pieces)
    }


def _side_runs(lay: Layout, seat: int, runs: list[str], live: list[int]) -> Chosen:
    """One run of symbols per side of ``seat`` (a single symbol: every piece on the board)."""
    m = len(lay.seat_sides[seat])
    per_side = [[PASS] * NUM_PIECES for _ in range(m)]
    given: set[int] = set()
    for t, run in enumerate(runs):
        if len(run) == 1:
            pieces, symbols = live, run * len(live)
        else:
            what = f"{'/'.join(runs)!r}: {run!r} has {len(run)} symbols"
            pieces, symbols = _run_pieces(lay, len(run), live, what), run
        for p, ch in zip(pieces, symbols, strict=True):
            per_side[t][p] = _choice(lay, ch, p)
            given.add(p)
    return {p: tuple(per_side[t][p] for t in range(m)) for p in sorted(given)}


def _parse_compact(lay: Layout, seat: int, token: str, live: list[int], mask: int) -> Chosen | None:
    """Read a compact run (see the module docstring); None when ``token`` is not one, or is
    one piece's choice that every piece takes (``+``, or ``+-`` for two sides)."""
    m = len(lay.seat_sides[seat])
    runs = token.split("/")
    if not all(_is_run(run) for run in runs):
        return None
    if len(runs) == 1:
        if len(token) == m:
            return None
        if m == 1:
            pieces = _run_pieces(lay, len(token), live, f"{token!r} has {len(token)} symbols")
            return {p: (_choice(lay, ch, p),) for p, ch in zip(pieces, token, strict=True)}
        return _pairs(lay, seat, token, live, mask)
    if len(runs) != m:
        sides = "/".join(SIDE_NAMES[s] for s in lay.seat_sides[seat])
        what = "one run of symbols" if m == 1 else f"one run of symbols per side ({sides})"
        raise MalformedActionError(
            f"{token!r} has {len(runs)} runs joined by /; {lay.seats[seat]} writes {what}"
        )
    return _side_runs(lay, seat, runs, live)


def _parse_assignments(lay: Layout, seat: int, text: str, example: str) -> Chosen:
    """``L=pull,M=push`` and its forgiving spellings (``text`` already lower case)."""
    if not _ASSIGNMENTS.fullmatch(text):
        raise MalformedActionError(
            f"cannot read {text.strip()!r}; write piece=choice for each piece, "
            f"e.g. {example} (choices: {allowed_choices(lay)})"
        )
    chosen: Chosen = {}
    for letter, spec in _ASSIGNMENT.findall(text):
        piece = PIECES.index(letter.upper())
        if piece in chosen:
            raise MalformedActionError(f"piece {letter.upper()} is given twice in {text!r}")
        chosen[piece] = _piece_choice(lay, seat, spec, piece)
    return chosen


def _parse_positional(
    lay: Layout, seat: int, text: str, mask: int, example: str
) -> tuple[Chosen, bool]:
    """Choices by position, one choice for every piece, or a compact run; also says
    whether the text was a compact run."""
    live = [p for p in range(NUM_PIECES) if mask >> p & 1]
    tokens = [tok for tok in re.split(r"[\s,;]+", text) if tok]
    if len(tokens) == 1:
        compact = _parse_compact(lay, seat, tokens[0], live, mask)
        if compact is not None:
            return compact, True
    pieces = live
    if len(tokens) == 1 and len(live) > 1:
        tokens = tokens * len(live)  # one choice for every piece on the board
    elif len(tokens) == NUM_PIECES:
        pieces = list(range(NUM_PIECES))  # one per piece L, M, S: scored ones must pass
    if len(tokens) != len(pieces):
        names = ", ".join(PIECES[p] for p in live)
        raise MalformedActionError(
            f"{text.strip()!r} gives {len(tokens)} choices but the pieces on the board are "
            f"{names}; write e.g. {example} (choices: {allowed_choices(lay)})"
        )
    chosen = {p: _piece_choice(lay, seat, tok, p) for p, tok in zip(pieces, tokens, strict=True)}
    return chosen, False


def _check_scored(
    lay: Layout, seat: int, chosen: Chosen, mask: int, off_names: Sequence[str], compact: bool
) -> None:
    """Refuse a choice other than pass for a piece off the board, saying what to write."""
    live = [p for p in range(NUM_PIECES) if mask >> p & 1]
    for piece, per_side in chosen.items():
        if mask >> piece & 1 or not any(per_side):
            continue
        names = ", ".join(PIECES[p] for p in live) or "none"
        message = (
            f"piece {PIECES[piece]} is off the board (scored by {off_names[piece]}); "
            f"it can only pass. Pieces on the board: {names}"
        )
        if compact and live:
            m = len(lay.seat_sides[seat])
            kept = tuple(
                chosen.get(p, (PASS,) * m) if p in live else (PASS,) * m for p in range(NUM_PIECES)
            )
            action = lay.encode(seat, kept)
            short = compact_action(lay, seat, action, mask)
            full = compact_action(lay, seat, action, mask, full=True)
            message += (
                f"; write symbols for the pieces on the board only ({short}), or 0 for a "
                f"scored piece ({full})"
            )
        raise IllegalActionError(message)


def parse_action(lay: Layout, seat: int, text: str, mask: int, off_names: Sequence[str]) -> int:
    """Parse any accepted form of an action (see the module docstring); ``mask`` has bit p
    set when piece p is on the board.

    ``off_names[p]`` says who scored piece ``p`` when it is off the board (for the message).
    Raises :class:`MalformedActionError` for text that names no action and
    :class:`IllegalActionError` for a choice other than pass on a piece off the board.
    """
    known = _canon(lay, seat, mask)[1].get(text.strip())
    if known is not None:
        return known
    t = text.strip().lower()
    live = [p for p in range(NUM_PIECES) if mask >> p & 1]
    example = ",".join(f"{PIECES[p]}=pull" for p in live) or "pass"
    if not t:
        raise MalformedActionError(f"empty action; write e.g. {example}")
    compact = False
    if "=" in t or ":" in t:
        chosen = _parse_assignments(lay, seat, t, example)
    else:
        chosen, compact = _parse_positional(lay, seat, t, mask, example)
    _check_scored(lay, seat, chosen, mask, off_names, compact)
    m = len(lay.seat_sides[seat])
    return lay.encode(seat, tuple(chosen.get(p, (PASS,) * m) for p in range(NUM_PIECES)))


def action_json(lay: Layout, seat: int, action: int, mask: int) -> JSON:
    """``{"L": "pull", ...}``, or ``{"L": {"N": "pull", "E": "pass"}, ...}`` for two sides."""
    sides = lay.seat_sides[seat]
    out: dict[str, JSON] = {}
    for p, per_side in enumerate(lay.decode(seat, action)):
        if mask >> p & 1 or any(per_side):
            if len(sides) == 1:
                out[PIECES[p]] = CHOICE_NAMES[per_side[0]]
            else:
                out[PIECES[p]] = {
                    SIDE_NAMES[s]: CHOICE_NAMES[c] for s, c in zip(sides, per_side, strict=True)
                }
    return out


def json_to_text(lay: Layout, seat: int, data: JSON) -> str:
    """Turn the JSON form (or a plain string) into text for :func:`parse_action`."""
    if isinstance(data, str):
        return data
    if not isinstance(data, dict):
        raise MalformedActionError(
            f'expected {{"L": "pull", ...}} or an action string, got {data!r}'
        )
    sides = lay.seat_sides[seat]
    parts = []
    for key, value in data.items():
        if not isinstance(key, str) or key.upper() not in PIECES or len(key) != 1:
            raise MalformedActionError(f"{key!r} is not a piece; pieces are L, M, S")
        if isinstance(value, dict):
            try:
                value = "/".join(str(value[SIDE_NAMES[s]]) for s in sides)
            except KeyError:
                names = ", ".join(SIDE_NAMES[s] for s in sides)
                raise MalformedActionError(
                    f"piece {key}: give one choice for each side {names}, got {value!r}"
                ) from None
        if not isinstance(value, str):
            raise MalformedActionError(f"piece {key}: expected a choice name, got {value!r}")
        parts.append(f"{key}={value}")
    if not parts:
        raise MalformedActionError("an action object needs at least one piece")
    return ",".join(parts)
