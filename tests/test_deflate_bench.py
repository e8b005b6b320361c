"""The compression benchmark (``benchmarks/serve_deflate.py``) encodes what a server sends
each way ``taut serve --compress`` can: its byte counts follow from the choices."""

from __future__ import annotations

import gc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from taut.server.web.deflate import COMPRESS_FROM

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _bench() -> ModuleType:
    """The benchmark as a module (it imports ``serve_path`` from its own folder)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location(
            "serve_deflate", BENCHMARKS / "serve_deflate.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCHMARKS))


def _recorded(bench: ModuleType, game: str, pictures: bool) -> list[list[bytes]]:
    collecting = gc.get_threshold()
    try:
        streams: list[list[bytes]] = bench.recorded(game, nodes=40, seed=3, pictures=pictures)
    finally:
        # The benchmark tunes the collector as a serving process does: not for later tests.
        gc.unfreeze()
        gc.set_threshold(*collecting)
    assert len(streams) >= 2 and all(len(s) >= 2 for s in streams)
    return streams


def test_a_browsers_frames_go_plain_under_large() -> None:
    bench = _bench()
    streams = _recorded(bench, "push-pull", pictures=False)
    costs = {name: bench.cost(streams, make) for name, make in bench.CHOICES.items()}
    raw_first = sum(len(s[0]) for s in streams) / len(streams)
    # Every frame of the browser's kind is under the line: none is compressed.
    assert max(len(m) for s in streams for m in s) < COMPRESS_FROM
    for part in ("first_bytes", "later_bytes"):
        assert costs["large"][part] == costs["none"][part]
        assert costs["all"][part] < costs["none"][part]
    assert costs["none"]["first_bytes"] == raw_first


def test_large_pictures_are_compressed_under_large() -> None:
    bench = _bench()
    streams = _recorded(bench, "tracks", pictures=True)
    costs = {name: bench.cost(streams, make) for name, make in bench.CHOICES.items()}
    raw_first = sum(len(s[0]) for s in streams) / len(streams)
    # A first frame with Track Tiles' pictures is over the line: compressed as under all.
    assert min(len(s[0]) for s in streams) >= COMPRESS_FROM
    assert costs["large"]["first_bytes"] == costs["all"]["first_bytes"] < raw_first
    assert costs["none"]["first_bytes"] == raw_first
    assert (
        costs["all"]["later_bytes"] < costs["large"]["later_bytes"] <= costs["none"]["later_bytes"]
    )
