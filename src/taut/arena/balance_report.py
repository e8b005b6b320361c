"""The balance table (one column per variant) and the self-contained HTML report.

:func:`table` turns a run's JSON (:meth:`BalanceResult.to_json`) into rows of text that the
terminal and the HTML page both show. :func:`write_report` writes ``index.html`` with that
table and matplotlib plots embedded as base64 PNG images: the page needs no other file.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from taut.arena.balance import BalanceResult

#: The report's file name inside the report directory.
REPORT_NAME = "index.html"


def _pct(estimate: Mapping[str, Any] | None) -> str:
    """``52.0% (45-59)`` from a rate estimate (the interval's ends in whole percent)."""
    if estimate is None:
        return "-"
    value, low, high = estimate["value"], estimate["low"], estimate["high"]
    if low is None or high is None:
        return f"{100 * value:.1f}%"
    return f"{100 * value:.1f}% ({100 * low:.0f}-{100 * high:.0f})"


def _num(estimate: Mapping[str, Any] | None, signed: bool = False, digits: int = 2) -> str:
    """``28.25 (25.15-31.35)`` from a mean estimate (``+0.10 (-0.38, +0.58)`` signed)."""
    if estimate is None:
        return "-"
    fmt = f"{{:{'+' if signed else ''}.{digits}f}}"
    value, low, high = estimate["value"], estimate["low"], estimate["high"]
    if low is None or high is None:
        return fmt.format(value)
    between = ", " if signed else "-"
    return f"{fmt.format(value)} ({fmt.format(low)}{between}{fmt.format(high)})"


def _names(variants: Sequence[Mapping[str, Any]], key: str, field: str) -> list[str]:
    """Every name under ``variants[i][key][j][field]``, in first-seen order."""
    out: list[str] = []
    for v in variants:
        for entry in v[key]:
            if entry[field] not in out:
                out.append(entry[field])
    return out


def _by(entries: Sequence[Mapping[str, Any]], field: str, name: str) -> Mapping[str, Any] | None:
    for entry in entries:
        if entry[field] == name:
            return entry
    return None


def table(report: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The header (``measure`` and one label per variant) and the rows of text."""
    variants: list[Mapping[str, Any]] = report["variants"]
    header = ["measure", *[v["label"] or "result" for v in variants]]
    rows: list[list[str]] = []

    def add(name: str, cell: Any) -> None:
        rows.append([name, *[cell(v) for v in variants]])

    def seat_cell(seat: str, what: str) -> Any:
        def cell(v: Mapping[str, Any]) -> str:
            entry = _by(v["seats"], "seat", seat)
            if entry is None:
                return "-"
            if what == "exact_value":
                return f"{entry['exact_value']:+.3f}" if "exact_value" in entry else "-"
            if what == "mean_result":
                return _num(entry["mean_result"], signed=True)
            return _pct(entry[what])

        return cell

    add("games", lambda v: str(v["games"]))
    seats = _names(variants, "seats", "seat")
    for seat in seats:
        add(f"{seat} wins", seat_cell(seat, "win_rate"))
        add(f"{seat} losses", seat_cell(seat, "loss_rate"))
    add("draws", lambda v: _pct(v["draws"]["rate"]))
    if any(v["first_mover"] for v in variants):
        add(
            "first mover wins",
            lambda v: _pct(v["first_mover"]["win_rate"]) if v["first_mover"] else "-",
        )
    if any("exact_value" in s for v in variants for s in v["seats"]):
        for seat in seats:
            add(f"{seat} mean result", seat_cell(seat, "mean_result"))
            add(f"{seat} exact value", seat_cell(seat, "exact_value"))
    add("length (turns), mean", lambda v: _num(v["length"]["mean"], digits=1))
    add(
        "length median [q10-q90]",
        lambda v: f"{v['length']['median']:g} [{v['length']['q10']:g}-{v['length']['q90']:g}]",
    )
    add(
        "draws by reason",
        lambda v: ", ".join(f"{k} {n}" for k, n in sorted(v["draws"]["reasons"].items())) or "-",
    )
    add("lead settled at (share)", lambda v: _pct(v["lead"]["settled_share"]))
    add(
        "lead settled, median",
        lambda v: (
            "-" if v["lead"]["settled_median"] is None else f"{v['lead']['settled_median']:.0%}"
        ),
    )
    add("lead changes per game", lambda v: _num(v["lead"]["changes"]))
    add("winner came from behind", lambda v: _pct(v["lead"]["comeback_rate"]))
    for agent in _names(variants, "agents", "agent"):

        def agent_cell(v: Mapping[str, Any], agent: str = agent) -> str:
            entry = _by(v["agents"], "agent", agent)
            return "-" if entry is None else _pct(entry["score"])

        add(f"{agent} score", agent_cell)
    return header, rows


def _png(fig: Figure) -> str:
    """The figure as a ``data:`` URI (and the figure closed)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _err(estimate: Mapping[str, Any] | None) -> tuple[float, float, float]:
    """Value and the distances to the interval's ends (for error bars)."""
    if estimate is None:
        return (0.0, 0.0, 0.0)
    v = estimate["value"]
    low = v if estimate["low"] is None else estimate["low"]
    high = v if estimate["high"] is None else estimate["high"]
    return (v, v - low, high - v)


def plots(result: BalanceResult) -> list[tuple[str, str]]:
    """The report's pictures: (caption, data URI) pairs."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise RuntimeError("the report's plots need matplotlib: pip install 'taut[plot]'") from exc
    report = result.to_json()
    variants = report["variants"]
    labels = [v["label"] or "result" for v in variants]
    xs = list(range(len(variants)))
    out: list[tuple[str, str]] = []

    # Seat advantage: each seat's win rate (and the first mover's, and the draws).
    series: list[tuple[str, list[Mapping[str, Any] | None]]] = []
    for seat in _names(variants, "seats", "seat"):
        series.append(
            (
                f"{seat} wins",
                [(_by(v["seats"], "seat", seat) or {}).get("win_rate") for v in variants],
            )
        )
    if any(v["first_mover"] for v in variants):
        series.append(
            (
                "first mover wins",
                [v["first_mover"]["win_rate"] if v["first_mover"] else None for v in variants],
            )
        )
    series.append(("draws", [v["draws"]["rate"] for v in variants]))
    fig, ax = plt.subplots(figsize=(max(5.0, 1.4 * len(variants) * len(series) / 2), 3.8))
    width = 0.8 / len(series)
    for k, (name, estimates) in enumerate(series):
        vals = [_err(e) for e in estimates]
        ax.bar(
            [x - 0.4 + width * (k + 0.5) for x in xs],
            [v[0] for v in vals],
            width,
            yerr=[[v[1] for v in vals], [v[2] for v in vals]],
            capsize=3,
            label=name,
        )
    ax.set_xticks(xs, labels)
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% interval)")
    ax.legend(fontsize=8, ncol=min(4, len(series)))
    out.append(("Wins by seat, first mover and draws, with 95% Wilson intervals.", _png(fig)))

    # Game length.
    fig, ax = plt.subplots(figsize=(max(5.0, 1.2 * len(variants)), 3.5))
    ax.boxplot([[g["turns"] for g in games] for games in result.games])
    ax.set_xticks([x + 1 for x in xs], labels)
    ax.set_ylabel("turns")
    out.append(("Game length in turns (box: quartiles; whiskers: 1.5 IQR).", _png(fig)))

    # Decisiveness and drama.
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(8.0, 2.4 * len(variants)), 3.5))
    shares = [
        [
            g["settled"] / g["turns"] if g["turns"] else 0.0
            for g in games
            if g["settled"] is not None
        ]
        for games in result.games
    ]
    ax1.boxplot([s if s else [float("nan")] for s in shares])
    ax1.set_xticks([x + 1 for x in xs], labels)
    ax1.set_ylim(-0.05, 1.05)
    ax1.set_ylabel("share of the game")
    ax1.set_title("winner's lead became permanent at", fontsize=9)
    changes = [_err(v["lead"]["changes"]) for v in variants]
    ax2.bar(
        xs,
        [c[0] for c in changes],
        yerr=[[c[1] for c in changes], [c[2] for c in changes]],
        capsize=3,
        color="#7b1fa2",
    )
    ax2.set_xticks(xs, labels)
    ax2.set_ylabel("lead changes per game (95% interval)")
    ax2.set_title("lead changes", fontsize=9)
    out.append(
        ("When the winner's lead became permanent, and how often the lead changed.", _png(fig))
    )
    return out


def render_html(result: BalanceResult) -> str:
    """The whole report as one HTML page."""
    report = result.to_json()
    header, rows = table(report)
    esc = html.escape
    title = f"Balance of {report['game']}"
    settings = (
        f"{report['games']} games per variant; agents {', '.join(report['agents'])} "
        f"(seats rotated); seed {report['seed']}"
        + (f"; sweep of {report['sweep']}" if report["sweep"] else "")
    )
    options = "".join(
        f"<li><b>{esc(v['label'] or 'options')}</b>: "
        f"{esc(', '.join(f'{k}={val}' for k, val in v['options'].items()))}</li>"
        for v in report["variants"]
    )
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows)
    figures = "".join(
        f'<figure><img src="{uri}" alt="{esc(caption)}"><figcaption>{esc(caption)}'
        "</figcaption></figure>"
        for caption, uri in plots(result)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
figure {{ margin: 1.5em 0; }} img {{ max-width: 100%; }}
</style></head><body>
<h1>{esc(title)}</h1>
<p>{esc(settings)}. Rates with 95% Wilson intervals, means with 95% Student-t intervals.</p>
<ul>{options}</ul>
<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>
{figures}
</body></html>
"""


def write_report(result: BalanceResult, directory: Path) -> Path:
    """Write the report into ``directory`` (made if missing); the page's path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / REPORT_NAME
    path.write_text(render_html(result), encoding="utf-8")
    return path
