"""The top of a Tug of War picture (:mod:`taut.games.tug_of_war.svg`): the score sheet
(seat, score, tiles in hand, round points) with the round's facts and the boneyard beside
it (:data:`~.svg_pieces.WIDE`) or under it (:data:`~.svg_pieces.NARROW`), and the sentence
on what happens now."""

from __future__ import annotations

from taut.games.tug_of_war.model import BONUS, DEAL, DRAWN, OVER, TugModel
from taut.games.tug_of_war.svg_pieces import (
    BLUE,
    GREEN,
    INK,
    MUTED,
    ORANGE,
    VERMILLION,
    Layout,
    text,
    tiles,
)

#: Side of the face-down tile that stands for the boneyard (a train's domino half).
HALF = 28


def status_line(view: TugModel) -> str:
    """What happens now, in a sentence or two."""
    phase = view.phase
    if phase == OVER:
        return f"Game over: {view.describe_outcome()}."
    if phase == DEAL:
        return f"Dealing round {view.round} ({view.dealt} of {view.deal_length()} tiles)."
    if phase == BONUS:
        bonus = view.bonus
        assert bonus is not None
        how = "fewest pips in a blocked round" if bonus.blocked else "playing every tile"
        said = (
            f"{view.seat_name(bonus.winner)} won the round by {how}: {bonus.total} leftover "
            f"points, {bonus.remaining} still to hand out."
        )
        if bonus.target is not None:
            if view.game.split_bonus:
                said += f" Now: how many {view.seat_name(bonus.target)} loses; the rest is kept."
            else:
                said += " With two players it is not split: kept whole or taken whole."
        return said
    who = view.seat_name(view.current)
    if phase == DRAWN:
        return f"{who} drew a tile and must play it if it fits, else pass."
    return f"{who} to play."


def round_facts(view: TugModel) -> list[str]:
    """The round's facts, a line each: the round, the set and the hands, what ends the game
    (drawn beside or under the score sheet)."""
    game = view.game
    rules = game.end_rules
    if rules.end == "target":
        goal = f"+{rules.target} wins, -{rules.target} is out"
    elif rules.end == "rounds":
        goal = f"highest score after {rules.rounds} rounds"
    else:
        goal = f"most round points after {rules.rounds} rounds"
    extra = " (tie-break)" if view.pool is not None else ""
    return [
        f"Round {view.round}{extra}",
        f"{game.dominoes.title().capitalize()} set, hands of {game.hand_size}",
        goal,
    ]


def score_sheet(view: TugModel, y: float, layout: Layout) -> tuple[str, float]:
    """The score sheet, and the round's facts with the boneyard: beside it on a wide
    layout, under it on a narrow one (they do not fit beside it across a phone)."""
    game = view.game
    points = game.end_rules.end == "round-points"
    heads = [(30, "Seat", "start"), (170, "Score", "end"), (235, "Tiles", "end")]
    if points:
        heads.append((320, "Round pts", "end"))
    out = [text(x, y + 14, h, 13, fill=MUTED, text_anchor=a) for x, h, a in heads]
    acting = view.acting_seats()
    row_y = y + 34
    for s in range(game.num_players):
        name = view.seat_name(s) + (" (you)" if view.viewer == s and view.is_view else "")
        weight = "bold" if view.viewer == s else "normal"
        if s in acting:
            out.append(text(8, row_y, "▶", 15, fill=ORANGE, aria_label="to move"))
        out.append(text(30, row_y, name, 15, font_weight=weight))
        score = view.scores[s]
        colour = GREEN if score > 0 else VERMILLION if score < 0 else INK
        out.append(
            text(
                165,
                row_y,
                f"{score:+d}" if score else "0",
                14,
                fill=colour,
                text_anchor="end",
                font_weight="bold",
            )
        )
        size = str(view.sizes[s]) if view.playing[s] else "-"
        out.append(text(235, row_y, size, 15, text_anchor="end"))
        if points:
            out.append(text(320, row_y, str(view.points[s]), 15, text_anchor="end"))
        row_y += 22
    if layout.wide:
        drawn, bottom = _facts_beside(view, y)
        return "".join(out) + drawn, max(row_y, bottom) + 4
    drawn, bottom = _facts_under(view, row_y - 6)
    return "".join(out) + drawn, bottom


def boneyard_caption(view: TugModel) -> str | None:
    """What the boneyard's face-down tile is captioned, None before it exists."""
    if view.phase == DEAL and view.dealt == 0:
        return None
    pile = "Still face down" if view.phase == DEAL else "Boneyard"
    return f"{pile}: {tiles(view.stock_size)}"


def _tile(x: float, y: float) -> str:
    """A face-down tile, standing for the boneyard."""
    return (
        f'<rect x="{x:g}" y="{y:g}" width="{HALF:g}" height="{2 * HALF:g}" rx="4" '
        f'fill="{BLUE}" fill-opacity="0.25" stroke="{INK}" stroke-width="1.5"/>'
    )


def _facts_beside(view: TugModel, y: float) -> tuple[str, float]:
    """The facts right of the score sheet from height ``y``, the boneyard under them."""
    out, fy = [], y + 14
    for line in round_facts(view):
        out.append(text(360, fy, line, 14, fill=MUTED))
        fy += 19
    pile = boneyard_caption(view)
    if pile is not None:
        out.append(_tile(360, fy))
        out.append(text(398, fy + 34, pile, 15))
        fy += 2 * HALF + 6
    return "".join(out), fy


def _facts_under(view: TugModel, top: float) -> tuple[str, float]:
    """The boneyard from height ``top``, the facts written beside it."""
    out, fx, fy = [], 8.0, top + 14
    pile = boneyard_caption(view)
    if pile is not None:
        out.append(_tile(8, top))
        fx = 8 + HALF + 10
        out.append(text(fx, fy, pile, 15))
        fy += 20
    for line in round_facts(view):
        out.append(text(fx, fy, line, 14, fill=MUTED))
        fy += 19
    bottom = max(fy - 14, top + 2 * HALF) if fx > 8 else fy - 14
    return "".join(out), bottom + 8
