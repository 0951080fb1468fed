"""``arena export``: a config's or a run's pairs as LingEval97 / DistilLingEval test sets,
scored by an "external" scorer and read back with ``arena evaluate``."""

from __future__ import annotations

import json

import pytest

from arena.cli import main
from arena.formats.distil_lingeval import read_distil_lingeval
from arena.formats.lingeval97 import read_lingeval97


@pytest.fixture
def config(tmp_path, distil_dir):
    path = tmp_path / "exp.yaml"
    path.write_text(
        "name: export\n"
        f"john: {{name: distil-lingeval, alias: affix, params: {{dir: {distil_dir / 'polarity_affix_del.human'}, "
        "limit: 12}}\n"
        "zellig: replay\nclaudes: [oracle]\nseeds: [1, 2]\nbootstrap_samples: 10\n",
        encoding="utf-8",
    )
    return path


def test_export_config_as_distil_lingeval(config, distil_dir, tmp_path, capsys):
    out = tmp_path / "exported"
    assert main(["export", str(config), "--format", "distil-lingeval", "--out", str(out)]) == 0
    stdout = capsys.readouterr().out
    assert "24 rounds" in stdout  # 12 instances x 2 seeds
    exported = read_distil_lingeval(out / "replay.affix")
    original = read_distil_lingeval(distil_dir / "polarity_affix_del.human")
    assert 12 <= len(exported) <= 24  # each instance's sampled variant(s), once per distinct pair
    assert set(exported.pairs) <= set(original.pairs)
    assert len({pair.source for pair in exported.pairs}) == 12
    manifest = json.loads((out / "export.json").read_text(encoding="utf-8"))
    assert manifest["sets"][0]["phenomena"] == {"polarity_affix_del": len(exported)}
    # a second export into the same place needs --force
    assert main(["export", str(config), "--format", "distil-lingeval", "--out", str(out)]) == 2
    assert "exists; pass --force" in capsys.readouterr().err


def test_export_run_round_trip_through_evaluate(config, tmp_path, capsys):
    runs = tmp_path / "runs"
    assert main(["run", str(config), "--out", str(runs), "--no-progress"]) == 0
    (run_dir,) = [path for path in runs.iterdir() if path.is_dir()]
    capsys.readouterr()
    out = tmp_path / "exported"
    assert main(["export", str(run_dir), "--format", "lingeval97", "--out", str(out)]) == 0
    assert "--categories polarity_affix_del" in capsys.readouterr().out
    sentences = read_lingeval97(out / "affix.json")
    assert len(sentences) == 12
    targets = (out / "affix.de").read_text(encoding="utf-8").splitlines()
    pairs = sum(len(s.errors) for s in sentences)
    assert len(targets) == len(sentences) + pairs
    # an "external scorer": log-probability -1 for references, -2 for contrastives
    references = {s.reference for s in sentences}
    scores = out / "scores"
    scores.write_text("".join("-1\n" if t in references else "-2\n" for t in targets), encoding="utf-8")
    argv = ["evaluate", "--format", "lingeval97", "-r", str(out / "affix.json"), "-s", str(scores)]
    assert main([*argv, "--maximize", "--categories", "polarity_affix_del"]) == 0
    assert capsys.readouterr().out.splitlines()[:4] == [
        f"total : {pairs} {pairs} 1.0",
        "",
        "statistics by error category",
        f"polarity_affix_del : {pairs} {pairs} 1.0",
    ]
    assert main([*argv, "--categories", "polarity_affix_del"]) == 0  # lower-is-better: all wrong
    assert capsys.readouterr().out.startswith(f"total : 0 {pairs} 0.0\n")


def test_export_errors(tmp_path, capsys):
    assert main(["export", str(tmp_path / "nowhere"), "--format", "lingeval97", "--out", str(tmp_path)]) == 2
    assert "no such run directory or experiment file" in capsys.readouterr().err
    assert main(["export", str(tmp_path), "--format", "lingeval97", "--out", str(tmp_path / "o")]) == 2
    assert "no rounds.jsonl; not a (started) run directory" in capsys.readouterr().err
    (tmp_path / "rounds.jsonl").write_text('{"john": "j"}\n', encoding="utf-8")
    assert main(["export", str(tmp_path), "--format", "lingeval97", "--out", str(tmp_path / "o")]) == 2
    assert "rounds.jsonl:1: missing key 'zellig'" in capsys.readouterr().err
    assert main(["export", str(tmp_path), "--format", "lingeval97", "--out", str(tmp_path / "o"), "--set", "a=1"]) == 2
    assert "--set applies to an experiment YAML" in capsys.readouterr().err
