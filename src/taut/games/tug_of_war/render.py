"""Plain-text pictures of Tug of War positions and one-line accounts of moves.

A train is drawn left to right with its open ends in parentheses and the starter in
braces: ``(1) [1|3]{3|5}[5|2] (2)`` has end 0 showing 1 and end 1 showing 2 (tiles laid on
end 0 grow to the left). What a view cannot see is never drawn: a seat's picture shows its
own hand only, a spectator's none.
"""

from __future__ import annotations

from taut.core.game import CHANCE_SEAT
from taut.games.tug_of_war.state import BONUS, DEAL, DRAWN, OVER, TugState


def train_line(state: TugState, seat: int) -> str:
    """Seat ``seat``'s train as text (empty when it has none this round)."""
    line = state.trains[seat]
    ends = state.ends[seat]
    if line is None or ends is None:
        return ""
    starter, side0, side1 = line
    left = "".join(f"[{b}|{a}]" for a, b in reversed(side0))
    right = "".join(f"[{a}|{b}]" for a, b in side1)
    return f"({ends[0]}) {left}{{{starter[0]}|{starter[1]}}}{right} ({ends[1]})"


def _header(state: TugState) -> str:
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


def _status(state: TugState) -> str:
    phase = state.phase
    if phase == OVER:
        return f"Game over: {state.describe_outcome()}."
    if phase == DEAL:
        return f"Dealing ({state.dealt} of {state.deal_length()} tiles)."
    if phase == BONUS:
        bonus = state.bonus
        assert bonus is not None
        how = "fewest pips in a blocked round" if bonus.blocked else "going out"
        text = (
            f"{state.seat_name(bonus.winner)} won the round by {how}: {bonus.total} leftover "
            f"points, {bonus.remaining} still to hand out."
        )
        if bonus.target is not None:
            text += (
                f" {state.seat_name(bonus.winner)} chooses how many "
                f"{state.seat_name(bonus.target)} loses (0..{bonus.remaining}); the rest is kept."
            )
        return text
    who = state.seat_name(state.current)
    if phase == DRAWN:
        return f"{who} drew a tile and must play it if it fits, else pass."
    return f"{who} to play. Boneyard: {state.stock_size} tiles."


def render(state: TugState) -> str:
    """The table as ``state``'s viewer may see it (all hands for a full state)."""
    game = state.game
    ds = game.dominoes
    lines = [_header(state), _status(state)]
    round_points = game.end_rules.end == "round-points"
    head = "seat    score  tiles" + ("  rpts" if round_points else "") + "  train"
    lines.append(head)
    for s in range(game.num_players):
        mark = "*" if s in state.acting_seats() else " "
        rp = f"  {state.points[s]:4d}" if round_points else ""
        if not state.playing[s]:
            status = "out of the game" if not state.in_game[s] else "sits out (tie-break)"
            lines.append(f"{state.seat_name(s):<4}{mark}{state.scores[s]:6d}      -{rp}  {status}")
            continue
        total = ""
        ends = state.ends[s]
        if ends is not None:
            total = f"  = {ends[0] + ends[1]}"
        lines.append(
            f"{state.seat_name(s):<4}{mark}{state.scores[s]:6d}  {state.sizes[s]:5d}{rp}  "
            f"{train_line(state, s)}{total}"
        )
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
        lines.append(f"{owner} ({state.seat_name(s)}): {tiles}   [{pips} pips]")
    if state.is_view and state.viewer is not None and state.phase == DRAWN and state.drawn >= 0:
        lines.append(f"You drew {ds.name(state.drawn)}.")
    return "\n".join(lines)


def describe(before: TugState, joint: dict[int, int], after: TugState) -> str | None:
    """A public one-line account of the move from ``before`` to ``after`` (None for a
    deal step, which shows only once the deal is complete). A drawn tile is never named."""
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
        out = f"{name} plays {game.dominoes.name(tile)} on end {end} of {effect}."
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
