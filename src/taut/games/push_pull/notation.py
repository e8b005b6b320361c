"""Push-Pull action notation: canonical strings, a forgiving parser and the JSON form.

The canonical string names every piece still on the board, in the order L, M, S::

    L=pull,M=push,S=pass        (a one-sided player)
    L=pull/pass,M=push/push     (a two-teams player: one choice per side, in the order of
                                 the seat's name, e.g. N then E for seat NE)

The parser also accepts, case-insensitively:

* spaces or semicolons between pieces, ``:`` for ``=``, and pieces left out (they pass):
  ``l=pull m=push``;
* choices by position, one per piece on the board: ``pull push pass``;
* one choice for every piece: ``pass``;
* abbreviations and symbols: ``+`` / ``pl`` / ``in`` pull, ``-`` / ``ps`` / ``out`` push,
  ``0`` / ``.`` / ``x`` pass, ``<`` left, ``>`` right, and any prefix of three letters or
  more (``pul``, ``righ``);
* a compact run of symbols, one per piece and side: ``+-0`` is L=pull, M=push, S=pass.

A piece off the board can only pass (its choice is the fixed digit 0 of the action id).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from taut.core.errors import IllegalActionError, MalformedActionError
from taut.core.game import JSON
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
_ASSIGNMENT = re.compile(r"([lms])\s*[=:]\s*([^\s,;=:]+)")
_ASSIGNMENTS = re.compile(r"\s*(?:[lms]\s*[=:]\s*[^\s,;=:]+\s*[,;]?\s*)+")


def _allowed(lay: Layout) -> str:
    if lay.shifts:
        return "pull, push, pass, left, right (or + - 0 < >)"
    return "pull, push, pass (or + - 0)"


def _choice(lay: Layout, word: str, piece: int) -> int:
    code = _ALIASES.get(word)
    if code is None:
        raise MalformedActionError(
            f"{word!r} is not a choice for piece {PIECES[piece]}; choices: {_allowed(lay)}"
        )
    if code >= lay.n_choices:
        raise MalformedActionError(
            f"{CHOICE_NAMES[code]!r} (piece {PIECES[piece]}) is a sideways shift, allowed only "
            f"with shifts=on; choices: {_allowed(lay)}"
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
    on_board = [bool(mask >> p & 1) for p in range(NUM_PIECES)]
    t = text.strip().lower()
    live = [p for p in range(NUM_PIECES) if on_board[p]]
    example = ",".join(f"{PIECES[p]}=pull" for p in live) or "pass"
    if not t:
        raise MalformedActionError(f"empty action; write e.g. {example}")
    m = len(lay.seat_sides[seat])
    chosen: dict[int, tuple[int, ...]] = {}
    if "=" in t or ":" in t:
        if not _ASSIGNMENTS.fullmatch(t):
            raise MalformedActionError(
                f"cannot read {text.strip()!r}; write piece=choice for each piece, "
                f"e.g. {example} (choices: {_allowed(lay)})"
            )
        for letter, spec in _ASSIGNMENT.findall(t):
            piece = PIECES.index(letter.upper())
            if piece in chosen:
                raise MalformedActionError(f"piece {letter.upper()} is given twice in {text!r}")
            chosen[piece] = _piece_choice(lay, seat, spec, piece)
    else:
        tokens = [tok for tok in re.split(r"[\s,;]+", t) if tok]
        if (
            len(tokens) == 1
            and len(tokens[0]) == m * len(live) > 1
            and all(ch in _SYMBOLS for ch in tokens[0])
        ):
            run = tokens[0]
            tokens = [run[i * m : (i + 1) * m] for i in range(len(live))]
        if len(tokens) == 1 and len(live) > 1:
            tokens = tokens * len(live)  # one choice for every piece on the board
        if len(tokens) != len(live):
            names = ", ".join(PIECES[p] for p in live)
            raise MalformedActionError(
                f"{text.strip()!r} gives {len(tokens)} choices but the pieces on the board are "
                f"{names}; write e.g. {example} (choices: {_allowed(lay)})"
            )
        for piece, tok in zip(live, tokens, strict=True):
            chosen[piece] = _piece_choice(lay, seat, tok, piece)
    for piece, per_side in chosen.items():
        if not on_board[piece] and any(per_side):
            names = ", ".join(PIECES[p] for p in live) or "none"
            raise IllegalActionError(
                f"piece {PIECES[piece]} is off the board (scored by {off_names[piece]}); "
                f"it can only pass. Pieces on the board: {names}"
            )
    full = tuple(chosen.get(p, (PASS,) * m) for p in range(NUM_PIECES))
    return lay.encode(seat, full)


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
