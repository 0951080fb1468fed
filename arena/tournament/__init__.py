"""Tournaments: Johns × Zelligs × Claudes × seeds, in process or on Ray.

This package is the only place in the project that imports ``ray`` (inside
functions).  :func:`run_tournament` plays a tournament cell by cell with
deduplicated scoring, atomic per-cell files and resume
(:mod:`arena.tournament.engine`); :class:`~arena.tournament.ray_executor.RayExecutor`
runs the work on a local or remote Ray cluster and also serves ``arena run`` with
``executor: ray`` (:func:`make_executor`).  See ``docs/ray-cluster.md``.
"""

from __future__ import annotations

from typing import Any

from arena.tournament.engine import TournamentResult, models, run_tournament, validate_tournament

__all__ = ["RayExecutor", "TournamentResult", "make_executor", "models", "run_tournament", "validate_tournament"]


def __getattr__(name: str) -> Any:
    if name in ("RayExecutor", "make_executor", "start_ray"):
        from arena.tournament import ray_executor

        return getattr(ray_executor, name)
    raise AttributeError(f"module 'arena.tournament' has no attribute {name!r}")
