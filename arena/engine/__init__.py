"""The play engine: ``arena run`` and ``arena tournament`` are its two front ends.

- :func:`run` plays (or resumes) an experiment on a backend (``"in-process"``,
  ``"ray"`` or a :class:`~arena.engine.backends.Backend`) and returns a
  :class:`RunResult`; :func:`validate` checks an experiment without building anything.
- :func:`prepare` plans a run without playing it (people judge its rounds).
- Planning: :func:`plan_experiment` (instances → corruptions → rounds) and
  :func:`blocks` (a schedule-less run: one :class:`Block` per (seed, John, Zellig)).
- Blocks: ``run(..., on_block=callback)`` calls ``callback(block, {claude: judgements})``
  after each block; :meth:`Session.play` plays a list of blocks as one wave.

See :mod:`arena.engine.core` for the flow, :mod:`arena.engine.store` for the run
directory (lock, plan check, cells) and :mod:`arena.engine.ray_backend` for Ray, the
only module that imports ``ray``.  ``docs/ray-cluster.md`` shows cluster use.
"""

from __future__ import annotations

from arena.engine.backends import BACKENDS, Backend, InProcessBackend, make_backend
from arena.engine.core import (
    Block,
    Model,
    RunResult,
    Session,
    blocks,
    config_hash,
    load_instances,
    models,
    plan,
    plan_experiment,
    prepare,
    run,
    run_dir_for,
    validate,
)
from arena.engine.store import CELLS, RunBusy

__all__ = [
    "BACKENDS", "CELLS", "Backend", "Block", "InProcessBackend", "Model", "RunBusy", "RunResult", "Session", "blocks",
    "config_hash", "load_instances", "make_backend", "models", "plan", "plan_experiment", "prepare", "run", "run_dir_for",
    "validate",
]
