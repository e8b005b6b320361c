"""``taut analyse balance GAME``: is a rule variant fair? Seat advantage, length, decisiveness.

The command is a group with one command per game (built from the game's plugin, like
``taut arena GAME``), so each game gets its own option flags. This module imports only the
command line's own light modules; the arena, the agents, SciPy and matplotlib are imported
when a balance run starts.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from taut.cli.common import console, fail, file_param, json_param, progress_bar
from taut.cli.groups import GameGroup
from taut.cli.options import (
    OptionFlags,
    build_game,
    flag_name,
    game_command,
    option_flags,
    option_pairs_param,
)
from taut.core.errors import TautError
from taut.core.plugin import GamePlugin

if TYPE_CHECKING:
    from taut.arena.balance import BalanceResult, BalanceSettings, Variant

#: The turn limit balance games get in games that have one and were given none (as in the
#: arena: a game between agents must end).
BALANCE_MAX_TURNS = 200

#: The agents unless --agents says otherwise: ``easy`` is the cheapest level that plays
#: every game with sense and to a decision (see docs/balance.md for the measurements).
DEFAULT_AGENTS = "easy"

_AGENTS_HELP = (
    "Comma-separated agent specs (NAME or NAME:key=value...), seated in rotation so each sits "
    "in each seat equally often; one spec plays every seat. Agents: easy, medium, hard "
    "(levels), random, greedy, smmcts, mcts, ismcts, nash, perfect, reply."
)


def _report_dir(path: Path) -> Path:
    """``path``, made now if missing, once a file could be written in it; else exit 2
    (checked before any game is played)."""
    import tempfile

    if path.exists() and not path.is_dir():
        fail(f"--report {path}: exists and is not a directory; name a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        # Writing is the only test that holds for every user and file system.
        with tempfile.NamedTemporaryFile(dir=path, prefix=".taut-probe-"):
            pass
    except OSError as exc:
        fail(f"--report {path}: cannot write a report there ({exc.strerror or exc})")
    return path


def _results_file(out: Path | None, resume: Path | None) -> tuple[Path | None, bool]:
    """The results file and whether it must exist already (exit 2 on a bad one)."""
    if out is not None and resume is not None:
        fail("give --out or --resume, not both (--out continues an existing file too)")
    path = resume if resume is not None else out
    if path is None:
        return None, False
    if resume is not None and not path.is_file():
        fail(f"--resume {path}: no such results file (use --out to start one)")
    if path.exists():
        if path.is_symlink() or not path.is_file():
            fail(f"{path} exists and is not a regular file; choose another name")
        if not os.access(path, os.R_OK | os.W_OK):
            fail(f"{path} cannot be read and written")
    else:
        from taut.core.record_files import check_writable

        try:
            check_writable(path)
        except TautError as exc:
            fail(str(exc))
    return path, resume is not None


def _canonical_option(plugin: GamePlugin, key: str) -> str | None:
    """The option a --sweep names (``max-turns`` is ``max_turns``), None if there is none."""
    for spec in plugin.game_class.OPTIONS:
        names = {spec.name, spec.name.replace("_", "-"), spec.name.replace("-", "_"), *spec.aliases}
        if key in names:
            return spec.name
    return None


def parse_sweep(plugin: GamePlugin, text: str) -> tuple[str, list[str]]:
    """``OPTION=V1,V2,...`` as the option's name and the values (exit 2 when malformed)."""
    key, eq, rest = text.partition("=")
    key = key.strip()
    known = ", ".join(spec.name for spec in plugin.game_class.OPTIONS) or "none"
    if not eq or not key:
        fail(f"--sweep takes OPTION=V1,V2,... (e.g. an option of {plugin.name}: {known})")
    name = _canonical_option(plugin, key)
    if name is None:
        fail(f"--sweep: {plugin.name} has no option {key!r}; its options: {known}")
    values = [v.strip() for v in rest.split(",")]
    if not values or any(not v for v in values):
        fail(f"--sweep {key}: give values separated by commas, none empty (got {rest!r})")
    if len(set(values)) != len(values):
        fail(f"--sweep {key}: a value is given twice ({rest})")
    return name, values


def _variants(
    plugin: GamePlugin,
    options: OptionFlags,
    values: dict[str, Any],
    sweep: tuple[str, list[str]] | None,
) -> list[Variant]:
    """The game's variants: one, or one per swept value (exit 2 on a bad option)."""
    from taut.arena.balance import Variant

    flags = options.given(values)
    pairs: list[str] = list(values["option_pairs"])
    if sweep is None:
        try:
            game = build_game(plugin, flags, pairs, defaults={"max_turns": BALANCE_MAX_TURNS})
        except (TautError, ValueError) as exc:
            fail(str(exc))
        return [Variant("", dict(game.options))]
    name, swept = sweep
    given = set(flags) | {p.partition("=")[0].strip() for p in pairs}
    if any(_canonical_option(plugin, k) == name for k in given):
        fail(f"--sweep {name}: the option is also set on its own; give it in one place")
    out = []
    for value in swept:
        try:
            game = build_game(
                plugin,
                flags,
                [*pairs, f"{name}={value}"],
                defaults={"max_turns": BALANCE_MAX_TURNS},
            )
        except (TautError, ValueError) as exc:
            fail(f"--sweep {name}={value}: {exc}")
        out.append(Variant(f"{name}={value}", dict(game.options)))
    return out


def print_table(result: BalanceResult) -> None:
    """The balance table, one column per variant."""
    from rich.table import Table

    from taut.arena.balance_report import table

    report = result.to_json()
    header, rows = table(report)
    agents = ",".join(report["agents"])
    title = (
        f"{report['game']}: {report['games']} games per variant, agents {agents} "
        f"(seats rotated), seed {report['seed']}"
    )
    out = Table(title=title, title_justify="left")
    for i, col in enumerate(header):
        out.add_column(col, justify="left" if i == 0 else "right")
    for row in rows:
        out.add_row(*row)
    console.print(out)


def run_balance_command(plugin: GamePlugin, options: OptionFlags, values: dict[str, Any]) -> None:
    """Check everything, play what is missing, report."""
    from taut.arena.backends import make_backend
    from taut.arena.balance import BalanceSettings, ResultsFile, check_settings, run_balance

    if values["address"] is not None and values["backend"] != "ray":
        fail("--address names a Ray cluster: it needs --backend ray")
    specs = [s.strip() for s in values["agents"].split(",")]
    if not specs or any(not s for s in specs):
        fail(
            f"--agents: give agent specs separated by commas, none empty (got {values['agents']!r})"
        )
    if len(set(specs)) != len(specs):
        fail(f"--agents: an agent is given twice ({values['agents']})")
    sweep = parse_sweep(plugin, values["sweep"]) if values["sweep"] is not None else None
    variants = _variants(plugin, options, values, sweep)
    report: Path | None = values["report"]
    if report is not None:
        _report_dir(report)
    path, must_exist = _results_file(values["out"], values["resume"])
    as_json: bool = values["as_json"]
    settings: BalanceSettings = BalanceSettings(
        plugin.name,
        plugin.game_class(**variants[0].options).info.version,
        tuple(variants),
        tuple(specs),
        values["seed"],
        sweep[0] if sweep else None,
    )
    try:
        runner = make_backend(
            values["backend"], workers=values["workers"], address=values["address"]
        )
        check_settings(settings)
        results = None
        if path is not None:
            results = ResultsFile(path)
            results.open(settings, must_exist=must_exist)
        with progress_bar(stderr=True) as bar:
            task = bar.add_task(f"balance {plugin.name}", total=None)
            result = run_balance(
                settings,
                values["games"],
                runner,
                results,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        written = None
        if report is not None:
            from taut.arena.balance_report import write_report

            written = write_report(result, report)
    except (TautError, ValueError, OSError) as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(result.to_json()))
        return
    print_table(result)
    if result.resumed:
        console.print(f"{result.resumed} games read back from {path}.")
    elif path is not None:
        console.print(f"Results written to {path}.")
    if written is not None:
        console.print(f"Report written to {written}.")


def balance_params() -> list[click.Parameter]:
    """The options of ``analyse balance GAME`` besides the game's own."""
    return [
        click.Option(["--agents"], default=DEFAULT_AGENTS, show_default=True, help=_AGENTS_HELP),
        click.Option(
            ["--games"],
            type=click.IntRange(min=1),
            default=100,
            show_default=True,
            help="Games per variant.",
        ),
        click.Option(
            ["--sweep"],
            default=None,
            metavar="OPTION=V1,V2,...",
            help="Compare values of one game option side by side (e.g. size=4,5,6,7); "
            "`taut games` lists the options.",
        ),
        click.Option(
            ["--seed"],
            type=int,
            default=0,
            show_default=True,
            help="Seed: the same seed gives the same results; game g of every variant gets "
            "the same seed.",
        ),
        click.Option(
            ["--workers"],
            type=click.IntRange(min=1),
            default=None,
            help="Games played at once (default: one process per core; 1 plays here).",
        ),
        click.Option(
            ["--backend"],
            default="local",
            show_default=True,
            help="Where games run: local (a process pool) or ray (Ray tasks; needs the "
            "distributed extra). Results are the same either way.",
        ),
        click.Option(
            ["--address"],
            default=None,
            help="With --backend ray, the running Ray cluster to use (auto, HOST:PORT, "
            "ray://HOST:10001).",
        ),
        file_param(
            ["--out"],
            "Append each game's result to this file (JSON lines); if it already holds games "
            "played with the same settings, only the missing ones are played.",
        ),
        file_param(
            ["--resume"],
            "Continue the results file written by an earlier --out (it must exist).",
        ),
        click.Option(
            ["--report"],
            type=click.Path(file_okay=False, dir_okay=True, path_type=Path),
            default=None,
            metavar="DIR",
            help="Write a self-contained HTML report (table and plots) to DIR/index.html.",
        ),
        json_param(),
    ]


def build_balance(plugin: GamePlugin) -> click.Command:
    """The ``analyse balance`` command of one game.

    A game option named like one of this command's flags (``out``) gets no flag of its own:
    ``-O out=...`` and ``--sweep out=...`` reach it."""
    params = balance_params()
    taken = {opt for p in params for opt in getattr(p, "opts", ())}
    every = option_flags(plugin)
    options = OptionFlags(
        plugin, tuple((p, spec) for p, spec in every.flags if flag_name(spec.name) not in taken)
    )
    return game_command(
        plugin.name,
        plugin,
        lambda **values: run_balance_command(plugin, options, values),
        [*params, *options.params(), option_pairs_param()],
        f"Is {plugin.title} fair? Play many games between agents (seats rotated) and report "
        "each seat's wins, draws and losses, the first mover's, game length, and how early "
        "the winner's lead became permanent, with 95% intervals.\n\n"
        "Rates get Wilson intervals, means Student-t intervals. Who leads comes from the "
        "game's own measure (its plugin's lead hook: scores, or the evaluation). Where the "
        "game is solved, the exact value of the start is printed beside the mean result. "
        f"Games with a turn limit option get max_turns={BALANCE_MAX_TURNS} unless given.",
        with_options=False,
    )


class BalanceGroup(GameGroup):
    """``taut analyse balance GAME``: one command per game, named in messages as such."""

    command_path = "taut analyse balance"


balance = BalanceGroup(
    "balance",
    build_balance,
    "Is a rule variant fair? Seat advantage, game length, draws and decisiveness.",
)
