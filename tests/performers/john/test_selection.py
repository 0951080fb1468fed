from __future__ import annotations

from collections import Counter

import pytest

from arena.records import Instance
from arena.specs.conformance import assert_conforms, check_john
from performers.john.quotas import allocate, allocate_quotas, rank
from performers.john.select import SelectJohn
from performers.john.selection import select
from performers.john.selection_records import REASONS, SelectionOptions
from performers.zellig.replay import ReplayZellig
from tests.performers.john.fakes import WordZellig

UN = WordZellig({"unerwartet": "erwartet", "unklar": "klar"}, "polarity_affix_del")


class CountingZellig(WordZellig):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0

    def corrupt(self, instance):
        self.calls += 1
        return super().corrupt(instance)


def corpus(sizes: dict[str, int], every: int = 3) -> list[Instance]:
    """Instances per stratum; every ``every``-th reference has an un- word."""
    instances = []
    for name, size in sizes.items():
        for n in range(1, size + 1):
            word = "unerwartet" if n % every == 0 else "gut"
            meta = {"origin": name, "line": n, "reference_kind": "human"}
            instances.append(Instance(f"{name}.{n}", f"Source {name} number {n} .", f"Das war {word} ({n}).", meta))
    return instances


@pytest.mark.parametrize(
    "total, sizes, expected",
    [
        (10, {"a": 50, "b": 50}, {"a": 5, "b": 5}),
        (10, {"a": 30, "b": 60, "c": 10}, {"a": 3, "b": 6, "c": 1}),
        (3, {"a": 1, "b": 1, "c": 1, "d": 1}, {"a": 1, "b": 1, "c": 1, "d": 0}),  # remainder ties by name
        (50, {"a": 5, "b": 7}, {"a": 5, "b": 7}),  # more than the pool
        (7, {"a": 2, "b": 5}, {"a": 2, "b": 5}),
    ],
)
def test_allocate(total, sizes, expected):
    assert allocate(total, sizes) == expected


def test_allocate_quotas_redistributes_shortfall():
    # b has only 1 applicable instance; its share goes to a and c by size
    assert allocate_quotas(9, {"a": 30, "b": 30, "c": 30}, {"a": 10, "b": 1, "c": 10}) == {"a": 4, "b": 1, "c": 4}
    assert allocate_quotas(9, {"a": 30, "b": 30, "c": 30}, {"a": 2, "b": 1, "c": 10}) == {"a": 2, "b": 1, "c": 6}
    assert allocate_quotas(9, {"a": 30, "b": 30}, {"a": 2, "b": 1}) == {"a": 2, "b": 1}


def brute_force(instances, zellig, options):
    """Full scan, then per stratum the best-ranked applicable instances up to the
    full-knowledge quotas."""
    applicable = [i for i in instances if zellig.corrupt(i)]
    strata: dict[str, list[Instance]] = {}
    for instance in instances:
        strata.setdefault(instance.meta["origin"], [])
    for instance in applicable:
        strata[instance.meta["origin"]].append(instance)
    sizes = Counter(i.meta["origin"] for i in instances)
    quotas = allocate_quotas(options.cap, dict(sorted(sizes.items())), {k: len(v) for k, v in strata.items()})
    chosen = set()
    for name, members in strata.items():
        members.sort(key=lambda i: (rank(options.seed, i.id), i.id))
        chosen.update(i.id for i in members[: quotas[name]])
    return chosen


@pytest.mark.parametrize("cap", [1, 5, 12, 40, 1000])
@pytest.mark.parametrize("seed", [1, 7])
def test_capped_lazy_selection_equals_full_knowledge(cap, seed):
    instances = corpus({"set1": 40, "set2": 90, "set3": 15}, every=3)
    instances += corpus({"set4": 30}, every=29)  # one applicable instance: runs dry
    options = SelectionOptions(cap=cap, seed=seed)
    zellig = CountingZellig(UN.words, "polarity_affix_del")
    selection = select(instances, zellig, options, progress=False)
    assert {item.instance.id for item in selection.items} == brute_force(instances, UN, options)
    assert len(selection.items) == min(cap, 5 + 30 + 13 + 1 + 0)  # 13 of 40, 30 of 90, 5 of 15, 1 of 30
    if cap <= 12:
        assert zellig.calls < len(instances)  # the Zellig never ran on most sentences
    report = selection.report
    assert sum(report["instances"].values()) == report["pool"] == len(instances)
    assert list(report["instances"]) == list(REASONS)
    assert report["instances"]["selected"] == len(selection.items)
    assert report["scanned"] == zellig.calls


def test_stratified_shares_follow_stratum_sizes():
    instances = corpus({"a": 100, "b": 300}, every=2)
    selection = select(instances, UN, SelectionOptions(cap=40), progress=False)
    by_stratum = selection.report["phenomena"]["polarity_affix_del"]["by_stratum"]
    assert by_stratum == {"a": 10, "b": 30}
    assert [i.instance.id for i in selection.items] == sorted(
        (i.instance.id for i in selection.items), key=[x.id for x in instances].index
    )  # the John's order


def test_ranks_are_per_instance_stable():
    base = corpus({"a": 60}, every=2)
    more = base + corpus({"zzz": 1}, every=1)  # a new stratum does not reshuffle stratum a
    first = select(base, UN, SelectionOptions(cap=10, stratify=None), progress=False)
    again = select(list(reversed(base)), UN, SelectionOptions(cap=10, stratify=None), progress=False)
    assert {i.instance.id for i in first.items} == {i.instance.id for i in again.items}
    other = select(base, UN, SelectionOptions(cap=10, seed=2, stratify=None), progress=False)
    assert {i.instance.id for i in first.items} != {i.instance.id for i in other.items}
    a_only = [i for i in select(more, UN, SelectionOptions(cap=11), progress=False).items if i.stratum == "a"]
    assert {i.instance.id for i in first.items} < {i.instance.id for i in a_only}  # top-ranked prefixes


def test_length_dedup_prefilter_and_accounting():
    instances = corpus({"a": 12}, every=2)
    instances.append(Instance("dup", "Source  a number 2 .", "Das war unerwartet.", {"origin": "a"}))
    instances.append(Instance("short", "Hi", "Das war unerwartet.", {"origin": "a"}))
    instances.append(Instance("long", " ".join(["w"] * 30), "Das war unerwartet.", {"origin": "a"}))
    instances.append(Instance("pre", "Source pre .", "Das war gut.", {"origin": "a", "human_reference": "x"}))
    # U+0085 inside a line (as in newstest): not writable to line-aligned files, left out
    instances.append(Instance("nel", "Source nel one .", "Das war\x85 unerwartet.", {"origin": "a"}))
    instances.append(Instance("ls", "Source\u2028 ls two .", "Das war unerwartet.", {"origin": "a"}))
    options = SelectionOptions(min_words=3, max_words=20, prefilter=r"(?i)\bun", validate=False)
    selection = select(instances, UN, options, progress=False)
    counts = selection.report["instances"]
    assert counts["too_short"] == 1 and counts["too_long"] == 1 and counts["duplicate"] == 1
    assert counts["line_break"] == 2
    assert counts["prefiltered"] == 7  # the six "gut" lines and "pre"
    assert counts["selected"] == 6 and counts["zellig_not_applicable"] == 0
    assert sum(counts.values()) == len(instances)
    pair = select(instances, UN, SelectionOptions(dedup="pair"), progress=False)
    assert pair.report["instances"]["duplicate"] == 0
    none = select(instances, UN, SelectionOptions(dedup="none", prefilter="x^"), progress=False)
    assert none.report["instances"]["prefiltered"] == len(instances) - 2 and not none.items


def test_variants_per_instance():
    many = WordZellig({"a": "X", "b": "Y", "c": "Z"}, "letters")
    instances = [Instance(f"s.{n}", f"src {n}", "a b c a", {"origin": "s"}) for n in range(20)]
    one = select(instances, many, SelectionOptions(), progress=False)
    assert all(len(item.variants) == 1 for item in one.items)
    assert one.report["phenomena"]["letters"]["variants_over_cap"] == 20 * 3
    texts = Counter(item.variants[0].text for item in one.items)
    assert len(texts) > 1  # sampled, not always the first
    every = select(instances, many, SelectionOptions(variants_per_instance=None), progress=False)
    assert all(len(item.variants) == 4 for item in every.items)
    assert select(instances, many, SelectionOptions(variants_per_instance=2), progress=False).pairs == 40


def test_several_phenomena_are_capped_separately():
    zellig = WordZellig({"unerwartet": "erwartet", "Haus": "Ding"}, "p", by_word=True)
    instances = []
    for n in range(60):
        reference = "Das Haus." if n % 2 else "Das Haus kam unerwartet."
        instances.append(Instance(f"s.{n}", f"src {n}", reference, {"origin": "s"}))
    selection = select(instances, zellig, SelectionOptions(cap=5), progress=False)
    phenomena = selection.report["phenomena"]
    assert phenomena["p:Haus"]["selected"] == 5 and phenomena["p:unerwartet"]["selected"] == 5
    for item in selection.items:
        assert {v.phenomenon for v in item.variants} == set(item.phenomena)


def mt_instance(n, human, machine, origin="a"):
    meta = {"origin": origin, "reference_kind": "machine", "human_reference": human, "system": "google"}
    return Instance(f"{origin}.{n}", f"source {n}", machine, meta)


def test_validation_of_machine_references():
    instances = [
        mt_instance(1, "Es kam unerwartet.", "Es war unerwartet."),  # kept
        mt_instance(2, "Es kam unerwartet.", "Es war erwartet."),  # flagged (not applicable on the MT side)
        mt_instance(3, "Es kam unerwartet.", "Es war unklar."),  # dropped: words missing
        mt_instance(4, "Es kam gut.", "Es war unklar."),  # dropped: no human variant
        mt_instance(5, "Es kam gut.", "Es war gut."),  # nothing to validate
        Instance("a.6", "source 6", "Es war unklar.", {"origin": "a", "reference_kind": "machine"}),  # no human ref
    ]
    selection = select(instances, UN, SelectionOptions(), progress=False)
    assert [item.instance.id for item in selection.items] == ["a.1"]
    assert selection.items[0].validation["polarity_affix_del"].status == "kept"
    validation = selection.report["validation"]["polarity_affix_del"]
    assert (validation["kept"], validation["flagged"], validation["dropped"]) == (1, 1, 3)
    assert validation["reasons"] == {
        "dropped:no_human_reference": 1, "dropped:no_human_variant": 1, "dropped:words_missing": 1,
        "flagged:contrastive_form": 1, "kept:same_words": 1,
    }
    counts = selection.report["instances"]
    assert counts["rejected_by_validation"] == 3 and counts["zellig_not_applicable"] == 2
    assert selection.report["systems"] == {"google": 1}
    unvalidated = select(instances, UN, SelectionOptions(validate=False), progress=False)
    assert len(unvalidated.items) == 4 and "validation" not in unvalidated.report


@pytest.mark.parametrize(
    "options, message",
    [
        ({"cap": 0}, "cap must be an integer ≥ 1 or null, not 0"),
        ({"dedup": "text"}, "dedup must be one of source, pair, none, not 'text'"),
        ({"min_words": 5, "max_words": 2}, "larger than max_words"),
        ({"prefilter": "("}, "not a valid regular expression"),
        ({"min_overlap": 2}, "min_overlap must be a number > 0 ≤ 1, not 2"),
        ({"seed": "1"}, "seed must be an integer"),
        ({"phenomena": "polarity"}, "phenomena must be a list of a non-empty string or null"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        SelectionOptions(**options)


def test_duplicate_ids_are_rejected():
    instance = Instance("x.1", "s", "Es kam unerwartet.", {})
    with pytest.raises(ValueError, match="duplicate instance id"):
        select([instance, instance], UN, progress=False)


def test_select_john_replays_its_selection(tmp_path):
    (tmp_path / "newstest2009.en").write_text("".join(f"Source {n} .\n" for n in range(30)), encoding="utf-8")
    (tmp_path / "newstest2009.de").write_text(
        "".join(f"Es kam {'unerwartet' if n % 3 else 'gut'} ({n}).\n" for n in range(30)), encoding="utf-8"
    )
    john = SelectJohn(
        john=f"newstest:dir={tmp_path},years=2009",
        zellig={"name": "tests.performers.john.fakes:WordZellig", "params": {"phenomenon": "polarity_affix_del"}},
        cap=8, progress=False,
    )
    instances = list(john.instances())
    assert len(instances) == 8 and john.report["selected"] == 8
    assert all(i.meta["phenomena"] == ["polarity_affix_del"] for i in instances)
    replayed = ReplayZellig().corrupt(instances[0])
    assert [v.text for v in replayed] == [v["text"] for v in instances[0].meta["variants"]]
    assert replayed[0].text == instances[0].reference.replace("unerwartet", "erwartet")
    assert_conforms(check_john(john), "select")
