"""The load benchmark's ``--python``: the servers' interpreter is checked before anything
starts (one that cannot run, or cannot import taut's server, is refused with the reason),
and the servers are started on it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from tests.test_load_repeat import serve_load


def _parser() -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog="serve_load.py")


def test_an_interpreter_that_imports_the_server_is_taken_with_its_version() -> None:
    version = serve_load.check_python(_parser(), sys.executable)
    assert version == sys.version.split()[0]


def test_an_interpreter_that_cannot_run_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        serve_load.check_python(_parser(), "/no/such/python")
    assert stopped.value.code == 2
    assert "cannot run it" in capsys.readouterr().err


def test_an_interpreter_without_the_server_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = tmp_path / "python"
    bare.write_text("#!/bin/sh\necho 'ModuleNotFoundError: no taut here' >&2\nexit 1\n")
    bare.chmod(0o755)
    with pytest.raises(SystemExit):
        serve_load.check_python(_parser(), str(bare))
    err = capsys.readouterr().err
    assert "cannot import taut's server" in err and "no taut here" in err


def test_a_server_starts_on_the_interpreter_given(tmp_path: Path) -> None:
    server = serve_load.Server(
        f"sqlite+aiosqlite:///{tmp_path}/python.db", python=str(tmp_path / "python")
    )
    (tmp_path / "python").write_text("#!/bin/sh\nexit 3\n")
    (tmp_path / "python").chmod(0o755)
    # The stand-in interpreter stops at once: the server says so (it was started on it).
    with pytest.raises(RuntimeError, match=r"stopped \(3\)"):
        server.start()
