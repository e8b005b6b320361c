"""Where the games of a tournament run: processes on this machine, or a Ray cluster.

A backend takes a picklable function and a list of items, applies the function to every
item somewhere, and yields ``(index, result)`` pairs as results come in, in any order. The
caller puts the results back in index order, so what it reports depends neither on the
backend nor on how many workers the backend used.

``local`` (the default) is a process pool on this machine, or this very process for one
worker. ``ray`` runs the work as Ray tasks: on a Ray instance it starts for the run, or on
an existing cluster named by its address. Ray is an optional dependency (the
``distributed`` extra) and is imported only when the Ray backend is asked for.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol, TypeVar

from taut.core.errors import TautError

T = TypeVar("T")
R = TypeVar("R")

#: The backend names :func:`make_backend` accepts.
BACKENDS = ("local", "ray")

#: How to get Ray, for error messages.
RAY_INSTALL_HINT = "pip install 'taut[distributed]'"


class BackendError(TautError):
    """A backend cannot be used: an unknown name, Ray missing, or a cluster out of reach."""


class Backend(Protocol):
    """Runs a function over a list of items and yields the results as they finish."""

    name: str

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Yield ``(i, fn(items[i]))`` for every ``i``, each exactly once, in any order.

        ``fn`` and the items must be picklable: they may travel to other processes or
        machines. An exception raised by ``fn`` is raised here.
        """
        ...


def chunk_size(items: int, workers: int) -> int:
    """How many items to send to a worker at once.

    About eight chunks per worker: few enough that the cost of sending each chunk stays
    small next to the games in it, enough that the workers finish at nearly the same time
    and the progress bar moves smoothly.
    """
    return max(1, items // (workers * 8))


class LocalBackend:
    """A process pool on this machine; one worker (or one item) runs in this process."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        """``workers`` processes (default: one per core)."""
        if workers is not None and workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers}")
        self.workers = workers

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Yield ``(i, fn(items[i]))`` in index order."""
        workers = self.workers or os.cpu_count() or 1
        if workers == 1 or len(items) <= 1:
            # No pool: cheaper for tiny runs, and exceptions keep their full traceback.
            for i, item in enumerate(items):
                yield i, fn(item)
            return
        with ProcessPoolExecutor(max_workers=min(workers, len(items))) as pool:
            results = pool.map(fn, items, chunksize=chunk_size(len(items), workers))
            yield from enumerate(results)


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`BackendError` that says how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise BackendError(
            f"the ray backend needs Ray, which is not installed: {RAY_INSTALL_HINT}"
        ) from exc
    return ray


def _run_chunk(fn: Callable[[T], R], chunk: list[T]) -> list[R]:
    """Apply ``fn`` to each item of a chunk (the body of one Ray task)."""
    return [fn(item) for item in chunk]


class RayBackend:
    """Ray tasks on a local Ray instance or on an existing cluster.

    If Ray is already initialised in this process (by the caller, say, to reuse one
    instance for several tournaments), that connection is used as it is and left open.
    Otherwise each :meth:`run` calls ``ray.init``: with an ``address`` (``"auto"``,
    ``"HOST:PORT"``, ``"ray://HOST:10001"``; by default the ``RAY_ADDRESS`` environment
    variable, as in Ray) it connects to that cluster; with none it starts a local instance
    sized to the machine (or to ``workers`` CPUs), without the dashboard. Ray is shut down
    at the end of the run only if the run initialised it.
    """

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        init_kwargs: dict[str, Any] | None = None,
    ) -> None:
        """Check that Ray can be imported; connecting waits for :meth:`run`.

        ``workers`` caps the number of tasks in flight at once (default: as many chunks as
        the cluster has CPUs, all submitted at once) and, for a local instance this backend
        starts, its number of CPUs. ``init_kwargs`` go to ``ray.init`` as they are.
        """
        import_ray()  # fail now, before any work is scheduled
        if workers is not None and workers < 1:
            raise BackendError(f"workers must be at least 1, got {workers}")
        self.address = address
        self.workers = workers
        self.init_kwargs = dict(init_kwargs or {})

    def _connect(self, ray: Any) -> bool:
        """Initialise Ray unless it already is; whether this call initialised it."""
        if ray.is_initialized():
            return False
        kwargs: dict[str, Any] = {"ignore_reinit_error": True}
        # Like Ray itself, take RAY_ADDRESS as the cluster when no address is given.
        address = self.address or os.environ.get("RAY_ADDRESS") or None
        if address is None:
            # A throwaway instance: the dashboard would only slow its start. (Ray refuses
            # num_cpus when it joins a running cluster, hence only here.)
            kwargs.update(num_cpus=self.workers, include_dashboard=False)
        kwargs.update(self.init_kwargs)
        where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
        try:
            ray.init(address=address, **kwargs)
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            raise BackendError(f"could not start or reach {where}: {exc}") from exc
        return True

    def run(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        """Yield ``(i, fn(items[i]))`` in the order the Ray tasks finish."""
        ray = import_ray()
        if not items:
            return
        started = self._connect(ray)
        pending: dict[Any, int] = {}  # object ref -> index of its chunk's first item
        try:
            cpus = self.workers or int(ray.cluster_resources().get("CPU", 1)) or 1
            size = chunk_size(len(items), cpus)
            starts = list(range(0, len(items), size))
            in_flight = self.workers or len(starts)
            remote = ray.remote(_run_chunk)
            submitted = 0
            while pending or submitted < len(starts):
                while submitted < len(starts) and len(pending) < in_flight:
                    start = starts[submitted]
                    chunk = list(items[start : start + size])
                    pending[remote.remote(fn, chunk)] = start
                    submitted += 1
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    start = pending.pop(ref)
                    for offset, result in enumerate(_get(ray, ref)):
                        yield start + offset, result
        finally:
            # Stopped early (an error, Ctrl-C): do not leave tasks running on the cluster.
            for ref in pending:
                ray.cancel(ref)
            if started:
                ray.shutdown()


def _get(ray: Any, ref: Any) -> list[Any]:
    """``ray.get(ref)``, raising a task's own exception as the local backend would."""
    try:
        result: list[Any] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            raise cause from exc
        raise
    return result


def make_backend(
    name: str = "local", workers: int | None = None, address: str | None = None
) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``).

    ``address`` names an existing Ray cluster and is allowed only with ``ray``.
    """
    if name == "local":
        if address is not None:
            raise BackendError("an address applies only to the ray backend")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise BackendError(f"unknown backend {name!r}; choose one of: {', '.join(BACKENDS)}")
