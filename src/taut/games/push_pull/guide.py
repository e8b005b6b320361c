"""What a Push-Pull player reads: the rules, the legend, help for a move, seat titles.

Every example shown is built from :func:`~taut.games.push_pull.notation.sample_action`
and printed by the notation module, so the examples are moves the parser reads and the
rules allow in the position they are shown for (a test reads every one of them back).
"""

from __future__ import annotations

import functools

from taut.games.push_pull.arrows import LEFT, RIGHT, SIDE_NAMES, SIDE_TITLES, E, N, S, W, arrow
from taut.games.push_pull.diagram import unit_colour
from taut.games.push_pull.notation import (
    allowed_choices,
    compact_action,
    format_action,
    sample_action,
)
from taut.games.push_pull.rules import PushPull, PushPullState
from taut.games.push_pull.variants import NUM_PIECES, PIECES, WIN_LAST, Layout

#: Every piece on the board.
ALL_ON = (1 << NUM_PIECES) - 1

_DIRECTIONS = {(-1, 0): "north", (1, 0): "south", (0, 1): "east", (0, -1): "west"}

RULES = (
    "Three pieces, Large (L), Medium (M) and Small (S), start together in the middle. Each "
    "turn every player secretly chooses, for every piece still in play, an arrow: pull "
    "(toward their own side), push (away from it) or pass (no arrow). The choices are shown "
    "at the same moment and each piece moves by the arrows played on it. A piece that goes "
    "off the board across a side is scored by whoever sits on that side and leaves play.\n\n"
    "How arrows add up: for each piece, arrows pointing opposite ways cancel in pairs. If an "
    "odd number is left, all one way, the piece moves one square that way; if an even number "
    "is left, it moves two squares the other way; if none is left it stays. So a lone pull "
    "brings a piece one square nearer the puller, pull against pull goes nowhere, and a pull "
    "met by the other side's push (two arrows the same way) sends it two squares toward the "
    "pusher.\n\n"
    "Duel (variant=duel, the default): two players, West and East, sit at the two ends of a "
    "strip of five squares, numbered 0 to 4 from west; the pieces start on square 2. The "
    "first to score two pieces wins.\n\n"
    "Four-sided variants are played on a 5x5 board with the pieces on the centre square and a "
    "side each for North, East, South and West. North's and South's arrows run north-south, "
    "East's and West's run west-east, and each axis adds up its own arrows, so a piece can "
    "move along both in one turn. A piece that would go off across two sides at once (off a "
    "corner) goes back to the centre, unless one team owns both sides: then that team scores "
    "it. In variant=four each side is a player, and whoever scores the last piece wins "
    "(pieces scored earlier only leave play; last pieces scored in the same turn share the "
    "win).\n\n"
    "Teams: in variant=four-teams two teams of adjacent sides play, North and East against "
    "South and West (teams=NW-SE: North and West against South and East), and the first team "
    "to score two pieces wins. Variant=two-teams is the same game for two players, each "
    "choosing every turn for both sides of their team.\n\n"
    "Shifts (shifts=on, any four-sided variant): a player may also shift a piece left or "
    "right, as seen from their own side looking across the board: {shifts} (North faces "
    "south, so their left hand points east). A shift is one more arrow on its axis and adds "
    "up with all the others.\n\n"
    "Option max_turns makes a game still going after that many turns a draw."
)


def shift_directions(side: int) -> tuple[str, str]:
    """Where the player on ``side`` points with left and with right (``("east", "west")``
    for North, who faces south)."""
    return _DIRECTIONS[arrow(side, LEFT)], _DIRECTIONS[arrow(side, RIGHT)]


def _shift_sentence(sides: tuple[int, ...], names: tuple[str, ...] | str = SIDE_NAMES) -> str:
    """``N's left is east and right is west; ...`` for ``sides``, named by ``names``."""
    parts = []
    for side in sides:
        left, right = shift_directions(side)
        parts.append(f"{names[side]}'s left is {left} and right is {right}")
    return "; ".join(parts)


def rules_text() -> str:
    """The rules of every variant and option, in short paragraphs."""
    return RULES.format(shifts=_shift_sentence((N, E, S, W), SIDE_TITLES))


def seat_title(lay: Layout, seat: int) -> str:
    """``W (West; blue)``; a team game names the team, a two-teams player both sides."""
    sides = lay.seat_sides[seat]
    unit = next(u for u, seats in enumerate(lay.unit_seats) if seat in seats)
    colour = unit_colour(lay, unit)[1]
    names = " and ".join(SIDE_TITLES[s] for s in sides)
    if len(lay.unit_seats[unit]) > 1:
        names += f", team {lay.units[unit]}"
    return f"{lay.seats[seat]} ({names}; {colour})"


def legend_examples(lay: Layout) -> list[str]:
    """The moves the legend shows (seat 0's sample at the start)."""
    action = sample_action(lay, 0, ALL_ON)
    return [format_action(lay, 0, action, ALL_ON), compact_action(lay, 0, action, ALL_ON)]


def shifts_line(lay: Layout, sides: tuple[int, ...] | None = None) -> str:
    """What left and right mean for each side (all sides in play by default)."""
    chosen = lay.sides if sides is None else sides
    return (
        "Left and right are as seen from your own side, looking across the board: "
        + _shift_sentence(tuple(chosen))
        + "."
    )


def legend(game: PushPull) -> list[str]:
    """The variant, the goal, and how to enter a choice for every piece."""
    lay = game.layout
    goal = (
        "The player who scores the last piece wins."
        if lay.win == WIN_LAST
        else "First to score two pieces wins."
    )
    if lay.variant == "four-teams":
        goal = f"Teams {' against '.join(lay.units)}. " + goal.replace("player", "team")
    canonical, compact = legend_examples(lay)
    if len(lay.seat_sides[0]) == 1:
        how = f"{compact} (one symbol per piece; a scored piece is left out or given 0)"
    else:
        both = "each player chooses for both of their sides."
        goal = f"{' against '.join(lay.seats)}: {both} {goal}"
        how = (
            f"{compact} (one symbol per piece for each of your sides, in the order of your "
            "seat's name, joined by /; a scored piece is left out or given 0)"
        )
    lines = [
        f"{game.title} ({lay.variant}{', shifts on' if lay.shifts else ''}). {goal} "
        f"Each turn every seat secretly chooses for each piece on the board: "
        f"{allowed_choices(lay)}; e.g. {canonical}, or in short {how}. "
        "Type help for how to enter a move, quit to stop."
    ]
    if lay.shifts:
        lines.append(shifts_line(lay))
    return lines


def help_examples(state: PushPullState, seat: int) -> list[str]:
    """The moves :func:`move_help` shows: the canonical form, the compact one, and the
    compact one with a 0 for each scored piece."""
    return list(_examples(state.game.layout, seat, state.mask))


@functools.lru_cache(maxsize=256)
def _examples(lay: Layout, seat: int, mask: int) -> tuple[str, ...]:
    action = sample_action(lay, seat, mask)
    out = [format_action(lay, seat, action, mask), compact_action(lay, seat, action, mask)]
    if mask != ALL_ON:
        out.append(compact_action(lay, seat, action, mask, full=True))
    return tuple(out)


def move_help(state: PushPullState, seat: int) -> str:
    """The pieces on the board, the choices and examples (listing every legal move would
    print up to 15,625 of them for a two-teams player)."""
    return _move_help(state.game.layout, seat, state.mask)


# The help depends only on the variant, the seat and which pieces are left: said once each
# (the server asks for it at every position where the seat chooses).
@functools.lru_cache(maxsize=256)
def _move_help(lay: Layout, seat: int, mask: int) -> str:
    on = [bool(mask >> p & 1) for p in range(NUM_PIECES)]
    live = [p for p, here in zip(PIECES, on, strict=True) if here]
    scored = [p for p, here in zip(PIECES, on, strict=True) if not here]
    sides = lay.seat_sides[seat]
    examples = _examples(lay, seat, mask)
    if len(sides) == 1:
        per = "one choice per piece"
        runs = "one symbol per piece on the board"
    else:
        first, second = (SIDE_NAMES[s] for s in sides)
        per = f"one choice per side for each piece, {first}'s then {second}'s ({first}/{second})"
        runs = f"{first}'s symbols for the pieces on the board, then / and {second}'s"
    text = (
        f"Pieces on the board: {', '.join(live)}. Give {per}: {allowed_choices(lay)}; "
        f"pieces left out pass. Examples: {examples[0]}; or {examples[1]} ({runs})"
    )
    if scored:
        text += f", or {examples[2]} (with 0 for the scored {', '.join(scored)})"
    text += "."
    if lay.shifts:
        text += " " + shifts_line(lay, sides)
    return text
