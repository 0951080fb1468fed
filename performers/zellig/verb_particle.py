"""``verb-particle`` Zellig: replace a separable verb particle by one never seen with that verb.

Source: Sennrich (2017), LingEval97 ``verb_particle`` ("we replace a separable verb particle with one that
has never been observed with the verb in the training data").

    Die Firma stellt im Mai neue Mitarbeiter ein.  →  Die Firma stellt im Mai neue Mitarbeiter weg.

Where it applies: a separated particle (STTS ``PTKVZ``) and its finite verb: the nearest preceding finite
verb of the sentence (:func:`performers.german.syntax.finite_verbs`; in a V2 clause the particle closes the
clause the verb opened).  HanTa lemmatises the finite verb without its particle (*stellt* → *stellen*).

What it changes: the particle, to each particle of ``data/verb_particles.yaml`` that has never been seen
with the verb: the particle verb's infinitive (*wegstellen*) has count 0 in the ``training_corpus`` when one
is given (LingEval97's criterion), otherwise a wordfreq Zipf frequency of 0 (unattested in wordfreq's
corpora).  One candidate per such particle.

Metadata: ``distance`` between verb and particle (LingEval97 positions), ``zipf_frequency`` (and
``frequency`` with a ``training_corpus``) of the original particle verb's infinitive, ``particle_verb``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from arena.sdk import DataError, Edit, ExistingFile, Instance, Variant, make_variant
from performers.german import inflection as inf
from performers.german import verb_inflection as verb_inf
from performers.german.analysis import DEFAULT_BACKEND, Analysis, analyze
from performers.german.frequency import frequency_meta, training_counts, zipf
from performers.german.syntax import distance, finite_verbs

PHENOMENON = "verb_particle"
DATA_FILE = Path(__file__).resolve().parents[1] / "german" / "data" / "verb_particles.yaml"


@lru_cache(maxsize=4)
def load_particles(path: str = str(DATA_FILE)) -> tuple[str, ...]:
    """The substitutable particles from the data file."""
    from arena.sdk import load_yaml

    data = load_yaml(path)
    particles = data.get("particles") if isinstance(data, dict) else None
    if not isinstance(particles, list) or not all(isinstance(p, str) for p in particles):
        raise DataError(f"{path}: particles: expected a list of strings")
    return tuple(particles)


def verb_of_particle(analysis: Analysis, particle: int, verbs: dict[int, str]) -> int | None:
    """The finite verb a separated particle belongs to: the nearest preceding one in its sentence."""
    sentence = analysis.tokens[particle].sentence
    before = [index for index in verbs if index < particle and analysis.tokens[index].sentence == sentence]
    return max(before) if before else None


class VerbParticleZellig:
    """Replace a separated particle by each particle unseen with the verb (one candidate per particle)."""

    version = "1"

    def __init__(self, training_corpus: ExistingFile | None = None, backend: str = DEFAULT_BACKEND) -> None:
        self.backend = backend
        self.counts = training_counts(training_corpus)

    def seen(self, infinitive: str) -> bool:
        """Whether the particle verb ``infinitive`` is attested (training corpus if given, else wordfreq)."""
        if self.counts is not None:
            return self.counts.frequency(infinitive) > 0
        return zipf(infinitive) > 0

    def corrupt(self, instance: Instance) -> list[Variant]:
        analysis = analyze(instance.reference, self.backend)
        verbs = finite_verbs(analysis)
        variants: list[Variant] = []
        for token in analysis.tokens:
            if token.pos != "PTKVZ" or not token.text.isalpha():
                continue
            verb_index = verb_of_particle(analysis, token.index, verbs)
            if verb_index is None:
                continue
            lemma = verbs[verb_index].lower()
            if verb_inf.paradigm(lemma) is None:
                continue
            particle = token.text.lower()
            original = particle + lemma
            for other in load_particles():
                if other == particle or self.seen(other + lemma):
                    continue
                meta = {
                    "position": token.index,
                    "verb": analysis.tokens[verb_index].text,
                    "particle_verb": original,
                    "new_particle_verb": other + lemma,
                    "distance": distance(analysis, verb_index, token.index),
                    **frequency_meta(self.counts, original),
                }
                edit = Edit(token.start, token.end, token.text, inf.match_case(token.text, other))
                variants.append(make_variant(instance, [edit], PHENOMENON, meta))
        return variants
