"""Tables kept on disk between runs: read back equal, rebuilt when unreadable, keyed by
the code that computes them, and never required (a read-only cache only costs time)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from taut.core.diskcache import cache_dir, cached_array


def counting_build(calls: list[int]) -> np.ndarray:
    calls.append(1)
    return np.arange(12, dtype=np.float64).reshape(3, 4) / 7


def test_a_table_is_built_once_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAUT_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "code.py"
    source.write_text("x = 1\n")
    calls: list[int] = []
    first = cached_array("t", [source], lambda: counting_build(calls))
    second = cached_array("t", [source], lambda: counting_build(calls))
    assert calls == [1]
    np.testing.assert_array_equal(first, second)
    assert not list((tmp_path / "cache").glob("*.tmp"))
    # Changed code: another key, so the table is built again.
    source.write_text("x = 2\n")
    cached_array("t", [source], lambda: counting_build(calls))
    assert calls == [1, 1]


def test_an_unreadable_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAUT_CACHE", str(tmp_path))
    source = tmp_path / "code.py"
    source.write_text("y\n")
    calls: list[int] = []
    cached_array("t", [source], lambda: counting_build(calls))
    (stored,) = tmp_path.glob("t-*.npy")
    stored.write_bytes(b"not an array")
    again = cached_array("t", [source], lambda: counting_build(calls))
    assert calls == [1, 1]
    np.testing.assert_array_equal(again, counting_build([]))


def test_off_and_unwritable_caches_still_give_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "code.py"
    source.write_text("z\n")
    monkeypatch.setenv("TAUT_CACHE", "off")
    assert cache_dir() is None
    calls: list[int] = []
    cached_array("t", [source], lambda: counting_build(calls))
    blocker = tmp_path / "file"
    blocker.write_text("a file, not a folder")
    monkeypatch.setenv("TAUT_CACHE", str(blocker / "sub"))
    table = cached_array("t", [source], lambda: counting_build(calls))
    assert calls == [1, 1] and table.shape == (3, 4)


def test_the_four_sided_tables_come_back_equal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taut.games.push_pull import evaluation

    monkeypatch.setenv("TAUT_CACHE", str(tmp_path))
    evaluation._unit_values.cache_clear()
    built = evaluation.unit_values("four")
    assert len(list(tmp_path.glob("push-pull-four-*.npy"))) == 1
    evaluation._unit_values.cache_clear()
    read = evaluation.unit_values("four")
    np.testing.assert_array_equal(built, read)
    evaluation._unit_values.cache_clear()
