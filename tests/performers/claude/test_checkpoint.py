"""Safe training checkpoints: a round trip through safetensors + JSON, the previous one
kept, non-finite weights refused, scratch files of an interrupted write removed."""

from __future__ import annotations

import pytest

from performers.claude import checkpoint

INFO = {"settings": {"seed": 1}, "step": 3, "epoch": 0, "position": 3, "elapsed": 1.5,
        "history": [{"step": 3, "loss": 2.5}], "scheduler": {"last_epoch": 3, "lr_lambdas": [None]}}


def _state():
    import torch

    model = torch.nn.Linear(3, 2)
    optimizer = torch.optim.AdamW(model.parameters())
    model(torch.ones(1, 3)).sum().backward()
    optimizer.step()
    return model, optimizer


def test_round_trip(tmp_path):
    import torch

    model, optimizer = _state()
    checkpoint.save(tmp_path, INFO, model.state_dict(), optimizer.state_dict(), torch.get_rng_state(), None)
    loaded = checkpoint.load(tmp_path)
    assert loaded is not None and loaded.info == INFO and loaded.cuda_rng is None
    assert all(torch.equal(loaded.model[k], v) for k, v in model.state_dict().items())
    assert torch.equal(loaded.rng, torch.get_rng_state())
    fresh = torch.optim.AdamW(torch.nn.Linear(3, 2).parameters())
    fresh.load_state_dict(loaded.optimizer)  # the optimiser takes its state back
    assert all(torch.equal(fresh.state_dict()["state"][i]["exp_avg"], optimizer.state_dict()["state"][i]["exp_avg"])
               for i in (0, 1))


def test_the_previous_checkpoint_is_kept_and_no_scratch_file_remains(tmp_path):
    import torch

    model, optimizer = _state()
    for step in (1, 2):
        checkpoint.save(tmp_path, dict(INFO, step=step), model.state_dict(), optimizer.state_dict(),
                        torch.get_rng_state(), None)
    assert (tmp_path / checkpoint.PREVIOUS).is_file() and not list(tmp_path.glob(".*tmp*"))
    assert checkpoint.load(tmp_path).info["step"] == 2


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_weights_are_never_written(tmp_path, bad):
    import torch

    model, optimizer = _state()
    weights = model.state_dict()
    weights["weight"][0, 0] = bad
    with pytest.raises(ValueError, match="non-finite"):
        checkpoint.save(tmp_path, INFO, weights, optimizer.state_dict(), torch.get_rng_state(), None)
    assert not (tmp_path / checkpoint.CHECKPOINT).exists()


def test_no_checkpoint_is_none(tmp_path):
    assert checkpoint.load(tmp_path) is None
