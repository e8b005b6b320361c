"""What the duel's solution says, in a few lines: the report of ``taut solve push-pull``.

Every value of the duel is that of "win two of three independent one-piece races", and in
every position each piece is played with the optimal mix of its own race; the report shows
those race mixes and odds, and the positions where optimal play surprises.
"""

from __future__ import annotations

from taut.games.push_pull.solve.duel_model import NUM_CLASSES
from taut.games.push_pull.solve.duel_positions import START, position_key
from taut.games.push_pull.solve.duel_solution import DuelSolution

Mix = dict[str, float]
"""Probabilities of ``pull``, ``push`` and ``pass`` for one piece."""


def piece_mix(solution: DuelSolution, position: str, seat: str, piece: str) -> Mix:
    """The probability of each choice for one piece in a seat's optimal mix (a marginal)."""
    out = {"pull": 0.0, "push": 0.0, "pass": 0.0}
    for action, p in solution.strategy(position, seat).items():
        for part in action.split(","):
            name, _, choice = part.partition("=")
            if name == piece:
                out[choice] += p
    return out


def race_odds(solution: DuelSolution) -> dict[str, float]:
    """West's chance of winning a one-piece race from each square (``"W"``: 1, ``"E"``: 0)."""
    odds = {str(sq): (1 + solution.values[position_key(["W", "E", sq])]) / 2 for sq in range(5)}
    odds.update({"W": 1.0, "E": 0.0})
    return odds


def majority_value(odds: dict[str, float], position: str) -> float:
    """West's value if the game were "win two of three independent one-piece races"."""
    a, b, c = (odds[part] for part in position.split(","))
    win = a * b + a * c + b * c - 2 * a * b * c  # at least two of three
    return 2 * win - 1


def _opening(solution: DuelSolution) -> list[str]:
    """How fast it was solved, the start's value and the first turn's mix."""
    stats = solution.stats
    start = piece_mix(solution, START, "W", "L")
    return [
        f"Push-Pull duel: {len(solution.values)} positions solved in {stats.seconds:.2f} s",
        f"  ({stats.pivots} simplex pivots, {stats.newton_steps} Newton steps, "
        f"largest duality gap {stats.max_gap:.1e}).",
        "",
        f"Value of the start {START} for West: {solution.values[START]:+.6f} (fair, by symmetry).",
        "Optimal first turn, for each piece independently (both players alike):",
        f"  pull {start['pull']:.4f}   push {start['push']:.4f}   pass {start['pass']:.4f}",
        "",
    ]


def race_mixes(solution: DuelSolution) -> dict[int, Mix]:
    """West's optimal mix in the one-piece race from each square."""
    return {sq: piece_mix(solution, position_key(["W", "E", sq]), "W", "S") for sq in range(5)}


def _races(solution: DuelSolution, table: dict[int, Mix]) -> list[str]:
    """The race from each square (``table``: its mixes): its mix and West's odds, and that
    every value decomposes into races."""
    stats = solution.stats
    odds = race_odds(solution)
    lines = [
        (
            "In every position each piece's optimal mix depends only on its square,"
            if stats.product_form == NUM_CLASSES
            else f"In {stats.product_form} of {NUM_CLASSES} position classes each piece's mix"
            " depends only on its square,"
        ),
        "played independently of the other pieces (West's view; East's is the mirror):",
        "  square   pull    push    pass   West wins the piece",
    ]
    for square, mix in table.items():
        lines.append(
            f"  {square:>6}  {mix['pull']:.4f}  {mix['push']:.4f}  {mix['pass']:.4f}"
            f"   {odds[str(square)]:.6f}"
        )
    gap = max(abs(v - majority_value(odds, key)) for key, v in solution.values.items())
    return [
        *lines,
        "Every value equals that of winning two of three independent one-piece races",
        f"(largest difference {gap:.0e}).",
        "",
    ]


def _surprises(solution: DuelSolution, table: dict[int, Mix]) -> list[str]:
    """Where optimal play is least intuitive: near your own edge, and ahead yet behind."""
    lines = ["Least intuitive:"]
    for square, where in ((0, "On the square next to your own edge"), (1, "One square further in")):
        mix = table[square]
        if mix["push"] > mix["pull"]:
            lines.append(f"  * {where}, push the piece away more often")
            lines.append(f"    than you pull it in ({mix['push']:.4f} against {mix['pull']:.4f}).")
        else:
            lines.append(f"  * {where}, pull only just beats push")
            lines.append(f"    ({mix['pull']:.4f} against {mix['push']:.4f}).")
    behind: dict[float, str] = {}
    for key, v in sorted(solution.values.items()):
        if key.count("W") > key.count("E") and v < 0:
            behind.setdefault(round(v, 12), key)  # one example per class
    if behind:
        examples = ", ".join(f"{key} ({v:+.4f})" for v, key in sorted(behind.items())[:3])
        lines.append("  * Scoring first is no guarantee: West has scored more yet East is")
        lines.append(f"    favoured at {examples}.")
    return lines


def summary_lines(solution: DuelSolution) -> list[str]:
    """A readable report: the start, the per-piece mixes, and where optimal play surprises."""
    table = race_mixes(solution)
    return [*_opening(solution), *_races(solution, table), *_surprises(solution, table)]
