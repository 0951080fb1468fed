"""The Ray backend: Claudes as actors, Zellig work as tasks, the driver plans and writes.

This module is the only place in the project that imports ``ray``, and it does so
inside functions, so listing and validating stay instant.

- **Claudes** are actors (:class:`PerformerActor`) built from their specs inside the
  worker, so weights never cross the wire; ``num_gpus``/``num_cpus``/``actors`` come
  from the spec's ``resources`` (:mod:`arena.engine.resources`).  An actor whose
  process dies is restarted ``ray.max_restarts`` times and the calls in flight are
  retried ``ray.max_task_retries`` times; jobs are pure functions of their inputs, so
  a retried call returns what the first would have.
- **Zelligs** run as chunked CPU tasks (corruption of ``ray.chunk_size`` instances,
  detection on 1-best translations); each worker process builds a Zellig once.
- **Johns** run on the driver.

:class:`RayBackend` runs the engine's jobs (:mod:`arena.engine.jobs`) through the same
code as the in-process backend, so transcripts are byte-identical.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from arena.engine import jobs
from arena.engine.resources import actor_count, actor_options, task_options
from arena.specs.config import RayOptions
from arena.specs.registry import Catalog
from arena.specs.spec import PerformerSpec

logger = logging.getLogger(__name__)

LOCAL_ADDRESSES = (None, "", "local")
CONNECT_TIMEOUT = 10.0  # seconds; ARENA_RAY_CONNECT_TIMEOUT overrides
DEFAULT_PORTS = {"ray": 10001, "gcs": 6379}


def connect_timeout() -> float:
    """Seconds to wait for a Ray head to answer (``ARENA_RAY_CONNECT_TIMEOUT``, default 10)."""
    from arena.errors import UsageError

    text = os.environ.get("ARENA_RAY_CONNECT_TIMEOUT")
    if not text:
        return CONNECT_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise UsageError(f"must be a positive number of seconds, not {text!r}", key="ARENA_RAY_CONNECT_TIMEOUT")
    return value


def check_reachable(address: str, timeout: float | None = None) -> None:
    """Refuse, within ``timeout`` seconds, a Ray address whose host does not answer on
    its port (``ray://HOST[:PORT]``, Ray Client, port 10001 by default; ``HOST[:PORT]``,
    the head's GCS, port 6379): :func:`ray.init` would wait for it forever and ignore
    Ctrl-C.  ``auto`` (the cluster this machine belongs to) is left to Ray."""
    import socket
    from urllib.parse import urlsplit

    from arena.errors import EnvError, UsageError

    if address == "auto":
        return
    client = address.startswith("ray://")
    try:
        parts = urlsplit(address if "://" in address else f"gcs://{address}")
        host, port = parts.hostname, parts.port or DEFAULT_PORTS["ray" if client else "gcs"]
    except ValueError as error:
        raise UsageError(f"{address!r} is not a Ray address ({error})", key="--address",
                         hint="give HOST:PORT of the head, ray://HOST:10001 or auto") from None
    if not host:
        raise UsageError(f"{address!r} is not a Ray address (no host)", key="--address",
                         hint="give HOST:PORT of the head, ray://HOST:10001 or auto")
    timeout = connect_timeout() if timeout is None else timeout
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        reason = "no answer" if isinstance(error, TimeoutError) else (error.strerror or str(error))
        raise EnvError(f"cannot reach the Ray head at {address} ({reason} within {timeout:g} s)", key="--address",
                       hint="is the head running ('ray start --head') and reachable from here? "
                            "ARENA_RAY_CONNECT_TIMEOUT sets the wait") from None


def ray_address(address: str | None = None, options: RayOptions | None = None) -> str | None:
    """The cluster to join: ``address``, else ``RAY_ADDRESS``, else the config's
    ``ray.address``; ``None`` (or ``local``) starts a local Ray."""
    for candidate in (address, os.environ.get("RAY_ADDRESS"), options.address if options else None):
        if candidate:
            return None if candidate == "local" else candidate
    return None


def start_ray(options: RayOptions | None = None, address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join a Ray cluster or start a local one; return whether this call started Ray
    (and so should shut it down).  A local Ray gets a small object store, no dashboard,
    and token authentication off (it listens on this machine only)."""
    options = options or RayOptions()
    address = ray_address(address, options)
    if address is None:
        # must be set before Ray reads its configuration; a local instance only
        os.environ.setdefault("RAY_AUTH_MODE", "disabled")
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    from arena.extras import require

    ray = require("ray", "ray", "the Ray executor")

    if ray.is_initialized():
        return False
    if address is None:
        if num_cpus is not None and num_cpus < 1:
            from arena.errors import UsageError

            raise UsageError(f"must be at least 1, not {num_cpus} (leave it out for all CPUs)", key="--num-cpus")
        cpus = num_cpus if num_cpus is not None else options.num_cpus or os.cpu_count() or 1
        logger.info("starting a local Ray (%d CPUs, object store %d MiB)", cpus, options.object_store_memory >> 20)
        ray.init(
            # always a fresh instance of our own: without "local", ray.init() joins a Ray
            # already running on this machine (`ray start --head`), which then refuses
            # num_cpus and would run our work on someone else's cluster
            address="local",
            num_cpus=cpus,
            object_store_memory=options.object_store_memory,
            include_dashboard=False,
            logging_level=logging.WARNING,
            configure_logging=True,
            # keep idle task workers (and the Zelligs they built) alive; killing them
            # also made Ray 2.60 workers abort noisily on this path
            _system_config={"kill_idle_workers_interval_ms": 0},
        )
    else:
        check_reachable(address)
        logger.info("joining the Ray cluster at %s", address)
        ray.init(address=address, logging_level=logging.WARNING)
    return True


class PerformerActor:
    """A Ray actor holding one performer built from its spec (inside the worker)."""

    def __init__(self, role: str, spec: PerformerSpec, catalog: Catalog):
        from arena.specs.registry import build

        self.performer = build(role, spec, catalog, where=f"{role} {spec.label}")

    def pid(self) -> int:
        return os.getpid()

    def run(self, job: jobs.ClaudeJob) -> Any:
        return jobs.run_claude_job(self.performer, job)


_WORKER_CACHES: dict[str, jobs.PerformerCache] = {}


def run_task(catalog: Catalog, job: jobs.Job) -> Any:
    """A Ray task: build (once per worker process) the performer a job names and run it."""
    key = json.dumps(asdict(catalog), sort_keys=True)
    cache = _WORKER_CACHES.get(key)
    if cache is None:
        cache = _WORKER_CACHES[key] = jobs.PerformerCache(catalog)
    return cache.run(job)


class RayBackend:
    """Runs jobs on Ray; see the module docstring."""

    name = "ray"
    concurrent_models: int | None = None  # Ray queues actors beyond the cluster's capacity

    def __init__(
        self,
        catalog: Catalog,
        options: RayOptions | None = None,
        address: str | None = None,
        num_cpus: int | None = None,
    ):
        import ray

        options = options or RayOptions()
        self.catalog = catalog
        self.options = options
        self.started_ray = start_ray(options, address, num_cpus)
        self._ray = ray
        self._actor_class = ray.remote(PerformerActor)
        self._task = ray.remote(run_task)
        self._actors: dict[str, list[Any]] = {}
        self._next_actor: dict[str, int] = {}
        self._closed = False

    def actors(self, spec: PerformerSpec) -> list[Any]:
        """The actors of a Claude, created on first use."""
        key = jobs.spec_key("claude", spec)
        if key not in self._actors:
            count = actor_count(spec)
            options = actor_options(spec, self.options)
            logger.info("starting %d actor(s) for Claude %s (%s)", count, spec.label, options)
            self._actors[key] = [
                self._actor_class.options(**options).remote("claude", spec, self.catalog) for _ in range(count)
            ]
            self._next_actor[key] = 0
        return self._actors[key]

    def submit(self, job: jobs.Job) -> Any:
        """Send a job: Claude jobs to the Claude's actors (round robin), Zellig jobs as tasks."""
        if job.role == "claude":
            actors = self.actors(job.spec)
            key = jobs.spec_key("claude", job.spec)
            actor = actors[self._next_actor[key] % len(actors)]
            self._next_actor[key] += 1
            return actor.run.remote(job)
        return self._task.options(**task_options(job.spec, self.options)).remote(self.catalog, job)

    def wait(self, handles: Iterable[Any]) -> list[tuple[Any, Any]]:
        """Block until at least one job is done; return every finished ``(handle, result)``."""
        pending = list(handles)
        ready, rest = self._ray.wait(pending, num_returns=1)
        if rest:
            more, _ = self._ray.wait(rest, num_returns=len(rest), timeout=0)
            ready += more
        return [(ref, self._get(ref)) for ref in ready]

    def _get(self, ref: Any) -> Any:
        from ray.exceptions import RayActorError, RayTaskError

        try:
            return self._ray.get(ref)
        except RayTaskError as error:
            cause = getattr(error, "cause", None)
            if isinstance(cause, (ValueError, TypeError, OSError, KeyboardInterrupt)):
                raise cause from None
            raise RuntimeError(f"a Ray task failed: {error}") from None
        except RayActorError as error:
            raise RuntimeError(
                f"a Claude actor died more often than ray.max_restarts={self.options.max_restarts} allows: {error}"
            ) from None

    def release(self, claude: PerformerSpec) -> None:
        """Kill a Claude's actors (its work is done), freeing their CPUs/GPUs."""
        key = jobs.spec_key("claude", claude)
        for actor in self._actors.pop(key, []):
            self._ray.kill(actor)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for key in list(self._actors):
            for actor in self._actors.pop(key):
                try:
                    self._ray.kill(actor)
                except Exception:  # noqa: BLE001 - the cluster may be gone already
                    pass
        if self.started_ray and self._ray.is_initialized():
            self._ray.shutdown()

    def actor_pids(self, claude: PerformerSpec) -> list[int]:
        """Process ids of a Claude's actors (for diagnostics and the kill test)."""
        return self._ray.get([actor.pid.remote() for actor in self.actors(claude)])
