"""``arena build-testset``: from a John and a Zellig SPEC to both test-set formats."""

from __future__ import annotations

import json

import pytest

from arena.cli import main
from arena.formats.distil_lingeval import read_distil_lingeval
from arena.formats.lingeval97 import read_lingeval97

ZELLIG = "tests.performers.john.fakes:WordZellig:phenomenon=polarity_affix_del"


@pytest.fixture
def corpus(tmp_path):
    news = tmp_path / "news"
    mt = tmp_path / "mt"
    news.mkdir()
    mt.mkdir()
    sources, humans, google = [], [], []
    for n in range(1, 41):
        sources.append(f"It came unexpectedly, number {n}.")
        humans.append(f"Es kam unerwartet, Nummer {n}." if n % 2 else f"Es kam gut, Nummer {n}.")
        google.append(f"Es war unerwartet, Nr. {n}." if n % 4 == 1 else f"Es war erwartet, Nr. {n}.")
    for year in (2009, 2010):
        (news / f"newstest{year}.en").write_text("\n".join(sources) + "\n", encoding="utf-8")
        (news / f"newstest{year}.de").write_text("\n".join(humans) + "\n", encoding="utf-8")
        stem = f"wmt{year % 100:02d}"
        (mt / f"{stem}.en").write_text("\n".join(sources) + "\n", encoding="utf-8")
        (mt / f"{stem}.de").write_text("\n".join(humans) + "\n", encoding="utf-8")
        (mt / f"{stem}.google.de").write_text("\n".join(google) + "\n", encoding="utf-8")
    return news, mt


def test_human_reference_test_set(corpus, tmp_path, capsys):
    news, _ = corpus
    out = tmp_path / "out"
    code = main(["build-testset", "--john", f"newstest:dir={news},years=2009-2010", "--zellig", ZELLIG,
                 "--out", str(out), "--cap", "10", "--no-progress", "--dedup", "none"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "polarity_affix_del" in printed and "wrote" in printed
    testset = read_distil_lingeval(out / "polarity_affix_del.human")
    assert len(testset) == 10
    assert all("unerwartet" in p.correct and "erwartet" in p.incorrect for p in testset.pairs)
    sentences = read_lingeval97(out / "polarity_affix_del.human.json")
    assert {s.origin.split(".")[0] for s in sentences} == {"newstest2009", "newstest2010"}  # stratified
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["instances"]["selected"] == 10 and sum(report["instances"].values()) == 80
    assert report["signatures"]["zellig"].startswith("tests.performers.john.fakes:WordZellig@1(")
    # the same command again refuses to overwrite, --force overwrites
    args = ["build-testset", "--john", f"newstest:dir={news},years=2009-2010", "--zellig", ZELLIG,
            "--out", str(out), "--cap", "10", "--no-progress"]
    assert main(args) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(args + ["--force", "--format", "lingeval97"]) == 0


def test_machine_reference_test_set_is_validated(corpus, tmp_path, capsys):
    news, mt = corpus
    out = tmp_path / "out"
    john = f'mt-reference:john="newstest:dir={news},years=2009",outputs={mt}'
    assert main(["build-testset", "--john", john, "--zellig", ZELLIG, "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert "kept" in printed and "flagged" in printed
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    validation = report["validation"]["polarity_affix_del"]
    # odd lines have "unerwartet" in the human reference; of those, lines 1, 5, 9, ... keep it in the MT
    assert (validation["kept"], validation["flagged"], validation["dropped"]) == (10, 10, 0)
    assert report["reference_kind"] == "mt" and report["systems"] == {"google": 10}
    testset = read_distil_lingeval(out / "polarity_affix_del.mt")
    assert len(testset) == 10 and all(p.correct.startswith("Es war unerwartet") for p in testset.pairs)


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--zellig", "no-such-zellig"], "unknown Zellig 'no-such-zellig'"),
        (["--zellig", ZELLIG, "--variants-per-instance", "0"], "--variants-per-instance"),
        (["--zellig", ZELLIG, "--cap", "0"], "cap must be an integer ≥ 1 or null, not 0"),
        (["--zellig", ZELLIG, "--prefilter", "("], "not a valid regular expression"),
    ],
)
def test_usage_errors(corpus, tmp_path, capsys, extra, message):
    news, _ = corpus
    code = main(["build-testset", "--john", f"newstest:dir={news},years=2009", "--out", str(tmp_path / "o"), *extra])
    assert code == 2
    assert message in capsys.readouterr().err


def test_misaligned_input_names_file_and_line(corpus, tmp_path, capsys):
    news, _ = corpus
    (news / "newstest2009.de").write_text("Eins.\n\nDrei.\n", encoding="utf-8")
    (news / "newstest2009.en").write_text("One.\nTwo.\nThree.\n", encoding="utf-8")
    code = main(["build-testset", "--john", f"newstest:dir={news},years=2009", "--zellig", ZELLIG,
                 "--out", str(tmp_path / "o"), "--no-progress"])
    assert code == 2
    assert "newstest2009.de:2: empty line" in capsys.readouterr().err


def test_several_zelligs_write_one_test_set_each(corpus, tmp_path, capsys):
    news, _ = corpus
    out = tmp_path / "out"
    second = "tests.performers.john.fakes:WordZellig:phenomenon=placeholder_ding"
    code = main(["build-testset", "--john", f"newstest:dir={news},years=2009-2010", "--zellig", ZELLIG,
                 "--zellig", second, "--out", str(out), "--no-progress"])
    assert code == 0
    firsts = sorted(p.name for p in out.iterdir())
    assert len(firsts) == 2 and all((out / name / "report.json").is_file() for name in firsts)
    phenomena = {json.loads((out / name / "report.json").read_text())["zellig"] for name in firsts}
    assert len(phenomena) == 2
