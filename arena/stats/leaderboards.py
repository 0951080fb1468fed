"""Leaderboards of a run per role (Smith 2012, §7), as typed records.

- **Claudes by S** (higher is better): S pooled over every round a Claude judged (all
  Johns, Zelligs and seeds), its 95% bootstrap CI, mean ± std of the per-seed S, every
  registered leaderboard metric (:mod:`arena.stats.registry`; contrastive accuracy of
  scoring Claudes, S net of cues), and a paired bootstrap test (Koehn 2004) against the next Claude
  down: both judged the same rounds.  A Claude that abstained (a seeded coin answered for it) and
  answered fewer than 30 rounds of some cell is shown without a rank, with the reason.
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
``human`` (left out of the Johns' pooled S, which already holds its voters);
:func:`build` adds their agreement (Cohen's or Fleiss' kappa) and the per-phenomenon
table by reference kind (human vs machine references).

Every CI and bootstrap resamples *instances*, with the run's ``bootstrap_samples`` and
a fixed seed, so a report is reproducible.  The console and report renderings are in
:mod:`arena.present`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field

from arena.stats import aggregate, registry
from arena.stats.aggregate import Outcome, Tally
from arena.stats.registry import MetricValue
from arena.stats.results import Bootstrap
from arena.stats.run import RunData
from arena.stats.typed import FLAT, OMIT_EMPTY, OMIT_NONE, Result


@dataclass(frozen=True)
class Standing(Result):
    """S of a leaderboard entry's rounds with its CI, over seeds, and the leaderboard metrics."""

    rounds: int
    instances: int
    S: float | None
    S_ci95: tuple[float, float] | None
    seeds: int
    S_mean: float | None
    S_std: float | None
    metrics: tuple[MetricValue, ...] = field(default=(), metadata=FLAT)


@dataclass(frozen=True)
class VersusNext(Result):
    """A paired bootstrap against the next entry down (``other``)."""

    other: str
    test: Bootstrap = field(metadata=FLAT)


@dataclass(frozen=True)
class SignTest(Result):
    """Wins and losses over matched (Zellig, Claude, seed) cells against the next John down."""

    other: str
    cells: int
    wins: int
    losses: int
    ties: int
    p_value: float


@dataclass(frozen=True)
class ClaudeEntry(Result):
    claude: str
    standing: Standing = field(metadata=FLAT)
    rank: Annotated[int | None, OMIT_NONE] = None
    vs_next: VersusNext | None = None
    # rounds the Claude abstained on (no answer, or too late: a seeded coin chose), and why it has no rank
    abstained: Annotated[int, OMIT_EMPTY] = 0
    unranked: Annotated[str | None, OMIT_NONE] = None


@dataclass(frozen=True)
class ZelligEntry(Result):
    zellig: str
    standing: Standing = field(metadata=FLAT)
    yield_: Annotated[float | None, Field(alias="yield")] = None
    rank: Annotated[int | None, OMIT_NONE] = None
    vs_next: VersusNext | None = None


@dataclass(frozen=True)
class JohnEntry(Result):
    john: str
    standing: Standing = field(metadata=FLAT)
    rank: Annotated[int | None, OMIT_NONE] = None
    vs_next: SignTest | None = None


@dataclass(frozen=True)
class AgreementRow(Result):
    """Agreement of people on the rounds all of them answered in time."""

    people: tuple[str, ...]
    rounds: int
    observed: float
    kappa: float | None
    measure: str


@dataclass(frozen=True)
class PhenomenonRow(Result):
    """Per Claude, phenomenon and reference kind: accuracy (scoring Claudes) or S, with a CI."""

    claude: str
    phenomenon: str
    reference_kind: str
    metric: str
    rounds: int
    value: float | None
    ci95: tuple[float, float] | None


@dataclass(frozen=True)
class Leaderboards(Result):
    contrastive_ties: str
    bootstrap_samples: int
    claudes: tuple[ClaudeEntry, ...]
    zelligs: Mapping[str, tuple[ZelligEntry, ...]]
    johns: tuple[JohnEntry, ...]
    agreement: tuple[AgreementRow, ...] = ()
    phenomena: tuple[PhenomenonRow, ...] = ()
    signature: str = ""


Ties = str | registry.Context  # the tie policy, or the context with the cue strata


def standing(outcomes: Sequence[Outcome], ties: Ties, samples: int) -> Standing:
    """S with its CI, per-seed mean ± std, and the registered leaderboard metrics."""
    s = Tally.of(outcomes)
    seeds, s_mean, s_std = aggregate.over_seeds(outcomes)
    context = ties if isinstance(ties, registry.Context) else registry.Context(ties)
    metrics = registry.summarise(outcomes, context, samples, registry.leaderboard_metrics())
    return Standing(s.rounds, len(s.keys), s.rate(), s.ci(samples), seeds, s_mean, s_std, metrics)


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


def _ranks(entries: Sequence[Standing], descending: bool) -> list[tuple[int, int | None]]:
    """``(index, rank)`` in board order: ranked entries by S, then those without S."""
    present = sorted((i for i, e in enumerate(entries) if e.S is not None),
                     key=lambda i: entries[i].S, reverse=descending)  # type: ignore[arg-type, return-value]
    return [(i, rank) for rank, i in enumerate(present, start=1)] + [(i, None) for i, e in enumerate(entries)
                                                                      if e.S is None]


def _versus(groups: Mapping[str, Sequence[Outcome]], upper: str, lower: str | None, samples: int,
            equal_weight: bool = False) -> VersusNext | None:
    if lower is None:
        return None
    test = Tally.of(groups[upper]).paired(Tally.of(groups[lower]), samples, equal_weight)
    return VersusNext(lower, Bootstrap(**test)) if test is not None else None


MIN_JUDGED = 30  # rounds a Claude that abstains must have answered in each of its cells to be ranked


def abstentions(outcomes: Sequence[Outcome]) -> tuple[int, str | None]:
    """How many rounds the Claude abstained on, and why it is not ranked: it abstained and answered
    fewer than :data:`MIN_JUDGED` rounds of some cell (John, Zellig, seed)."""
    abstained = sum(1 for o in outcomes if not aggregate.judged(o.judgement.resolved_by))
    if not abstained:
        return 0, None
    cells = aggregate.group(outcomes, lambda o: (o.round.john, o.round.zellig, o.round.seed))
    judged = {cell: sum(1 for o in items if aggregate.judged(o.judgement.resolved_by)) for cell, items in cells.items()}
    (john, zellig, seed), least = min(judged.items(), key=lambda kv: kv[1])
    if least >= MIN_JUDGED:
        return abstained, None
    return abstained, (f"abstained on {abstained} of {len(outcomes)} rounds; answered {least} of cell "
                       f"{john} × {zellig} (seed {seed}), fewer than {MIN_JUDGED}")


def _claude_board(outcomes: Mapping[str, Sequence[Outcome]], ties: Ties, samples: int) -> tuple[ClaudeEntry, ...]:
    names = list(outcomes)
    standings = {n: standing(outcomes[n], ties, samples) for n in names}
    absent = {n: abstentions(outcomes[n]) for n in names}
    rankable = [n for n in names if absent[n][1] is None]
    order = [(rankable[i], rank) for i, rank in _ranks([standings[n] for n in rankable], descending=True)]
    ranked = order + [(n, None) for n in names if absent[n][1] is not None]
    return tuple(
        ClaudeEntry(name, standings[name], rank,
                    _versus(outcomes, name, ranked[k + 1][0] if k + 1 < len(ranked) else None, samples)
                    if absent[name][1] is None else None, *absent[name])
        for k, (name, rank) in enumerate(ranked)
    )


def _zellig_board(outcomes: Sequence[Outcome], zelligs: Sequence[str], yields: Mapping[str, float | None],
                  ties: Ties, samples: int) -> tuple[ZelligEntry, ...]:
    by_zellig: dict[str, list[Outcome]] = {zellig: [] for zellig in zelligs}
    for o in outcomes:
        by_zellig.setdefault(o.round.zellig, []).append(o)
    standings = {z: standing(by_zellig[z], ties, samples) for z in zelligs}
    ranked = [(zelligs[i], rank) for i, rank in _ranks([standings[z] for z in zelligs], descending=False)]
    return tuple(
        ZelligEntry(name, standings[name], yields.get(name), rank,
                    _versus(by_zellig, name, ranked[k + 1][0] if k + 1 < len(ranked) else None, samples, True))
        for k, (name, rank) in enumerate(ranked)
    )


def _john_board(outcomes: Sequence[Outcome], johns: Sequence[str], ties: Ties, samples: int) -> tuple[JohnEntry, ...]:
    by_john: dict[str, list[Outcome]] = {john: [] for john in johns}
    for o in outcomes:
        by_john.setdefault(o.round.john, []).append(o)
    standings = {j: standing(by_john[j], ties, samples) for j in johns}
    ranked = [johns[i] for i, _ in _ranks([standings[j] for j in johns], descending=True)]
    ranks = dict((johns[i], rank) for i, rank in _ranks([standings[j] for j in johns], descending=True))
    entries = []
    for k, name in enumerate(ranked):
        test = None
        if k + 1 < len(ranked):
            lower = ranked[k + 1]
            left, right = _cell_s(by_john[name]), _cell_s(by_john[lower])
            common = [c for c in left if c in right]
            wins = sum(1 for c in common if (left[c] or 0.0) > (right[c] or 0.0))  # a cell has S: it has rounds
            losses = sum(1 for c in common if (left[c] or 0.0) < (right[c] or 0.0))
            test = SignTest(lower, len(common), wins, losses, len(common) - wins - losses, sign_test(wins, losses))
        entries.append(JohnEntry(name, standings[name], ranks[name], test))
    return tuple(entries)


def _yields(rounds: Sequence[Any]) -> dict[str, float | None]:
    applicable: dict[str, set[tuple[str, str]]] = defaultdict(set)
    seen: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for r in rounds:
        seen[r.zellig].add((r.john, r.instance.id))
        if r.status in ("ok", "balanced_out"):  # the Zellig applied (a John's balance may leave the pair out)
            applicable[r.zellig].add((r.john, r.instance.id))
    return {zellig: len(applicable[zellig]) / len(items) if items else None for zellig, items in seen.items()}


def leaderboards(experiment: Mapping[str, Any], outcomes: Mapping[str, Sequence[Outcome]],
                 rounds: Sequence[Any]) -> Leaderboards:
    """The three leaderboards from joined outcomes (see :func:`arena.stats.aggregate.join`);
    ``experiment`` (the resolved config) names the balanced Johns the cue strata keep apart
    (:mod:`arena.stats.cue_strata`)."""
    from arena.stats import cue_strata
    from arena.stats.agreement import HUMAN

    ties = experiment.get("contrastive_ties", "wrong")
    context = registry.Context(ties, cue_strata.of_rounds(rounds, experiment))
    samples = int(experiment.get("bootstrap_samples", 1000))
    # Johns pool every Claude, people included, but not the people's majority vote (derived from them)
    everything = [o for claude, items in outcomes.items() if claude != HUMAN for o in items]
    zelligs = list(dict.fromkeys(r.zellig for r in rounds))
    yields = _yields(rounds)
    return Leaderboards(
        contrastive_ties=ties,
        bootstrap_samples=samples,
        claudes=_claude_board(outcomes, context, samples),
        zelligs={claude: _zellig_board(items, zelligs, yields, context, samples) for claude, items in outcomes.items()},
        johns=_john_board(everything, list(dict.fromkeys(r.john for r in rounds)), context, samples),
    )


def phenomenon_accuracy(outcomes: Mapping[str, Sequence[Outcome]], ties: str = "wrong",
                        samples: int = 1000) -> tuple[PhenomenonRow, ...]:
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
            rows.append(PhenomenonRow(claude, phenomenon, kind, metric, tally.rounds, tally.rate(), tally.ci(samples)))
    return tuple(rows)


def build(run: RunData) -> Leaderboards:
    """Leaderboards, the people's agreement and the per-phenomenon table of a run."""
    from dataclasses import replace

    from arena.stats import agreement

    boards = leaderboards(run.experiment, run.outcomes, run.rounds)
    rows = tuple(AgreementRow(tuple(e["people"]), e["rounds"], e["observed"], e["kappa"], e["measure"])
                 for e in agreement.agreement(run.people))
    return replace(boards, agreement=rows, phenomena=phenomenon_accuracy(run.outcomes, run.ties, run.samples),
                   signature=run.signature)
