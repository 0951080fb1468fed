"""S net of cues: the cue-stratified S of a group of rounds (the metric ``s_net_of_cues``).

For every table of a run (a Zellig, apart for a balanced John's pairs, and a phenomenon, as the
cue audit groups them: :func:`arena.stats.cue_items.from_run`) the nuisance cue :data:`CUE`
(``length``: :class:`arena.length_cue.LengthCue`, on each pair's length features, counted once
when its round is read) judges the judged, counted pairs out of fold
(:func:`arena.stats.cues.score_shown`, 5 folds by instance, seed 0, as ``arena cues`` does).
Where it is *strong* (:mod:`arena.stats.cue_kinds`: 95% interval wholly
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

from array import array
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from arena import length_cue
from arena.record.rounds import NOT_JUDGED, STATUS_OK
from arena.record.scan import key_hash
from arena.stats import cue_kinds
from arena.stats.cues import CueScore, score_shown, side, tie_coin

FOLDS = 5
SEED = 0
CUE = "length"  # the nuisance cue (the only one the strata are built from)


class Collector:
    """The pairs of a run's rounds, per table, as they are read (one record at a time).  A pair is
    kept as its round id's digest with the side and tie coin the cue audit draws from the id, its
    instance id, its table and the length cue's features of its candidates (corrupted minus
    correct: characters and tokens, counted once), not as texts."""

    def __init__(self, balanced_johns: Collection[str] = ()) -> None:
        self.balanced = set(balanced_johns)  # may be set after the rounds are read (the streamed scores)
        self.ids = array("Q")  # the 64-bit digest of each pair's round id (:func:`arena.record.scan.key_hash`)
        self.sides, self.coins = array("b"), array("b")  # its seeded side and tie coin, drawn from the round id
        self.instances: list[str] = []
        self.keys: dict[tuple[str, str, str], int] = {}  # (John, Zellig, phenomenon) -> its code
        self.codes, self.chars, self.tokens = array("i"), array("q"), array("q")  # int64, read as NumPy columns

    def add(self, round_id: str, john: str, zellig: str, instance: str, phenomenon: str | None, status: str,
            counts: bool, candidates: Sequence[str] | None, corrupted: int | None) -> None:
        if status in NOT_JUDGED or not counts or candidates is None or corrupted is None or len(candidates) != 2:
            return
        key = (john, zellig, phenomenon if phenomenon is not None else zellig)
        (chars_correct, tokens_correct), (chars_corrupted, tokens_corrupted) = (
            length_cue.lengths(candidates[1 - corrupted]), length_cue.lengths(candidates[corrupted]))
        self.ids.append(key_hash(round_id))
        self.sides.append(side(round_id, SEED))
        self.coins.append(tie_coin(round_id, CUE, SEED))
        self.instances.append(instance)
        self.codes.append(self.keys.setdefault(key, len(self.keys)))
        self.chars.append(chars_corrupted - chars_correct)
        self.tokens.append(tokens_corrupted - tokens_correct)

    def tables(self) -> dict[tuple[str, str], list[int]]:
        """The positions of the pairs per (table, phenomenon), in the order read; a balanced John's
        pairs form tables of their own."""
        names = [(f"{zellig} (balanced John {john})" if john in self.balanced else zellig, phenomenon)
                 for john, zellig, phenomenon in self.keys]
        tables: dict[tuple[str, str], list[int]] = {}
        for position, code in enumerate(self.codes):
            tables.setdefault(names[code], []).append(position)
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

    def score(self, positions: Sequence[int]) -> CueScore:
        """The length cue's out-of-fold :class:`~arena.stats.cues.CueScore` on the pairs at
        ``positions``, as :func:`arena.stats.cues.score_cue` gives it on their texts."""
        at = np.asarray(positions, dtype=np.int64)
        answers = np.frombuffer(self.sides, dtype=np.int8)[at].tolist()
        coins = np.frombuffer(self.coins, dtype=np.int8)[at].tolist()
        # a pair as shown: its features second candidate minus first (corrupted second where the answer is 1)
        corrupted_minus_correct = np.column_stack([np.frombuffer(self.chars, dtype=np.int64)[at],
                                                   np.frombuffer(self.tokens, dtype=np.int64)[at]])
        shown = np.where(np.asarray(answers, dtype=bool)[:, None], corrupted_minus_correct, -corrupted_minus_correct)
        return score_shown(CUE, length_cue.LengthCue(), length_cue.LengthCue, [self.instances[i] for i in positions],
                           shown, answers, coins.__getitem__, FOLDS, SEED)

    def strata(self) -> Strata:
        """Round id → its stratum (1 cue right, 0 cue wrong, ½ tie), for the tables with a strong
        nuisance cue and enough pairs."""
        result: dict[int, float] = {}
        for positions in self.tables().values():
            if not cue_kinds.enough(len(positions)):
                continue
            cue = self.score(positions)
            if not cue_kinds.is_strong(cue.ci):
                continue
            for i, hit, tie in zip(positions, cue.hits, cue.ties):
                result[self.ids[i]] = 0.5 if tie else 1.0 if hit else 0.0
        return Strata(result)


class Strata:
    """Round id → its stratum (:meth:`get`), kept by the 64-bit digest of the id
    (:func:`arena.record.scan.key_hash`, as the scores tell instances apart), so that the ids'
    texts are not held while the run's judgements are scored."""

    def __init__(self, by_digest: dict[int, float] | None = None) -> None:
        self.by_digest = by_digest if by_digest is not None else {}

    def get(self, round_id: str) -> float | None:
        return self.by_digest.get(key_hash(round_id))

    def __len__(self) -> int:
        return len(self.by_digest)

    def values(self) -> Iterable[float]:
        return self.by_digest.values()


def balanced_johns(experiment: Mapping[str, Any]) -> list[str]:
    """The labels of the run's Johns with a ``balance:`` (their pairs form tables of their own);
    ``experiment``: the resolved config a manifest records."""
    from arena.stats.cue_items import balances_of

    return list(balances_of(experiment))


def of_rounds(rounds: Sequence[Any], experiment: Mapping[str, Any]) -> Strata:
    """The strata of a run's rounds in memory (none when no registered metric reads them)."""
    from arena.stats import registry

    if not registry.uses_cue_strata():
        return Strata()
    collector = Collector(balanced_johns(experiment))
    for r in rounds:
        collector.add_round(r)
    return collector.strata()
