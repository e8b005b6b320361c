"""A picture of a tournament: results per agent and the pairwise score matrix."""

from __future__ import annotations

import io
from pathlib import Path

from taut.arena.stats import score, wilson_interval
from taut.arena.tournament import TournamentResult
from taut.core.files import write_whole


def plot_tournament(result: TournamentResult, path: str | Path) -> None:
    """Write a PNG: stacked wins/draws/losses with score intervals, and a pairwise heatmap."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RuntimeError("plots need matplotlib: pip install 'taut[plot]'") from exc
    names = result.agents
    n = len(names)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.2 * n, 4.5))
    wins = [result.totals[a].wins for a in names]
    draws = [result.totals[a].draws for a in names]
    losses = [result.totals[a].losses for a in names]
    xs = range(n)
    ax1.bar(xs, wins, label="wins", color="#2e7d32")
    ax1.bar(xs, draws, bottom=wins, label="draws", color="#9e9e9e")
    ax1.bar(
        xs,
        losses,
        bottom=[w + d for w, d in zip(wins, draws, strict=True)],
        label="losses",
        color="#c62828",
    )
    ax1.set_xticks(list(xs), names, rotation=20, ha="right")
    ax1.set_ylabel("games")
    tallest = max(w + d + lo for w, d, lo in zip(wins, draws, losses, strict=True))
    ax1.set_ylim(0, tallest * 1.45)
    ax1.legend(loc="upper center", ncol=3, fontsize=8)
    for i, a in enumerate(names):
        rec = result.totals[a]
        total = rec.wins + rec.draws + rec.losses
        lo, hi = wilson_interval(rec.wins + 0.5 * rec.draws, total)
        s = score(rec.wins, rec.draws, rec.losses)
        ax1.annotate(
            f"score {s:.2f}\n[{lo:.2f}, {hi:.2f}]",
            (i, total),
            ha="center",
            va="bottom",
            fontsize=7,
            xytext=(0, 2),
            textcoords="offset points",
        )
    ax1.set_title(f"{result.game}: {result.games_per_pair} games per pair")
    nan = float("nan")  # the diagonal stays blank
    matrix = [[nan if i == j else 0.5 for j in range(n)] for i in range(n)]
    index = {a: i for i, a in enumerate(names)}
    for p in result.pairs:
        games = p.a_wins + p.b_wins + p.draws
        if games:
            s = (p.a_wins + 0.5 * p.draws) / games
            matrix[index[p.a]][index[p.b]] = s
            matrix[index[p.b]][index[p.a]] = 1 - s
    im = ax2.imshow(matrix, vmin=0, vmax=1, cmap="RdYlGn")
    ax2.set_xticks(list(xs), names, rotation=20, ha="right")
    ax2.set_yticks(list(xs), names)
    for i in range(n):
        for j in range(n):
            if i != j:
                ax2.text(j, i, f"{matrix[i][j]:.2f}", ha="center", va="center", fontsize=8)
    ax2.set_title("score of row against column")
    fig.colorbar(im, ax=ax2, fraction=0.046)
    fig.tight_layout()
    # Drawn in memory, then written whole (exactly at path, whatever its suffix): a full
    # disk never leaves half a picture.
    buffer = io.BytesIO()
    fig.savefig(buffer, dpi=110, format="png")
    plt.close(fig)
    write_whole(path, buffer.getvalue())
