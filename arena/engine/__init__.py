"""The play engine: plan a run, play its blocks of rounds on a backend, store the transcripts.

It owns everything a round needs to be played and recorded, and nothing of the game
above it (visibility, observers: :mod:`arena.game`), of statistics or of
presentation.  ``arena run`` and ``arena tournament`` are its two front ends
(through :mod:`arena.api`).

- :func:`run` (:mod:`arena.engine.core`) plays (or resumes) an experiment on a backend
  (``"in-process"``, ``"ray"`` or a :class:`~arena.engine.backends.Backend`) and
  returns a :class:`RunResult`; a :class:`Driver` (the game) may plan and play its
  blocks one at a time.  :func:`prepare` plans a run without playing it (people judge
  its rounds).
- :mod:`arena.engine.manifest`: :func:`validate` checks an experiment without building
  anything; the run directory's name, the signature and the manifest.
- :mod:`arena.engine.plan`: :func:`plan_experiment` (instances → corruptions →
  rounds; the one static plan, :func:`~arena.engine.plan.planned_rounds`, held in memory); the blocks the rounds fall into are the record's order (:mod:`arena.record.order`).
- :mod:`arena.engine.session`: the run's one :class:`Session`, which plays a list of
  blocks as one wave (:meth:`Session.play`) and assembles the transcripts.
- :mod:`arena.engine.jobs` (the unit of work every backend runs), :mod:`arena.engine.match`
  (rounds sampled, judged and resolved), :mod:`arena.engine.scoring` (deduplicated scoring).
  What it writes is the record stage's (:mod:`arena.record`: the records, the run directory,
  its transcripts, their verification).

:mod:`arena.engine.ray_backend` is the only module that imports ``ray``;
``docs/ray-cluster.md`` shows cluster use.
"""

from __future__ import annotations

from arena.engine.backends import BACKENDS, Backend, InProcessBackend, make_backend
from arena.engine.core import RunResult, prepare, run
from arena.engine.driver import Driver
from arena.engine.manifest import config_hash, run_dir_for, validate
from arena.engine.plan import load_instances, plan, plan_experiment
from arena.engine.session import Session

__all__ = [
    "BACKENDS", "Backend", "Driver", "InProcessBackend", "RunResult", "Session", "config_hash", "load_instances",
    "make_backend", "plan", "plan_experiment", "prepare", "run", "run_dir_for", "validate",
]
