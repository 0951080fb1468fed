"""``arena transfer --executor ray`` (a local Ray, small object store) writes the transcripts
and the transfer matrix of the run in process, byte for byte."""

from __future__ import annotations

import pytest

from tests.arena.game.test_game import contents
from tests.arena.game.test_transfer import MIXED, config, play

pytest.importorskip("ray")

RAY = "ray: {num_cpus: 4, object_store_memory: 83886080, max_restarts: 3, max_task_retries: 3, chunk_size: 16}\n"


def test_a_transfer_on_ray_is_byte_identical_to_in_process(tmp_path, data_dir):
    path = config(tmp_path, data_dir, MIXED, "tuned_against: [a, b]", seeds="[1, 2]", limit=12, extra=RAY)
    local = play(path, tmp_path / "local")
    on_ray = play(path, tmp_path / "ray", "--executor", "ray")
    assert contents(on_ray) == contents(local)
    for name in ("transfer.json", "transfer-summary.json", "transfer-plan.json"):
        assert (on_ray / name).read_bytes() == (local / name).read_bytes()
