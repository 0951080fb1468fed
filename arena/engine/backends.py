"""Backends: where the engine's jobs run.

A backend takes :mod:`jobs <arena.engine.jobs>` with ``submit(job) -> handle`` and
hands back finished ones with ``wait(handles) -> [(handle, result), ...]``;
``release(claude)`` frees a Claude whose work is done.  :class:`InProcessBackend` runs
the jobs one by one in submission order in this process (tests, debugging, machines
without Ray); :class:`~arena.engine.ray_backend.RayBackend` runs them on Ray.  Both
run every job through :func:`arena.engine.jobs.run`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from arena.engine import jobs
from arena.errors import ConfigError
from arena.specs.config import Experiment
from arena.specs.registry import Catalog
from arena.specs.spec import PerformerSpec

BACKENDS = ("in-process", "ray")


class Backend(Protocol):
    name: str
    concurrent_models: int | None  # how many Claudes may hold resources at once (None: no limit)

    def submit(self, job: jobs.Job) -> Any: ...

    def wait(self, handles: Iterable[Any]) -> list[tuple[Any, Any]]: ...

    def release(self, claude: PerformerSpec) -> None: ...

    def close(self) -> None: ...


class InProcessBackend:
    """Runs jobs in this process, first submitted first; builds each performer once and
    holds one Claude at a time (the engine releases it before starting the next)."""

    name = "in-process"
    concurrent_models: int | None = 1

    def __init__(self, catalog: Catalog):
        self.cache = jobs.PerformerCache(catalog)
        self._queue: dict[int, jobs.Job] = {}
        self._next = 0

    def submit(self, job: jobs.Job) -> int:
        handle = self._next
        self._next += 1
        self._queue[handle] = job
        return handle

    def wait(self, handles: Iterable[Any]) -> list[tuple[Any, Any]]:
        handle = min(handles)
        job = self._queue.pop(handle)
        return [(handle, self.cache.run(job))]

    def release(self, claude: PerformerSpec) -> None:
        self.cache.release("claude", claude)

    def close(self) -> None:
        self.cache.clear()
        self._queue.clear()


def make_backend(
    name: str,
    experiment: Experiment,
    catalog: Catalog,
    address: str | None = None,
    num_cpus: int | None = None,
) -> Backend:
    """A backend by name: ``in-process``, or ``ray`` (joins ``address``/``RAY_ADDRESS``/
    ``ray.address`` or starts a local Ray); the caller closes it."""
    if name == "in-process":
        return InProcessBackend(catalog)
    if name == "ray":
        from arena.engine.ray_backend import RayBackend

        return RayBackend(catalog, experiment.ray, address=address, num_cpus=num_cpus)
    raise ConfigError(f"unknown executor {name!r}; choose one of {', '.join(BACKENDS)}")
