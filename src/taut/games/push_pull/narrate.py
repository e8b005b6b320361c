"""Plain-language account of a Push-Pull turn: the revealed arrows and what each did."""

from __future__ import annotations

from collections.abc import Mapping

from taut.games.push_pull.arrows import CHOICE_NAMES, PASS, SIDE_NAMES, arrow, axis_step
from taut.games.push_pull.board import EXIT_NAMES, OFF, corner_of, landing, square_name
from taut.games.push_pull.rules import PushPullState
from taut.games.push_pull.variants import NUM_PIECES, PIECES

_VERB = {"pull": "pulls", "push": "pushes", "left": "shifts left", "right": "shifts right"}


def _axis(net: int, names: tuple[str, str]) -> str:
    """How ``net`` remaining arrows on one axis move a piece (``names`` = (minus, plus))."""
    step = axis_step(net)
    toward = names[1] if net > 0 else names[0]
    if step == 0:
        return f"{names[0]}-{names[1]} arrows cancel"
    count = f"{abs(net)} arrow{'s' if abs(net) > 1 else ''} {toward}"
    if abs(step) == 1:
        return f"{count} (odd): 1 step {toward}"
    away = names[1] if step > 0 else names[0]
    return f"{count} (even): 2 steps {away}"


def describe_turn(
    before: PushPullState, joint: Mapping[int, int], after: PushPullState
) -> list[str]:
    """Sentences describing the turn from ``before`` to ``after`` under ``joint``."""
    game = before.game
    lay = game.layout
    lines = [
        "Revealed: " + "; ".join(_revealed(before, s, a) for s, a in sorted(joint.items())) + "."
    ]
    # Each seat's choices for every piece, decoded once for the whole turn.
    chosen = [
        (lay.seat_sides[seat], lay.decode(seat, action)) for seat, action in sorted(joint.items())
    ]
    for p in range(NUM_PIECES):
        loc = before.locs[p]
        if loc >= OFF:
            continue
        pairs: list[tuple[int, int]] = []
        for sides, per_piece in chosen:
            pairs.extend(zip(sides, per_piece[p], strict=True))
        moved = [(s, c) for s, c in pairs if c != PASS]
        who = ", ".join(f"{SIDE_NAMES[s]} {_VERB[CHOICE_NAMES[c]]}" for s, c in moved)
        if not moved:
            lines.append(f"{PIECES[p]}: everyone passes; it stays on {square_name(loc, lay.rows)}.")
            continue
        net_row = sum(arrow(s, c)[0] for s, c in moved)
        net_col = sum(arrow(s, c)[1] for s, c in moved)
        axes = []
        if lay.rows > 1 and any(arrow(s, c)[0] for s, c in moved):
            axes.append(_axis(net_row, ("north", "south")))
        if any(arrow(s, c)[1] for s, c in moved):
            axes.append(_axis(net_col, ("west", "east")))
        step = (axis_step(net_row), axis_step(net_col))
        _, _, crossed = landing(loc, step, lay.rows)
        new = after.locs[p]
        if new >= OFF:
            exit_code = new - OFF
            unit = lay.units[lay.exit_unit(exit_code)]
            if exit_code < 4:
                result = f"it leaves across the {EXIT_NAMES[exit_code]} side: scored by {unit}"
            else:
                result = f"it leaves off the {EXIT_NAMES[exit_code]} corner: scored by {unit}"
        elif len(crossed) == 2:
            corner = EXIT_NAMES[corner_of(*crossed)]
            result = (
                f"it would leave off the {corner} corner between rivals, "
                "so it goes back to the centre"
            )
        elif new == loc:
            result = f"it stays on {square_name(loc, lay.rows)}"
        else:
            result = f"{square_name(loc, lay.rows)} -> {square_name(new, lay.rows)}"
        lines.append(f"{PIECES[p]}: {who}; {'; '.join(axes)}; {result}.")
    for u, n in enumerate(after.scores()):
        if n != before.scores()[u]:
            lines.append(f"{lay.units[u]} has now scored {n} piece{'s' if n != 1 else ''}.")
    return lines


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _revealed(state: PushPullState, seat: int, action: int) -> str:
    """One seat's revealed choice, side by side, pieces grouped by what the side did:
    ``W pulls L, passes M and S``; a side that passes every piece just ``passes``."""
    lay = state.game.layout
    choices = lay.decode(seat, action)
    on_board = [p for p in range(NUM_PIECES) if state.locs[p] < OFF]
    clauses = []
    for i, side in enumerate(lay.seat_sides[seat]):
        groups: dict[int, list[str]] = {}
        for p in on_board:
            groups.setdefault(choices[p][i], []).append(PIECES[p])
        if set(groups) <= {PASS}:
            clauses.append(f"{SIDE_NAMES[side]} passes")
            continue
        said = [
            f"{'passes' if c == PASS else _VERB[CHOICE_NAMES[c]]} {_listed(names)}"
            for c, names in groups.items()
        ]
        clauses.append(f"{SIDE_NAMES[side]} {', '.join(said)}")
    return "; ".join(clauses)


def move_words(state: PushPullState, seat: int, action: int) -> str:
    """A choice offered to ``seat``, piece by piece as the narration tells the reveal:
    ``L: N pulls; M: N passes; S: N pushes`` (pieces already off the board are left out)."""
    lay = state.game.layout
    choices = lay.decode(seat, action)
    parts = []
    for p in range(NUM_PIECES):
        if state.locs[p] >= OFF:
            continue
        said = [
            f"{SIDE_NAMES[s]} {_VERB[CHOICE_NAMES[c]]}" if c != PASS else f"{SIDE_NAMES[s]} passes"
            for s, c in zip(lay.seat_sides[seat], choices[p], strict=True)
        ]
        parts.append(f"{PIECES[p]}: {', '.join(said)}")
    return "; ".join(parts) or f"{lay.seats[seat]} passes"
