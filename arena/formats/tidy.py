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
  (:func:`arena.present.leaderboards.build`).

Nothing is aggregated here: ``cells`` and ``leaderboards`` are flattened from what
:mod:`arena.stats.metrics` and :mod:`arena.present.leaderboards` computed.  Metadata values that are not
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

TIDY_FORMATS = ("csv", "parquet", "jsonl")
TABLES = ("rounds", "cells", "leaderboards")
# numeric columns that may be empty throughout (a run without scoring Claudes)
_FLOAT_COLUMNS = ("score_correct", "score_corrupted", "one_best_score", "accuracy", "accuracy_low", "accuracy_high",
                  "discrepancy", "generative_rate", "S", "S_low", "S_high", "S_mean", "S_std", "yield",
                  "vs_next_delta", "vs_next_low", "vs_next_high", "vs_next_p")
_SCALAR = (str, int, float, bool)


def _scalars(prefix: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    return {f"{prefix}.{key}": value for key, value in meta.items() if value is None or isinstance(value, _SCALAR)}


def round_rows(run_dir: Path) -> list[dict[str, Any]]:
    """One record per judged round × Claude (see the module docstring)."""
    from arena.present.leaderboards import load

    run_dir = Path(run_dir)
    _, outcomes_by_claude, _ = load(run_dir)
    rows = []
    for claude, outcomes in outcomes_by_claude.items():
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


def cell_rows(scores: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One record per cell of ``scores.json``."""
    rows = []
    for c in scores.get("cells", []):
        rate = c.get("generative_rate") or {}
        rows.append({
            "john": c["john"], "zellig": c["zellig"], "claude": c["claude"], "seed": c["seed"],
            "rounds": c["rounds"], "correct": c["correct"], "S": c["S"],
            "S_low": _ci(c.get("S_ci95"), 0), "S_high": _ci(c.get("S_ci95"), 1),
            "accuracy": c.get("accuracy"),
            "accuracy_low": _ci(c.get("accuracy_ci95"), 0), "accuracy_high": _ci(c.get("accuracy_ci95"), 1),
            "ties": c.get("ties"), "discrepancy": c.get("discrepancy"),
            "generative_rate": rate.get("rate"), "generative_detected": rate.get("detected"),
            "generative_sources": rate.get("sources"),
            "yield": c["yield"]["share"], "instances": c["yield"]["instances"],
            "applicable": c["yield"]["applicable"],
            "signature": scores.get("signature", ""),
        })
    return rows


def leaderboard_rows(boards: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One record per leaderboard entry: ``board`` is ``claudes``, ``zelligs`` (ranked
    against the Claude in ``against``) or ``johns``."""
    entries: list[tuple[str, str | None, str, Mapping[str, Any]]] = []
    entries += [("claudes", None, e["claude"], e) for e in boards["claudes"]]
    entries += [("zelligs", claude, e["zellig"], e) for claude, items in boards["zelligs"].items() for e in items]
    entries += [("johns", None, e["john"], e) for e in boards["johns"]]
    rows = []
    for board, against, name, e in entries:
        test = e.get("vs_next") or {}
        rows.append({
            "board": board, "against": against, "rank": e.get("rank"), "name": name,
            "rounds": e["rounds"], "instances": e.get("instances"), "S": e["S"],
            "S_low": _ci(e.get("S_ci95"), 0), "S_high": _ci(e.get("S_ci95"), 1),
            "S_mean": e.get("S_mean"), "S_std": e.get("S_std"), "seeds": e.get("seeds"),
            "accuracy": e.get("accuracy"),
            "accuracy_low": _ci(e.get("accuracy_ci95"), 0), "accuracy_high": _ci(e.get("accuracy_ci95"), 1),
            "yield": e.get("yield"), "vs_next": test.get("other"),
            "vs_next_delta": test.get("delta"), "vs_next_low": test.get("low"), "vs_next_high": test.get("high"),
            "vs_next_p": test.get("p_value"), "vs_next_wins": test.get("wins"), "vs_next_losses": test.get("losses"),
            "signature": boards.get("signature", ""),
        })
    return rows


def frame(rows: Iterable[Mapping[str, Any]]):
    """A pandas DataFrame of records; metadata columns that mix kinds become text."""
    import pandas as pd

    data = pd.DataFrame(list(rows))
    for column in _FLOAT_COLUMNS:
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
    """The three tables of a finished run as pandas DataFrames."""
    from arena.engine import transcripts
    from arena.present.leaderboards import build

    run_dir = Path(run_dir)
    if not transcripts.is_finished(run_dir):
        raise UsageError(f"{run_dir}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
    scores = transcripts.read_json(run_dir / transcripts.SCORES)
    return {
        "rounds": frame(round_rows(run_dir)),
        "cells": frame(cell_rows(scores)),
        "leaderboards": frame(leaderboard_rows(build(run_dir))),
    }


def write_tables(run_dir: Path, out: Path, format: str, force: bool = False) -> dict[str, Path]:
    """Write ``rounds``, ``cells`` and ``leaderboards`` of a run into ``out`` as
    ``NAME.csv``, ``NAME.parquet`` or ``NAME.jsonl``; returns the paths."""
    from arena.engine import transcripts

    if format not in TIDY_FORMATS:
        raise UsageError(f"unknown tidy format {format!r}; formats: {', '.join(TIDY_FORMATS)}")
    out = Path(out)
    paths = {name: out / f"{name}.{format}" for name in TABLES}
    existing = [str(path) for path in paths.values() if path.exists()]
    if existing and not force:
        raise UsageError(f"{existing[0]} exists; pass --force to overwrite ({len(existing)} file(s) would be replaced)")
    data = tables(run_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, path in paths.items():
        table = data[name]
        if format == "csv":
            transcripts.atomic_write_text(path, table.to_csv(index=False))
        elif format == "jsonl":
            transcripts.atomic_write_text(path, table.to_json(orient="records", lines=True, force_ascii=False))
        else:
            temporary = path.with_name(f".{path.name}.partial")
            table.to_parquet(temporary, index=False)
            temporary.replace(path)
    return paths
