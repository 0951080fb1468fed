"""Word frequencies: training-corpus counts (LingEval97's measure) and wordfreq Zipf values."""

from __future__ import annotations

import pytest

from performers.german.frequency import CorpusFrequency, frequency_meta, training_counts, zipf


def test_corpus_counts_are_case_sensitive_words(tmp_path):
    corpus = tmp_path / "train.de"
    corpus.write_text("Die Börse fällt.\ndie Börse, die Börse! EU-Kommission\n", encoding="utf-8")
    counts = training_counts(str(corpus))
    assert isinstance(counts, CorpusFrequency) and counts.unit == "count"
    assert (counts.frequency("Börse"), counts.frequency("die"), counts.frequency("Die")) == (3, 2, 1)
    assert counts.frequency("EU-Kommission") == 1 and counts.frequency("fehlt") == 0


def test_meta_takes_the_rarer_word_and_keeps_counts_apart_from_zipf():
    counts = CorpusFrequency.from_lines(["der Tag der Tag der Nacht"])
    assert frequency_meta(counts, "Tag", "Nacht") == {"zipf_frequency": zipf("Nacht"), "frequency": 1}
    without = frequency_meta(None, "Tag")
    assert "frequency" not in without and without["zipf_frequency"] > 4


@pytest.mark.parametrize("corpus", [None, ""])
def test_no_corpus_means_no_counts(corpus):
    assert training_counts(corpus) is None


def test_a_missing_corpus_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="does not exist"):
        training_counts(str(tmp_path / "missing.de"))
