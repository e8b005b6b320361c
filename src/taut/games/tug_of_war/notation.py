"""Tug of War notation: action strings and JSON forms, and why an action is illegal.

========================  =====================================================
``3-5@1.0``               play tile 3-5 on seat 1's train, end 0 (written as laid:
                          the first half meets the end, the second is left open;
                          either order is accepted)
``3-5@1`` / ``3-5``       the same, when the tile fits only one end of train 1 /
                          only one place at all
``draw`` / ``pass``       draw from the boneyard / pass
``-12@2`` (or ``12``)     bonus: seat 2 loses 12 of the leftover points (``give``:
                          all that is left)
``+7@0`` (or ``keep``)    bonus: the winner (seat 0) keeps the remaining 7
``5-3`` (chance)          the tile dealt or drawn; a starter as laid (end 0 first)
========================  =====================================================

With two players the leftover is not split: at the one give step ``+12@0`` (or ``keep``)
keeps all 12 (a share of 0 for the opponent) and ``-12@1`` (or ``give``) takes all 12 from
the opponent; the keep step follows as always. Train and seat numbers may also be written
``P1``. JSON forms are objects with a ``type`` (``play``, ``draw``, ``pass``, ``give``,
``keep``, and ``tile`` for chance).
"""

from __future__ import annotations

import re
from typing import Any

from taut.core.errors import IllegalActionError, MalformedActionError
from taut.core.terms import CHANCE_SEAT, JSON
from taut.games.tug_of_war.model import BONUS, DRAWN, TURN, Bonus, TugModel
from taut.games.tug_of_war.tiles import Tile

# Numbers have at most four digits: no set, train or end needs more, and int() is never
# asked to read a pasted page of digits (it refuses more than 4,300 with an error of its own).
_PLAY_RE = re.compile(
    r"^(\d{1,4})\s*[-|:/]\s*(\d{1,4})\s*(?:@\s*[pP]?(\d{1,4})\s*(?:\.\s*(\d{1,4}))?)?$"
)
_GIVE_RE = re.compile(r"^-?\s*(\d{1,4})\s*(?:@\s*[pP]?(\d{1,4}))?$")
_KEEP_RE = re.compile(r"^\+\s*(\d{1,4})\s*(?:@\s*[pP]?(\d{1,4}))?$")

_HELP = (
    "write a play as tile@train.end (3-5@1.0), or draw, pass; "
    "a bonus share as -points@seat (-12@2) and keep"
)


def typed_tile(text: str) -> Tile | None:
    """The tile of a play written in ``text``, halves in the order typed (None: not a play)."""
    m = _PLAY_RE.match(text.strip().lower())
    return None if m is None else (int(m.group(1)), int(m.group(2)))


def action_to_string(state: TugModel, seat: int, action: int) -> str:
    """The notation of ``action`` for ``seat`` at ``state``."""
    game = state.game
    ds = game.dominoes
    if seat == CHANCE_SEAT:
        a, b = ds.unorient(action)
        return f"{a}-{b}"
    if 0 <= action < game.num_plays:
        tile, train, end = game.decode_play(action)
        return f"{_as_laid(state, tile, train, end)}@{train}.{end}"
    if action == game.DRAW:
        return "draw"
    if action == game.PASS:
        return "pass"
    bonus = state.bonus
    if action == game.KEEP:
        return "keep" if bonus is None else f"+{bonus.remaining}@{bonus.winner}"
    if game.GIVE0 <= action < game.KEEP:
        k = action - game.GIVE0
        target = None if bonus is None else bonus.target
        if target is None:
            return f"-{k}"
        assert bonus is not None
        if k == 0 and not game.split_bonus:
            # Two players: a share of nothing for the opponent is the winner keeping it all.
            return f"+{bonus.remaining}@{bonus.winner}"
        return f"-{k}@{target}"
    return f"#{action}"


def _as_laid(state: TugModel, tile: int, train: int, end: int) -> str:
    ds = state.game.dominoes
    ends = state.ends[train] if 0 <= train < len(state.ends) else None
    if ends is not None:
        opened = ds.other[tile][ends[end]]
        if opened >= 0:
            return f"{ends[end]}-{opened}"
    return ds.name(tile)


def string_to_action(state: TugModel, seat: int, text: str) -> int:
    """Parse ``text`` for ``seat`` at ``state``; MalformedActionError names the forms."""
    game = state.game
    ds = game.dominoes
    raw = text.strip()
    low = raw.lower()
    if seat == CHANCE_SEAT:
        a, b = ds.parse(raw)
        if state.is_starter_deal():
            return ds.oriented(a, b)
        return ds.canonical_outcome(ds.index(a, b))
    if low == "draw":
        return game.DRAW
    if low == "pass":
        return game.PASS
    bonus = state.bonus if state.phase == BONUS else None
    whole = bonus is not None and bonus.target is not None and not game.split_bonus
    if low == "keep":
        # Two players, at the give step: keeping it all is a share of 0 for the opponent.
        return game.give_id(0) if whole else game.KEEP
    if low == "give" and bonus is not None and bonus.target is not None:
        return game.give_id(bonus.remaining)
    m = _KEEP_RE.match(low)
    if m is not None:
        if bonus is not None and int(m.group(1)) != bonus.remaining:
            raise IllegalActionError(
                _whole(state, bonus)
                if whole
                else f"the winner keeps what is left, {bonus.remaining}, not {m.group(1)}"
            )
        return game.give_id(0) if whole else game.KEEP
    m = _PLAY_RE.match(low)
    if m is not None:
        return _parse_play(state, seat, m)
    m = _GIVE_RE.match(low)
    if m is not None and (low.startswith("-") or state.phase == BONUS):
        k = int(m.group(1))
        if k > game.dominoes.total_pips:
            raise MalformedActionError(
                f"{raw!r}: a bonus share is at most {game.dominoes.total_pips} points"
            )
        if m.group(2) is not None and bonus is not None and bonus.target is not None:
            named = int(m.group(2))
            if named != bonus.target:
                raise IllegalActionError(
                    f"{raw!r}: the share chosen now is seat {bonus.target}'s, not seat {named}'s"
                )
        return game.give_id(k)
    raise MalformedActionError(f"{raw!r} is not a Tug of War action; {_HELP}")


def _whole(state: TugModel, bonus: Bonus) -> str:
    """Why a two-player leftover cannot be split, and the two ways to hand it out."""
    assert bonus.target is not None
    left, winner, target = bonus.remaining, bonus.winner, bonus.target
    return (
        f"with two players the leftover is not split: {state.seat_name(winner)} keeps all "
        f"{left} (keep, or +{left}@{winner}) or {state.seat_name(target)} loses all {left} "
        f"(give, or -{left}@{target})"
    )


def _parse_play(state: TugModel, seat: int, m: re.Match[str]) -> int:
    game = state.game
    ds = game.dominoes
    a, b = int(m.group(1)), int(m.group(2))
    if not ds.has(a, b):
        raise MalformedActionError(
            f"{a}-{b} is not a tile of the {ds.title()} set (halves 0..{ds.top})"
        )
    tile = ds.index(a, b)
    n = game.num_players
    train = None if m.group(3) is None else int(m.group(3))
    end = None if m.group(4) is None else int(m.group(4))
    if train is not None and not 0 <= train < n:
        raise MalformedActionError(f"there is no train {train}; trains are 0..{n - 1}")
    if end is not None and end not in (0, 1):
        raise MalformedActionError(f"a train has ends 0 and 1, not {end}")
    if train is not None and end is not None:
        return game.play_id(tile, train, end)
    # Short forms: find the places the tile fits (in this state, for this seat).
    hand = state.hands[seat] if 0 <= seat < n else None
    if hand is not None and tile not in hand:
        raise IllegalActionError(f"{ds.name(tile)} is not in {state.seat_name(seat)}'s hand")
    places = []
    trains = [train] if train is not None else list(state.order)
    for j in trains:
        ends = state.ends[j]
        if ends is None:
            continue
        for e in (0, 1):
            if ds.other[tile][ends[e]] >= 0:
                places.append(game.play_id(tile, j, e))
    # Offer only places that are legal now, when some are (a drawn tile must be the one).
    legal = [p for p in places if state.is_legal(seat, p)]
    places = legal or places
    if len(places) == 1:
        return places[0]
    where = f"train {train}" if train is not None else "any train"
    if not places:
        raise IllegalActionError(f"{ds.name(tile)} fits no open end of {where}")
    options = " ".join(action_to_string(state, seat, p) for p in places)
    raise MalformedActionError(f"{ds.name(tile)} fits several places; say which: {options}")


def action_to_json(state: TugModel, seat: int, action: int) -> JSON:
    """The JSON form of ``action`` (an object with a ``type``)."""
    game = state.game
    ds = game.dominoes
    if seat == CHANCE_SEAT:
        return {"type": "tile", "tile": list(ds.unorient(action))}
    if 0 <= action < game.num_plays:
        tile, train, end = game.decode_play(action)
        a, _, b = _as_laid(state, tile, train, end).partition("-")
        return {"type": "play", "tile": [int(a), int(b)], "train": train, "end": end}
    if action == game.DRAW:
        return {"type": "draw"}
    if action == game.PASS:
        return {"type": "pass"}
    bonus = state.bonus
    if action == game.KEEP:
        return {"type": "keep", "points": None if bonus is None else bonus.remaining}
    k = action - game.GIVE0
    return {"type": "give", "seat": None if bonus is None else bonus.target, "points": k}


def action_from_json(state: TugModel, seat: int, data: JSON) -> int:
    """Inverse of :func:`action_to_json`; a notation string is accepted too."""
    game = state.game
    if isinstance(data, str):
        return string_to_action(state, seat, data)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedActionError(f"expected an action object with a 'type', got {data!r}")
    kind = data["type"]
    try:
        if kind == "tile":
            a, b = game.dominoes.from_json(data.get("tile"))
            return string_to_action(state, seat, f"{a}-{b}")
        if kind == "play":
            a, b = game.dominoes.from_json(data.get("tile"))
            train, end = _int(data, "train"), _int(data, "end")
            return string_to_action(state, seat, f"{a}-{b}@{train}.{end}")
        if kind in ("draw", "pass", "keep"):
            return string_to_action(state, seat, kind)
        if kind == "give":
            target = data.get("seat")
            suffix = "" if target is None else f"@{_int(data, 'seat')}"
            return string_to_action(state, seat, f"-{_int(data, 'points')}{suffix}")
    except ValueError as exc:
        if isinstance(exc, MalformedActionError | IllegalActionError):
            raise
        raise MalformedActionError(f"action {data!r}: {exc}") from None
    raise MalformedActionError(
        f"unknown action type {kind!r}; types are play, draw, pass, give, keep"
    )


def _int(data: dict[str, Any], key: str) -> int:
    v = data.get(key)
    if isinstance(v, bool) or not isinstance(v, int):
        raise MalformedActionError(f"action field {key!r} must be an integer, got {v!r}")
    return v


def explain_illegal(state: TugModel, seat: int, action: int) -> str:
    """Why ``seat`` may not play ``action`` at ``state``, and what it may do instead."""
    game = state.game
    ds = game.dominoes
    name = state.seat_name(seat) if 0 <= seat < game.num_players else f"seat {seat}"
    acting = state.acting_seats()
    if not acting:
        return "the game is over"
    if seat not in acting:
        who = "chance" if acting == (CHANCE_SEAT,) else state.seat_name(acting[0])
        return f"it is {who}'s move, not {name}'s"
    legal = list(state.legal_actions(seat))
    shown = " ".join(action_to_string(state, seat, a) for a in legal[:12])
    if len(legal) > 12:
        shown += " ..."
    if not 0 <= action < game.KEEP + 1:
        return f"{action} is not an action id (0..{game.KEEP}); legal: {shown}"
    phase = state.phase
    if phase == BONUS:
        bonus = state.bonus
        assert bonus is not None
        if bonus.target is None:
            return f"every share is set: {name} keeps the remaining {bonus.remaining} (+keep)"
        if not game.split_bonus:
            return _whole(state, bonus)
        return (
            f"{name} won the round and now chooses how many of the {bonus.remaining} points "
            f"left seat {bonus.target} loses (0..{bonus.remaining})"
        )
    if action < game.num_plays:
        tile, train, end = game.decode_play(action)
        hand = state.hands[seat]
        if phase == DRAWN and tile != state.drawn and state.drawn >= 0:
            return (
                f"{name} drew {ds.name(state.drawn)} and must play that tile if it fits "
                f"(else pass); legal: {shown}"
            )
        if hand is not None and tile not in hand:
            return f"{name} does not hold {ds.name(tile)}; legal: {shown}"
        ends = state.ends[train]
        if ends is None or not state.playing[train]:
            return f"there is no train {train} in this round; legal: {shown}"
        return (
            f"end {end} of train {train} shows {ends[end]}: {ds.name(tile)} does not fit; "
            f"legal: {shown}"
        )
    if action == game.DRAW:
        if phase == DRAWN:
            return f"{name} has already drawn this turn; legal: {shown}"
        if phase == TURN and state.stock_size == 0:
            return f"the boneyard is empty: {name} cannot draw; legal: {shown}"
        return f"{name} can play, so may not draw; legal: {shown}"
    if action == game.PASS:
        if phase == DRAWN:
            return f"{name} drew a tile that fits and must play it; legal: {shown}"
        if state.stock_size > 0 and legal == [game.DRAW]:
            return f"{name} cannot play and must draw from the boneyard"
        return f"{name} can play, so may not pass; legal: {shown}"
    return f"there is no bonus to hand out now; legal: {shown}"
