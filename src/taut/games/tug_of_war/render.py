"""Plain-text pictures of Tug of War positions and one-line accounts of moves.

A train is drawn left to right with its open ends in parentheses and the starter in
braces: ``(1) [1|3]{3|5}[5|2] (2)  = 3`` has end 0 showing 1 and end 1 showing 2 (tiles
laid on end 0 grow to the left); ``= 3`` is the sum of its open ends (a play on the train
scores that sum as it is once the tile is laid). What a view cannot see is never drawn: a
seat's picture shows its own hand only, a spectator's none. With :func:`styled` the parts
are coloured (Rich markup); the plain picture is the same text without the styles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from taut.core.presenter import escape
from taut.core.terms import CHANCE_SEAT
from taut.games.tug_of_war.model import BONUS, DEAL, DRAWN, OVER, TugModel
from taut.games.tug_of_war.tiles import Tile

Paint = Callable[[str, str], str]
"""``paint(text, style)``: ``text`` as it is printed, in ``style`` (Rich) or plain."""

# Styles of the board, in the Okabe-Ito colours (safe for colour-blind readers); every
# part stays readable without them, by its brackets and columns.
HEADER = "bold"
STATUS = "bold"
MINE = "bold #0072B2"
"""The viewing seat's own row and hand (blue)."""
TURN_MARK = "bold #E69F00"
OPEN_END = "bold #E69F00"
"""An open end, ``(3)`` (orange)."""
STARTER = "#CC79A7"
"""A starter, ``{5|6}`` (reddish purple)."""
SUM = "bold #56B4E9"
"""The open ends' sum, ``= 9``: what a play on that train scores (sky blue)."""
GAIN = "#009E73"
LOSS = "#D55E00"
"""Scores above zero (bluish green) and below (vermillion)."""
QUIET = "dim"


def plain(text: str, style: str) -> str:
    """``text`` unstyled."""
    return text


def styled(text: str, style: str) -> str:
    """``text`` as Rich markup in ``style`` (escaped, so it never opens a tag itself)."""
    return f"[{style}]{escape(text)}[/]" if style and text else escape(text)


def train_line(state: TugModel, seat: int, paint: Paint = plain) -> str:
    """Seat ``seat``'s train as text (empty when it has none this round)."""
    line = state.trains[seat]
    ends = state.ends[seat]
    if line is None or ends is None:
        return ""
    starter, side0, side1 = line
    left = "".join(f"[{b}|{a}]" for a, b in reversed(side0))
    right = "".join(f"[{a}|{b}]" for a, b in side1)
    return (
        f"{paint(f'({ends[0]})', OPEN_END)} {paint(left, '')}"
        f"{paint(f'{{{starter[0]}|{starter[1]}}}', STARTER)}{paint(right, '')} "
        f"{paint(f'({ends[1]})', OPEN_END)}"
    )


def _header(state: TugModel) -> str:
    game = state.game
    rules = game.end_rules
    if rules.end == "target":
        goal = f"target {rules.target}, out={rules.out}"
    else:
        goal = f"{rules.end} over {rules.rounds} rounds"
    extra = " (tie-break)" if state.pool is not None else ""
    return (
        f"Tug of War, round {state.round}{extra}: {game.dominoes.title()}, "
        f"hands of {game.hand_size}, {goal}"
    )


def _bonus_status(state: TugModel) -> str:
    bonus = state.bonus
    assert bonus is not None
    how = "fewest pips in a blocked round" if bonus.blocked else "going out"
    winner = state.seat_name(bonus.winner)
    text = (
        f"{winner} won the round by {how}: {bonus.total} leftover "
        f"points, {bonus.remaining} still to hand out."
    )
    if bonus.target is not None:
        target = state.seat_name(bonus.target)
        if state.game.split_bonus:
            text += (
                f" {winner} chooses how many {target} loses (0..{bonus.remaining}); "
                "the rest is kept."
            )
        else:
            text += (
                f" With two players it is not split: {winner} keeps all {bonus.remaining} "
                f"or {target} loses all {bonus.remaining}."
            )
    return text


def _status(state: TugModel) -> str:
    phase = state.phase
    if phase == OVER:
        return f"Game over: {state.describe_outcome()}."
    if phase == DEAL:
        return f"Dealing ({state.dealt} of {state.deal_length()} tiles)."
    if phase == BONUS:
        return _bonus_status(state)
    who = state.seat_name(state.current)
    if phase == DRAWN:
        return f"{who} drew a tile and must play it if it fits, else pass."
    return f"{who} to play. Boneyard: {state.stock_size} tiles."


def _score(value: int, paint: Paint) -> str:
    style = GAIN if value > 0 else LOSS if value < 0 else ""
    return paint(f"{value:6d}", style)


def _seat_rows(state: TugModel, paint: Paint) -> list[str]:
    """The heading and one row per seat: score, tiles in hand, round points, train."""
    game = state.game
    round_points = game.end_rules.end == "round-points"
    head = "seat    score  tiles" + ("  rpts" if round_points else "") + "  train"
    lines = [paint(head, QUIET)]
    acting = state.acting_seats()
    for s in range(game.num_players):
        name = paint(f"{state.seat_name(s):<4}", MINE if state.viewer == s else "")
        mark = paint("*", TURN_MARK) if s in acting else " "
        score = _score(state.scores[s], paint)
        rp = f"  {state.points[s]:4d}" if round_points else ""
        if not state.playing[s]:
            status = "out of the game" if not state.in_game[s] else "sits out (tie-break)"
            lines.append(f"{name}{mark}{score}      -{rp}  {paint(status, QUIET)}")
            continue
        total = ""
        ends = state.ends[s]
        if ends is not None:
            total = "  " + paint(f"= {ends[0] + ends[1]}", SUM)
        lines.append(
            f"{name}{mark}{score}  {state.sizes[s]:5d}{rp}  {train_line(state, s, paint)}{total}"
        )
    return lines


def render(state: TugModel, paint: Paint = plain) -> str:
    """The table as ``state``'s viewer may see it (all hands for a full state); ``paint``
    styles its parts (:func:`styled` for colours)."""
    game = state.game
    ds = game.dominoes
    lines = [paint(_header(state), HEADER), paint(_status(state), STATUS)]
    lines.extend(_seat_rows(state, paint))
    if state.is_view:
        shown = [] if state.viewer is None else [state.viewer]
    else:
        shown = list(range(game.num_players))
    for s in shown:
        if not state.playing[s]:
            continue
        hand = state.hands[s]
        if hand is None:
            continue
        tiles = " ".join(ds.name(t) for t in sorted(hand)) or "(empty)"
        pips = sum(ds.pips[t] for t in hand)
        owner = "Your hand" if state.is_view else "Hand"
        lines.append(
            f"{paint(f'{owner} ({state.seat_name(s)}):', MINE if state.is_view else '')} "
            f"{paint(tiles, 'bold')}   {paint(f'[{pips} pips]', QUIET)}"
        )
    if state.is_view and state.viewer is not None and state.phase == DRAWN and state.drawn >= 0:
        lines.append(paint(f"You drew {ds.name(state.drawn)}.", "bold"))
    return "\n".join(lines)


def describe(
    before: TugModel, joint: Mapping[int, int], after: TugModel, typed: Tile | None = None
) -> str | None:
    """A public one-line account of the move from ``before`` to ``after`` (None for a
    deal step, which shows only once the deal is complete). A drawn tile is never named.

    ``typed``: the tile of a play as a person typed it (``5-3``), told in that order when
    it is the tile played; otherwise a tile is told low half first.
    """
    game = before.game
    if CHANCE_SEAT in joint:
        if before.phase == DEAL:
            if after.phase == DEAL:
                return None
            firsts = []
            for s in after.order:
                line = after.trains[s]
                assert line is not None
                first_half, second_half = line[0]
                firsts.append(f"{after.seat_name(s)} {{{first_half}|{second_half}}}")
            return (
                f"Round {after.round} dealt. Starters: {', '.join(firsts)}. "
                f"{after.seat_name(after.first)} plays first."
            )
        return f"{before.seat_name(before.current)} draws a tile."
    ((seat, action),) = joint.items()
    name = before.seat_name(seat)
    if action < game.num_plays:
        tile, train, end = game.decode_play(action)
        ends = after.ends[train]
        assert ends is not None
        total = ends[0] + ends[1]
        if train == seat:
            effect = f"own train: {name} +{total}"
        else:
            effect = f"{before.seat_name(train)}'s train: {before.seat_name(train)} -{total}"
        ds = game.dominoes
        shown = ds.name(tile)
        if typed is not None and ds.has(*typed) and ds.index(*typed) == tile:
            shown = f"{typed[0]}-{typed[1]}"
        out = f"{name} plays {shown} on end {end} of {effect}."
        if after.phase == BONUS and after.bonus is not None and not after.bonus.blocked:
            out += f" {name} has played every tile."
        return out
    if action == game.DRAW:
        return None
    if action == game.PASS:
        out = f"{name} passes."
        if after.round != before.round or after.phase in (BONUS, OVER):
            out += " Nobody can play: the round is blocked."
        return out
    bonus = before.bonus
    assert bonus is not None
    if action == game.KEEP:
        shares = ", ".join(
            f"{before.seat_name(s)} {'+' if s == bonus.winner else '-'}{p}"
            for s, p in bonus.allocation().items()
        )
        return f"{name} allocates the {bonus.total} leftover points: {shares}."
    return None


def move_words(state: TugModel, seat: int, action: int) -> str:
    """A move offered to ``seat``, as the narration says it: ``P0 plays 3-5 on end 1 of
    P1's train: P1 -8``, ``P0 draws a tile``, ``P0 passes``, a share of the leftover."""
    game = state.game
    name = state.seat_name(seat)
    if 0 <= action < game.num_plays:
        tile, train, end = game.decode_play(action)
        ends = state.ends[train]
        ds = game.dominoes
        shown = ds.name(tile)
        total: int | None = None
        if ends is not None:
            opened = ds.other[tile][ends[end]]
            if opened >= 0:
                shown = f"{ends[end]}-{opened}"
                total = opened + ends[1 - end]
        owner = state.seat_name(train)
        if train == seat:
            effect = "own train" + ("" if total is None else f": {name} +{total}")
        else:
            effect = f"{owner}'s train" + ("" if total is None else f": {owner} -{total}")
        return f"{name} plays {shown} on end {end} of {effect}"
    if action == game.DRAW:
        return f"{name} draws a tile"
    if action == game.PASS:
        return f"{name} passes"
    bonus = state.bonus
    if bonus is None:
        return f"{name} ends the sharing of the leftover points"
    if action == game.KEEP or (action == game.GIVE0 and not game.split_bonus):
        return f"{name} keeps the remaining {bonus.remaining} leftover points"
    k = action - game.GIVE0
    target = bonus.target
    whom = "" if target is None else f" from {state.seat_name(target)}"
    return f"{name} takes {k} of the leftover points{whom}"
