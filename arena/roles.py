"""Role protocols of the three performers (structural typing: no inheritance needed).

Every performer class also has a class attribute ``version`` (a string) that goes into
run signatures; bump it whenever its behaviour changes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, Protocol, TypeVar, runtime_checkable

from arena.records import Instance, Judgement, Pair, RoundOutcome, SequenceScore, TokenScores, Variant

T = TypeVar("T")


@runtime_checkable
class John(Protocol):
    """Selects data: yields :class:`Instance` objects in a deterministic order."""

    def instances(self) -> Iterator[Instance]: ...


def take(instances: Iterable[T], cap: int | None) -> Iterator[T]:
    """The first ``cap`` of ``instances`` (all of them when ``cap`` is None), not reading
    one more: how an experiment's ``max_instances`` and a John's ``limit`` cap a John."""
    return islice(instances, cap)


@runtime_checkable
class Zellig(Protocol):
    """Corrupts data.

    ``corrupt`` returns *every* candidate corruption of the instance's reference, ``[]``
    when none applies.  It is a pure function of the instance: no randomness, no I/O
    after loading.  A Zellig that names a hypothesis may also offer
    ``detect(text, source=None) -> bool`` (see :class:`Detector`).
    """

    def corrupt(self, instance: Instance) -> list[Variant]: ...


@runtime_checkable
class Detector(Protocol):
    """Tells whether a (machine) translation shows the phenomenon a Zellig produces;
    the arena uses it for the generative rate."""

    def detect(self, text: str, source: str | None = None) -> bool: ...


@runtime_checkable
class ConditionalDetector(Detector, Protocol):
    """A :class:`Detector` whose phenomenon only some sources allow: a translation cannot drop
    a negation its source does not have.  ``applies(source)`` says whether a translation of
    ``source`` could show it; generative rates are taken over those sources only, so that a
    pool of unrelated sources does not dilute them."""

    def applies(self, source: str | None) -> bool: ...


@runtime_checkable
class Claude(Protocol):
    """Discriminates: one :class:`Judgement` per :class:`Pair`, same order, batch in,
    batch out; an empty batch gives an empty list."""

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]: ...


@runtime_checkable
class ScoringClaude(Claude, Protocol):
    """A Claude backed by a conditional language model.

    ``score`` returns per (source, target) the sum of natural-log token probabilities,
    the token count (end-of-sentence token included) and so their mean;
    ``translate`` returns 1-best translations (beam search).  ``judge`` must judge by
    :func:`arena.record.scoring_rule.judgement_from_scores` over the candidates' scores in
    ``convention`` (``mean`` or ``sum`` of log-probabilities): the arena relies on it to
    score deduplicated requests once per run and derive the judgements from them.
    """

    convention: str

    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]: ...

    def translate(self, sources: Sequence[str], beam: int = 5) -> list[str]: ...


@runtime_checkable
class TokenScorer(Protocol):
    """A scoring Claude that also gives per-token log-probabilities (``--tokens``): one
    :class:`TokenScores` per (source, target), whose sum equals ``score``'s ``logprob``.
    Computed on request only; the default scoring path is untouched by it."""

    def token_scores(self, sources: Sequence[str], targets: Sequence[str]) -> list[TokenScores]: ...


@runtime_checkable
class Clocked(Protocol):
    """A Claude that can serve answers it computed earlier (a score cache).
    ``replayed_seconds()`` is a running total of the seconds those served answers took
    to compute; the arena charges its change over a ``judge`` call to that call's time
    (Smith's time budget: a cached answer costs what it cost)."""

    def replayed_seconds(self) -> float: ...


@runtime_checkable
class Fittable(Protocol):
    """A Claude fitted on labelled pairs (the surface-cue Claudes): ``fit`` replaces what it
    has learned by what ``pairs`` with their answer key (``corrupted``: the index of the
    corrupted candidate of each pair) teach.  The cue audit (:mod:`arena.stats.cues`) fits a
    fresh one per cross-validation fold and judges the held-out pairs with it."""

    def fit(self, pairs: Sequence[Pair], corrupted: Sequence[int]) -> None: ...


@runtime_checkable
class AnswerKeyAware(Protocol):
    """A Claude that is told the answer key before judging (the ``oracle``; for tests
    and upper bounds only).  ``answers`` maps pair id to the corrupted index."""

    def observe_answers(self, answers: dict[str, int]) -> None: ...


@runtime_checkable
class Observer(Protocol):
    """Any performer that learns during a game (Smith §7; :mod:`arena.game.play`).

    After each block of rounds the arena passes it one :class:`RoundOutcome` per round
    it took part in, showing what the schedule lets it see: in a round transparent to
    it, the candidates, the answer key and the Claudes' choices; otherwise only its own
    inputs and outputs.  Performers without ``observe`` are untouched.  ``observe``
    must be deterministic: a resumed run replays the recorded outcomes to rebuild the
    performer's state.
    """

    def observe(self, outcomes: Sequence[RoundOutcome]) -> None: ...


@runtime_checkable
class Chooser(Protocol):
    """A Zellig that decides which of its candidates to offer (instead of the arena's
    uniform draw): ``choose`` returns an index into ``candidates``.  It must draw any
    randomness from ``rng``, the round's own RNG, so that transcripts stay
    reproducible on every backend."""

    def choose(self, instance: Instance, candidates: Sequence[Variant], rng: random.Random) -> int: ...


@runtime_checkable
class Fingerprinted(Protocol):
    """A performer *class* whose results depend on files beyond its params (a model's
    weights and tokenizer).  ``fingerprint(params)`` digests them without building the
    performer (local files by content, hub models by name and revision), for the run
    signature; it is a classmethod, checked on the class."""

    def fingerprint(self, params: Mapping[str, Any]) -> str: ...


@runtime_checkable
class Decoding(Protocol):
    """A performer *class* that decodes 1-best translations: ``decoder_signature(params,
    beam)`` names the decoder its params give (backend and version, compute type, beam,
    length penalty), without building anything; the run signature carries it
    (``+decoder.``), so that two decoders never share a signature.  A classmethod."""

    def decoder_signature(self, params: Mapping[str, Any], beam: int) -> str: ...


@runtime_checkable
class Available(Protocol):
    """A performer *class* that can tell, without building anything, whether what its params
    name can be had on this machine (a hub model offline: in the cache or not);
    ``check_available(params)`` raises :class:`arena.errors.EnvError` when not.  ``arena
    validate`` calls it, so that its OK means the models will load."""

    def check_available(self, params: Mapping[str, Any]) -> None: ...


@runtime_checkable
class ParamsChecked(Protocol):
    """A performer *class* with a rule over its params that no single annotation states
    (the template names a spec file holds, the years a directory has files for):
    ``check_params(params)`` returns why they are refused, or ``None``; a classmethod,
    run by ``arena validate`` and ``arena run`` alike before anything is built
    (:func:`arena.specs.registry.check_params`)."""

    def check_params(self, params: Mapping[str, Any]) -> str | None: ...


@runtime_checkable
class Untranslating(Protocol):
    """A scoring Claude *class* whose ``translate`` always refuses (a language model of the
    target side alone): ``why_untranslating()`` (a classmethod) says why.  ``arena validate``
    and ``arena run`` refuse it alike where the run wants its 1-bests (``discrepancy`` on and
    the Claude sees the source: :func:`arena.engine.manifest.validate`)."""

    def why_untranslating(self) -> str: ...


@runtime_checkable
class MetaDeclaring(Protocol):
    """A John *class* that says from its params, before anything is built, which metadata keys
    its instances carry and which its ``meta["variants"]`` carry (what the ``replay`` Zellig
    passes on): ``declared_meta(params) -> (instance keys, variant keys)``, a classmethod;
    ``None`` for either when it cannot say.  ``arena validate`` and ``arena run`` refuse alike a
    ``breakdowns:`` key no performer gives (:mod:`arena.specs.breakdowns`)."""

    def declared_meta(self, params: Mapping[str, Any]) -> tuple[frozenset[str] | None, frozenset[str] | None]: ...


ROLES = ("john", "zellig", "claude")
