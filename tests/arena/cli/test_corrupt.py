"""``arena corrupt``: one JSON object per input line (or one text line per candidate), detectors too."""

from __future__ import annotations

import io
import json

import pytest

from arena.cli import main


def run(capsys, monkeypatch, argv, stdin: str = ""):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
    code = main(["-q", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_jsonl_keeps_one_line_per_input_line(capsys, monkeypatch):
    stdin = "Die Prager Börse stürzt.\n\nEr kam.\n"
    code, out, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "placeholder-ding"], stdin)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["line"] for r in records] == [1, 2, 3]
    assert records[0]["input"] == "Die Prager Börse stürzt."
    assert [v["text"] for v in records[0]["variants"]] == ["Die Prager Ding stürzt."]
    variant = records[0]["variants"][0]
    assert variant["phenomenon"] == "placeholder_ding" and variant["edits"][0]["before"] == "Börse"
    assert records[1]["variants"] == [] and records[2]["variants"] == []


def test_text_format_and_input_file(capsys, monkeypatch, tmp_path):
    path = tmp_path / "in.de"
    path.write_text("Das ist unklar.\nEr kam.\n", encoding="utf-8")
    code, out, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "polarity-affix-del", "--input", str(path),
                                             "--format", "text"])
    assert code == 0 and out == "1\tpolarity_affix_del\tDas ist klar.\n"


def test_spec_params_are_passed(capsys, monkeypatch):
    stdin = "Angreifer hatten die Gruppe am 19. September entführt.\n"
    _, plain, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "clause-omission"], stdin)
    _, split, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "clause-omission:split_after_periods=true"], stdin)
    assert json.loads(plain)["variants"] == [] and json.loads(split)["variants"]


def test_detect_with_sources(capsys, monkeypatch, tmp_path):
    german, english = tmp_path / "mt.de", tmp_path / "src.en"
    german.write_text("Das ist klar.\nDas ist unklar.\n", encoding="utf-8")
    english.write_text("This is unclear.\nThis is unclear.\n", encoding="utf-8")
    code, out, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "polarity-affix-del", "--detect",
                                             "--input", str(german), "--source", str(english), "--format", "text"])
    assert code == 0 and out == "1\ttrue\n2\tfalse\n"
    # a source without an un- word: the detector does not apply
    english.write_text("This is unclear.\nThis is clear.\n", encoding="utf-8")
    code, out, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "polarity-affix-del", "--detect",
                                             "--input", str(german), "--source", str(english), "--format", "text"])
    assert code == 0 and out == "1\ttrue\n2\tn/a\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        (["corrupt", "--zellig", "no-such-zellig"], "unknown Zellig"),
        (["corrupt", "--zellig", "compound", "--detect"], "has no detector"),
        (["corrupt", "--zellig", "placeholder-ding", "--input", "/no/such/file.de"], "--input /no/such/file.de"),
    ],
)
def test_usage_errors_exit_2(capsys, monkeypatch, argv, message):
    code, _, err = run(capsys, monkeypatch, argv)
    assert code == 2 and message in err


def test_short_source_file_is_an_error(capsys, monkeypatch, tmp_path):
    german, english = tmp_path / "mt.de", tmp_path / "src.en"
    german.write_text("Eins.\nZwei.\n", encoding="utf-8")
    english.write_text("One.\n", encoding="utf-8")
    code, _, err = run(capsys, monkeypatch, ["corrupt", "--zellig", "placeholder-ding", "--input", str(german),
                                             "--source", str(english)])
    assert code == 2 and "fewer lines" in err


def test_several_zelligs_share_one_pass(capsys, monkeypatch):
    stdin = "Die Prager Börse stürzt.\nDas ist unklar.\n"
    argv = ["corrupt", "--zellig", "placeholder-ding", "--zellig", "polarity-affix-del"]
    code, out, _ = run(capsys, monkeypatch, argv, stdin)
    records = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(records) == 2
    assert [(v["zellig"], v["text"]) for v in records[0]["variants"]] == [("placeholder-ding", "Die Prager Ding stürzt.")]
    assert [(v["zellig"], v["text"]) for v in records[1]["variants"]] == [("polarity-affix-del", "Das ist klar.")]


def test_all_expands_to_the_german_group_and_workers_keep_the_output(capsys, monkeypatch, tmp_path):
    from performers.catalog import CATALOG

    path = tmp_path / "in.de"
    path.write_text("Die Prager Börse stürzt.\nDas ist unklar.\n\nEr hat keine Zeit, weil er nicht kommt.\n" * 3,
                    encoding="utf-8")
    argv = ["corrupt", "--zellig", "all", "--input", str(path), "--batch", "2"]
    _, one, _ = run(capsys, monkeypatch, argv)
    _, two, _ = run(capsys, monkeypatch, [*argv, "--workers", "2"])
    records = [json.loads(line) for line in one.splitlines()]
    assert one == two and [r["line"] for r in records] == list(range(1, 13))
    zelligs = {v["zellig"] for r in records for v in r["variants"]}
    assert zelligs <= set(CATALOG.zellig_groups["all"]) and len(zelligs) >= 5
    assert len(CATALOG.zellig_groups["all"]) == 16 and set(CATALOG.zellig_groups["all"]) <= set(CATALOG.zelligs)


def test_detect_with_several_zelligs_names_each(capsys, monkeypatch):
    argv = ["corrupt", "--zellig", "placeholder-ding", "--zellig", "polarity-affix-del", "--detect", "--format", "text"]
    code, out, _ = run(capsys, monkeypatch, argv, "Das Ding ist klar.\n")
    assert code == 0 and out == "1\tplaceholder-ding\ttrue\n1\tpolarity-affix-del\tn/a\n"  # no source: n/a
    code, out, _ = run(capsys, monkeypatch, ["corrupt", "--zellig", "all", "--detect"], "Das Ding ist klar.\n")
    detected = json.loads(out)["detected"]
    assert code == 0 and detected["placeholder-ding"] is True and "compound" not in detected
