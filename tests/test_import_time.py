"""The everyday commands start without importing what they do not use.

Each command runs in a fresh interpreter under ``python -X importtime``; the modules it
imported are read from that report, and none of the heavy ones may be among them: the
numerical and optional libraries (NumPy, SciPy, plotting, Ray, the web server, the
adapters' frameworks) and taut's own layers above the terminal (server, adapters,
tournaments). The test looks at what is imported, not at times, which a shared machine
makes noisy; ``benchmarks/startup.py`` measures the times.

``-X importtime`` reports what ``import`` statements load, not a module loaded by
``importlib.import_module`` (how plugins, lazily built commands and agents are loaded;
what such a module imports in turn is reported). So the child also lists ``sys.modules``
as it exits, and both lists count.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import taut

#: Modules (and their submodules) that no command below may import.
HEAVY = (
    "numpy",
    "scipy",
    "matplotlib",
    "numba",
    "ray",
    "fastapi",
    "starlette",
    "uvicorn",
    "sqlalchemy",
    "pydantic",
    "jinja2",
    "open_spiel",
    "pyspiel",
    "pettingzoo",
    "gymnasium",
    "cvxpy",
    "pysat",
    "openskill",
    "taut.server",
    "taut.interop",
    "taut.arena.tournament",
)

#: Runs the ``taut`` command with the arguments after ``-c``, in this interpreter.
RUN_CLI = "import sys; from taut.cli import cli; cli.main(sys.argv[1:], prog_name='taut')"

#: Prints ``sys.modules`` to standard error as the child exits (whatever the exit).
LIST_AT_EXIT = (
    "import atexit, sys; atexit.register(lambda: sys.stderr.write("
    "'\\nmodules at exit: ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
)


def imported_modules(report: str) -> set[str]:
    """The modules named in a ``-X importtime`` report (``import time: self | cumulative |
    name`` lines, the name indented by its depth)."""
    out: set[str] = set()
    for line in report.splitlines():
        if not line.startswith("import time:"):
            continue
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() != "imported package":
            out.add(parts[2].strip())
    return out


def heavy_among(modules: set[str]) -> list[str]:
    """The modules of ``modules`` that are, or are inside, a :data:`HEAVY` one."""
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


def modules_at_exit(report: str) -> set[str]:
    """The modules :data:`LIST_AT_EXIT` listed (empty when it did not run)."""
    for line in report.splitlines():
        if line.startswith("modules at exit: "):
            return set(line.removeprefix("modules at exit: ").split())
    return set()


def imports_of(code: str, *args: str) -> set[str]:
    """The modules a fresh interpreter imports running ``code`` with ``args``: those in its
    ``-X importtime`` report and those loaded at its exit. The run must succeed."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", LIST_AT_EXIT + code, *args],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    reported, at_exit = imported_modules(proc.stderr), modules_at_exit(proc.stderr)
    assert reported and at_exit, proc.stderr[-2000:]
    return reported | at_exit


def command_imports(*args: str) -> set[str]:
    """The modules ``taut ARGS...`` imports (it must exit with status 0)."""
    modules = imports_of(RUN_CLI, *args)
    # The report is read right: the command line itself and Click are in it.
    assert {"taut.cli", "taut.cli.app", "click"} <= modules
    return modules


def random_seats(game: str) -> list[str]:
    """``--seat NAME=random`` for every seat of ``game`` with its default options."""
    return [f"--seat={seat}=random" for seat in taut.make(game).info.seats]


def test_the_report_is_parsed_and_a_heavy_import_is_seen() -> None:
    modules = imports_of("import taut.agents.greedy")
    assert "taut.agents.greedy" in modules
    assert "numpy" in heavy_among(modules)
    assert heavy_among({"numpy.linalg", "numpyish", "taut.serverless", "taut.server.web.app"}) == [
        "numpy.linalg",
        "taut.server.web.app",
    ]


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("games",),
        ("play", "--help"),
        ("solve", "--help"),
        ("analyse", "--help"),
        ("replay", "pulling-strings", "--turns", "c/h g/i", "--json"),
        ("play", "pulling-strings", "--x", "random", "--o", "random", "--seed", "1"),
    ],
    ids=" ".join,
)
def test_everyday_commands_import_nothing_heavy(args: tuple[str, ...]) -> None:
    assert heavy_among(command_imports(*args)) == []


@pytest.mark.parametrize("game", taut.games())
@pytest.mark.parametrize("verb", ["play", "replay", "selfplay", "arena", "bench"])
def test_every_game_command_help_imports_nothing_heavy(verb: str, game: str) -> None:
    modules = command_imports(verb, game, "--help")
    assert heavy_among(modules) == []
    # Only the asked game is loaded, and the other verbs' modules are not.
    assert plugin_module(game) in modules
    others = {plugin_module(g) for g in taut.games() if g != game}
    assert not others & modules
    assert f"taut.cli.{verb}" in modules
    assert not {f"taut.cli.{v}" for v in ("arena", "selfplay", "bench") if v != verb} & modules


@pytest.mark.parametrize("game", taut.games())
def test_every_game_between_random_players_imports_nothing_heavy(game: str) -> None:
    modules = command_imports("play", game, *random_seats(game), "--seed", "1")
    assert heavy_among(modules) == []
    # Random players need no search: its modules stay out too.
    assert not {"taut.agents.greedy", "taut.agents.levels", "taut.solve.matrix"} & modules


def plugin_module(game: str) -> str:
    """The module that holds ``game``'s plugin."""
    return type(taut.plugin(game)).__module__
