"""The connection benchmark (``benchmarks/serve_connect.py``): it opens sockets as the page
does, reads each one's first frame, and refuses what it cannot measure by name."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / "serve_connect.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_series_of_connections_is_measured() -> None:
    done = _run("--game", "tug-of-war", "--connections", "3", "--pause", "0", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)["tug-of-war"]["current"]
    assert figures["connections"] == 3
    # The first frame of a new game: the table's facts, the seats, the moves offered.
    assert figures["first_frame_bytes"] > 300
    assert figures["cpu_ms_per_connection"] >= 0


def test_no_connections_is_refused() -> None:
    done = _run("--connections", "0")
    assert done.returncode == 2
    assert "--connections must be 1 or more" in done.stderr


def test_an_unknown_revision_is_refused_by_name() -> None:
    done = _run("--game", "tracks", "--rev", "no-such-revision-here")
    assert done.returncode == 2
    assert "no-such-revision-here" in done.stderr
