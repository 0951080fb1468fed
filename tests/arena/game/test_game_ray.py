"""A game on a local Ray (small object store) gives the transcripts of the game in process."""

from __future__ import annotations

import pytest

from arena.specs.config import RayOptions
from performers.catalog import CATALOG
from tests.arena.game.test_game import contents, game_config, run

pytest.importorskip("ray")

# 4 logical CPUs: the two observing Claudes hold an actor (and its CPU) for the whole game
OPTIONS = RayOptions(num_cpus=4, object_store_memory=80 * 2**20, max_restarts=3, max_task_retries=3, chunk_size=16)


def test_a_game_on_ray_is_byte_identical_to_in_process(tmp_path, data_dir):
    from arena.engine.ray_backend import RayBackend

    path = game_config(tmp_path, data_dir, limit=12)
    local = run(path, tmp_path / "local")
    backend = RayBackend(CATALOG, OPTIONS)
    try:
        on_ray = run(path, tmp_path / "ray", backend)
    finally:
        backend.close()
    assert contents(on_ray.run_dir) == contents(local.run_dir)
    assert (on_ray.run_dir / "observations.jsonl").stat().st_size > 0
