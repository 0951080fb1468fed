"""verb-particle: a separated particle is replaced by particles never seen with the verb."""

from __future__ import annotations

import pytest

from performers.zellig.verb_particle import VerbParticleZellig, load_particles
from tests.performers.zellig.german_checks import corrupt


@pytest.fixture(scope="module")
def zellig():
    return VerbParticleZellig()


def test_replaces_the_particle_with_unseen_ones(zellig):
    reference = "Die Firma stellt im Mai neue Mitarbeiter ein."
    variants = corrupt(zellig, reference)
    assert variants
    for variant in variants:
        (edit,) = variant.edits
        assert edit.before == "ein" and edit.after in load_particles() and edit.after != "ein"
        assert variant.meta["distance"] == 5 and variant.meta["particle_verb"] == "einstellen"
    # *aufstellen* and *vorstellen* are attested verbs, so never candidates
    assert not {v.edits[0].after for v in variants} & {"auf", "vor", "an", "aus"}


def test_training_corpus_decides_what_is_unseen(tmp_path, zellig):
    corpus = tmp_path / "train.de"
    corpus.write_text("Sie wollen ihn einstellen und abstellen .\n", encoding="utf-8")
    with_corpus = VerbParticleZellig(training_corpus=str(corpus))
    afters = {v.edits[0].after for v in corrupt(with_corpus, "Die Firma stellt im Mai neue Mitarbeiter ein.")}
    assert "ab" not in afters and "auf" in afters


@pytest.mark.parametrize("reference", ["Er geht nach Hause.", "Sie hat ihn eingestellt.", ""])
def test_does_not_fire(zellig, reference):
    assert corrupt(zellig, reference) == []
