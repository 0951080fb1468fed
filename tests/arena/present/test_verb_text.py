"""What the verbs print, formatted in present/: a test set build, a comparison of Johns, a person's
score and a live verdict (the tables themselves: arena.present.tables)."""

from __future__ import annotations

from arena.present.compare import format_comparison
from arena.present.people import format_live, format_summary
from arena.present.testset import format_report

BUILD = {
    "john": "newstest", "zellig": "np-agreement", "options": {"seed": 1}, "pool": 10, "scanned": 8,
    "instances": {"kept": 5, "too_long": 2, "duplicate": 0},
    "phenomena": {"np_agreement": {"candidates": 7, "selected": 5, "pairs": 5}},
    "files": {"distil-lingeval": {"path": "out/np.txt", "pairs": 5}},
}


def test_a_build_lists_counts_and_files_and_leaves_out_zero_counts():
    text = format_report(BUILD)
    assert text.splitlines()[0] == "John newstest  ×  Zellig np-agreement  (seed 1)"
    assert "10 instances: kept 5, too long 2; Zellig ran on 8" in text
    assert "duplicate" not in text
    assert text.endswith("wrote out/np.txt (distil-lingeval, 5 pairs)")


def test_a_build_that_selected_nothing_says_so():
    text = format_report({**BUILD, "phenomena": {}, "files": {}})
    assert text.endswith("nothing selected: no test set files written (see report.json)")
    assert "phenomenon" not in text  # no empty table


COMPARISON = {
    "zellig": "z", "claude": "c", "seed": 1, "signature": "sig",
    "johns": [{"john": "a", "instances": 3, "rounds": 3, "S": 0.5, "S_ci95": [0.1, 0.9], "accuracy": None,
               "accuracy_ci95": None, "discrepancy": None}],
    "paired": [{"a": "a", "b": "b", "shared_sources": 2, "S": {"delta": 0.25, "low": -0.5, "high": 1.0, "p_value": 0.5}}],
}


def test_a_comparison_prints_the_paired_differences_and_the_signature():
    text = format_comparison(COMPARISON)
    assert "paired bootstrap on shared sources (a − b):" in text
    assert "+0.250 [-0.500, +1.000] p=0.500" in text
    assert text.endswith("signature: sig")
    assert "paired bootstrap" not in format_comparison({**COMPARISON, "paired": []})


def test_a_person_without_rounds_and_one_with():
    assert format_summary({"rounds": 0}, "ann") == "ann has judged no round yet"
    data = {"rounds": 4, "S": 0.75, "S_ci95": [0.25, 1.0], "phenomena": {"np": {"rounds": 4, "S": 0.75}},
            "comparison": []}
    text = format_summary(data, "ann")
    assert text.startswith("ann: S = 0.750 [0.250, 1.000] on 4 rounds")
    assert "on the same rounds" not in text


def test_a_live_verdict_per_claude_and_the_detector():
    result = {"claudes": [{"claude": "toy", "reference": -1.0, "edit": -0.5, "fooled": True}], "detector": False}
    assert format_live(result) == ["  toy: reference -1.000, edit -0.500 → FOOLED",
                                   "  detector: the edit does not show the phenomenon"]
    assert format_live({"claudes": [], "detector": None}) == []
