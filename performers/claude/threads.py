"""CPU threads for the model-backed Claudes: how many, and how idle workers wait.

On a shared machine (several Ray actors per node, other jobs, a container with a CPU
quota) a library's own default — one thread per core it can see — oversubscribes the
CPUs this process may actually use, and OpenMP workers that *spin* while they wait
for a core that another process holds burn CPU time without doing work.  Measured on
a 2-core machine under load: scoring with the default 2 threads used 8× the CPU time
per pair of a 1-thread run.  So every Claude that runs PyTorch or CTranslate2 goes
through this module:

- :func:`default_threads`: the CPUs this process may use — the smallest of its CPU
  affinity and the cgroup CPU quota (both via joblib/loky's ``cpu_count``), the CPUs
  Ray assigned to the current task or actor, and ``OMP_NUM_THREADS`` when set;
- :func:`prepare` sets ``OMP_WAIT_POLICY=PASSIVE`` (idle OpenMP workers sleep
  instead of spinning; libgomp, used by PyTorch and CTranslate2, reads it once when
  it is loaded, so this must happen before the first ``import torch`` or
  ``import ctranslate2`` in the process — Claudes call it first thing) unless the
  environment already chooses a policy;
- :func:`set_torch_threads` applies a thread count to PyTorch; CTranslate2 on a CPU
  takes it as ``inter_threads`` (that many batches side by side, one thread each, so
  its workers never wait on one another; on a GPU, as ``intra_threads``).

``threads`` params: ``None`` or ``0`` means :func:`default_threads`, a positive
integer is used as given.
"""

from __future__ import annotations

import logging
import math
import os
import sys

from arena.sdk import ConfigError

log = logging.getLogger(__name__)

# environment set before the OpenMP runtimes are loaded (a value already set wins)
WAIT_POLICY = {"OMP_WAIT_POLICY": "PASSIVE"}


def ray_cpus() -> int | None:
    """CPUs Ray assigned to the current task or actor (rounded up), or ``None``
    outside Ray (or in the driver)."""
    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return None
    context = ray.get_runtime_context()
    if context.worker.mode != ray.WORKER_MODE:
        return None
    cpus = context.get_assigned_resources().get("CPU")
    return max(1, math.ceil(cpus)) if cpus else None


def default_threads() -> int:
    """Threads for this process: the CPUs it may use (see the module docstring)."""
    from joblib import cpu_count

    limits = [cpu_count()]
    assigned = ray_cpus()
    if assigned is not None:
        limits.append(assigned)
    requested = os.environ.get("OMP_NUM_THREADS", "").strip()
    if requested.isdigit() and int(requested) > 0:
        limits.append(int(requested))
    return max(1, min(limits))


def resolve_threads(threads: int | None) -> int:
    """A checked thread count: ``None`` or ``0`` gives :func:`default_threads`."""
    if threads is None or threads == 0:
        return default_threads()
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 0:
        raise ConfigError(f"threads must be a positive integer (or 0 / null for the CPUs this process may use), "
                         f"not {threads!r}")
    return threads


def prepare() -> None:
    """Make idle OpenMP workers wait passively; call before importing torch or
    ctranslate2 (later calls cannot change a runtime already loaded, and say so)."""
    loaded = [name for name in ("torch", "ctranslate2") if name in sys.modules]
    for key, value in WAIT_POLICY.items():
        if key in os.environ:
            continue
        os.environ[key] = value
        if loaded:
            log.debug("%s=%s set after %s was imported; it applies to runtimes loaded from now on",
                      key, value, ", ".join(loaded))


def set_torch_threads(threads: int | None) -> int:
    """Give PyTorch ``threads`` intra-op threads (resolved as :func:`resolve_threads`)."""
    count = resolve_threads(threads)
    prepare()
    import torch

    if torch.get_num_threads() != count:
        torch.set_num_threads(count)
    return count
