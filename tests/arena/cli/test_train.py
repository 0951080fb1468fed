"""``arena train``: usage errors exit 2 with a message; a tiny teacher → distill →
student round trip through the command line writes every artefact it promises."""

from __future__ import annotations

import json

import pytest

from arena.cli import main
from tests.performers.claude.test_training import PAIRS, write_corpus


@pytest.mark.parametrize("argv, message", [
    (["train", "teacher", "--out", "{tmp}/m", "--preset", "huge"], "--preset 'huge'"),
    (["train", "teacher", "--out", "{tmp}/m", "--train", "{tmp}/missing"], "missing.en: no such file"),
    (["train", "teacher", "--out", "{tmp}/m", "--tokenizer", "{tmp}"], "not a Marian tokenizer directory"),
    (["train", "student", "--data", "{tmp}/nothing", "--out", "{tmp}/m"], "nothing/train.en: no such file"),
    (["train", "distill", "--teacher", "{tmp}/absent", "--out", "{tmp}/d", "--train", "{tmp}/data/train"],
     "absent: no such model directory"),
    (["train", "bleu", "{tmp}"], "not a model directory of 'arena train'"),
])
def test_usage_errors_exit_2(tmp_path, capsys, argv, message):
    write_corpus(tmp_path / "data")
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    assert message in capsys.readouterr().err


def test_help_lists_steps_and_examples(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["train", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "teacher" in out and "distill" in out and "arena train student --data" in out


def test_teacher_distill_student_on_the_command_line(tmp_path, capsys):
    prefix = write_corpus(tmp_path / "data")
    held_out = tmp_path / "held-out"
    write_corpus(held_out, "newstest2014", PAIRS[:2])
    write_corpus(held_out, "multi30k_test2016", PAIRS[2:4])
    common = ["--preset", "tiny", "--max-steps", "2", "--batch-tokens", "64", "--threads", "1",
              "--held-out", str(held_out), "--compute-type", "float32"]
    teacher, distilled, student = tmp_path / "teacher", tmp_path / "distilled", tmp_path / "student"
    assert main(["train", "teacher", "--out", str(teacher), "--train", prefix, *common]) == 0
    assert main(["train", "distill", "--teacher", str(teacher), "--out", str(distilled), "--train", prefix,
                 "--max-pairs", "4", "--threads", "1"]) == 0
    assert main(["train", "student", "--data", str(distilled), "--out", str(student), "--seed", "2", *common]) == 0
    out = capsys.readouterr().out
    assert "newstest2014 BLEU" in out and "multi30k_test2016 BLEU" in out and "4 sources translated" in out
    for model in (teacher, student):
        assert (model / "hf" / "model.safetensors").is_file() and (model / "ct2" / "model.bin").is_file()
        bleu = json.loads((model / "bleu.json").read_text())
        assert {name: result["sentences"] for name, result in bleu["sets"].items()} == \
            {"newstest2014": 2, "multi30k_test2016": 2}
    assert json.loads((student / "train.json").read_text())["settings"]["seed"] == 2
    assert json.loads((distilled / "distill.json").read_text())["pairs"] == 4
