"""Ray resources of a performer, from its spec's ``resources`` mapping (checked without Ray).

A Claude runs as ``actors`` Ray actors (default 1; more for data parallelism over
GPUs), each reserving ``num_cpus`` (default 1) and ``num_gpus`` (default 0), optionally
``memory`` (bytes), an ``accelerator_type`` and custom ``resources``::

    claudes:
      - name: hf-seq2seq
        params: {model: Helsinki-NLP/opus-mt-en-de, device: cuda, dtype: bf16}
        resources: {num_gpus: 1, num_cpus: 2, actors: 4}

A Zellig's corruption and detection run as Ray tasks with the same keys except
``actors``.  Actors are restarted ``ray.max_restarts`` times when their process dies
and retry the calls that were in flight ``ray.max_task_retries`` times; tasks retry as
often.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import ConfigError
from arena.specs.config import RayOptions
from arena.specs.spec import PerformerSpec

RESOURCE_KEYS = ("num_cpus", "num_gpus", "memory", "accelerator_type", "resources")
CLAUDE_KEYS = (*RESOURCE_KEYS, "actors")


def _number(value: Any, key: str, where: str, integer: bool = False) -> float | int:
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if not ok or isinstance(value, bool) or value < 0:
        kind = "a non-negative integer" if integer else "a non-negative number"
        raise ConfigError(f"{where}: resources.{key} must be {kind}, not {value!r}")
    return value


def resource_options(role: str, spec: PerformerSpec, where: str = "") -> dict[str, Any]:
    """Ray ``.options(...)`` keywords for a performer (``actors`` excluded); raises
    ``ValueError`` naming the performer and key on a bad value."""
    where = where or f"{role} {spec.label}"
    allowed = CLAUDE_KEYS if role == "claude" else RESOURCE_KEYS
    unknown = sorted(set(spec.resources) - set(allowed))
    if unknown:
        raise ConfigError(f"{where}: unknown resources key '{unknown[0]}'; allowed keys: {', '.join(allowed)}")
    options: dict[str, Any] = {"num_cpus": _number(spec.resources.get("num_cpus", 1), "num_cpus", where)}
    if "num_gpus" in spec.resources:
        options["num_gpus"] = _number(spec.resources["num_gpus"], "num_gpus", where)
    if "memory" in spec.resources:
        options["memory"] = _number(spec.resources["memory"], "memory", where, integer=True)
    if "accelerator_type" in spec.resources:
        if not isinstance(spec.resources["accelerator_type"], str):
            raise ConfigError(f"{where}: resources.accelerator_type must be a string such as 'H100'")
        options["accelerator_type"] = spec.resources["accelerator_type"]
    if "resources" in spec.resources:
        custom = spec.resources["resources"]
        if not isinstance(custom, Mapping):
            raise ConfigError(f"{where}: resources.resources must map custom resource names to amounts")
        options["resources"] = {str(k): _number(v, f"resources.{k}", where) for k, v in custom.items()}
    return options


def actor_count(spec: PerformerSpec, where: str = "") -> int:
    count = spec.resources.get("actors", 1)
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise ConfigError(f"{where or 'claude ' + spec.label}: resources.actors must be an integer ≥ 1, not {count!r}")
    return count


def actor_options(spec: PerformerSpec, options: RayOptions) -> dict[str, Any]:
    return {
        **resource_options("claude", spec),
        "max_restarts": options.max_restarts,
        "max_task_retries": options.max_task_retries,
    }


def task_options(spec: PerformerSpec, options: RayOptions) -> dict[str, Any]:
    return {**resource_options("zellig", spec), "max_retries": options.max_task_retries}
