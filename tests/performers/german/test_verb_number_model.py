"""The verb-number model: a tiny model trained in the test on template sentences learns subject number,
deterministically, survives saving, and its detector fires on the disagreeing verbs only; the shipped model's
must-fire and must-not-fire sentences."""

from __future__ import annotations

import itertools

import pytest

from performers.german.analysis import analyze
from performers.german.verb_number_model import (
    MODEL_DIR,
    Config,
    form_number,
    load_model,
    rejected_verbs,
    verb_examples,
)
from performers.german.verb_number_training import accuracy, build_vocabulary, collect, train

SUBJECTS = {"SG": ["Der Mann", "Die Frau", "Das Kind", "Der Hund", "Die Stadt"],
            "PL": ["Die Männer", "Die Frauen", "Die Kinder", "Die Hunde", "Die Städte"]}
VERBS = {"SG": ["arbeitet", "schläft", "spielt", "lacht", "wartet"],
         "PL": ["arbeiten", "schlafen", "spielen", "lachen", "warten"]}
ADVERBS = ["heute", "oft", "dort", "nun"]


def sentences(adverbs: list[str]) -> list[str]:
    out = []
    for number, adverb in itertools.product(("SG", "PL"), adverbs):
        for subject, verb in itertools.product(SUBJECTS[number], VERBS[number]):
            out.append(f"{subject} {verb} {adverb}.")
            out.append(f"{adverb.capitalize()} {verb} {subject[0].lower()}{subject[1:]}.")
    return out


@pytest.fixture(scope="module")
def tiny():
    """A model trained on 160 template sentences (three of the four adverbs) in a few seconds."""
    analyses = [analyze(s) for s in sentences(ADVERBS[:3])]
    vocabulary = build_vocabulary(analyses)
    examples = collect(analyses, vocabulary)
    config = Config(word_dim=16, tag_dim=4, lemma_dim=4, hidden=16, suffix_dim=4)
    return train(examples, vocabulary, config, epochs=12, seed=1, batch=16), examples, config


@pytest.mark.parametrize(
    "form, lemma, number",
    [("spielt", "spielen", "SG"), ("spielen", "spielen", "PL"), ("hatte", "haben", "SG"),
     ("wurden", "werden", "PL"), ("kann", "können", "SG"), ("spielst", "spielen", None)],  # spielst: 2SG only
)
def test_form_number_is_the_third_person_number(form, lemma, number):
    assert form_number(form, lemma) == number


def test_examples_mask_the_verb_and_label_its_number(tiny):
    model, _, _ = tiny
    [(index, number, example)] = verb_examples(analyze("Die Kinder spielen heute."), model.vocabulary)
    assert (index, number, example.label, example.position) == (2, "PL", 1, 2)
    assert example.words[2] == 2 and example.tags[2] == 2  # mask word, mask tag: the form is hidden


def test_tiny_model_learns_subject_number_on_unseen_sentences(tiny):
    model, _, _ = tiny
    held_out = collect([analyze(s) for s in sentences(ADVERBS[3:])], model.vocabulary)
    assert accuracy(model, held_out) >= 0.9


def test_training_is_deterministic_by_seed(tiny):
    model, examples, config = tiny
    again = train(examples, model.vocabulary, config, epochs=12, seed=1, batch=16)
    assert again.plural_probabilities(examples[:20]) == model.plural_probabilities(examples[:20])


def test_saved_model_loads_with_the_same_predictions(tiny, tmp_path):
    model, examples, _ = tiny
    model.save(tmp_path, {"test": True})
    loaded = load_model(tmp_path)
    before, after = model.plural_probabilities(examples[:20]), loaded.plural_probabilities(examples[:20])
    assert max(abs(a - b) for a, b in zip(before, after)) < 0.02  # float16 weights


@pytest.mark.parametrize(
    "text, fires",
    [("Die Kinder spielt nun.", True), ("Der Hund warten nun.", True), ("Nun lacht die Frauen.", True),
     ("Die Kinder spielen nun.", False), ("Der Hund wartet nun.", False), ("Nun lachen die Frauen.", False)],
)
def test_tiny_model_rejects_disagreeing_verbs_only(tiny, text, fires):
    model, _, _ = tiny
    assert bool(rejected_verbs(analyze(text), model, 0.5)) is fires


def test_missing_model_is_an_environment_error(tmp_path):
    from arena.errors import EnvError

    with pytest.raises(EnvError, match="verb-number model"):
        load_model(tmp_path / "nothing")


@pytest.mark.parametrize(
    "text, fires",
    [
        ("Die Kinder spielt im Garten.", True),
        ("Das Unternehmen kündigten an, dass es Stellen abbauen werde.", True),
        ("Die Zahl der Arbeitslosen sind im vergangenen Monat gestiegen.", True),  # attractor: der Arbeitslosen
        ("Die Regierung haben die Steuern erhöht.", True),
        ("Die Kinder spielen im Garten.", False),
        ("Das Unternehmen kündigte an, dass es Stellen abbauen werde.", False),
        ("Die Zahl der Arbeitslosen ist im vergangenen Monat gestiegen.", False),
        ("Die Regierung hat die Steuern erhöht.", False),
        ("Es gibt viele Gründe, warum die Preise steigen.", False),
        ("In den letzten Jahren sind die Preise stark gestiegen.", False),
    ],
)
def test_shipped_model_rejects_disagreeing_verbs_only(text, fires):
    assert bool(rejected_verbs(analyze(text), load_model(MODEL_DIR), 0.9)) is fires
