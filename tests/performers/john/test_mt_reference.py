from __future__ import annotations

import json
from collections import Counter

import pytest

from arena.specs.conformance import assert_conforms, check_john
from performers.john.mt_reference import MTReferenceJohn, normalise, pick_system
from performers.john.translation_cache import TranslationCache
from tests.conftest import DATA
from tests.performers.built import built
from tests.performers.john import fakes

FAKE = "tests.performers.john.fakes"


def newstest(directory, year, pairs):
    (directory / f"newstest{year}.en").write_text("".join(f"{s}\n" for s, _ in pairs), encoding="utf-8")
    (directory / f"newstest{year}.de").write_text("".join(f"{r}\n" for _, r in pairs), encoding="utf-8")


def outputs(directory, year, rows, systems=("google", "microsoft")):
    """rows: (source, human, {system: output})"""
    stem = f"wmt{year % 100:02d}"
    (directory / f"{stem}.en").write_text("".join(f"{s}\n" for s, _, _ in rows), encoding="utf-8")
    (directory / f"{stem}.de").write_text("".join(f"{h}\n" for _, h, _ in rows), encoding="utf-8")
    for system in systems:
        text = "".join(f"{outs[system]}\n" for _, _, outs in rows)
        (directory / f"{stem}.{system}.de").write_text(text, encoding="utf-8")


@pytest.fixture
def corpus(tmp_path):
    news = tmp_path / "news"
    mt = tmp_path / "mt"
    news.mkdir()
    mt.mkdir()
    newstest(news, 2009, [("It was unexpected.", "Es kam unerwartet."), ("A  house.", "Ein Haus."),
                          ("Same.", "Gleich B."), ("Missing.", "Fehlt.")])
    newstest(news, 2014, [("No outputs.", "Keine Ausgaben.")])
    # other line order, an extra line, a repeated source with two human references
    outputs(mt, 2009, [
        ("Extra line.", "Extra.", {"google": "G-extra", "microsoft": "M-extra"}),
        ("A house.", "Ein Haus.", {"google": "Ein Haus (G).", "microsoft": "Ein Haus (M)."}),
        ("Same.", "Gleich A.", {"google": "wrong G", "microsoft": "wrong M"}),
        ("It was unexpected.", "Es kam unerwartet.", {"google": "Es war unerwartet.", "microsoft": "Das war unerwartet."}),
        ("Same.", "Gleich B.", {"google": "right G", "microsoft": "right M"}),
    ])
    return news, mt


def john(news, mt, **params):
    return MTReferenceJohn(john=f"newstest:dir={news},years=[2009,2014]", outputs=str(mt), **params)


def test_outputs_matched_by_source(corpus):
    news, mt = corpus
    performer = john(*corpus)
    instances = {i.id: i for i in performer.instances()}
    assert set(instances) == {"newstest2009.1", "newstest2009.2", "newstest2009.3"}
    first = instances["newstest2009.1"]
    assert first.reference in ("Es war unerwartet.", "Das war unerwartet.")
    assert first.meta["human_reference"] == "Es kam unerwartet."
    assert first.meta["reference_kind"] == "machine" and first.meta["mt_origin"] == "wmt09.4"
    assert first.meta["origin"] == "newstest2009" and first.meta["line"] == 1  # the base's metadata stays
    # whitespace-normalised source lookup; a repeated source resolved by its human reference
    assert instances["newstest2009.2"].meta["mt_origin"] == "wmt09.2"
    assert instances["newstest2009.3"].reference.startswith("right")
    assert performer.report["skipped"] == {"no_output_files_for_year": 1, "source_not_in_outputs": 1}
    assert performer.report["base"] == 5 and performer.report["yielded"] == 3
    assert_conforms(check_john(performer), "mt-reference")


def test_system_choice_follows_meta_and_single_system(corpus):
    for instance in john(*corpus).instances():
        system = instance.meta["system"]
        assert system == pick_system(["google", "microsoft"], 1, instance.id)
        assert ("(G)" in instance.reference) == (system == "google") or "(" not in instance.reference
    only = list(john(*corpus, systems=["microsoft"]).instances())
    assert {i.meta["system"] for i in only} == {"microsoft"}


def test_mix_is_even_and_stable():
    systems = ["google", "microsoft", "bergamot-base", "bergamot-tiny"]
    counts = Counter(pick_system(systems, 1, f"newstest2009.{n}") for n in range(1, 4001))
    assert all(900 < count < 1100 for count in counts.values())
    assert pick_system(systems, 1, "newstest2009.7") == pick_system(systems, 1, "newstest2009.7")
    assert [pick_system(systems, 2, f"x.{n}") for n in range(50)] != [pick_system(systems, 1, f"x.{n}") for n in range(50)]


def test_missing_error_policy(corpus):
    with pytest.raises(ValueError, match="no machine translation for newstest2009.4: source_not_in_outputs"):
        list(john(*corpus, missing="error").instances())


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda mt: (mt / "wmt09.google.de").write_text("a\nb\n", encoding="utf-8"),
         r"wmt09.google.de: ends after line 2, but wmt09.en has line 3"),
        (lambda mt: (mt / "wmt09.microsoft.de").write_text("a\nb\n\nc\nd\n", encoding="utf-8"),
         r"wmt09.microsoft.de:3: empty line"),
        (lambda mt: (mt / "wmt09.de").write_text("a\nb\nc\nd\ne\nf\n", encoding="utf-8"),
         r"wmt09.en: ends after line 5, but wmt09.de has line 6"),
        (lambda mt: (mt / "wmt09.google.de").unlink(), r"wmt09.google.de: file not found"),
    ],
)
def test_bad_output_files_are_rejected_with_file_and_line(corpus, damage, message):
    news, mt = corpus
    damage(mt)
    with pytest.raises(ValueError, match=message):
        list(MTReferenceJohn(john=f"newstest:dir={news},years=2009", outputs=str(mt),
                             systems=["google", "microsoft"]).instances())


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "exactly one source"),
        ({"outputs": ".", "claude": f"{FAKE}:EchoTranslator"}, "exactly one source"),
        ({"claude": f"{FAKE}:EchoTranslator", "systems": ["google"]}, "does not go with 'claude'"),
        ({"claude": f"{FAKE}:EchoTranslator", "missing": "ignore"}, "parameter 'missing' must be one of skip, error"),
        ({"claude": f"{FAKE}:EchoTranslator", "beam": 0}, "parameter 'beam' must be an integer ≥ 1, not 0"),
        ({"claude": f"{FAKE}:EchoTranslator", "john": "no-such-john"}, "unknown John 'no-such-john'"),
    ],
)
def test_bad_params(params, message, corpus):
    news, _ = corpus
    params = {"john": f"newstest:dir={news},years=2009", **params}
    with pytest.raises(ValueError, match=message):
        built(MTReferenceJohn, **params)


def test_claude_translations_are_cached(corpus, tmp_path):
    news, _ = corpus
    cache = tmp_path / "cache" / "echo.jsonl"
    spec = f"newstest:dir={news},years=2009"
    before = fakes.CALLS["translate"]
    first = list(MTReferenceJohn(john=spec, claude=f"{FAKE}:EchoTranslator", cache=str(cache), batch_size=3).instances())
    assert fakes.CALLS["translate"] - before == 4
    assert first[0].reference == "IT WAS UNEXPECTED." and first[0].meta["system"] == f"{FAKE}:EchoTranslator"
    assert first[1].reference == "A HOUSE."  # translations are whitespace-normalised
    lines = cache.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["beam"] == 5
    again = list(MTReferenceJohn(john=spec, claude=f"{FAKE}:EchoTranslator", cache=str(cache)).instances())
    assert fakes.CALLS["translate"] - before == 4 and again == first
    # another beam is another cache key
    list(MTReferenceJohn(john=spec, claude=f"{FAKE}:EchoTranslator", cache=str(cache), beam=2).instances())
    assert fakes.CALLS["translate"] - before == 8


def test_cache_tolerates_only_a_truncated_last_line(tmp_path):
    path = tmp_path / "c.jsonl"
    good = json.dumps({"model": "m", "beam": 5, "source": "a", "translation": "A"})
    path.write_text(good + "\n" + '{"model": "m", "be', encoding="utf-8")
    assert TranslationCache(path, "m", 5).get("a") == "A"
    path.write_text('{"broken\n' + good + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"c.jsonl:1: malformed JSON"):
        TranslationCache(path, "m", 5)


def test_claude_without_translate_is_rejected(corpus):
    news, _ = corpus
    with pytest.raises(ValueError, match="cannot translate"):
        list(MTReferenceJohn(john=f"newstest:dir={news},years=2009", claude="random").instances())


def test_normalise():
    assert normalise(" A\u2009N  Wilson\t") == "A N Wilson"


def test_real_outputs(data_dir):
    performer = MTReferenceJohn(
        john={"name": "newstest", "params": {"dir": str(DATA / "wmt" / "newstest"), "years": [2009, 2014], "limit": 40}},
        outputs=str(DATA / "wmt" / "mt-outputs"),
    )
    instances = list(performer.instances())
    assert len(instances) == 40  # newstest2014 has no MT outputs
    assert performer.report["skipped"] == {"no_output_files_for_year": 40}
    assert set(performer.report["systems"]) <= {"google", "microsoft", "bergamot-base", "bergamot-tiny"}
    first = instances[0]
    assert first.meta["human_reference"] == "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus."
    assert first.reference != first.meta["human_reference"]


@pytest.mark.slow
def test_toy_model_translations_as_references(tmp_path, monkeypatch):
    """(b) with a real scoring Claude: the shipped toy model's own beam search."""
    pytest.importorskip("transformers")
    newstest(tmp_path, 2009, [("The house is red.", "Das Haus ist rot."), ("Thank you.", "Danke.")])
    params = {"john": f"newstest:dir={tmp_path},years=2009", "claude": "toy-en-de:cache=false,progress=false",
              "beam": 2, "cache": str(tmp_path / "toy.jsonl")}
    instances = list(MTReferenceJohn(**params).instances())
    assert [i.meta["system"] for i in instances] == ["toy-en-de:cache=False,progress=False"] * 2
    assert all(i.reference.strip() and i.meta["human_reference"] for i in instances)
    assert len((tmp_path / "toy.jsonl").read_text(encoding="utf-8").splitlines()) == 2

    def fail(*args, **kwargs):
        raise AssertionError("a cached build must not build the Claude")

    monkeypatch.setattr("performers.claude.toy_en_de.ToyEnDeClaude.__init__", fail)
    assert list(MTReferenceJohn(**params).instances()) == instances
