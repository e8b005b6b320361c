"""What is known of two-teams Push-Pull, in words: ``taut solve push-pull --variant
two-teams`` prints it."""

from __future__ import annotations

from taut.games.push_pull.solve.layers import Canon
from taut.games.push_pull.solve.teams_opening import opening_error, opening_values
from taut.games.push_pull.solve.teams_solve import scored_residual, scored_values

#: Positions quoted by :func:`teams_summary`: (what it is, class).
_EXAMPLES: tuple[tuple[str, Canon], ...] = (
    ("1-1, the last piece on the centre", ((12,), 1, 1)),
    ("1-1, the last piece on N+E's corner square", ((4,), 1, 1)),
    ("1-0, both pieces left on the centre", ((12, 12), 1, 0)),
    ("0-1, both pieces left on N+E's corner square", ((4, 4), 0, 1)),
)


def teams_summary() -> list[str]:
    """What is known of the two-teams game's values, for ``taut solve push-pull``."""
    values = scored_values()
    lines = [
        "Two-teams Push-Pull (N+E against S+W, no shifts); values for N+E, +1 a sure win.",
        "The start: exactly 0 (half a turn of the board maps it to itself and swaps the teams).",
        f"Solved exactly: all {len(values)} positions with a piece scored "
        f"(max |Tv - v| = {scored_residual():.1e}), for example:",
    ]
    lines += [f"  {what}: {values[c]:+.6f}" for what, c in _EXAMPLES]
    opening = opening_values()
    lines += [
        f"Solved near-exactly: the {len(opening):,} positions before the first score "
        f"(729 x 729 one-turn games by regret matching; max |Tv - v| <= "
        f"{opening_error():.1e}), for example:",
        f"  the start: {opening[(12, 12, 12)]:+.6f}",
        f"  one piece on N+E's corner square, two on the centre: {opening[(4, 12, 12)]:+.6f}",
        f"  every piece on N+E's corner square: {opening[(4, 4, 4)]:+.6f}",
        "Not proven: how far those values may lie from the exact ones (an error per turn "
        "can add up over the turns before a score); `hard` plays on them (`counter`).",
    ]
    return lines
