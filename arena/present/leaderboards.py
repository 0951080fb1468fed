"""Leaderboards of a run per role (Smith 2012, §7), derived from its transcripts.

- **Claudes by S** (higher is better): S pooled over every round a Claude judged (all
  Johns, Zelligs and seeds), its 95% bootstrap CI, mean ± std of the per-seed S, the
  contrastive accuracy of scoring Claudes, and a paired bootstrap test (Koehn 2004)
  against the next Claude down: both judged the same rounds.
- **Zelligs by S against each Claude** (lower is better: a stronger corruptor fools
  the Claude more often): S pooled over Johns and seeds, CI, mean ± std over seeds,
  yield (share of instances the Zellig applies to), and a paired bootstrap against
  the next Zellig on the instances both apply to (per-instance S, equal weight).
- **Johns by S** (higher is better: for the same Zellig and Claude, his data let the
  Claude find the corruption more often): S pooled over Zelligs, Claudes and seeds,
  CI, mean ± std over seeds; Johns hold different instances, so the comparison with
  the next John is paired over matched (Zellig, Claude, seed) cells: wins, losses and
  a two-sided sign test.

People who judged a run's rounds (``RUN/people/``, :mod:`arena.people`) are Claudes
here (``person:NAME``), and with two or more their majority vote is the Claude
``human`` (left out of the Johns' pooled S, which already holds its voters); ``build``
adds their agreement (Cohen's or Fleiss' kappa).

Every CI and bootstrap resamples *instances* (the rounds of one instance — its k
variants, every Zellig, every seed — move together), with the run's
``bootstrap_samples`` and a fixed seed, so a report is reproducible.  Also here: the
per-phenomenon table of accuracy by reference kind (human vs machine references)
that :mod:`arena.present.plots` draws.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.present.tables import fmt, fmt_ci, render, shorten
from arena.stats import aggregate
from arena.stats.aggregate import Outcome, Tally


def summary(outcomes: Sequence[Outcome], ties: str, samples: int) -> dict[str, Any]:
    """S with its CI, per-seed mean ± std, and contrastive accuracy where scores exist."""
    s = Tally.of(outcomes)
    seeds, s_mean, s_std = aggregate.over_seeds(outcomes)
    entry: dict[str, Any] = {
        "rounds": s.rounds, "instances": len(s.keys), "S": s.rate(), "S_ci95": s.ci(samples),
        "seeds": seeds, "S_mean": s_mean, "S_std": s_std,
    }
    accuracy = Tally.of(outcomes, aggregate.accurate(ties))
    if accuracy.rounds:
        entry["accuracy"] = accuracy.rate()
        entry["accuracy_ci95"] = accuracy.ci(samples)
    return entry


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test (ties dropped)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def _cell_s(outcomes: Sequence[Outcome]) -> dict[tuple[str, str, int], float | None]:
    cells = aggregate.group(outcomes, lambda o: (o.round.zellig, o.judgement.claude, o.round.seed))
    return {key: Tally.of(group).rate() for key, group in cells.items()}


def _ranked(entries: list[dict[str, Any]], descending: bool) -> list[dict[str, Any]]:
    missing = [e for e in entries if e["S"] is None]
    present = sorted((e for e in entries if e["S"] is not None), key=lambda e: e["S"], reverse=descending)
    for rank, entry in enumerate(present, start=1):
        entry["rank"] = rank
    return present + missing


def leaderboards(
    experiment: Mapping[str, Any], outcomes: Mapping[str, Sequence[Outcome]], rounds: Sequence[Any]
) -> dict[str, Any]:
    """The three leaderboards from joined outcomes (see :func:`arena.stats.aggregate.join`)."""
    ties = experiment.get("contrastive_ties", "wrong")
    samples = int(experiment.get("bootstrap_samples", 1000))
    from arena.people.agreement import HUMAN

    claudes = list(outcomes)
    # Johns pool every Claude, people included, but not the people's majority vote (derived from them)
    everything = [o for claude, items in outcomes.items() if claude != HUMAN for o in items]

    claude_rows = []
    for claude in claudes:
        claude_rows.append({"claude": claude, **summary(outcomes[claude], ties, samples)})
    claude_rows = _ranked(claude_rows, descending=True)
    for upper, lower in zip(claude_rows, claude_rows[1:]):
        upper["vs_next"] = Tally.of(outcomes[upper["claude"]]).paired(Tally.of(outcomes[lower["claude"]]), samples)
        if upper["vs_next"] is not None:
            upper["vs_next"]["other"] = lower["claude"]

    applicable: dict[str, set[tuple[str, str]]] = defaultdict(set)
    seen: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for r in rounds:
        seen[r.zellig].add((r.john, r.instance.id))
        if r.status == "ok":
            applicable[r.zellig].add((r.john, r.instance.id))
    zellig_boards = {}
    for claude in claudes:
        by_zellig: dict[str, list[Outcome]] = defaultdict(list)
        for o in outcomes[claude]:
            by_zellig[o.round.zellig].append(o)
        rows = []
        for zellig in dict.fromkeys(r.zellig for r in rounds):
            entry = {"zellig": zellig, **summary(by_zellig.get(zellig, []), ties, samples)}
            entry["yield"] = len(applicable[zellig]) / len(seen[zellig]) if seen[zellig] else None
            rows.append(entry)
        rows = _ranked(rows, descending=False)
        for upper, lower in zip(rows, rows[1:]):
            upper["vs_next"] = Tally.of(by_zellig[upper["zellig"]]).paired(
                Tally.of(by_zellig[lower["zellig"]]), samples, equal_weight=True
            )
            if upper["vs_next"] is not None:
                upper["vs_next"]["other"] = lower["zellig"]
        zellig_boards[claude] = rows

    by_john: dict[str, list[Outcome]] = defaultdict(list)
    for o in everything:
        by_john[o.round.john].append(o)
    john_rows = [{"john": john, **summary(by_john[john], ties, samples)} for john in dict.fromkeys(r.john for r in rounds)]
    john_rows = _ranked(john_rows, descending=True)
    for upper, lower in zip(john_rows, john_rows[1:]):
        left, right = _cell_s(by_john[upper["john"]]), _cell_s(by_john[lower["john"]])
        common = [k for k in left if k in right]
        wins = sum(1 for k in common if left[k] > right[k])
        losses = sum(1 for k in common if left[k] < right[k])
        upper["vs_next"] = {
            "other": lower["john"], "cells": len(common), "wins": wins, "losses": losses,
            "ties": len(common) - wins - losses, "p_value": sign_test(wins, losses),
        }
    return {
        "contrastive_ties": ties,
        "bootstrap_samples": samples,
        "claudes": claude_rows,
        "zelligs": zellig_boards,
        "johns": john_rows,
    }


def phenomenon_accuracy(
    outcomes: Mapping[str, Sequence[Outcome]], ties: str = "wrong", samples: int = 1000
) -> list[dict[str, Any]]:
    """Per Claude, phenomenon and reference kind (``human``/``machine`` from the John's
    instance metadata): contrastive accuracy for scoring Claudes, else S, with a CI."""
    rows = []
    for claude, items in outcomes.items():
        groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
        for o in items:
            if o.round.variant is None:
                continue
            kind = str(o.round.instance.meta.get("reference_kind", "unknown"))
            groups[o.round.variant.phenomenon, kind].append(o)
        for (phenomenon, kind), group in sorted(groups.items()):
            metric, tally = "accuracy", Tally.of(group, aggregate.accurate(ties))
            if not tally.rounds:  # not a scoring Claude
                metric, tally = "S", Tally.of(group)
            rows.append(
                {
                    "claude": claude, "phenomenon": phenomenon, "reference_kind": kind, "metric": metric,
                    "rounds": tally.rounds, "value": tally.rate(), "ci95": tally.ci(samples),
                }
            )
    return rows


def load(run_dir: Path) -> tuple[dict[str, Any], dict[str, list[Outcome]], list[Any]]:
    """A run's experiment, outcomes per Claude (config order, then the people who
    judged its rounds and their majority vote, the ``human`` Claude) and rounds."""
    from arena.people import agreement, store

    manifest, rounds, judgements, one_bests = aggregate.read_run(Path(run_dir))
    people = store.read_judgements(Path(run_dir))
    judgements = [*judgements, *people, *agreement.majority_vote(rounds, people)]
    outcomes = aggregate.join(rounds, judgements, one_bests, counted_only=True)  # a game: evaluation rounds
    return manifest, dict(outcomes), rounds


def build(run_dir: Path) -> dict[str, Any]:
    """Leaderboards, the people's agreement and the per-phenomenon table of a run directory."""
    from arena.people import agreement, store
    from arena.specs.signature import run_signature

    manifest, outcomes, rounds = load(run_dir)
    experiment = manifest["experiment"]
    boards = leaderboards(experiment, outcomes, rounds)
    boards["agreement"] = agreement.agreement(store.read_judgements(Path(run_dir)))
    boards["phenomena"] = phenomenon_accuracy(
        outcomes, experiment.get("contrastive_ties", "wrong"), int(experiment.get("bootstrap_samples", 1000))
    )
    boards["signature"] = run_signature(manifest, (r.to_json() for r in rounds))
    return boards


def _vs(entry: Mapping[str, Any]) -> str:
    test = entry.get("vs_next")
    if not test:
        return "-"
    if "wins" in test:
        return f"{test['wins']}-{test['losses']} of {test['cells']} cells, p={fmt(test['p_value'])}"
    return f"Δ={test['delta']:+.3f} [{fmt(test['low'])}, {fmt(test['high'])}] p={fmt(test['p_value'])}"


def _mean_std(entry: Mapping[str, Any]) -> str:
    if entry.get("S_mean") is None:
        return "-"
    return f"{fmt(entry['S_mean'])} ± {fmt(entry['S_std'])}"


# entries with fewer rounds are marked in the text leaderboards, as the plots grey and hatch them
FEW_ROUNDS = 30


def _n(rounds: Any) -> Any:
    return f"{rounds}*" if isinstance(rounds, int) and rounds < FEW_ROUNDS else rounds


def format_leaderboards(boards: Mapping[str, Any], width: int = 36) -> str:
    """Plain-text leaderboards (what ``arena tournament`` and ``arena leaderboard`` print)."""
    parts = ["Claudes by S (higher is better; vs next: paired bootstrap on the same rounds)"]
    rows = [
        [e.get("rank", "-"), shorten(e["claude"], width), _n(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")),
         _mean_std(e), e["seeds"], e.get("accuracy"), _vs(e)]
        for e in boards["claudes"]
    ]
    parts.append(render(["#", "claude", "rounds", "S", "S 95% CI", "S over seeds", "seeds", "acc", "vs next"],
                        rows, align="rlrrllrrl"))
    for claude, entries in boards["zelligs"].items():
        parts += ["", f"Zelligs by S against {claude} (lower is better; vs next: paired bootstrap on common instances)"]
        rows = [
            [e.get("rank", "-"), shorten(e["zellig"], width), _n(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")),
             _mean_std(e), e.get("yield"), _vs(e)]
            for e in entries
        ]
        parts.append(render(["#", "zellig", "rounds", "S", "S 95% CI", "S over seeds", "yield", "vs next"],
                            rows, align="rlrrllrl"))
    parts += ["", "Johns by S (higher is better; vs next: sign test over matched (Zellig, Claude, seed) cells)"]
    rows = [
        [e.get("rank", "-"), shorten(e["john"], width), _n(e["rounds"]), e["S"], fmt_ci(e.get("S_ci95")), _mean_std(e), _vs(e)]
        for e in boards["johns"]
    ]
    parts.append(render(["#", "john", "rounds", "S", "S 95% CI", "S over seeds", "vs next"], rows, align="rlrrlll"))
    if boards.get("agreement"):
        parts += ["", "Agreement of people (candidate judged corrupted, on the rounds all of them answered in time)"]
        rows = [
            [", ".join(e["people"]), e["rounds"], e["observed"], e["kappa"], e["measure"]]
            for e in boards["agreement"]
        ]
        parts.append(render(["people", "rounds", "agreement", "kappa", "measure"], rows, align="lrrrl"))
    entries = [*boards["claudes"], *(e for v in boards["zelligs"].values() for e in v), *boards["johns"]]
    if any(isinstance(e.get("rounds"), int) and e["rounds"] < FEW_ROUNDS for e in entries):
        parts += ["", f"* fewer than {FEW_ROUNDS} rounds: too few to rank with confidence (greyed in the plots)"]
    parts += [
        "",
        f"CIs and tests: {boards['bootstrap_samples']} bootstrap samples over instances; "
        f"contrastive ties count as {boards['contrastive_ties']}",
    ]
    if boards.get("signature"):
        parts.append(f"signature: {boards['signature']}")
    return "\n".join(parts)


REPORT_DIR = "report"


def write_report(run_dir: Path, plots: bool = True) -> dict[str, Path]:
    """Write ``report/leaderboard.json``, ``report/leaderboard.txt`` and (with
    ``plots``) the PNG plots into a run directory; return the paths written."""
    run_dir = Path(run_dir)
    boards = build(run_dir)
    directory = run_dir / REPORT_DIR
    directory.mkdir(exist_ok=True)
    from arena.engine import transcripts

    paths = {"json": directory / "leaderboard.json", "text": directory / "leaderboard.txt"}
    transcripts.atomic_write_text(paths["json"], json.dumps(boards, ensure_ascii=False, indent=2) + "\n")
    transcripts.atomic_write_text(paths["text"], format_leaderboards(boards) + "\n")
    if plots:
        from arena.present import plots as plotting

        scores = json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8"))
        paths["s_heatmap"] = plotting.s_heatmap(scores, directory / "s_zellig_claude.png")
        if boards["phenomena"]:
            paths["phenomena"] = plotting.phenomena_by_reference(boards["phenomena"], directory / "phenomena_human_vs_mt.png")
        curves = game_curves(json.loads((run_dir / transcripts.SCORES).read_text(encoding="utf-8")))
        if curves:  # a game: S over rounds and its convergence
            paths["timeline"] = plotting.timeline(curves, directory / "timeline.png")
            paths["convergence"] = plotting.convergence(curves, directory / "convergence.png")
    return paths


def game_curves(scores: Mapping[str, Any], prefix: str = "") -> list[tuple[str, Mapping[str, Any]]]:
    """``(label, timeline)`` of every cell of a game's ``scores.json`` (none for a
    schedule-less run); the label names what differs between cells."""
    cells = [cell for cell in scores.get("cells", []) if cell.get("timeline")]
    varying = [key for key in ("john", "zellig", "claude", "seed") if len({str(c[key]) for c in cells}) > 1]
    return [
        (prefix + (" ".join(shorten(str(cell[key]), 24) for key in varying) or shorten(str(cell["claude"]), 24)),
         cell["timeline"])
        for cell in cells
    ]
