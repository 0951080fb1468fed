"""Score one's own minimal pairs from Python (and ``arena score-pairs --pairs``); the public
functions are :func:`arena.score_pairs` and :func:`arena.run_pairs` (:mod:`arena.api`, which
hands the catalog down).

::

    import arena

    frame = arena.score_pairs("experiments/own-pairs/pairs.tsv", claude="toy-en-de", tokens=True)
    frame[["id", "score_correct", "score_incorrect", "decision", "blame"]]
    run = arena.run_pairs(frame[["source", "correct", "incorrect", "phenomenon"]],
                          claude=["toy-en-de", "random"], out="runs/notebook")
    run.leaderboards

``pairs`` is a path (TSV, CSV, JSONL, Parquet, a ``datasets`` directory), a pandas
DataFrame or a list of dicts with ``source``, ``correct`` and ``incorrect`` (names
mapped with ``columns``; see :mod:`arena.formats.pairs`).  One row per pair comes back:

- ``id``, ``source``, ``correct``, ``incorrect``;
- ``score_correct``, ``score_incorrect``: the scores the Claude judges by (its
  ``convention``: mean log-probability per token by default, as DistilLingEval);
- ``logprob_correct``/``logprob_incorrect`` (sums) and ``length_correct``/``length_incorrect``
  (tokens scored, end-of-sentence token included);
- ``decision``: ``correct`` when the correct candidate scores higher, ``incorrect`` when
  lower, ``tie`` when equal; ``correct_preferred``: ``decision == "correct"`` (a tie is
  ``False`` here, as in the arena's default ``contrastive_ties: wrong``; DistilLingEval's
  script counts ties as right);
- every other column of the input (the pair's metadata);
- with ``tokens=True``: ``tokens_correct``/``tokens_incorrect`` (subword pieces),
  ``logprobs_correct``/``logprobs_incorrect`` (their log-probabilities), ``blame`` (the
  aligned token that pushed the decision, see :mod:`arena.tokens`) and ``blame_delta``.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.errors import UsageError
from arena.formats.pairs import OwnPair, load_pairs

log = logging.getLogger(__name__)

DECISIONS = ("correct", "incorrect", "tie")


def scoring_claude(claude: Any, catalog: Any, *, where: str = "claude", overrides: Mapping[str, Any] | None = None):
    """A scoring Claude from a SPEC string, a ``{name, params}`` mapping or a built Claude
    (``catalog``: the performers' catalog, which the API and the CLI hand down);
    ``overrides`` (``batch_tokens``, ``device``, ``dtype``) are checked against its constructor."""
    if not isinstance(claude, (str, Mapping)):
        built = claude
        label = type(claude).__name__
    else:
        from arena.specs.registry import build, validate
        from arena.specs.spec import PerformerSpec, spec_from_mapping

        spec = spec_from_mapping(claude, where=where)
        cls = validate("claude", spec, catalog, where=where)
        params = dict(spec.params)
        for key, value in (overrides or {}).items():
            if value is None:
                continue
            import inspect

            if key not in inspect.signature(cls).parameters:
                raise UsageError(f"{cls.__name__} has no parameter {key!r}", key=f"--{key.replace('_', '-')}")
            params[key] = value
        built = build("claude", PerformerSpec(spec.name, params), catalog, where=where)
        label = spec.label
    if not callable(getattr(built, "score", None)):
        raise UsageError(f"{label} has no score() method: scoring pairs needs a scoring Claude", key=where,
                         hint="e.g. toy-en-de, hf-seq2seq:model=..., ctranslate2:model=...")
    return built


def score_rows(pairs: Sequence[OwnPair], claude: Any, *, tokens: bool = False) -> list[dict[str, Any]]:
    """One plain dict per pair (the columns of :func:`score_pairs`), scored by a built Claude."""
    from arena.roles import TokenScorer

    sources = [pair.source for pair in pairs for _ in (0, 1)]
    targets = [text for pair in pairs for text in (pair.correct, pair.incorrect)]
    convention = getattr(claude, "convention", "mean")
    token_scores = None
    if tokens:
        if not isinstance(claude, TokenScorer):
            raise UsageError(f"{type(claude).__name__} gives no per-token scores", key="tokens",
                             hint="toy-en-de, hf-seq2seq and ctranslate2 do")
        token_scores = claude.token_scores(sources, targets)
        scores = [token.score for token in token_scores]  # the same numbers, one pass instead of two
    else:
        scores = claude.score(sources, targets)
    rows = []
    for index, pair in enumerate(pairs):
        good, bad = scores[2 * index], scores[2 * index + 1]
        value_good = good.logprob if convention == "sum" else good.mean
        value_bad = bad.logprob if convention == "sum" else bad.mean
        decision = "correct" if value_good > value_bad else "incorrect" if value_good < value_bad else "tie"
        row: dict[str, Any] = {
            "id": pair.id, "source": pair.source, "correct": pair.correct, "incorrect": pair.incorrect,
            "score_correct": value_good, "score_incorrect": value_bad,
            "logprob_correct": good.logprob, "logprob_incorrect": bad.logprob,
            "length_correct": good.tokens, "length_incorrect": bad.tokens,
            "decision": decision, "correct_preferred": decision == "correct",
        }
        if token_scores is not None:
            row.update(token_columns(token_scores[2 * index], token_scores[2 * index + 1]))
        for key, value in pair.meta.items():
            row.setdefault(key, value)
        rows.append(row)
    return rows


def token_columns(correct, incorrect) -> dict[str, Any]:
    """The token columns of one pair (see the module docstring)."""
    from arena.tokens import align, blame

    rows = align(correct, incorrect)
    blamed = blame(rows)
    return {
        "tokens_correct": list(correct.tokens), "logprobs_correct": list(correct.logprobs),
        "tokens_incorrect": list(incorrect.tokens), "logprobs_incorrect": list(incorrect.logprobs),
        "blame": None if blamed is None else f"{blamed.correct} / {blamed.incorrect}",
        "blame_delta": None if blamed is None else blamed.delta,
    }


def score_pairs(pairs: Any, claude: Any, catalog: Any, *, tokens: bool = False,
                columns: str | Mapping[str, str] | None = None):
    """Score minimal pairs with one scoring Claude; a pandas DataFrame, one row per pair
    (columns in the module docstring).  ``claude``: a SPEC (``"toy-en-de"``,
    ``"hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de"``), a ``{name, params}`` mapping, or a
    Claude built before (to score several sets without loading the model again)."""
    import pandas as pd

    rows = score_rows(load_pairs(pairs, columns), scoring_claude(claude, catalog), tokens=tokens)
    return pd.DataFrame(rows)


def run_pairs(pairs: Any, claude: str | Sequence[str], play: Any, *, columns: str | Mapping[str, str] | None = None,
              out: str | Path = "runs", name: str = "pairs", options: Mapping[str, Any] | None = None, **kwargs):
    """Play the pairs in the arena (the ``pairs`` John and the ``replay`` Zellig) against
    one or several Claudes, as ``arena run`` does, and return the :class:`arena.api.Run`
    (``.leaderboards``, ``.cells``, ``.to_frame()``).  A DataFrame or list of dicts is
    written to ``OUT/pairs/<digest>.jsonl`` first, so that the run directory can be
    reproduced from files; ``play`` is :func:`arena.run`, ``kwargs`` go to it (``report``, ``progress``)."""
    if isinstance(pairs, (str, Path)):
        path = Path(pairs)
        load_pairs(path, columns)  # bad files fail here, before any model loads
    else:
        path = write_pairs_jsonl(load_pairs(pairs, columns), Path(out) / "pairs")
        columns = None
    params: dict[str, Any] = {"path": str(path)}
    if columns:
        params["columns"] = dict(columns) if isinstance(columns, Mapping) else columns
    config = {
        "name": name,
        "johns": [{"name": "pairs", "alias": name, "params": params}],
        "zelligs": ["replay"],
        "claudes": [claude] if isinstance(claude, (str, Mapping)) else list(claude),
        **dict(options or {}),
    }
    return play(config, out=out, **kwargs)


def write_pairs_jsonl(pairs: Sequence[OwnPair], directory: Path) -> Path:
    """The pairs as a JSONL file named by a digest of its content (written once)."""
    from arena.formats.textlines import write_text_atomic

    lines = [json.dumps({"id": p.id, "source": p.source, "correct": p.correct, "incorrect": p.incorrect, **p.meta},
                        ensure_ascii=False, sort_keys=False) for p in pairs]
    text = "".join(line + "\n" for line in lines)
    path = directory / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:12]}.jsonl"
    if not path.exists():
        directory.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
    return path
