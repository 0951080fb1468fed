from __future__ import annotations

import json

import pytest

from arena.formats.distil_lingeval import read_distil_lingeval
from arena.formats.lingeval97 import read_lingeval97
from arena.records import Instance
from performers.john.distil_lingeval import DistilLingEvalJohn
from performers.john.selection import select
from performers.john.selection_records import SelectionOptions
from performers.john.testset import reference_kind_label, write_testset
from tests.performers.john.fakes import WordZellig

ZELLIG = WordZellig({"unerwartet": "erwartet", "Haus": "Ding"}, "p", by_word=True)


def instances(kind="human"):
    result = []
    for n in range(1, 7):
        meta = {"origin": "newstest2009", "line": n, "reference_kind": kind}
        if kind == "machine":
            meta.update({"human_reference": f"Das Haus kam unerwartet {n}.", "system": "google"})
        result.append(Instance(f"newstest2009.{n}", f"The house came unexpectedly {n}.",
                               f"Das Haus kam unerwartet {n}.", meta))
    return result


def test_both_formats_round_trip(tmp_path):
    selection = select(instances("machine"), ZELLIG, SelectionOptions(variants_per_instance=None), progress=False)
    report = write_testset(selection, tmp_path)
    assert report["reference_kind"] == "mt"
    for phenomenon, after in (("p:Haus", "Das Ding kam"), ("p:unerwartet", "kam erwartet")):
        directory = tmp_path / f"{phenomenon}.mt"
        testset = read_distil_lingeval(directory)
        assert len(testset) == 6
        assert testset.pairs[0].source == "The house came unexpectedly 1."
        assert after in testset.pairs[0].incorrect
        metas = [json.loads(line) for line in (directory / "meta.jsonl").read_text(encoding="utf-8").splitlines()]
        assert len(metas) == 6 and metas[0]["origin"] == "newstest2009.1" and metas[0]["system"] == "google"
        assert metas[0]["validation"] == {"status": "kept", "reason": "same_words", "evidence": phenomenon[2:]}
        assert metas[0]["distance"] == 1
        # the DistilLingEval John reads it back
        john = DistilLingEvalJohn(str(directory))
        assert john.reference_kind == "machine" and len(list(john.instances())) == 6
    sentences = read_lingeval97(tmp_path / "testset.mt.json")
    assert len(sentences) == 6 and sentences[0].origin == "newstest2009.1"
    assert [e.type for e in sentences[0].errors] == ["p:Haus", "p:unerwartet"]  # phenomena in sorted order
    assert sentences[0].errors[0].distance == 1
    assert sentences[0].extra["human_reference"] == "Das Haus kam unerwartet 1."
    saved = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert saved["files"]["lingeval97"]["pairs"] == 12 and saved["selected"] == 6


def test_refuses_to_overwrite(tmp_path):
    selection = select(instances(), WordZellig({"Haus": "Ding"}, "placeholder_ding"), progress=False)
    write_testset(selection, tmp_path, formats=("lingeval97",))
    assert (tmp_path / "placeholder_ding.human.json").exists()
    assert not (tmp_path / "placeholder_ding.human").exists()
    with pytest.raises(ValueError, match="already exists .*--force"):
        write_testset(selection, tmp_path)
    write_testset(selection, tmp_path, overwrite=True)
    assert read_distil_lingeval(tmp_path / "placeholder_ding.human").pairs[2].incorrect.startswith("Das Ding kam")


@pytest.mark.parametrize("fails_in, overwrite, left", [
    ("write_lingeval97", False, []),                     # after the DistilLingEval files: they are removed
    ("write_distil_lingeval", False, []),                # before anything
    ("write_text_atomic", False, []),                    # the report, last
    ("write_lingeval97", True, ["keep.txt", "placeholder_ding.human", "report.json"]),  # --force: earlier files stay
])
def test_a_write_cut_short_leaves_nothing_in_the_way(tmp_path, monkeypatch, fails_in, overwrite, left):
    import performers.john.testset as testset

    selection = select(instances(), WordZellig({"Haus": "Ding"}, "placeholder_ding"), progress=False)
    out = tmp_path / "set"
    out.mkdir()
    (out / "keep.txt").write_text("not ours\n", encoding="utf-8")  # a file of the user's, never touched
    if overwrite:
        write_testset(selection, out, formats=("distil-lingeval",))

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(testset, fails_in, interrupted)
        with pytest.raises(KeyboardInterrupt):
            write_testset(selection, out, overwrite=overwrite)
    assert sorted(path.name for path in out.iterdir()) == sorted(left or ["keep.txt"])
    write_testset(selection, out, overwrite=overwrite)  # the same command runs again
    assert (out / "report.json").is_file() and (out / "placeholder_ding.human.json").is_file()


def test_empty_selection_writes_only_the_report(tmp_path):
    selection = select(instances(), WordZellig({"Katze": "Ding"}, "placeholder_ding"), progress=False)
    report = write_testset(selection, tmp_path)
    assert report["files"] == {} and sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
    assert report["instances"]["zellig_not_applicable"] == 6


def test_unknown_format(tmp_path):
    selection = select(instances(), ZELLIG, progress=False)
    with pytest.raises(ValueError, match="unknown format"):
        write_testset(selection, tmp_path, formats=("moses",))


def test_reference_kind_label():
    selection = select(instances(), ZELLIG, progress=False)
    assert reference_kind_label(selection.items) == "human"
    mixed = instances()[:3] + [
        Instance(f"m.{i.id}", i.source + "!", i.reference, {**i.meta, "reference_kind": "machine"})
        for i in instances()[3:]
    ]
    assert reference_kind_label(select(mixed, ZELLIG, SelectionOptions(validate=False), progress=False).items) == "mixed"
