"""The shared German analysis: offsets, sentences, STTS tags, caching, backends."""

from __future__ import annotations

import pytest

from performers.german import analysis
from performers.german.analysis import (
    Analysis,
    Sentence,
    Token,
    analyze,
    analyze_many,
    morphemes,
    punctuation_tag,
    stts,
)
from performers.german.memo import WORD_CACHE_SIZE

TEXTS = [
    "Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.",
    "Er hat's nicht gewusst, oder? Das kostet 3,5 Mio. Euro z.B. in den USA.",
    "„Nicht schlecht“ – sagte er… (wirklich)!  Doppelt  Leer ",
    "   ",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_offsets_reproduce_the_text(text):
    result = analyze(text)
    assert result.text == text
    for position, token in enumerate(result.tokens):
        assert token.index == position
        assert text[token.start : token.end] == token.text
    for number, sentence in enumerate(result.sentences):
        assert sentence.index == number
        tokens = result.sentence_tokens(number)
        assert tokens and all(token.sentence == number for token in tokens)
        assert sentence.start == tokens[0].start and sentence.end == tokens[-1].end
    assert sum(len(result.sentence_tokens(i)) for i in range(len(result.sentences))) == len(result.tokens)


def test_empty_text_has_no_tokens():
    assert analyze("").tokens == () and analyze("  \n").sentences == ()


@pytest.mark.parametrize(
    "text, word, pos, lemma",
    [
        ("Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.", "Börse", "NN", "Börse"),
        ("Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.", "stürzt", "VVFIN", "stürzen"),
        ("Die Prager Börse stürzt gegen Geschäftsschluss ins Minus.", "Prager", "ADJA", "prager"),
        ("Er hat es nicht gewusst.", "gewusst", "VVPP", "wissen"),
        ("Er hat es nicht gewusst.", "nicht", "PTKNEG", "nicht"),
        ("Der Abgeordnete kam.", "Abgeordnete", "NN", "Abgeordnete"),  # HanTa NNA, reported as NN
        ("„Nicht schlecht“, sagte er.", "„", "$(", "„"),
        ("„Nicht schlecht“, sagte er.", ",", "$,", ","),
        ("Er sagte: Nein.", ":", "$.", ":"),
    ],
)
def test_tags_and_lemmas(text, word, pos, lemma):
    token = next(t for t in analyze(text).tokens if t.text == word)
    assert (token.pos, token.lemma) == (pos, lemma)


def test_sentences_and_token_at():
    result = analyze("Er kam. Sie ging.")
    assert [s.start for s in result.sentences] == [0, 8]
    assert result.token_at(9).text == "Sie" and result.token_at(7) is None


@pytest.mark.parametrize(
    "tag, expected", [("ADJ(A)", "ADJA"), ("VV(FIN)", "VVFIN"), ("NNA", "NN"), ("NNI", "NN"), ("NE", "NE"), ("$(", "$(")]
)
def test_stts(tag, expected):
    assert stts(tag) == expected


@pytest.mark.parametrize("word, expected", [(",", "$,"), (".", "$."), ("?!", "$."), ("…", "$."), ("„", "$("),
                                            ("-", "$("), ("(", "$("), ("3,5", None), ("z.", None)])
def test_punctuation_tag(word, expected):
    assert punctuation_tag(word) == expected


def test_cache_returns_the_same_object():
    text = "Der Hund bellt laut."
    assert analyze(text) is analyze(text)


def test_analyze_many_keeps_order_and_duplicates():
    texts = ["Ein Satz.", "Noch ein Satz.", "Ein Satz."]
    results = analyze_many(texts)
    assert [r.text for r in results] == texts
    assert results[0] is results[2]


def test_analyze_rejects_non_strings():
    with pytest.raises(TypeError):
        analyze(None)  # type: ignore[arg-type]


def test_unknown_backend_is_an_error():
    with pytest.raises(ValueError, match="unknown German analysis backend"):
        analyze("Hallo.", backend="stanza-that-is-not-installed")


def test_morphemes():
    assert morphemes("unerwartet")[0] == ("un", "PREF_NEG")


def test_a_registered_backend_is_used():
    class Whitespace:
        name = "whitespace-test"

        def analyze(self, text: str) -> Analysis:
            tokens, start = [], 0
            for number, word in enumerate(text.split()):
                start = text.index(word, start)
                tokens.append(Token(number, word, start, start + len(word), "XY", word, 0))
                start += len(word)
            sentences = (Sentence(0, tokens[0].start, tokens[-1].end, 0, len(tokens)),) if tokens else ()
            return Analysis(text, tuple(tokens), sentences, self.name)

    analysis.register_backend("whitespace-test", Whitespace)
    assert "whitespace-test" in analysis.backends()
    result = analyze("a b  c", backend="whitespace-test")
    assert [t.text for t in result.tokens] == ["a", "b", "c"] and result.backend == "whitespace-test"
    assert morphemes("unklar", backend="whitespace-test") == ()


def test_limit_caches_bounds_analyses_and_word_caches():
    texts = [f"Der Hund Nummer {n} bellt." for n in range(12)]
    before = (analysis.CACHE_SIZE, analysis._LIMITS)
    try:
        analysis.limit_caches(texts=5, words=7)
        analysis.analyze_many(texts)
        backend = analysis.get_backend()
        assert len(analysis._CACHE) <= 5 and len(backend._sentence_cache) <= 5
        assert len(backend._tagger._tag_word.memo) <= 7 and len(backend._tagger._analyze.memo) <= 7
        assert analysis.analyze(texts[-1]).text == texts[-1]  # what is kept still answers
        assert analysis.analyze(texts[0]).text == texts[0]    # what was evicted is analysed again
    finally:
        analysis.CACHE_SIZE, analysis._LIMITS = before[0], before[1]
        analysis.get_backend().limit(200_000, WORD_CACHE_SIZE)


def test_limit_caches_bounds_the_module_level_word_caches():
    """Compound splits, verb paradigms and Zipf frequencies (ours and wordfreq's) follow
    ``words`` too; a ``None`` result is cached like any other."""
    import wordfreq

    from performers.german import compounds, frequency, verb_inflection
    from performers.german.memo import WORD_CACHE_SIZE as DEFAULT

    before = (analysis.CACHE_SIZE, analysis._LIMITS, frequency.CACHE_LIMIT, wordfreq.CACHE_SIZE,
              compounds.split_compound.limit, verb_inflection._paradigm.limit)
    try:
        analysis.limit_caches(texts=5, words=3)
        words = ["Haustür", "Hund", "Bahnhofsuhr", "Apfelbaum", "Xy", "Schreibtischlampe"]
        for word in words:
            compounds.split_compound(word)
            frequency.WordfreqFrequency().frequency(word)
        assert len(compounds.split_compound.memo) == 3 and frequency.CACHE_LIMIT == 3 and wordfreq.CACHE_SIZE == 3
        assert verb_inflection._paradigm.limit == 3
        assert compounds.split_compound("Xy") is None and ("Xy",) in compounds.split_compound.memo
        assert ("Hund",) not in compounds.split_compound.memo  # the least recently used went first
    finally:
        analysis.CACHE_SIZE, analysis._LIMITS, frequency.CACHE_LIMIT, wordfreq.CACHE_SIZE = before[:4]
        compounds.split_compound.limit, verb_inflection._paradigm.limit = before[4:]
        analysis.get_backend().limit(200_000, DEFAULT)
