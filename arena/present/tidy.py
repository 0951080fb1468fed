"""Tidy tables of a run, for pandas, R and spreadsheets (``arena export --format csv|parquet|jsonl``).

Three tables, each loadable with one ``pandas.read_csv`` / ``read_parquet`` /
``read_json(..., lines=True)`` call; their columns are documented in ``docs/exports.md``:

- ``rounds``: one row per judged round × Claude (people who judged with ``arena play``
  or ``arena serve``, and their majority, count as Claudes) — the round joined with the Claude's
  judgement and 1-best: ids, John, Zellig, Claude, seed, phenomenon, the texts, the
  choice, whether it was correct, the scores, and one column per scalar metadata key
  of the instance (``john.<key>``) and of the variant (``variant.<key>``);
- ``cells``: one row per (John, Zellig, Claude, seed) from ``scores.json``;
- ``leaderboards``: one row per entry of the three leaderboards
  (:func:`arena.stats.leaderboards.build`).

Nothing is aggregated here: ``cells`` and ``leaderboards`` are flattened from the typed
results (:mod:`arena.stats.results`) that :mod:`arena.stats.metrics` and
:mod:`arena.stats.leaderboards` computed; every registered metric
(:mod:`arena.stats.registry`) is a column ``NAME`` (with ``NAME_low`` and ``NAME_high``
where it has a CI, and the counts it writes beside it) of both.  The run is read once.  Metadata values that are not
scalars (lists, mappings) are left out of the columns (they stay in ``rounds.jsonl``);
a metadata column whose values mix kinds (numbers and text) is written as text, so
that every column has one type.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.errors import UsageError
from arena.stats import registry
from arena.stats.leaderboards import Leaderboards, SignTest, Standing
from arena.stats.registry import MetricValue
from arena.stats.results import Scores
from arena.stats.run import RunData

TIDY_FORMATS = ("csv", "parquet", "jsonl")
# numeric columns that may be empty throughout (a run without scoring Claudes); and every metric's
_FLOAT_COLUMNS = ("score_correct", "score_corrupted", "one_best_score", "generative_rate", "S", "S_low", "S_high",
                  "S_mean", "S_std", "yield", "vs_next_delta", "vs_next_low", "vs_next_high", "vs_next_p")
_SCALAR = (str, int, float, bool)


def float_columns() -> tuple[str, ...]:
    """The numeric columns that may be empty throughout: the fixed ones and every registered metric's."""
    metric_columns = [c for m in registry.metrics() for c in ((m.name, f"{m.name}_low", f"{m.name}_high")
                                                              if m.ci else (m.name,))]
    return (*_FLOAT_COLUMNS, *metric_columns)


def metric_columns(values: Sequence[MetricValue], metrics: Sequence[registry.Metric]) -> dict[str, Any]:
    """The columns of ``metrics`` (empty where a group does not define one)."""
    found = {v.name: v for v in values}
    row: dict[str, Any] = {}
    for metric in metrics:
        value = found.get(metric.name)
        row[metric.name] = value.value if value else None
        if metric.ci:
            row[f"{metric.name}_low"] = _ci(value.ci95 if value else None, 0)
            row[f"{metric.name}_high"] = _ci(value.ci95 if value else None, 1)
        counts = dict(value.counts) if value else {}
        row.update({key: counts.get(key) for key in metric.counts})
    return row


def _scalars(prefix: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    return {f"{prefix}.{key}": value for key, value in meta.items() if value is None or isinstance(value, _SCALAR)}


def round_rows(run: RunData | Path) -> list[dict[str, Any]]:
    """One record per judged round × Claude (see the module docstring)."""
    run = run if isinstance(run, RunData) else RunData.open(run)
    run_dir = run.run_dir
    rows = []
    for claude, outcomes in run.outcomes.items():
        for o in outcomes:
            r, j, variant = o.round, o.judgement, o.round.variant
            scores = o.scores
            row = {
                "run": run_dir.name, "round": r.id, "seed": r.seed, "john": r.john, "zellig": r.zellig,
                "claude": claude, "instance": r.instance.id, "status": r.status,
                "phenomenon": variant.phenomenon if variant is not None else None,
                "source": r.instance.source, "reference": r.instance.reference,
                "corrupted_text": variant.text if variant is not None else None,
                "edits": json.dumps([[e.start, e.end, e.before, e.after] for e in variant.edits], ensure_ascii=False)
                if variant is not None else None,
                "candidates": r.n_candidates, "corrupted_position": r.corrupted,
                "choice": j.choice, "claude_choice": j.claude_choice, "resolved_by": j.resolved_by,
                "correct": bool(j.correct),
                "score_correct": scores[0] if scores is not None else None,
                "score_corrupted": scores[1] if scores is not None else None,
                "one_best": o.one_best.translation if o.one_best is not None else None,
                "one_best_score": o.one_best.score if o.one_best is not None else None,
            }
            row.update(_scalars("john", r.instance.meta))
            if variant is not None:
                row.update(_scalars("variant", variant.meta))
            rows.append(row)
    return rows


def _ci(value: Sequence[float] | None, index: int) -> float | None:
    return value[index] if value else None


def cell_rows(scores: Scores) -> list[dict[str, Any]]:
    """One record per cell of ``scores.json``."""
    rows = []
    for c in scores.cells:
        rate, summary = c.generative_rate, c.summary
        rows.append({
            "john": c.john, "zellig": c.zellig, "claude": c.claude, "seed": c.seed,
            "rounds": summary.rounds, "judged": summary.judged, "correct": summary.correct, "S": summary.S,
            "S_low": _ci(summary.S_ci95, 0), "S_high": _ci(summary.S_ci95, 1),
            **metric_columns(summary.metrics, registry.metrics()),
            "generative_rate": rate.rate if rate else None, "generative_detected": rate.detected if rate else None,
            "generative_sources": rate.sources if rate else None,
            "yield": c.yield_.share, "instances": c.yield_.instances, "applicable": c.yield_.applicable,
            "signature": scores.signature,
        })
    return rows


def _versus_columns(test: Any) -> dict[str, Any]:
    bootstrap = None if test is None or isinstance(test, SignTest) else test.test
    sign = test if isinstance(test, SignTest) else None
    return {
        "vs_next": test.other if test is not None else None,
        "vs_next_delta": bootstrap.delta if bootstrap else None, "vs_next_low": bootstrap.low if bootstrap else None,
        "vs_next_high": bootstrap.high if bootstrap else None,
        "vs_next_p": test.p_value if sign else (bootstrap.p_value if bootstrap else None),
        "vs_next_wins": sign.wins if sign else None, "vs_next_losses": sign.losses if sign else None,
    }


def leaderboard_rows(boards: Leaderboards) -> list[dict[str, Any]]:
    """One record per leaderboard entry: ``board`` is ``claudes``, ``zelligs`` (ranked
    against the Claude in ``against``) or ``johns``."""
    entries: list[tuple[str, str | None, str, Standing, int | None, float | None, Any]] = []
    entries += [("claudes", None, e.claude, e.standing, e.rank, None, e.vs_next) for e in boards.claudes]
    entries += [("zelligs", claude, e.zellig, e.standing, e.rank, e.yield_, e.vs_next)
                for claude, items in boards.zelligs.items() for e in items]
    entries += [("johns", None, e.john, e.standing, e.rank, None, e.vs_next) for e in boards.johns]
    rows = []
    for board, against, name, e, rank, share, test in entries:
        rows.append({
            "board": board, "against": against, "rank": rank, "name": name,
            "rounds": e.rounds, "instances": e.instances, "S": e.S,
            "S_low": _ci(e.S_ci95, 0), "S_high": _ci(e.S_ci95, 1),
            "S_mean": e.S_mean, "S_std": e.S_std, "seeds": e.seeds,
            **metric_columns(e.metrics, registry.leaderboard_metrics()),
            "yield": share, **_versus_columns(test),
            "signature": boards.signature,
        })
    return rows


def frame(rows: Iterable[Mapping[str, Any]]):
    """A pandas DataFrame of records; metadata columns that mix kinds become text."""
    import pandas as pd

    data = pd.DataFrame(list(rows))
    for column in float_columns():
        if column in data.columns:
            data[column] = data[column].astype("float64")
    for column in data.columns:
        if not column.startswith(("john.", "variant.")):
            continue
        kinds = {type(v) for v in data[column] if v is not None and v == v}
        if len(kinds) > 1 and not kinds <= {int, float}:
            data[column] = [None if v is None or v != v else str(v) for v in data[column]]
    return data


def tables(run_dir: Path) -> dict[str, Any]:
    """The three tables of a finished run as pandas DataFrames (the run read once)."""
    from arena.stats.leaderboards import build
    from arena.stats.results import read_scores

    run = RunData.open(run_dir, finished=True)
    scores = read_scores(run.run_dir)
    data = {
        "rounds": frame(round_rows(run)),
        "cells": frame(cell_rows(scores)),
        "leaderboards": frame(leaderboard_rows(build(run))),
    }
    tokens = token_rows(run.run_dir)
    if tokens:
        data["tokens"] = frame(tokens)
    return data


def token_rows(run_dir: Path) -> list[dict[str, Any]]:
    """One row per aligned token of the token views ``arena report --tokens`` or ``arena show
    --tokens`` stored in ``RUN/report/tokens.jsonl`` (none: no rows, no ``tokens`` table)."""
    from arena.run_tokens import load_tokens

    rows = []
    for (claude, round_id), view in sorted(load_tokens(run_dir).items()):
        for position, row in enumerate(view["rows"]):
            rows.append({"claude": claude, "round": round_id, "position": position, "correct": row["correct"],
                         "incorrect": row["incorrect"], "logprob_correct": row["logprob_correct"],
                         "logprob_incorrect": row["logprob_incorrect"], "delta": row["delta"],
                         "changed": row["changed"], "blamed": view.get("blame") == position})
    return rows


def write_tables(run_dir: Path, out: Path, format: str, force: bool = False) -> dict[str, Path]:
    """Write ``rounds``, ``cells`` and ``leaderboards`` of a run (and ``tokens`` where the run
    has stored token views) into ``out`` as ``NAME.csv``, ``NAME.parquet`` or ``NAME.jsonl``;
    returns the paths."""
    from arena.formats.tables import FORMATS

    if format not in TIDY_FORMATS:
        raise UsageError(f"unknown tidy format {format!r}; formats: {', '.join(TIDY_FORMATS)}")
    out = Path(out)
    data = tables(run_dir)
    paths = {name: out / f"{name}.{format}" for name in data}
    existing = [str(path) for path in paths.values() if path.exists()]
    if existing and not force:
        raise UsageError(f"{existing[0]} exists; pass --force to overwrite ({len(existing)} file(s) would be replaced)")
    out.mkdir(parents=True, exist_ok=True)
    for name, path in paths.items():
        FORMATS[format].write(data[name], path)
    return paths
