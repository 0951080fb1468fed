from __future__ import annotations

import json

import pytest

from arena.specs.conformance import assert_conforms, check_john, check_zellig
from performers.john.distil_lingeval import DistilLingEvalJohn
from performers.john.lingeval97 import LingEval97John
from performers.john.parallel_text import ParallelTextJohn
from performers.zellig.replay import ReplayZellig

LINGEVAL = [
    {"source": "since the day", "reference": "seit dem Tag", "origin": "newstest2009.3",
     "errors": [{"type": "hypercorrect_genitive", "contrastive": "seit des Tages", "distance": 1, "frequency": 12}]},
    {"source": "it was unexpected", "reference": "es war unerwartet", "origin": "newstest2009.4",
     "errors": [{"type": "polarity_affix_del", "contrastive": "es war erwartet"},
                {"type": "polarity_particle_nicht_ins", "contrastive": "es war nicht unerwartet"}]},
]


def test_parallel_text(tmp_path):
    (tmp_path / "a.en").write_text("Hello.\nBye.\n", encoding="utf-8")
    (tmp_path / "a.de").write_text("Hallo.\nTschüss.\n", encoding="utf-8")
    john = ParallelTextJohn(str(tmp_path / "a.en"), str(tmp_path / "a.de"))
    instances = list(john.instances())
    assert [i.id for i in instances] == ["a.1", "a.2"]
    assert instances[1].reference == "Tschüss." and instances[1].meta["reference_kind"] == "human"
    assert_conforms(check_john(john), "parallel-text")


@pytest.mark.parametrize(
    "english, german, message",
    [
        ("a\nb\n", "A\n", r"a.en has 2 lines but .*a.de has 1"),
        ("a\n\n", "A\nB\n", r"a.en:2: empty line"),
    ],
)
def test_parallel_text_bad_input(tmp_path, english, german, message):
    (tmp_path / "a.en").write_text(english, encoding="utf-8")
    (tmp_path / "a.de").write_text(german, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        list(ParallelTextJohn(str(tmp_path / "a.en"), str(tmp_path / "a.de")).instances())


def test_parallel_text_wrong_encoding(tmp_path):
    (tmp_path / "a.en").write_text("a\nb\n", encoding="utf-8")
    (tmp_path / "a.de").write_bytes("A\nBörse\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"a.de:2: not valid UTF-8"):
        list(ParallelTextJohn(str(tmp_path / "a.en"), str(tmp_path / "a.de")).instances())


def test_lingeval97_john_and_replay(tmp_path):
    path = tmp_path / "test.json"
    path.write_text(json.dumps(LINGEVAL, ensure_ascii=False), encoding="utf-8")
    john = LingEval97John(str(path))
    instances = list(john.instances())
    assert [i.id for i in instances] == ["newstest2009.3", "newstest2009.4"]
    assert_conforms(check_john(john), "lingeval97")
    zellig = ReplayZellig()
    assert_conforms(check_zellig(zellig, instances), "replay")
    variants = zellig.corrupt(instances[1])
    assert [v.phenomenon for v in variants] == ["polarity_affix_del", "polarity_particle_nicht_ins"]
    assert variants[0].edits[0].before == "unerwartet"
    genitive = zellig.corrupt(instances[0])[0]
    assert genitive.meta == {"distance": 1, "frequency": 12}
    only = ReplayZellig(phenomena=["polarity_affix_del"])
    assert [v.phenomenon for v in only.corrupt(instances[1])] == ["polarity_affix_del"]
    assert only.corrupt(instances[0]) == []
    assert [i.id for i in LingEval97John(str(path), types=["hypercorrect_genitive"]).instances()] == ["newstest2009.3"]


def test_lingeval97_john_malformed_json(tmp_path):
    path = tmp_path / "test.json"
    path.write_text('[{"source": "a", "reference": "b", "errors": [}]', encoding="utf-8")
    with pytest.raises(ValueError, match=r"test.json:1: malformed JSON"):
        list(LingEval97John(str(path)).instances())


def test_distil_lingeval_john_groups_variants(distil_dir):
    john = DistilLingEvalJohn(str(distil_dir / "np_agreement.mt"), limit=50)
    instances = list(john.instances())
    assert len(instances) == 50
    assert instances[0].meta["reference_kind"] == "machine"
    assert_conforms(check_john(john), "distil-lingeval")
    assert_conforms(check_zellig(ReplayZellig(), instances), "replay")
    # lines sharing (source, reference) are one instance with several variants
    assert any(len(i.meta["variants"]) > 1 for i in instances)


def test_replay_offers_the_detector_it_is_given():
    assert not hasattr(ReplayZellig(), "detect")
    zellig = ReplayZellig(detector="placeholder-ding")
    assert zellig.detect("Die Börse stürzt gegen Ding ins Minus.", source="The stock market falls by the close.")
    assert not zellig.detect("Die Börse stürzt gegen Geschäftsschluss ins Minus.", source="The market falls.")
    with pytest.raises(ValueError, match="unknown Zellig 'no-such'"):
        ReplayZellig(detector="no-such")


def test_replay_passes_on_where_a_conditional_detector_applies():
    from arena.engine.jobs import detect_all
    from arena.roles import ConditionalDetector

    assert not isinstance(ReplayZellig(detector="placeholder-ding"), ConditionalDetector)
    zellig = ReplayZellig(detector="polarity-affix-del")
    assert isinstance(zellig, ConditionalDetector)
    sources = ["The answer was unclear.", "The answer was clear."]
    assert detect_all(zellig, ["Die Antwort war klar.", "Die Antwort war klar."], sources) == [True, None]
