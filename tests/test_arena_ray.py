"""The Ray backend of the arena: same results as the local one, its Ray life cycle, errors.

One real local Ray instance serves the whole module (starting one takes seconds); the life
cycle (who starts and stops Ray, what ``ray.init`` is given) is checked against a stand-in
for the ``ray`` module, which also finishes tasks out of order on purpose.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from click.testing import CliRunner, Result

from taut.arena import backends
from taut.arena.backends import BackendError, LocalBackend, RayBackend, make_backend
from taut.arena.tournament import TournamentResult, run_tournament
from taut.cli import cli as app

ray = pytest.importorskip("ray")

runner = CliRunner()
GAME = "push-pull"
OPTIONS = {"max_turns": 60}
# Three agents give three pairs whose games end in different ways and lengths, so a
# mismatch in seeds or in the order results are tallied would show.
AGENTS = ["random", "greedy", "smmcts:iterations=30:rollout=5"]


def games_of(result: TournamentResult) -> list[tuple[Any, ...]]:
    """Every game of a tournament, in schedule order: who sat where, seed, outcome."""
    return [
        (r.task.pair, r.task.seats, r.task.seed, r.winners, r.reason, r.length)
        for r in result.results
    ]


def stderr_of(result: Result) -> str:
    """The command's stderr with rich's line wrapping undone."""
    return " ".join(result.stderr.split())


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    """A local Ray instance for the module (one already running is reused and kept)."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False)
    yield ray
    if started:
        ray.shutdown()


@pytest.fixture(scope="module")
def local_result() -> TournamentResult:
    """The reference: the tournament played in this process."""
    return run_tournament(GAME, OPTIONS, AGENTS, 4, 11, workers=1)


def test_ray_matches_local(ray_instance: Any, local_result: TournamentResult) -> None:
    progress: list[tuple[int, int]] = []
    res = run_tournament(
        GAME, OPTIONS, AGENTS, 4, 11, progress=lambda d, t: progress.append((d, t)), backend="ray"
    )
    assert res.to_json() == local_result.to_json()
    assert games_of(res) == games_of(local_result)
    assert progress == [(d, 12) for d in range(1, 13)]
    # The instance belongs to the fixture: the backend must leave it running.
    assert ray_instance.is_initialized()
    # The comparison can tell tournaments apart: another seed plays other games.
    other = run_tournament(GAME, OPTIONS, AGENTS, 4, 12, workers=1)
    assert games_of(other) != games_of(local_result)


def test_ray_one_task_in_flight(ray_instance: Any, local_result: TournamentResult) -> None:
    res = run_tournament(GAME, OPTIONS, AGENTS, 4, 11, backend=RayBackend(workers=1))
    assert games_of(res) == games_of(local_result)


def test_ray_task_error_is_raised_as_itself(ray_instance: Any) -> None:
    with pytest.raises(ValueError, match="invalid literal"):
        list(RayBackend().run(int, ["1", "x", "3"]))


def test_cli_ray_json_matches_local(ray_instance: Any) -> None:
    base = ["arena", "pulling-strings", "--agents", "random,greedy", "--games", "4"]
    base += ["--seed", "5", "--json", "-O", "max_turns=60"]
    local = runner.invoke(app, [*base, "--workers", "1"])
    remote = runner.invoke(app, [*base, "--backend", "ray"])
    assert local.exit_code == 0, local.output
    assert remote.exit_code == 0, remote.output
    # The whole of stdout must be the JSON object: nothing from Ray may leak into it.
    assert json.loads(remote.stdout) == json.loads(local.stdout)


# --- the Ray life cycle, against a stand-in for the ray module -------------------------


class FakeRayTaskError(Exception):
    """Stands for ``ray.exceptions.RayTaskError``: carries the task's own exception."""

    def __init__(self, cause: Exception) -> None:
        super().__init__(f"task failed: {cause!r}")
        self.cause = cause


class FakeRef:
    """An object ref whose task runs when its result is fetched."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.fn, self.args = fn, args

    def value(self) -> Any:
        try:
            return self.fn(*self.args)
        except Exception as exc:
            raise FakeRayTaskError(exc) from exc


class FakeRemote:
    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def remote(self, *args: Any) -> FakeRef:
        return FakeRef(self.fn, args)


class FakeRay:
    """Just enough of ``ray`` for the backend; records init, shutdown and cancel calls."""

    class exceptions:
        RayTaskError = FakeRayTaskError

    def __init__(self, initialized: bool = False, init_error: Exception | None = None) -> None:
        self.initialized = initialized
        self.init_error = init_error
        self.calls: list[tuple[Any, ...]] = []

    def is_initialized(self) -> bool:
        return self.initialized

    def init(self, address: str | None = None, **kwargs: Any) -> None:
        self.calls.append(("init", address, kwargs))
        if self.init_error is not None:
            raise self.init_error
        self.initialized = True

    def shutdown(self) -> None:
        self.calls.append(("shutdown",))
        self.initialized = False

    def cluster_resources(self) -> dict[str, float]:
        return {"CPU": 2.0}

    def remote(self, fn: Callable[..., Any]) -> FakeRemote:
        return FakeRemote(fn)

    def wait(self, refs: list[FakeRef], num_returns: int = 1) -> tuple[list[Any], list[Any]]:
        # The newest task finishes first: results arrive out of schedule order.
        return refs[-num_returns:], refs[:-num_returns]

    def get(self, ref: FakeRef) -> Any:
        return ref.value()

    def cancel(self, ref: FakeRef) -> None:
        self.calls.append(("cancel",))


def use_fake(monkeypatch: pytest.MonkeyPatch, fake: FakeRay) -> FakeRay:
    monkeypatch.setattr(backends, "import_ray", lambda: fake)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    return fake


def test_out_of_order_results_are_tallied_in_schedule_order(
    monkeypatch: pytest.MonkeyPatch, local_result: TournamentResult
) -> None:
    fake = use_fake(monkeypatch, FakeRay())
    order: list[int] = []
    backend = RayBackend()
    original_run = backend.run

    def spying_run(fn: Any, items: Any) -> Iterator[tuple[int, Any]]:
        for index, res in original_run(fn, items):
            order.append(index)
            yield index, res

    monkeypatch.setattr(backend, "run", spying_run)
    res = run_tournament(GAME, OPTIONS, AGENTS, 4, 11, backend=backend)
    assert order != sorted(order) and sorted(order) == list(range(12))
    assert res.to_json() == local_result.to_json()
    assert games_of(res) == games_of(local_result)
    # Started by the backend, so stopped by it; a local instance sized to the machine.
    assert fake.calls == [
        ("init", None, {"ignore_reinit_error": True, "num_cpus": None, "include_dashboard": False}),
        ("shutdown",),
    ]


def test_existing_ray_is_reused_and_left_running(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = use_fake(monkeypatch, FakeRay(initialized=True))
    assert sorted(RayBackend(address="auto").run(str, [1, 2, 3])) == [
        (0, "1"),
        (1, "2"),
        (2, "3"),
    ]
    assert fake.calls == [] and fake.initialized


def test_address_and_workers_go_to_ray_init(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = use_fake(monkeypatch, FakeRay())
    assert len(list(RayBackend(address="ray://head:10001").run(str, [1]))) == 1
    assert fake.calls[0] == ("init", "ray://head:10001", {"ignore_reinit_error": True})
    fake = use_fake(monkeypatch, FakeRay())
    assert len(list(RayBackend(workers=3).run(str, range(50)))) == 50
    assert fake.calls[0][2]["num_cpus"] == 3
    # RAY_ADDRESS stands for a missing address, as in Ray; num_cpus would make Ray refuse.
    fake = use_fake(monkeypatch, FakeRay())
    monkeypatch.setenv("RAY_ADDRESS", "head:6379")
    assert len(list(RayBackend(workers=3).run(str, [1]))) == 1
    assert fake.calls[0] == ("init", "head:6379", {"ignore_reinit_error": True})


def test_failed_task_cancels_the_rest_and_stops_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = use_fake(monkeypatch, FakeRay())
    with pytest.raises(ValueError, match="invalid literal") as info:
        list(RayBackend().run(int, [str(i) for i in range(40)] + ["x"]))
    assert isinstance(info.value.__cause__, FakeRayTaskError)
    assert ("cancel",) in fake.calls and fake.calls[-1] == ("shutdown",)


def test_unreachable_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    use_fake(monkeypatch, FakeRay(init_error=ConnectionError("no cluster at head:6379")))
    with pytest.raises(BackendError, match=r"Ray cluster at 'head:6379'.*no cluster"):
        list(RayBackend(address="head:6379").run(str, [1]))
    base = ["arena", "pulling-strings", "--agents", "random,greedy", "--games", "1"]
    r = runner.invoke(app, [*base, "--backend", "ray", "--address", "head:6379"])
    assert r.exit_code == 2 and "could not start or reach" in stderr_of(r)


# --- choosing a backend ----------------------------------------------------------------


def test_make_backend() -> None:
    assert isinstance(make_backend(), LocalBackend)
    assert isinstance(make_backend("ray", address="auto"), RayBackend)
    with pytest.raises(BackendError, match="unknown backend 'spark'"):
        make_backend("spark")
    with pytest.raises(BackendError, match="only to the ray backend"):
        make_backend("local", address="auto")
    with pytest.raises(ValueError, match="backend object"):
        run_tournament(GAME, OPTIONS, AGENTS, 1, 0, workers=2, backend=LocalBackend())


def test_cli_backend_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    base = ["arena", "pulling-strings", "--agents", "random,greedy", "--games", "1"]
    r = runner.invoke(app, [*base, "--backend", "spark"])
    assert r.exit_code == 2 and "unknown backend 'spark'; choose one of: local, ray" in stderr_of(r)
    r = runner.invoke(app, [*base, "--address", "auto"])
    assert r.exit_code == 2 and "--address" in r.stderr and "needs --backend ray" in stderr_of(r)
    # Without Ray installed the message says how to get it.
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(BackendError, match="distributed"):
        RayBackend()
    r = runner.invoke(app, [*base, "--backend", "ray"])
    assert r.exit_code == 2 and "pip install 'taut[distributed]'" in stderr_of(r)
