"""What is known of two-teams Push-Pull, in words: ``taut solve push-pull --variant
two-teams`` prints it."""

from __future__ import annotations

from taut.games.push_pull.solve.layers import Canon
from taut.games.push_pull.solve.teams_bounds import opening_bounds, survival
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
    bounds = opening_bounds()
    q, turns = survival()
    widths = [high - low for low, high in bounds.values()]

    def known(squares: tuple[int, ...]) -> str:
        low, high = bounds[squares]
        return f"{opening[squares]:+.6f}, proven in [{low:+.4f}, {high:+.4f}]"

    lines += [
        f"Solved near-exactly: the {len(opening):,} positions before the first score "
        f"(729 x 729 one-turn games by regret matching; max |Tv - v| <= "
        f"{opening_error():.1e}), each with proven bounds (the guarantees of the "
        f"regret-matching strategies; widest bracket {max(widths):.4f}, mean "
        f"{sum(widths) / len(widths):.4f}), for example:",
        f"  one piece on N+E's corner square, two on the centre: {known((4, 12, 12))}",
        f"  every piece on N+E's corner square: {known((4, 4, 4))}",
        f"  two pieces on N+E's corner square, one on S+W's: {known((4, 4, 20))}",
        f"Play ends: whatever S+W does against them, no score in {turns} turns has "
        f"probability at most {q:.4f}. `hard` plays these strategies' values (`counter`).",
    ]
    return lines
