"""How fast the ``taut`` command starts: wall time of its everyday commands.

Each command runs ``--repeat`` times (default 5) in a fresh process attached to a
pseudo-terminal, as a person at a terminal runs it; the median wall time is printed, with
the time to the first line of output (what a person waits for before anything shows) and
the CPU time the process used (user and system), which other work on a busy machine
disturbs much less than the wall time. The last row is the cumulative time Python's
``-X importtime`` reports for ``import taut.cli`` (the median too), and a plain
``python -c pass`` gives the floor that no command can beat, so the ratios to it are
comparable between machines.

Run: ``.venv/bin/python benchmarks/startup.py [--repeat 5] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import select
import statistics
import subprocess
import sys
import time
from pathlib import Path

#: What is timed: a label and the arguments after ``taut``.
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("taut --help", ("--help",)),
    ("taut games", ("games",)),
    (
        "taut replay pulling-strings --turns 'c/h g/i' --json",
        ("replay", "pulling-strings", "--turns", "c/h g/i", "--json"),
    ),
    (
        "taut play pulling-strings --x random --o random --seed 1",
        ("play", "pulling-strings", "--x", "random", "--o", "random", "--seed", "1"),
    ),
    ("taut play tracks --help", ("play", "tracks", "--help")),
)


def taut_command() -> list[str]:
    """The ``taut`` console script beside this Python, else ``python -c`` running it."""
    script = Path(sys.executable).parent / "taut"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from taut.cli import main; main()"]


def run_in_terminal(argv: list[str]) -> tuple[float, float, float, int]:
    """Run ``argv`` on a pseudo-terminal: seconds to the first line, seconds in all, CPU
    seconds and the exit status. The output is read as it comes, so the command never
    blocks on it."""
    parent, child = pty.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=child, stderr=child, close_fds=True
    )
    os.close(child)
    first: float | None = None
    try:
        while True:
            ready, _, _ = select.select([parent], [], [], 60.0)
            if not ready:
                raise TimeoutError(f"no output for a minute from {' '.join(argv)}")
            try:
                chunk = os.read(parent, 65536)
            except OSError:  # Linux: EIO once the child side is closed
                break
            if not chunk:
                break
            if first is None and b"\n" in chunk:
                first = time.perf_counter() - start
    finally:
        os.close(parent)
    _, status, usage = os.wait4(proc.pid, 0)
    total = time.perf_counter() - start
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return (total if first is None else first), total, cpu, code


def import_time_us(module: str) -> int:
    """The cumulative microseconds ``-X importtime`` reports for importing ``module``."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    for line in proc.stderr.splitlines():
        # "import time:  self [us] | cumulative | imported package"; top level: one space.
        parts = line.split("|")
        if len(parts) == 3 and parts[2] == f" {module}":
            return int(parts[1])
    raise RuntimeError(f"-X importtime did not report {module}")


def timed(argv: list[str], repeat: int) -> dict[str, float]:
    """Median seconds of ``repeat`` runs of ``argv``: ``first`` line, ``total``, ``cpu``."""
    runs = [run_in_terminal(argv) for _ in range(repeat)]
    for *_, code in runs:
        if code != 0:
            raise RuntimeError(f"{' '.join(argv)} exited with status {code}")
    keys = ("first", "total", "cpu")
    return {key: statistics.median(run[i] for run in runs) for i, key in enumerate(keys)}


def measure(repeat: int) -> dict[str, dict[str, float]]:
    """Median seconds per command (``first`` line, ``total``, ``cpu``), the import time of
    ``taut.cli`` and the floor of a bare interpreter."""
    out = {"python -c pass": timed([sys.executable, "-c", "pass"], repeat)}
    base = taut_command()
    for label, args in COMMANDS:
        out[label] = timed([*base, *args], repeat)
    cli = statistics.median(import_time_us("taut.cli") for _ in range(repeat)) / 1e6
    out["-X importtime: import taut.cli"] = {"first": cli, "total": cli, "cpu": cli}
    return out


def main() -> None:
    """Print the table (or JSON) of start-up times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (median)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = measure(max(1, args.repeat))
    if args.json:
        print(json.dumps({"repeat": args.repeat, "seconds": results}, indent=2))
        return
    floor = results["python -c pass"]
    width = max(len(label) for label in results)
    print(
        f"{'command':{width}}  first line  total    cpu      "
        f"total/floor  cpu/floor (medians of {args.repeat})"
    )
    for label, times in results.items():
        ratio, cpu_ratio = times["total"] / floor["total"], times["cpu"] / floor["cpu"]
        print(
            f"{label:{width}}  {times['first']:8.3f}s  {times['total']:6.3f}s  "
            f"{times['cpu']:6.3f}s  {ratio:10.1f}x  {cpu_ratio:8.1f}x"
        )


if __name__ == "__main__":
    main()
