"""The cluster recipes of experiments/cluster/ (docs/ray-cluster.md, "Recipes"): the ``ray up`` YAML
passes Ray's own cluster-config schema, the KubeRay RayJob has the fields and types KubeRay v1
requires, and the tournament they play, staged as they stage it (data under /data/shared, the model
under /data/models), passes arena's config checks with every path resolved; the GPUs the recipes
start cover what its Claudes ask for."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from arena.engine.manifest import validate
from arena.engine.resources import actor_count, resource_options
from arena.record.order import models
from arena.specs.config import load_experiment
from performers.catalog import CATALOG

REPO = Path(__file__).resolve().parents[1]
RECIPES = REPO / "experiments" / "cluster"
RAY_UP = RECIPES / "ray-up-aws.yaml"
RAYJOB = RECIPES / "kuberay-rayjob.yaml"
TOURNAMENT = RECIPES / "tournament.yaml"
IN_CLUSTER = "/data/arena/experiments/cluster/tournament.yaml"  # where the recipes put it


def _cuda() -> bool:
    import torch

    return torch.cuda.is_available()


def gpus_asked(path: Path) -> float:
    experiment = load_experiment(path)
    return sum(actor_count(m.spec) * resource_options("claude", m.spec).get("num_gpus", 0) for m in models(experiment))


def test_the_tournament_validates_once_staged(tmp_path, data_dir):
    staged = tmp_path / "data"
    (staged / "models").mkdir(parents=True)
    (staged / "shared").symlink_to(data_dir.parent)  # /data/shared: this project's ../shared
    toy = data_dir.parent / "models" / "toy-marian-en-de" / "hf"  # stands in for opus-mt-en-de (same layout)
    (staged / "models" / "opus-mt-en-de").symlink_to(toy)
    config = tmp_path / "tournament.yaml"
    text = re.sub(r"(?<![\w.])/data/", f"{staged}/", TOURNAMENT.read_text(encoding="utf-8"))  # paths that start there
    # the device must exist where the check runs: on the cluster's GPU nodes cuda, here the CPU
    text = text.replace("device: cuda", "device: cpu") if not _cuda() else text
    config.write_text(text, encoding="utf-8")
    signatures = validate(load_experiment(config), CATALOG)
    assert set(signatures["claudes"]) == {"opus-mt", "chance"} and len(signatures["zelligs"]) == 6


@pytest.mark.parametrize(
    ("change", "valid"),
    [
        (lambda c: None, True),
        (lambda c: c.update(bogus=1), False),  # must NOT pass: an unknown top-level key
        (lambda c: c["available_node_types"]["gpu"].update(min_workers="two"), False),
        (lambda c: c.update(head_node_type="nope"), False),
    ],
)
def test_ray_up_yaml_passes_rays_schema(change, valid):
    from ray.autoscaler._private.util import prepare_config, validate_config

    config = yaml.safe_load(RAY_UP.read_text(encoding="utf-8"))
    change(config)
    if valid:
        validate_config(prepare_config(config))
    else:
        from jsonschema import ValidationError

        with pytest.raises((ValueError, ValidationError)):
            validate_config(prepare_config(config))


def test_ray_up_stages_the_checkout_and_offers_the_gpus():
    config = yaml.safe_load(RAY_UP.read_text(encoding="utf-8"))
    assert config["file_mounts"]["/data/arena"] == "."
    gpus = sum(t["resources"].get("GPU", 0) * t["min_workers"] for t in config["available_node_types"].values())
    assert gpus >= gpus_asked(TOURNAMENT) > 0
    commands = " ".join(config["setup_commands"])
    assert "pip install -q --no-deps -e /data/arena" in commands and config["docker"]["container_name"] and "/data/shared" in commands and "/data/models" in commands
    assert IN_CLUSTER.split("/data/arena/")[1] in RAY_UP.read_text(encoding="utf-8")


def _documents() -> list[dict]:
    return list(yaml.safe_load_all(RAYJOB.read_text(encoding="utf-8")))


def _pods(job: dict) -> list[dict]:
    spec = job["spec"]["rayClusterSpec"]
    return [spec["headGroupSpec"]["template"]["spec"], *(g["template"]["spec"] for g in spec["workerGroupSpecs"])]


def test_rayjob_has_what_kuberay_v1_requires():
    job, claim = _documents()
    assert (job["apiVersion"], job["kind"], claim["kind"]) == ("ray.io/v1", "RayJob", "PersistentVolumeClaim")
    cluster = job["spec"]["rayClusterSpec"]
    import ray

    assert cluster["rayVersion"].rsplit(".", 1)[0] == ray.__version__.rsplit(".", 1)[0]
    groups = [cluster["headGroupSpec"], *cluster["workerGroupSpecs"]]
    for group in groups:  # KubeRay's rayStartParams is map[string]string
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in group["rayStartParams"].items())
    for group in cluster["workerGroupSpecs"]:
        assert group["groupName"] and group["minReplicas"] <= group["replicas"] <= group["maxReplicas"]
    yaml.safe_load(job["spec"]["runtimeEnvYAML"])
    for pod in _pods(job):
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert volumes["data"]["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"]
        for container in pod["containers"] + pod.get("initContainers", []):
            assert {"name": "data", "mountPath": "/data"} in container["volumeMounts"], container["name"]


def test_rayjob_plays_the_tournament_on_the_gpus_it_starts():
    job, _ = _documents()
    words = shlex.split(job["spec"]["entrypoint"])
    assert words[:3] == ["arena", "tournament", IN_CLUSTER] and "--address" in words
    workers = job["spec"]["rayClusterSpec"]["workerGroupSpecs"]
    gpus = sum(float(g["rayStartParams"].get("num-gpus", 0)) * g["minReplicas"] for g in workers)
    assert gpus >= gpus_asked(TOURNAMENT) > 0
    staging = " ".join(arg for container in job["spec"]["rayClusterSpec"]["headGroupSpec"]["template"]["spec"]
                       ["initContainers"] for arg in container["args"])
    assert all(path in staging for path in ("/data/shared", "/data/models/opus-mt-en-de", "/data/arena"))
