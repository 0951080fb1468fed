"""Exporting round records as LingEval97 test sets and DistilLingEval directories."""

from __future__ import annotations

import json

import pytest

from arena.formats.distil_lingeval import read_distil_lingeval
from arena.formats.export import collect, export, read_round_records
from arena.formats.lingeval97 import read_lingeval97


def round_record(seed, john, zellig, instance_id, source, reference, text=None, phenomenon="placeholder_ding",
                 meta=None, status="ok"):
    variant = None
    if text is not None:
        variant = {"instance_id": instance_id, "text": text, "phenomenon": phenomenon, "edits": [], "meta": meta or {}}
    return {
        "round": f"{seed}|{john}|{zellig}|{instance_id}|0",
        "seed": seed,
        "john": john,
        "zellig": zellig,
        "status": status,
        "instance": {"id": instance_id, "source": source, "reference": reference, "meta": {}},
        "variant": variant,
        "candidates": [reference, text] if text is not None else None,
        "corrupted": 1 if text is not None else None,
    }


ROUNDS = [
    round_record(1, "news", "ding", "n.1", "The house.", "Das Haus.", "Das Ding."),
    round_record(1, "news", "ding", "n.2", "No idea.", "Keine Ahnung.", None, status="not_applicable"),
    round_record(1, "news", "agree", "n.1", "The house.", "Das Haus.", "Der Haus.", "np_agreement",
                 {"distance": 1, "frequency": 5}),
    round_record(1, "news", "agree", "n.3", "The trees.", "Die Bäume.", "Das Bäume.", "np_agreement",
                 {"distance": 1, "frequency": [1, 2]}),
    round_record(2, "news", "ding", "n.1", "The house.", "Das Haus.", "Das Ding."),  # seed 2: the same pair
    round_record(2, "news", "agree", "n.1", "The house.", "Das Haus.", "Den Haus.", "np_agreement", {"distance": 1}),
    round_record(1, "books", "ding", "b.1", "A book.", "Ein Buch.", "Ein Ding."),
]


def records(rounds):
    return [(f"rounds.jsonl:{number}", record) for number, record in enumerate(rounds, start=1)]


def test_collect_groups_and_deduplicates():
    collected = collect(records(ROUNDS))
    assert collected.rounds == 7
    assert dict(collected.without_pair) == {"not_applicable": 1}
    assert collected.dropped_annotations == 1  # frequency [1, 2] is no number
    news = collected.sentences("news")
    assert [s.origin for s in news] == ["n.1", "n.3"]
    assert [(e.type, e.contrastive, e.distance, e.frequency, e.extra["zellig"]) for e in news[0].errors] == [
        ("placeholder_ding", "Das Ding.", None, None, "ding"),
        ("np_agreement", "Der Haus.", 1, 5, "agree"),
        ("np_agreement", "Den Haus.", 1, None, "agree"),
    ]
    assert list(collected.distil) == [("ding", "news"), ("agree", "news"), ("ding", "books")]
    assert len(collected.distil["ding", "news"]) == 1


def test_export_lingeval97_reads_back(tmp_path):
    written = export(collect(records(ROUNDS)), tmp_path, "lingeval97")
    assert [(w.path.name, w.sentences, w.pairs, dict(w.phenomena)) for w in written] == [
        ("news.json", 2, 4, {"placeholder_ding": 1, "np_agreement": 3}),
        ("books.json", 1, 1, {"placeholder_ding": 1}),
    ]
    sentences = read_lingeval97(tmp_path / "news.json")
    assert [len(s.errors) for s in sentences] == [3, 1]
    assert (tmp_path / "news.de").read_text(encoding="utf-8").split("\n")[:5] == [
        "Das Haus.", "Das Ding.", "Der Haus.", "Den Haus.", "Die Bäume."
    ]
    assert (tmp_path / "news.en").read_text(encoding="utf-8").count("\n") == 6
    manifest = json.loads((tmp_path / "export.json").read_text(encoding="utf-8"))
    assert manifest["rounds_without_pair"] == {"not_applicable": 1}
    assert [item["path"] for item in manifest["sets"]] == ["news.json", "books.json"]


def test_export_distil_lingeval_reads_back(tmp_path):
    written = export(collect(records(ROUNDS)), tmp_path, "distil-lingeval")
    assert [(w.path.name, w.pairs) for w in written] == [("ding.news", 1), ("agree.news", 3), ("ding.books", 1)]
    agree = read_distil_lingeval(tmp_path / "agree.news")
    assert [(p.source, p.correct, p.incorrect) for p in agree.pairs] == [
        ("The house.", "Das Haus.", "Der Haus."),
        ("The trees.", "Die Bäume.", "Das Bäume."),
        ("The house.", "Das Haus.", "Den Haus."),
    ]


def test_export_refuses_to_overwrite_without_force(tmp_path):
    collected = collect(records(ROUNDS))
    export(collected, tmp_path, "distil-lingeval")
    with pytest.raises(ValueError, match="exists; pass --force"):
        export(collected, tmp_path, "distil-lingeval")
    export(collected, tmp_path, "distil-lingeval", force=True)


def test_unwritable_pairs_are_left_out_and_counted(tmp_path):
    rounds = ROUNDS + [round_record(1, "news", "ding", "n.4", "Two\nlines.", "Zwei Zeilen.", "Zwei Dinge.")]
    written = export(collect(records(rounds)), tmp_path, "distil-lingeval")
    ding = written[0]
    assert ding.pairs == 1
    assert list(ding.unwritable) == ["instance n.4"]
    assert "line break" in ding.unwritable["instance n.4"]
    written = export(collect(records(rounds)), tmp_path / "le", "lingeval97")
    assert written[0].sentences == 2 and list(written[0].unwritable) == ["instance n.4"]


def test_labels_become_safe_unique_file_names(tmp_path):
    rounds = [
        round_record(1, "distil-lingeval:dir=../data/x", "replay", "x.1", "A.", "A.", "B."),
        round_record(1, "distil-lingeval:dir=.._data_x", "replay", "x.1", "A.", "A.", "B."),
    ]
    written = export(collect(records(rounds)), tmp_path, "lingeval97")
    assert [w.path.name for w in written] == ["distil-lingeval_dir=.._data_x.json", "distil-lingeval_dir=.._data_x-2.json"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"rounds.jsonl:2: malformed JSON"),
        ("[" * 100_000 + "]" * 100_000, r"rounds.jsonl:2: JSON nested more than 200"),
        ('{"john": "\\udc00"}', r"rounds.jsonl:2: JSON string .* unpaired surrogate"),
        ("[1, 2]", r"rounds.jsonl:2: a round is a JSON object, not list"),
        ('{"john": "j", "zellig": "z"}', r"rounds.jsonl:2: missing key 'instance'"),
        ('{"john": "j", "zellig": "z", "instance": {"id": "i", "source": "s"}, "variant": null}',
         r"rounds.jsonl:2: instance: missing key 'reference'"),
        ('{"john": "j", "zellig": "z", "instance": {"id": "i", "source": "s", "reference": "r"}, "variant": {"text": 1}}',
         r"rounds.jsonl:2: variant: key 'text' must be str, got int"),
    ],
)
def test_malformed_rounds_name_file_and_line(tmp_path, line, message):
    path = tmp_path / "rounds.jsonl"
    path.write_text(json.dumps(ROUNDS[0]) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        collect(read_round_records(path))


def test_inconsistent_instance_is_an_error():
    rounds = [ROUNDS[0], round_record(2, "news", "ding", "n.1", "The house.", "Das Gebäude.", "Das Ding.")]
    with pytest.raises(ValueError, match="rounds.jsonl:2: instance n.1 of John news has a different source or reference"):
        collect(records(rounds))


@pytest.mark.parametrize("status, exported", [("ok", True), ("balanced_out", False)])
def test_a_pair_a_balance_left_out_is_not_exported(status, exported):
    record = round_record(1, "news", "ding", "n.9", "The tree.", "Der Baum.", "Der Ding.", status=status)
    collected = collect(records([record]))
    assert ("news" in collected.johns) is exported
    assert dict(collected.without_pair) == ({} if exported else {"balanced_out": 1})
