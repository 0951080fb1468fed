"""Token-level views of a finished run's pairs (``arena show --tokens``, ``arena report --tokens``).

A run's transcripts hold sequence scores only.  On request, the run's scoring Claudes are
built again from its manifest and score the chosen rounds' two candidates token by token
(:class:`arena.roles.TokenScorer`); the aligned rows and the token the decision turned on
(:mod:`arena.tokens`) are kept in ``RUN/report/tokens.jsonl``, one line per (Claude,
round), so that the report shows them beside the misjudged pairs without loading a
model again.  A Claude that gives no per-token scores (``random``, people) is skipped and
counted in the log.  Claudes that do not see the source score with an empty one, as in
the run.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from arena.codec import dump, load
from arena.specs.yamlio import iter_jsonl, load_json

log = logging.getLogger(__name__)

TOKENS_FILE = Path("report") / "tokens.jsonl"


def claude_specs(run_dir: Path) -> dict[str, Any]:
    """The run's Claude specs by label, from its manifest."""
    from arena.record.manifest import parse
    from arena.specs.spec import spec_from_mapping

    path = Path(run_dir) / "manifest.json"
    manifest = parse(load_json(path), path)
    specs = [spec_from_mapping(entry, where="manifest claudes") for entry in manifest.experiment["claudes"]]
    return {spec.label: spec for spec in specs}


def load_tokens(run_dir: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """The stored token views of a run, by (Claude label, round id); empty when none."""
    path = Path(run_dir) / TOKENS_FILE
    if not path.is_file():
        return {}
    records = [record for _, record in iter_jsonl(path)]
    return {(r["claude"], r["round"]): r for r in records}


def compute_tokens(run_dir: Path, items: Iterable[Mapping[str, str]], catalog: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """Token views of ``items`` (``claude``, ``round``, ``source``, ``reference``, ``corrupted``),
    reusing stored ones, stored again with the new ones; returns all views by (Claude, round).
    ``catalog``: the performers' catalog (the CLI's)."""
    from arena.roles import TokenScorer
    from arena.specs.registry import build

    run_dir = Path(run_dir)
    stored = load_tokens(run_dir)
    missing: dict[str, list[Mapping[str, str]]] = {}
    for item in items:
        if (item["claude"], item["round"]) not in stored:
            missing.setdefault(item["claude"], []).append(item)
    if not missing:
        return stored
    specs = claude_specs(run_dir)
    skipped = 0
    for label, wanted in missing.items():
        spec = specs.get(label)
        claude = build("claude", spec, catalog, where=f"claude {label}") if spec is not None else None
        if spec is None or claude is None or not isinstance(claude, TokenScorer):
            skipped += len(wanted)
            continue
        sources = [item["source"] if spec.sees_source else "" for item in wanted for _ in (0, 1)]
        targets = [text for item in wanted for text in (item["reference"], item["corrupted"])]
        scores = claude.token_scores(sources, targets)
        for index, item in enumerate(wanted):
            stored[(label, item["round"])] = view(label, item["round"], scores[2 * index], scores[2 * index + 1])
    if skipped:
        log.info("token views: %d pairs of Claudes without per-token scores skipped", skipped)
    path = run_dir / TOKENS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    from arena.formats.textlines import write_text_atomic

    write_text_atomic(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in stored.values()))
    return stored


def view(claude: str, round_id: str, correct, incorrect) -> dict[str, Any]:
    """One stored token view: the aligned rows, the blamed row's index and a one-line summary."""
    from arena.tokens import align, blame, summary

    rows = align(correct, incorrect)
    blamed = blame(rows)
    return {
        "claude": claude, "round": round_id, "rows": [dump(row) for row in rows],
        "blame": None if blamed is None else rows.index(blamed), "summary": summary(rows),
    }


def render_view(record: Mapping[str, Any]) -> str:
    """A stored view as the text table of :func:`arena.tokens.render`."""
    from arena.tokens import TokenRow, render

    rows = [load(TokenRow, r) for r in record["rows"]]
    mark = rows[record["blame"]] if record.get("blame") is not None else None
    return render(rows, mark=mark)
