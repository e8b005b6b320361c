"""The load benchmark's ``--instructions``: the server's instructions counted under
callgrind in the measured window only, and printed a command and a move."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.test_load_repeat import run_result, serve_load


def _result(instructions: int, commands: int, moves: int, label: str) -> Any:
    return run_result(
        1.0,
        commands,
        label=label,
        game="push-pull",
        window_moves=moves,
        window_instructions=instructions,
    )


def test_instructions_are_given_a_command_and_a_move_with_their_ratios(
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _result(3_000_000_000, 1500, 1000, "sqlite before")
    now = _result(2_400_000_000, 1500, 1000, "sqlite current")
    assert before.instructions_per_command == pytest.approx(2.0)
    assert now.instructions_per_move == pytest.approx(2.4)
    assert now.to_json()["minstr_per_move"] == pytest.approx(2.4)
    serve_load.show([before, now])
    out = capsys.readouterr().out
    assert "instructions (callgrind)" in out
    assert "0.800 a command, 0.800 a move" in out


def test_a_run_without_callgrind_shows_no_instructions(capsys: pytest.CaptureFixture[str]) -> None:
    run = _result(0, 1500, 1000, "sqlite current")
    assert run.instructions_per_command != run.instructions_per_command  # NaN
    serve_load.show([run])
    assert "callgrind" not in capsys.readouterr().out


@pytest.mark.skipif(
    shutil.which("valgrind") is None or shutil.which("callgrind_control") is None,
    reason="valgrind's callgrind is not installed",
)
def test_only_the_window_is_counted(tmp_path: Path) -> None:
    """A program that works while counted is charged; the same time idle, or before the
    window opens, is not."""
    folder = tmp_path / "callgrind"
    folder.mkdir()
    # Works for a second whenever the file "go" appears, and idles otherwise.
    program = (
        "import pathlib, time\n"
        f"go = pathlib.Path({str(tmp_path / 'go')!r})\n"
        "while True:\n"
        "    if go.exists():\n"
        "        go.unlink(); end = time.time() + 1\n"
        "        while time.time() < end: sum(range(1000))\n"
        "    time.sleep(0.01)\n"
    )
    server = serve_load.Server("unused", callgrind=str(folder))
    out = str(folder / "callgrind.%p")
    command = [*serve_load.CALLGRIND, f"--callgrind-out-file={out}", sys.executable, "-c"]
    server.process = subprocess.Popen([*command, program])
    try:
        time.sleep(3)  # started, and idle: nothing counted yet
        (tmp_path / "go").touch()
        time.sleep(2)  # a second's work before the window: not counted
        server.count_from_here()
        idle = server.count_to_here()
        server.count_from_here()
        (tmp_path / "go").touch()
        time.sleep(2.5)
        busy = server.count_to_here()
    finally:
        server.process.kill()
        server.process.wait()
    assert busy > 20 * max(idle, 1)
    assert busy > 10_000_000


def test_under_callgrind_the_run_with_the_fewest_instructions_is_kept() -> None:
    runs = [
        run_result(0.5, 1000, window_instructions=2_000_000_000),
        run_result(0.9, 1000, window_instructions=1_500_000_000),
    ]
    assert serve_load.least_costly(runs) is runs[1]
