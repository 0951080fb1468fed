from __future__ import annotations

import pytest

from arena.records import Instance
from performers.john.validation import (
    DROPPED,
    FLAGGED,
    KEPT,
    ValidationCounts,
    contains,
    deletes_words,
    dice,
    marker,
    validate,
)
from tests.performers.john.fakes import ClauseZellig, WordZellig

UN = WordZellig({"unerwartet": "erwartet", "Unklarheit": "Klarheit"}, "polarity_affix_del")
GENITIVE = WordZellig({"seit dem Tag": "seit des Tages"}, "hypercorrect_genitive")


def run(zellig, human, machine, **options):
    h = Instance("x", "src", human)
    m = Instance("x", "src", machine)
    return validate(human, zellig.corrupt(h), machine, zellig.corrupt(m), **options)


@pytest.mark.parametrize(
    "zellig, human, machine, status, reason",
    [
        # the same phenomenon-bearing word: kept
        (UN, "Das kam unerwartet.", "Es war unerwartet.", KEPT, "same_words"),
        (GENITIVE, "Er ist seit dem Tag hier.", "Er ist schon seit dem Tag da.", KEPT, "same_words"),
        # the machine reference has the contrastive form instead: flagged
        (UN, "Das kam unerwartet.", "Das kam erwartet.", FLAGGED, "contrastive_form"),
        (GENITIVE, "Er ist seit dem Tag hier.", "Er ist seit des Tages hier.", FLAGGED, "contrastive_form"),
        # neither: the words are missing
        (UN, "Das kam unerwartet.", "Das war überraschend.", DROPPED, "words_missing"),
        # only the machine reference shows the phenomenon: nothing to check against
        (UN, "Das war überraschend.", "Das kam unerwartet.", DROPPED, "no_human_variant"),
        # another word with the same phenomenon is not the same word
        (UN, "Das kam unerwartet.", "Es herrscht Unklarheit.", DROPPED, "words_missing"),
    ],
)
def test_verdicts(zellig, human, machine, status, reason):
    (phenomenon, check), = run(zellig, human, machine).items()
    assert (check.status, check.reason) == (status, reason)
    if status == KEPT:
        assert check.aligned and all(v.phenomenon == phenomenon for v in check.aligned)
    else:
        assert check.aligned == ()


def test_only_aligned_variants_are_kept():
    checks = run(UN, "Das kam unerwartet.", "Unklarheit: es kam unerwartet.")
    check = checks["polarity_affix_del"]
    assert check.status == KEPT
    assert [v.edits[0].before for v in check.aligned] == ["unerwartet"]


def test_word_present_but_no_aligned_variant():
    # the human reference has Haus (a variant there); the machine one has Haus too, but
    # the Zellig made no variant of it (here: none at all)
    zellig = WordZellig({"Haus": "Ding"}, "placeholder_ding")
    human = Instance("x", "s", "Das Haus ist rot.")
    verdict = validate(human.reference, zellig.corrupt(human), "Das Haus ist groß.", [])["placeholder_ding"]
    assert (verdict.status, verdict.reason, verdict.evidence) == (DROPPED, "no_aligned_variant", "Haus")


def test_insertions_cannot_be_checked():
    from arena.edits import make_variant
    from arena.records import Edit

    human = Instance("x", "s", "Er kommt.")
    variant = make_variant(human, [Edit(3, 3, "", "nicht ")], "polarity_particle_nicht_ins")
    verdict = validate("Er kommt.", [variant], "Er kommt.", [])["polarity_particle_nicht_ins"]
    assert (verdict.status, verdict.reason) == (DROPPED, "not_checkable")


def test_word_deletions_are_never_flagged():
    # deleting a first clause re-capitalises the next word: "Dass" is no contrastive form to look for
    from arena.edits import make_variant
    from arena.records import Edit

    human = Instance("x", "s", "Ich glaube, dass er kommt.")
    variant = make_variant(human, [Edit(0, 16, "Ich glaube, dass", "Dass")], "clause_omission")
    verdict = validate(human.reference, [variant], "Er sagt, dass er kommt.", [])["clause_omission"]
    assert (verdict.status, verdict.reason) == (DROPPED, "words_missing")
    assert deletes_words(marker(human.reference, variant))
    un = UN.corrupt(Instance("x", "s", "Es kam unerwartet."))[0]
    assert not deletes_words(marker("Es kam unerwartet.", un))


def test_long_spans_align_by_overlap():
    zellig = ClauseZellig()
    human = "Er kam spät nach Hause, weil der Zug wegen eines Unfalls lange stehen blieb."
    similar = "Er kam spät heim, weil der Zug wegen eines Unfalls lange stand."
    different = "Er kam spät nach Hause, und danach schlief er sofort tief und fest ein."
    kept = run(zellig, human, similar)["clause_omission"]
    assert kept.status == KEPT and kept.reason == "overlap"
    assert run(zellig, human, different)["clause_omission"].status == DROPPED
    assert run(zellig, human, similar, min_overlap=0.95)["clause_omission"].status == DROPPED


@pytest.mark.parametrize(
    "text, phrase, expected",
    [
        ("Es war unerwartet.", "unerwartet", True),
        ("Unerwartet kam er.", "unerwartet", True),  # first letter case-insensitive
        ("Es war UNERWARTET.", "unerwartet", False),
        ("Das Unerwartete.", "Unerwartet", False),  # word boundary
        ("seit  dem\u00a0Tag", "seit dem Tag", True),  # whitespace-insensitive
        ("Es war unerwartet.", "", False),
        ("(unerwartet)", "unerwartet", True),
    ],
)
def test_contains(text, phrase, expected):
    assert contains(text, phrase) is expected


def test_marker_spans_all_edits_and_strips_punctuation():
    from arena.edits import make_variant
    from arena.records import Edit

    reference = "Seit dem ersten Tag, sagt er."
    instance = Instance("x", "s", reference)
    variant = make_variant(instance, [Edit(5, 8, "dem", "des"), Edit(16, 19, "Tag", "Tages")], "hypercorrect_genitive")
    mark = marker(reference, variant)
    assert (mark.before, mark.after) == ("dem ersten Tag", "des ersten Tages")
    clause = make_variant(instance, [Edit(19, 28, ", sagt er", "")], "clause_omission")
    assert (marker(reference, clause).before, marker(reference, clause).after) == ("sagt er", "")


def test_dice():
    assert dice("a b c", "a b c") == 1.0
    assert dice("a b", "c d") == 0.0
    assert dice("", "a") == 0.0


def test_counts():
    counts = ValidationCounts()
    counts.add("a", run(UN, "Das kam unerwartet.", "Es war unerwartet."))
    counts.add("b", run(UN, "Das kam unerwartet.", "Das kam erwartet."))
    counts.add("c", run(UN, "Das kam unerwartet.", "Nichts."))
    report = counts.to_json()["polarity_affix_del"]
    assert (report["kept"], report["flagged"], report["dropped"]) == (1, 1, 1)
    assert report["examples"] == {"dropped:words_missing": ["c"], "flagged:contrastive_form": ["b"]}
