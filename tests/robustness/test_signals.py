"""Timeouts and signals: joining an unreachable Ray head ends with a message (exit 2)
instead of waiting forever, and Ctrl-C (SIGINT to the process group, as a terminal sends
it) ends the long verbs within seconds, without a traceback, leaving a state that the
same command resumes."""

from __future__ import annotations

import socket

import pytest

from arena.engine.ray_backend import check_reachable, connect_timeout
from arena.errors import EnvError, UsageError
from performers.claude.conversion_cache import KEY_FILE
from tests.robustness.processes import REPO, arena, interrupted

SMOKE = str(REPO / "experiments" / "tournament" / "smoke.yaml")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # nobody listens once it is closed


def test_an_unreachable_ray_head_exits_2_naming_the_address(tmp_path, data_dir):
    address = f"127.0.0.1:{_closed_port()}"
    done = arena(["tournament", SMOKE, "--address", address, "--out", str(tmp_path), "--no-progress"],
                 ARENA_RAY_CONNECT_TIMEOUT="3")
    assert done.status == 2 and "Traceback" not in done.err
    assert f"--address: cannot reach the Ray head at {address}" in done.err and "ray start --head" in done.err


@pytest.mark.parametrize("address, error", [
    ("ray://:x", UsageError),            # no host, a port that is no number
    ("ray://", UsageError),
    ("127.0.0.1:{closed}", EnvError),
    ("ray://127.0.0.1:{closed}", EnvError),
    ("no-such-host.invalid:6379", EnvError),
])
def test_addresses_that_cannot_be_joined(address, error):
    with pytest.raises(error) as raised:
        check_reachable(address.format(closed=_closed_port()), timeout=2)
    assert raised.value.key == "--address"


def test_a_listening_head_and_auto_pass_the_probe():
    with socket.socket() as head:
        head.bind(("127.0.0.1", 0))
        head.listen()
        port = head.getsockname()[1]
        check_reachable(f"127.0.0.1:{port}", timeout=2)
        check_reachable(f"ray://localhost:{port}", timeout=2)
    check_reachable("auto")  # Ray finds the cluster of this machine itself


@pytest.mark.parametrize("value, expected", [("", 10.0), ("2.5", 2.5), ("0", None), ("-1", None), ("inf", None),
                                             ("soon", None)])
def test_connect_timeout_from_the_environment(monkeypatch, value, expected):
    monkeypatch.setenv("ARENA_RAY_CONNECT_TIMEOUT", value)
    if expected is None:
        with pytest.raises(UsageError, match="ARENA_RAY_CONNECT_TIMEOUT"):
            connect_timeout()
    else:
        assert connect_timeout() == expected


def _stopped_quietly(done, verb: str) -> None:
    assert done.status == 130, done.err
    assert "Traceback" not in done.err and f"arena {verb}: interrupted" in done.err
    assert done.seconds < 20


def test_ctrl_c_ends_corrupt_and_its_worker_processes(tmp_path):
    lines = tmp_path / "in.de"
    lines.write_text("".join(f"Der Hund Nummer {n} bellt im Garten.\n" for n in range(20000)), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = interrupted(["corrupt", "--zellig", "placeholder-ding", "--input", str(lines), "--workers", "2",
                        "--batch", "16", "--no-progress"], ready=lambda: out.exists() and out.stat().st_size > 0,
                       stdout=out)
    _stopped_quietly(done, "corrupt")
    written = out.read_text(encoding="utf-8").splitlines()
    assert 0 < len(written) < 20000


def _config(tmp_path, distil_dir, limit: int):
    config = tmp_path / "exp.yaml"
    config.write_text(f"name: sigint\njohn: {{name: distil-lingeval, params: "
                      f"{{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}\n"
                      "zellig: replay\nclaudes: [{name: toy-en-de, params: {threads: 1}}, random]\n"
                      "bootstrap_samples: 50\n", encoding="utf-8")
    return config


def test_ctrl_c_ends_run_and_the_same_command_resumes(tmp_path, distil_dir):
    config, runs = _config(tmp_path, distil_dir, 150), tmp_path / "runs"  # enough work that Ctrl-C lands mid-run
    argv = ["run", str(config), "--out", str(runs), "--no-progress"]
    done = interrupted(argv, ready=lambda: any(runs.glob("*/manifest.json")), ARENA_CACHE_DIR=str(tmp_path / "cache"))
    _stopped_quietly(done, "run")
    (run_dir,) = runs.iterdir()
    assert not (run_dir / "scores.json").exists()
    again = arena(argv, ARENA_CACHE_DIR=str(tmp_path / "cache"))
    assert again.status == 0, again.err
    assert (run_dir / "scores.json").is_file() and list(runs.iterdir()) == [run_dir]


def test_ctrl_c_ends_score_pairs(tmp_path, distil_dir):
    cache = tmp_path / "cache"
    argv = ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset",
            str(distil_dir / "placeholder_ding.mt"), "--out", str(tmp_path / "scores")]
    done = interrupted(argv, ready=lambda: cache.exists() and any(cache.rglob("*.sqlite*")), ARENA_CACHE_DIR=str(cache))
    _stopped_quietly(done, "score-pairs")
    assert not (tmp_path / "scores").exists()


def test_ctrl_c_ends_tournament_and_the_same_command_resumes(tmp_path, distil_dir):
    config, runs, cache = tmp_path / "t.yaml", tmp_path / "runs", str(tmp_path / "cache")
    config.write_text(f"name: sigint-tournament\njohns: [{{name: distil-lingeval, params: "
                      f"{{dir: {distil_dir / 'placeholder_ding.human'}, limit: 60}}}}]\nzelligs: [replay]\n"
                      "claudes: [{name: toy-en-de, params: {threads: 1}}, random]\nseeds: [1, 2]\n"
                      "bootstrap_samples: 50\n", encoding="utf-8")
    argv = ["tournament", str(config), "--out", str(runs), "--executor", "in-process", "--no-plots", "--no-progress"]
    done = interrupted(argv, ready=lambda: any(runs.glob("*/manifest.json")), ARENA_CACHE_DIR=cache)
    _stopped_quietly(done, "tournament")
    assert "re-run the same command to continue" in done.err
    (run_dir,) = runs.iterdir()
    assert not (run_dir / "scores.json").exists()
    again = arena(argv, ARENA_CACHE_DIR=cache)
    assert again.status == 0 and "Traceback" not in again.err, again.err
    assert "resumed" in again.out and list(runs.iterdir()) == [run_dir]
    assert (run_dir / "scores.json").is_file() and (run_dir / "report.md").is_file()


def test_ctrl_c_ends_build_testset_leaving_nothing_half_written(tmp_path, data_dir):
    cache, out = tmp_path / "cache", tmp_path / "set"
    argv = ["build-testset", "--john", f"newstest:dir={data_dir / 'wmt' / 'newstest'},years=2009,limit=400",
            "--zellig", "placeholder-ding", "--out", str(out), "--no-progress"]
    done = interrupted(argv, ready=lambda: any(cache.glob("german-analysis.sqlite*")), ARENA_CACHE_DIR=str(cache))
    _stopped_quietly(done, "build-testset")
    assert not out.exists() or not any(out.iterdir()), sorted(out.rglob("*"))
    again = arena(argv, ARENA_CACHE_DIR=str(cache))  # the analyses stored before Ctrl-C are read back
    assert again.status == 0 and "Traceback" not in again.err, again.err
    assert (out / "report.json").is_file() and (out / "placeholder_ding.human.json").is_file()


def test_ctrl_c_ends_false_positives_translating_its_pool(tmp_path, distil_dir, data_dir):
    config, runs = tmp_path / "exp.yaml", tmp_path / "runs"
    config.write_text(f"name: sigint-fp\njohn: {{name: distil-lingeval, params: "
                      f"{{dir: {distil_dir / 'placeholder_ding.human'}, limit: 10}}}}\n"
                      "zelligs: [{name: replay, params: {phenomena: [placeholder_ding], detector: placeholder-ding}}]\n"
                      "claudes: [{name: toy-en-de, params: {threads: 1}}]\nbootstrap_samples: 50\n", encoding="utf-8")
    made = arena(["run", str(config), "--out", str(runs), "--no-progress", "--no-report"],
                 ARENA_CACHE_DIR=str(tmp_path / "run-cache"))
    assert made.status == 0, made.err
    (run_dir,) = runs.iterdir()
    cache = tmp_path / "cache"  # a fresh one: the pool's Claude converts its model to CTranslate2 into it, then translates
    argv = ["false-positives", str(run_dir), "--pool-sources", str(data_dir / "wmt" / "newstest" / "newstest2016.en"),
            "--pool-limit", "40", "--no-plot", "--no-cues", "--no-progress"]
    done = interrupted(argv, ready=lambda: any(cache.glob(f"ct2/*/{KEY_FILE}")),  # the conversion is complete
                       ARENA_CACHE_DIR=str(cache))
    _stopped_quietly(done, "false-positives")
    report = run_dir / "report"
    assert not (report / "false_positives.json").exists() and not list(report.glob("pool-*/*.jsonl"))
    again = arena(argv, ARENA_CACHE_DIR=str(cache))
    assert again.status == 0 and "Traceback" not in again.err, again.err
    assert (report / "false_positives.json").is_file() and len(list(report.glob("pool-*/*.jsonl"))) == 1
