"""``taut analyse game RECORD``: every move of a recorded game judged.

The record names its game, so no game is given. Each choice a seat made is judged from
what that seat knew: the position's value for it, what its move lost, the engine's move and
a label (inaccuracy, mistake, blunder); then a summary per seat. Values are exact where the
game is solved, else a search's estimates (``--think`` seconds or ``--iterations``
descents per node). :mod:`taut.agents.analysis` does the work; this module only reads the
file and prints, and imports the analysis when the command runs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taut.cli.common import console, fail, progress_bar
from taut.core.errors import TautError
from taut.core.number_param import Real

if TYPE_CHECKING:
    from taut.agents.analysis import GameAnalysis
    from taut.core.game import Game

#: Seconds of search per node unless told otherwise (as ``taut.agents.analysis``).
DEFAULT_THINK = 0.5
#: How each label is coloured in the table.
STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
#: What each method means, for the line under the table.
METHODS = {
    "exact": "exact (the game is solved)",
    "solution": "a near-exact solution's",
    "search": "search estimates",
}


@click.command("game", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("record", metavar="RECORD")
@click.option(
    "--think",
    type=Real(0.0, 3600.0, open_below=True, unit="seconds"),
    default=DEFAULT_THINK,
    show_default=True,
    help="Seconds of search per judged move where the game is not solved.",
)
@click.option(
    "--iterations",
    type=click.IntRange(min=1),
    default=None,
    help="Search descents per judged move instead of --think: the same analysis every run.",
)
@click.option("--seat", default=None, help="Judge only this seat's moves (a seat name).")
@click.option(
    "--index",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Which record of a file of several (JSON lines, as selfplay writes), from 1.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the searches.")
@click.option(
    "--json", "as_json", is_flag=True, default=False, help="Print a JSON list instead of text."
)
def game(
    record: str,
    think: float,
    iterations: int | None,
    seat: str | None,
    index: int,
    seed: int,
    as_json: bool,
) -> None:
    """Judge every move of a recorded game: value, loss, best move and label.

    RECORD is a file `play --record`, `selfplay --record` or `arena --record` wrote. For
    every choice: the position's value for the seat that chose, what its move lost, the
    engine's move and a label (inaccuracy, mistake, blunder); then a summary per seat.

    Values are exact where the game is solved, else estimates of the `hard` level's
    search from what the seat knew (its own view). A progress bar runs on standard error.
    Bad input (not a record, a record that does not replay, an unknown game or seat, a
    bad --think or --index) exits with status 2.
    """
    from taut.agents.analysis import analyse_record
    from taut.core.record import GameRecord
    from taut.core.record_files import read_records
    from taut.core.registry import make

    try:
        records = read_records(Path(record))
    except TautError as exc:
        fail(str(exc))
    if index > len(records):
        fail(f"--index {index}: {record} holds {len(records)} record(s); give 1..{len(records)}")
    try:
        parsed = GameRecord.from_json(records[index - 1])
        played = make(parsed.game, **parsed.options)
    except TautError as exc:
        fail(f"record {index}: {exc}")
    seats = None if seat is None else [_seat(played, seat)]
    with progress_bar(stderr=True) as bar:
        task = bar.add_task(f"Analysing {played.title}", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        try:
            analysis = analyse_record(
                parsed,
                seats,
                think=think,
                iterations=iterations,
                seed=seed,
                progress=advance,
                game=played,
            )
        except TautError as exc:
            fail(f"record {index}: {exc}")
    if as_json:
        print(json.dumps(analysis.to_json()))
        return
    _print(analysis, played)


def _seat(played: Game, name: str) -> int:
    """The seat called ``name`` (exit 2 naming the seats when there is none)."""
    for k, known in enumerate(played.info.seats):
        if known.lower() == name.lower():
            return k
    fail(f"{played.title} has no seat {name!r}; seats: {', '.join(played.info.seats)}")


def _print(analysis: GameAnalysis, played: Game) -> None:
    """The moves table, how the values were had, and the summary table."""
    from rich.table import Table

    if not analysis.judgements:
        console.print(f"{played.title}: no move to judge (every move was forced or by chance).")
        return
    table = Table(title=f"{played.title}: every choice judged")
    for name, justify in (
        ("Move", "right"),
        ("Seat", "left"),
        ("Played", "left"),
        ("Value", "right"),
        ("Loss", "right"),
        ("Best", "left"),
        ("Label", "left"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]
    for j in analysis.judgements:
        tag = "" if j.label is None else f"[{STYLES[j.label]}]{j.label}[/]"
        table.add_row(
            str(j.move),
            j.seat_name,
            _plain(j.action),
            f"{j.value:+.3f}",
            f"{j.loss:.3f}",
            _plain(j.best),
            tag,
        )
    console.print(table)
    methods = sorted({j.method for j in analysis.judgements})
    limits = ", ".join(f"{name} >= {loss:g}" for name, loss in analysis.thresholds.items())
    console.print(
        f"Values: {'; '.join(METHODS.get(m, m) for m in methods)}. Loss labels: {limits}.",
        markup=False,
    )
    summary = Table(title="Summary per seat")
    for name in ("Seat", "Moves", "Average loss", "Inaccuracies", "Mistakes", "Blunders"):
        summary.add_column(name, justify="left" if name == "Seat" else "right")
    for s in analysis.summaries:
        summary.add_row(
            s.seat_name,
            str(s.moves),
            f"{s.average_loss:.3f}",
            *(str(s.counts[name]) for name in ("inaccuracy", "mistake", "blunder")),
        )
    console.print(summary)


def _plain(text: str) -> Any:
    """A cell shown as written (no Rich markup read into a move's notation)."""
    from rich.text import Text

    return Text(text)
