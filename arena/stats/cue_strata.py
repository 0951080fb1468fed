"""S net of cues: the cue-stratified S of a group of rounds (the metric ``s_net_of_cues``).

For every table of a run (a Zellig, apart for a balanced John's pairs, and a phenomenon, as the
cue audit groups them: :func:`arena.stats.cue_items.from_run`) the nuisance cues
(:data:`NUISANCE`: ``length``) judge the judged, counted pairs out of fold
(:func:`arena.stats.cues.score_cue`, 5 folds by instance, seed 0, as ``arena cues`` does).
Where the strongest of them is *strong* (:mod:`arena.stats.cue_kinds`: 95% interval wholly
outside [0.25, 0.75]) and the table has at least 30 pairs, each of its rounds gets a stratum:
1 where the cue gets the pair right, 0 where it gets it wrong, ½ where it ties (a tie is split
evenly between the strata).  Rounds of other tables have none, so the metric is defined only on
cells with a strong nuisance cue.

The metric of a group of rounds (:func:`arena.stats.stratify.stratified`) is the mean of S over the pairs the cue gets right and S over
the pairs it gets wrong, each stratum weighted equally, so that the cue sits at chance; its 95%
interval is a percentile bootstrap over instances (the run's ``bootstrap_samples``, the seed of
every other interval).  It is undefined, with the reason, when a stratum holds fewer than
:data:`arena.stats.stratify.MIN_STRATUM` pairs.  Unlike S on the *cue-hard* pairs alone (those the cue gets wrong,
biased against a Claude that follows the cue), it does not penalise agreeing with the cue; the
neutral control is a John with ``balance: {cue: length}``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from arena.length_cue import LengthCue
from arena.record.rounds import NOT_JUDGED, STATUS_OK
from arena.stats import cue_kinds
from arena.stats.cue_items import CueItem

FOLDS = 5
SEED = 0
NUISANCE: Mapping[str, Callable[[], Any]] = {"length": LengthCue}


class Collector:
    """The pairs of a run's rounds, per table, as they are read (one record at a time)."""

    def __init__(self, balanced_johns: Collection[str] = ()) -> None:
        self.balanced = set(balanced_johns)  # may be set after the rounds are read (the streamed scores)
        self.pairs: list[tuple[str, str, str, str, str, str, str]] = []

    def add(self, round_id: str, john: str, zellig: str, instance: str, phenomenon: str | None, status: str,
            counts: bool, candidates: Sequence[str] | None, corrupted: int | None) -> None:
        if status in NOT_JUDGED or not counts or candidates is None or corrupted is None or len(candidates) != 2:
            return
        self.pairs.append((round_id, john, zellig, instance, phenomenon if phenomenon is not None else zellig,
                           candidates[1 - corrupted], candidates[corrupted]))

    def tables(self) -> dict[tuple[str, str], list[CueItem]]:
        """The pairs per (table, phenomenon); a balanced John's pairs form tables of their own."""
        tables: dict[tuple[str, str], list[CueItem]] = defaultdict(list)
        for round_id, john, zellig, instance, phenomenon, correct, incorrect in self.pairs:
            table = f"{zellig} (balanced John {john})" if john in self.balanced else zellig
            tables[table, phenomenon].append(CueItem(round_id, instance, "", correct, incorrect, table, phenomenon))
        return tables

    def add_record(self, record: Mapping[str, Any]) -> None:
        """A line of ``rounds.jsonl``."""
        variant = record.get("variant")
        self.add(record["round"], record["john"], record["zellig"], record["instance"]["id"],
                 variant.get("phenomenon") if variant else None, record.get("status", STATUS_OK),
                 bool(record.get("counts", True)), record.get("candidates"), record.get("corrupted"))

    def add_round(self, r: Any) -> None:
        """A :class:`arena.record.rounds.Round`."""
        self.add(r.id, r.john, r.zellig, r.instance.id, r.variant.phenomenon if r.variant is not None else None,
                 r.status, r.counts, r.candidates, r.corrupted)

    def strata(self) -> dict[str, float]:
        """Round id → its stratum (1 cue right, 0 cue wrong, ½ tie), for the tables with a strong
        nuisance cue and enough pairs."""
        from arena.stats.cues import score_cue

        result: dict[str, float] = {}
        for items in self.tables().values():
            if not cue_kinds.enough(len(items)):
                continue
            scores = [score_cue(name, factory(), factory, items, FOLDS, SEED) for name, factory in NUISANCE.items()]
            strong = [s for s in scores if cue_kinds.is_strong(s.ci)]
            if not strong:
                continue
            cue = max(strong, key=lambda s: abs((s.accuracy or 0.5) - 0.5))
            for item, hit, tie in zip(items, cue.hits, cue.ties):
                result[item.id] = 0.5 if tie else hit
        return result


def balanced_johns(experiment: Mapping[str, Any]) -> list[str]:
    """The labels of the run's Johns with a ``balance:`` (their pairs form tables of their own);
    ``experiment``: the resolved config a manifest records."""
    from arena.stats.cue_items import balances_of

    return list(balances_of(experiment))


def of_rounds(rounds: Sequence[Any], experiment: Mapping[str, Any]) -> dict[str, float]:
    """The strata of a run's rounds in memory (none when no registered metric reads them)."""
    from arena.stats import registry

    if not registry.uses_cue_strata():
        return {}
    collector = Collector(balanced_johns(experiment))
    for r in rounds:
        collector.add_round(r)
    return collector.strata()
