"""The Dockerfile installs the project as the README's first command does, and is the image the
KubeRay recipe names (no network: nothing is built)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def readme_install() -> list[list[str]]:
    """The pip commands of the README's first command (before it runs the quickstart)."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    first = re.search(r"```bash\n(.*?)\n", text).group(1).split("#", 1)[0]
    commands = [shlex.split(part) for part in first.split("&&")]
    return [words for words in commands if words[:2] == ["pip", "install"]]


def dockerfile_runs() -> list[str]:
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    return [line[4:].strip() for line in text.splitlines() if line.startswith("RUN ")]


def test_the_readme_installs_with_pip():
    assert readme_install() == [["pip", "install", "torch==2.13.0"], ["pip", "install", "-e", "."]]


def test_the_dockerfile_runs_the_readmes_install():
    installs = [[shlex.split(part) for part in run.split("&&")] for run in dockerfile_runs()]
    assert readme_install() in installs  # one RUN step is exactly the README's install, nothing else
    # every other pip install adds extras of the same checkout, never other packages
    others = [shlex.split(found) for run in dockerfile_runs() if [shlex.split(p) for p in run.split("&&")]
              != readme_install() for found in re.findall(r"pip install ([^;&]+)", run)]
    assert others == [["-e", ".[$EXTRAS]"]]


def test_the_base_image_is_a_build_argument_cpu_by_default():
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^ARG BASE=python:3\.1[1-9]-slim$", text, flags=re.M)
    assert re.search(r"^FROM \$\{BASE\}$", text, flags=re.M)
    assert "--build-arg BASE=nvidia/cuda:" in text  # the CUDA build is documented beside it


def test_the_kuberay_recipe_runs_the_dockerfiles_image():
    job = next(yaml.safe_load_all((REPO / "experiments/cluster/kuberay-rayjob.yaml").read_text(encoding="utf-8")))
    spec = job["spec"]["rayClusterSpec"]
    pods = [spec["headGroupSpec"]["template"]["spec"]] + [g["template"]["spec"] for g in spec["workerGroupSpecs"]]
    images = {c["image"] for pod in pods for c in pod["containers"]}
    (image,) = images
    built = re.findall(r"docker build -t (\S+) \.", (REPO / "docs/ray-cluster.md").read_text(encoding="utf-8"))
    assert image in built
    assert image in (REPO / "Dockerfile").read_text(encoding="utf-8")
