"""The benchmarks' ``--rev``: an earlier revision's ``src`` folder written out of the
history, or a clear refusal."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


def _trees() -> ModuleType:
    spec = importlib.util.spec_from_file_location("trees", BENCHMARKS / "trees.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trees = _trees()


def _history() -> bool:
    """Whether this tree is a git repository with its history (a fresh clone is)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", "HEAD"],
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        return False
    return done.returncode == 0


needs_history = pytest.mark.skipif(not _history(), reason="no git history here to export from")


@needs_history
def test_a_revision_is_written_out_with_its_package(tmp_path: Path) -> None:
    src = Path(trees.exported_src("HEAD", tmp_path))
    assert src == tmp_path / "HEAD" / "src"
    # The package as committed: the same text as git holds for it.
    held = subprocess.run(
        ["git", "-C", str(ROOT), "show", "HEAD:src/taut/__init__.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert (src / "taut" / "__init__.py").read_text() == held
    assert (src / "taut" / "server" / "play" / "frames.py").is_file()


@needs_history
def test_a_revision_name_makes_a_safe_folder(tmp_path: Path) -> None:
    src = Path(trees.exported_src("HEAD~0", tmp_path))
    assert src.parent.parent == tmp_path  # "~" is not a path's meaning here
    assert src.parent.name == "HEAD_0"


@needs_history
def test_an_unknown_revision_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(trees.UnknownRevision, match="--rev no-such-rev-0: not a revision of"):
        trees.exported_src("no-such-rev-0", tmp_path)
    assert not any(tmp_path.iterdir())  # nothing half written


@needs_history
def test_the_load_benchmark_refuses_an_unknown_revision() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "serve_load.py"), "--rev", "no-such-rev-0"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 2
    assert "--rev no-such-rev-0: not a revision of" in done.stderr


@needs_history
def test_the_path_benchmark_takes_src_or_rev_not_both(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "serve_path.py"), "--rev", "HEAD", "--src",
         str(ROOT / "src")],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "give --src or --rev, not both" in done.stderr
