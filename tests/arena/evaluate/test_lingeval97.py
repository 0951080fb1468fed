"""LingEval97's evaluate.py, re-implemented: counts, bins, and its report line for line.

Two kinds of expected output: a small hand-made test set whose report is worked out
by hand from evaluate.py's rules, and the full baseline report published in
LingEval97's README (sennrich2016.scores), reproduced from a synthetic test set with
the same counts per category, distance bin and frequency bin.
"""

from __future__ import annotations

import re

import pytest

from arena.evaluate.lingeval97 import ERROR_CATEGORIES, Tally, evaluate, format_report, py2_str
from arena.formats.lingeval97 import Contrastive, Sentence


@pytest.mark.parametrize(
    ("value", "printed"),
    [  # as Python 2.7's str(float) prints them (checked against a python2.7 interpreter)
        (94732 / 97408, "0.972527923784"),
        (33907 / 35105, "0.96587380715"),  # trailing zero dropped
        (1.0, "1.0"),
        (0.0, "0.0"),
        (-0.0, "-0.0"),
        (0.5, "0.5"),
        (1 / 3, "0.333333333333"),
        (2 / 3, "0.666666666667"),
        (-1.234567890123456, "-1.23456789012"),
        (1e-05, "1e-05"),
        (0.0001, "0.0001"),
        (0.000123456789012345, "0.000123456789012"),
        (2.5e-05, "2.5e-05"),
        (10000000000.0, "10000000000.0"),
        (99999999999.0, "99999999999.0"),
        (1e11, "1e+11"),  # Python 2 leaves room for ".0": exponent from the 12th integer digit on
        (123456789012.0, "1.23456789012e+11"),
        (123456789012.5, "1.23456789012e+11"),
        (1e16, "1e+16"),
        (3081078114205.0, "3.08107811420e+12"),  # Python 2's integer shortcut keeps the zero on a tie
        (3081078114204.0, "3.0810781142e+12"),
        (float("inf"), "inf"),
        (float("-inf"), "-inf"),
        (float("nan"), "nan"),
    ],
)
def test_py2_str(value, printed):
    assert py2_str(value) == printed


def contrastive(category, text, distance=None, frequency=None):
    return Contrastive(category, text, distance, frequency)


SENTENCES = [
    Sentence(
        "s0",
        "r0",
        "t.1",
        (
            contrastive("np_agreement", "c0.0", 1, 5),  # frequency 5 -> ">2"
            contrastive("np_agreement", "c0.1", 0, 6),  # distance 0 -> "0", frequency 6 -> ">5"
            contrastive("subj_verb_agreement", "c0.2", 16, 10001),  # ">15", ">10k"
        ),
    ),
    Sentence(
        "s1",
        "r1",
        "t.2",
        (
            contrastive("polarity_affix_ins", "c1.0"),
            contrastive("placeholder_ding", "c1.1"),  # not one of LingEval97's categories
            contrastive("transliteration", "c1.2", None, 0),
        ),
    ),
    Sentence("s2", "r2", "t.3", ()),
    Sentence(
        "s3",
        "r3",
        "t.4",
        (
            contrastive("polarity_particle_kein_del", "c3.0", "0", "0"),  # the string "0" is binned as 0
            contrastive("np_agreement", "c3.1", 1, 2000),  # ">1k"
        ),
    ),
]
# json_to_plaintext.py order: per sentence the reference's score, then its errors' scores
SCORES = [1.0, 2.0, 1.0, 0.5, -0.5, -0.25, 3.0, 0.1, 7.0, 2.0, 3.0, 1.0]

REPORT = """\
total : 4 7 0.571428571429

statistics by error category
np_agreement : 1 3 0.333333333333
subj_verb_agreement : 0 1 0.0
polarity_particle_kein_del : 1 1 1.0
polarity_affix_ins : 1 1 1.0
transliteration : 1 1 1.0

statistics by distance
distance 0: 1 2 0.5
distance 1: 1 2 0.5
distance >15: 0 1 0.0

statistics by frequency in training data
>10k : 0 1 0.0
>1k : 0 1 0.0
>5 : 0 1 0.0
>2 : 1 1 1.0
0 : 2 2 1.0

"""

FD = """\
statistics by frequency and distance
frequency: >10k distance: >15: 0 1 0.0
frequency: >1k distance: 1: 0 1 0.0
frequency: >5 distance: 0: 0 1 0.0
frequency: >2 distance: 1: 1 1 1.0
frequency: 0 distance: 0: 1 1 1.0

"""

LATEX = """\
LaTeX table
3 & 1 & 0 & 1 & 1 & 1
33.3 & 0.0 & -- & 100.0 & 100.0 & 100.0
"""

LATEX_POLARITY = """\
LaTeX table (polarity)
0 & 0 & 1 & 0 & 1 & 0
-- & -- & 100.0 & -- & 100.0 & --
"""

VERBOSE = """\
error: np_agreement
source: s0
correct (score 1.0): r0
error (score 1.0): c0.1

error: subj_verb_agreement
source: s0
correct (score 1.0): r0
error (score 0.5): c0.2

error: np_agreement
source: s3
correct (score 2.0): r3
error (score 1.0): c3.1

"""


def test_counts_ties_as_wrong_and_skips_unselected_types():
    result = evaluate(SENTENCES, SCORES)
    assert result.total == Tally(4, 7)
    assert result.by_category["np_agreement"] == Tally(1, 3)  # the tie (1.0 vs 1.0) is wrong
    assert result.skipped == {"placeholder_ding": 1}
    assert [(pair.sentence, pair.error) for pair in result.wrong] == [(0, 1), (0, 2), (3, 1)]


def test_report():
    assert format_report(evaluate(SENTENCES, SCORES)) == REPORT


def test_report_with_every_section():
    report = format_report(evaluate(SENTENCES, SCORES), verbose=True, fd=True, latex=True, latex_polarity=True)
    assert report == VERBOSE + REPORT + FD + LATEX + LATEX_POLARITY


def test_verbose_with_outputs():
    outputs = {"system.txt": ["o0", None, "o2", "o3"]}
    report = format_report(evaluate(SENTENCES, SCORES), verbose=True, outputs=outputs)
    assert report.startswith(
        "error: np_agreement\nsource: s0\ncorrect (score 1.0): r0\nerror (score 1.0): c0.1\noutput (system.txt): o0\n\n"
    )
    assert "error (score 1.0): c3.1\noutput (system.txt): o3\n\ntotal : 4 7" in report


def test_maximize():
    report = format_report(evaluate(SENTENCES, SCORES, maximize=True))
    # higher is better: only 1.0 > 0.5 (s0) and 2.0 > 1.0 (s3) are correct; the tie is still wrong
    assert report.splitlines()[:5] == [
        "total : 2 7 0.285714285714",
        "",
        "statistics by error category",
        "np_agreement : 1 3 0.333333333333",
        "subj_verb_agreement : 1 1 1.0",
    ]


def test_categories_select_and_may_name_other_types():
    result = evaluate(SENTENCES, SCORES, categories=["placeholder_ding", "np_agreement"])
    assert result.skipped == {
        "subj_verb_agreement": 1,
        "polarity_affix_ins": 1,
        "transliteration": 1,
        "polarity_particle_kein_del": 1,
    }
    lines = format_report(result).splitlines()
    assert lines[:5] == [
        "total : 2 4 0.5",
        "",
        "statistics by error category",
        "np_agreement : 1 3 0.333333333333",  # LingEval97's categories first, in its order
        "placeholder_ding : 1 1 1.0",
    ]


def test_nothing_selected_is_an_error():
    result = evaluate(SENTENCES, SCORES, categories=["compound"])
    with pytest.raises(ValueError, match=r"no contrastive translation of the selected categories \(compound\).*"
                                         r"placeholder_ding \(1\)"):
        format_report(result)


def test_wrong_number_of_scores():
    with pytest.raises(ValueError, match="11 scores for 12 sentences and contrastives"):
        evaluate(SENTENCES, SCORES[:-1])


def test_nan_is_never_better():
    sentences = [Sentence("s", "r", None, (contrastive("compound", "c"), contrastive("compound", "d")))]
    assert evaluate(sentences, [float("nan"), 1.0, 2.0]).total == Tally(0, 2)
    assert evaluate(sentences, [1.0, float("nan"), 2.0]).total == Tally(1, 2)


# --- the baseline report published in LingEval97's README (evaluate.py -r lingeval97.json
# < baselines/sennrich2016.scores), rebuilt from a synthetic test set with the same marginals

PUBLISHED = """\
total : 94732 97408 0.972527923784

statistics by error category
np_agreement : 21540 21813 0.987484527575
subj_verb_agreement : 33907 35105 0.96587380715
subj_adequacy : 2266 2520 0.899206349206
polarity_particle_nicht_del : 2733 2919 0.93627954779
polarity_particle_kein_del : 495 538 0.920074349442
polarity_affix_del : 518 586 0.883959044369
polarity_particle_nicht_ins : 1259 1297 0.970701619121
polarity_particle_kein_ins : 10192 10219 0.997357862805
polarity_affix_ins : 11018 11244 0.97990039132
auxiliary : 4837 4950 0.977171717172
verb_particle : 2355 2450 0.961224489796
compound : 249 277 0.898916967509
transliteration : 3363 3490 0.963610315186

statistics by distance
distance 1: 35960 36685 0.98023715415
distance 2: 9611 9861 0.974647601663
distance 3: 4626 4807 0.962346577907
distance 4: 3094 3263 0.948207171315
distance 5: 2480 2598 0.954580446497
distance 6: 2004 2105 0.952019002375
distance 7: 1614 1693 0.953337271116
distance 8: 1253 1317 0.951404707669
distance 9: 963 1016 0.947834645669
distance 10: 721 757 0.952443857332
distance 11: 588 617 0.952998379254
distance 12: 439 461 0.952277657267
distance 13: 334 355 0.940845070423
distance 14: 233 242 0.962809917355
distance 15: 202 217 0.930875576037
distance >15: 783 844 0.927725118483

statistics by frequency in training data
>10k : 21533 21901 0.983197114287
>5k : 7506 7639 0.982589344155
>2k : 10475 10673 0.981448514944
>1k : 6617 6809 0.971802026729
>500 : 5857 6044 0.969060225017
>200 : 6170 6366 0.969211435752
>100 : 3724 3875 0.961032258065
>50 : 2810 2943 0.954808019028
>20 : 2875 3022 0.951356717406
>10 : 1525 1621 0.940777297964
>5 : 1171 1248 0.938301282051
>2 : 1060 1127 0.940550133097
2 : 552 587 0.940374787053
1 : 846 892 0.948430493274
0 : 7332 7688 0.953694068678
"""

# a raw annotation value inside each bin
DISTANCE_VALUE = {str(d): d for d in range(16)} | {">15": 23}
FREQUENCY_VALUE = {
    ">10k": 123456, ">5k": 10000, ">2k": 2001, ">1k": 1500, ">500": 501, ">200": 500, ">100": 150, ">50": 51,
    ">20": 50, ">10": 11, ">5": 6, ">2": 5, "2": 2, "1": 1, "0": 0,
}


def _marginals(section: str) -> list[tuple[str, int, int]]:
    block = PUBLISHED.split(f"statistics by {section}\n")[1].split("\n\n")[0]
    rows = []
    for line in block.strip().split("\n"):
        label, correct, total = re.fullmatch(r"(?:distance )?(.+?) ?: (\d+) (\d+) \S+", line).groups()
        rows.append((label, int(correct), int(total)))
    return rows


def _labels(rows, wanted_correct: bool, slots: int) -> list[str | None]:
    """One label per slot: each row's correct (or wrong) count, then None (no annotation)."""
    labels: list[str | None] = []
    for label, correct, total in rows:
        labels += [label] * (correct if wanted_correct else total - correct)
    assert len(labels) <= slots
    return labels + [None] * (slots - len(labels))


def test_reproduces_the_published_baseline_report():
    total_correct, total = 94732, 97408
    categories = _marginals("error category")
    distances = _marginals("distance")
    frequencies = _marginals("frequency in training data")
    assert [label for label, _, _ in categories] == list(ERROR_CATEGORIES)
    sentences, scores = [], []
    for correct, slots in ((False, total - total_correct), (True, total_correct)):
        rows = zip(
            _labels(categories, correct, slots), _labels(distances, correct, slots), _labels(frequencies, correct, slots)
        )
        for number, (category, distance, frequency) in enumerate(rows):
            error = contrastive(
                category,
                "kontrastiv",
                DISTANCE_VALUE[distance] if distance else None,
                FREQUENCY_VALUE[frequency] if frequency else None,
            )
            sentences.append(Sentence("source", "Referenz", None, (error,)))
            # negative log-probabilities, lower is better; every third wrong pair is a tie
            scores += [10.0, 12.5] if correct else [10.0, 10.0 if number % 3 == 0 else 7.5]
    assert len(sentences) == total
    assert format_report(evaluate(sentences, scores)) == PUBLISHED + "\n"
