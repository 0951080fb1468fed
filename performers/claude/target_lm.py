"""``target-lm`` Claude: a source-blind German language model (a surface-cue baseline and
the game's fluency Claude).

It never looks at the English source: it scores each German candidate with an
interpolated Kneser–Ney word trigram model (:mod:`performers.claude.kneser_ney`) trained
on the target side of the project's parallel corpus (``../shared/data/parallel-toy/train.de``,
124,880 sentences; newstest2009–2016, the sources of the DistilLingEval references, are not
in it) and names the less fluent candidate as the corrupted one, by the same rule as the
NMT Claudes (length-normalised log-probability, end symbol included, unless
``convention: sum``).  A pair it solves is one whose corruption a German reader could spot
without the source: Smith's game is only informative where such a Claude stays near chance.

As a :class:`~arena.roles.ScoringClaude` it is the fluency Claude of the game: the source
it is given (empty for a Claude with ``sees_source: false``) is ignored.  It cannot
translate, so a run that asks it for 1-bests (the distributional discrepancy) gets a usage
error; give it ``sees_source: false`` or turn ``discrepancy`` off.

The model is built on first use (a few seconds, with a progress bar) and cached under
``$ARENA_CACHE_DIR/target-lm/`` (default ``~/.cache/arena``), keyed by the SHA-256 of the
corpus, the order and the model version.

Source: Gururangan et al. (2018) and Poliak et al. (2018) for hypothesis-only baselines;
Chen & Goodman (1998) for interpolated Kneser–Ney.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from arena.sdk import (
    ArenaError,
    DataError,
    EnvError,
    ExistingFile,
    Judgement,
    Pair,
    ScoreConvention,
    SequenceScore,
    UsageError,
    judgement_from_scores,
)

logger = logging.getLogger(__name__)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = PROJECT_ROOT.parent / "shared" / "data" / "parallel-toy" / "train.de"
MODEL_VERSION = "kn1"


def corpus_path(corpus: str | os.PathLike | None) -> Path:
    """The training corpus: ``corpus`` as given, else the project's shared ``train.de``."""
    path = Path(corpus) if corpus is not None else DEFAULT_CORPUS
    if not path.is_file():
        raise EnvError(
            f"target-lm: training corpus {path} not found", file=path, key="corpus",
            hint="give params.corpus: a German text file, one sentence per line (e.g. ../shared/data/parallel-toy/train.de)",
        )
    return path


def corpus_lines(corpus: Path) -> tuple[str, ...]:
    """The corpus's lines: UTF-8, with at least one word (else a :class:`~arena.errors.DataError`
    naming the file, and the line of a bad byte).  Read once per process and file version: the
    check before a run (:meth:`TargetLMClaude.check_params`) and the build share one read."""
    stat = corpus.stat()
    return _corpus_lines(str(corpus.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=1)
def _corpus_lines(corpus: str, mtime_ns: int, size: int) -> tuple[str, ...]:
    from arena.sdk import read_lines

    lines = tuple(read_lines(Path(corpus), allow_empty=True))
    if not any(line.split() for line in lines):
        raise DataError("target-lm: the training corpus has no words", file=corpus, key="corpus",
                        hint="give params.corpus: a German text file, one sentence per line")
    return lines


def model_key(corpus: Path, order: int) -> str:
    """Digest of what the model depends on: the corpus content, the order, the model version."""
    from performers.claude.fingerprint import file_digest

    return hashlib.sha256(f"{file_digest(corpus)}/{order}/{MODEL_VERSION}".encode()).hexdigest()[:24]


_LOADED: dict[Path, Any] = {}  # models loaded in this process, by cache file (read-only once loaded)


def load_or_build(corpus: Path, order: int, progress: bool = True, cache_dir: Path | None = None) -> Any:
    """The cached model for ``corpus`` and ``order``, built (and cached) when missing."""
    from performers.claude.kneser_ney import KneserNeyLM
    from performers.claude.score_cache import default_cache_dir

    directory = (cache_dir or default_cache_dir()) / "target-lm"
    path = directory / f"{model_key(corpus, order)}.npz"
    if path not in _LOADED:
        _LOADED[path] = KneserNeyLM.load(path) if path.is_file() else build(corpus, order, path, progress)
    return _LOADED[path]


def build(corpus: Path, order: int, path: Path, progress: bool) -> Any:
    """Train the model and cache it at ``path``."""
    from arena.sdk import progress_bar
    from performers.claude.kneser_ney import KneserNeyLM

    directory = path.parent
    logger.info("target-lm: building a %d-gram Kneser-Ney model of %s (once; cached at %s)", order, corpus, path)
    lines = corpus_lines(corpus)
    with progress_bar(len(lines), "target-lm: counting n-grams", enabled=progress, unit="sentence") as bar:
        def sentences():
            for number, line in enumerate(lines, 1):
                if number % 10000 == 0:
                    bar.update(10000)
                yield line
        model = KneserNeyLM.train(sentences(), order=order)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        model.save(temporary)
        os.replace(temporary, path)
    except OSError as error:  # a read-only cache only costs a rebuild next time
        logger.warning("target-lm: cannot cache the model at %s (%s)", path, error)
    return model


class TargetLMClaude:
    """Params: ``corpus`` (German training text, one sentence per line; default the project's
    ``../shared/data/parallel-toy/train.de``), ``order`` (n-gram order 1–3, default 3),
    ``convention`` (``mean`` or ``sum`` of log-probabilities, default ``mean``), ``progress``
    (a progress bar while building, default true)."""

    version = "1"

    @classmethod
    def fingerprint(cls, params: Mapping[str, Any]) -> str:
        return model_key(corpus_path(params.get("corpus")), int(params.get("order", 3)))

    def __init__(
        self,
        corpus: ExistingFile | None = None,
        order: Literal[1, 2, 3] = 3,
        convention: ScoreConvention = "mean",
        progress: bool = True,
    ) -> None:
        if order not in (1, 2, 3):
            raise UsageError(f"target-lm: order must be 1, 2 or 3, not {order!r}", key="order")
        if convention not in ("mean", "sum"):
            raise UsageError(f"target-lm: convention must be mean or sum, not {convention!r}", key="convention")
        self.corpus = corpus_path(corpus)
        self.order = order
        self.convention = convention
        self.model = load_or_build(self.corpus, order, progress=progress)

    def score(self, sources: Sequence[str], targets: Sequence[str]) -> list[SequenceScore]:
        """Log-probability of each target under the German LM; ``sources`` are ignored."""
        return [SequenceScore(float(logs.sum()), len(logs)) for logs in self.model.token_logprobs(list(targets))]

    def judge(self, pairs: Sequence[Pair]) -> list[Judgement]:
        flat = self.score([], [text for pair in pairs for text in pair.candidates])
        result, position = [], 0
        for pair in pairs:
            scores = flat[position : position + len(pair.candidates)]
            position += len(pair.candidates)
            result.append(judgement_from_scores([s.logprob if self.convention == "sum" else s.mean for s in scores]))
        return result

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """:class:`arena.roles.ParamsChecked`: the corpus is there, UTF-8 and holds words,
        checked by ``arena validate`` and ``arena run`` alike before the model is built."""
        try:
            corpus_lines(corpus_path(params.get("corpus")))
        except ArenaError as error:
            return str(error)
        return None

    @classmethod
    def why_untranslating(cls) -> str:
        """:class:`arena.roles.Untranslating`: validate and run refuse it where 1-bests are wanted."""
        return "target-lm is a source-blind language model and cannot translate"

    def translate(self, sources: Sequence[str], beam: int = 5) -> list[str]:
        raise UsageError(
            self.why_untranslating(),
            key="discrepancy",
            hint="give the target-lm Claude sees: {source: false}, or set discrepancy: false",
        )
