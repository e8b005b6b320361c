"""The load benchmark's ``--repeat``: the least costly run of a tree is kept, and no run's
failures are lost with the runs left out."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _serve_load() -> ModuleType:
    """``benchmarks/serve_load.py`` as a module (it is a script, not part of the package; it
    imports ``trees`` from its own folder)."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec = importlib.util.spec_from_file_location("serve_load", BENCHMARKS / "serve_load.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


serve_load = _serve_load()


def run_result(
    cpu: float,
    commands: int,
    lost: int = 0,
    duplicated: int = 0,
    undelivered: int = 0,
    errors: dict[str, int] | None = None,
    **more: Any,
) -> Any:
    """A run whose server spent ``cpu`` seconds on ``commands`` commands (``more``: its
    other fields)."""
    fields: dict[str, Any] = {"label": "sqlite current", **more}
    return serve_load.Result(
        games=1,
        clients=2,
        seconds=1.0,
        nodes=commands,
        commands=commands,
        latencies=[0.001],
        server_cpu=cpu,
        lost=lost,
        duplicated=duplicated,
        undelivered=undelivered,
        errors=dict(errors or {}),
        window_cpu=cpu,
        window_commands=commands,
        **fields,
    )


def test_the_least_costly_run_is_kept_with_every_runs_cost() -> None:
    runs = [run_result(0.6, 1000), run_result(0.5, 1000), run_result(0.7, 1000)]
    kept = serve_load.least_costly(runs)
    assert kept is runs[1]
    assert kept.cpu_ms_per_command == pytest.approx(0.5)
    assert kept.runs_cpu_ms_per_command == pytest.approx([0.6, 0.5, 0.7])
    assert kept.to_json()["runs_cpu_ms_per_command"] == [0.6, 0.5, 0.7]


def test_failures_of_the_runs_left_out_are_added_to_the_one_kept() -> None:
    runs = [
        run_result(0.9, 1000, lost=1, errors={"refused": 2}),
        run_result(0.5, 1000, undelivered=3, errors={"refused": 1}),
        run_result(0.8, 1000, duplicated=4, errors={"closed": 1}),
    ]
    kept = serve_load.least_costly(runs)
    assert kept is runs[1]
    assert (kept.lost, kept.duplicated, kept.undelivered) == (1, 4, 3)
    assert kept.errors == {"refused": 3, "closed": 1}


def test_one_run_is_kept_as_it_is() -> None:
    run = run_result(0.5, 1000, lost=2)
    kept = serve_load.least_costly([run])
    assert kept is run
    assert kept.lost == 2
    assert kept.runs_cpu_ms_per_command == pytest.approx([0.5])
