"""Surface-cue audit: how well Claudes that see no translation model solve a set of minimal pairs.

For each table (a test set or a run's Zellig, and a phenomenon) every surface Claude judges
every pair, out of fold: the pairs are shown in a seeded random order, split into ``folds``
folds *by instance* (all pairs of one source sentence in one fold), and a fittable Claude
(:class:`arena.roles.Fittable`: ``length``, ``edit-words``) is fitted on the other folds before
it judges a fold; a Claude that is not fitted (``target-lm``) judges all pairs as it is.  A tie
(no cue) is settled by a coin seeded by the pair, as the arena settles abstentions.  So each
cue's accuracy is an out-of-fold figure, reproducible by seed, with a Wilson 95% interval.

Verdict (:mod:`arena.stats.cue_kinds`): a cue is *strong* when its accuracy's 95% interval
lies wholly above ``threshold`` (0.75) or wholly below ``1 - threshold`` (a reversed cue counts);
the table's ``kinds`` are the kinds of its strong cues (``nuisance``, ``edit-identity``,
``target-only``).  A table with fewer than 30 pairs gets no verdict ("too few pairs").  It is
**confounded** only when a strong cue is a nuisance and there are enough pairs.  Given a run,
each Claude is set beside the *reference* cue (the strongest strong nuisance cue, else the strongest
cue) on the pairs both judged (exact sign test).

An unfittable cue (fewer than 10 pairs, fewer than 2 instances, one answer side only) reports
why instead of an accuracy.  The *cue-hard* subset is the pairs the reference cue gets wrong or
ties: S on it is biased against a model that follows the cue (the neutral control is a balanced
John); :mod:`arena.stats.cue_controls` gives the Claudes' figures on it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any

import numpy as np
from pydantic import Field

from arena.records import Pair
from arena.roles import Claude, Fittable
from arena.stats import cue_kinds
from arena.stats.aggregate import wilson_ci
from arena.stats.cue_items import CueInput, CueItem
from arena.stats.typed import OMIT_EMPTY, OMIT_NONE, Result

_LEFT_OUT = Field(exclude=True)

MIN_PAIRS = 10
THRESHOLD = cue_kinds.HIGH


@dataclass(frozen=True)
class CueScore(Result):
    """One cue on one table: out-of-fold accuracy with its interval, or why it could not be fitted;
    ``hits`` (1.0/0.0 per pair, coins included) and ``ties`` (no cue) per pair, in item order.  Its
    JSON (:func:`arena.codec.dump`) is the accuracy, the interval and why it is unfittable."""

    name: Annotated[str, _LEFT_OUT]
    n: Annotated[int, _LEFT_OUT]
    accuracy: float | None
    ci: tuple[float, float] | None
    unfittable: Annotated[str | None, OMIT_EMPTY] = None
    hits: Annotated[tuple[float, ...], _LEFT_OUT] = ()
    ties: Annotated[tuple[bool, ...], _LEFT_OUT] = ()


@dataclass(frozen=True)
class TableRecord(Result):
    """The ``arena cues --json`` object of an audited table (:meth:`TableAudit.record`)."""

    set: str
    phenomenon: str
    n: int
    cues: Mapping[str, CueScore]
    strongest: str | None
    confounded: bool
    strong: list[str]
    kinds: list[str]
    enough: bool
    balance: Annotated[Mapping[str, Any] | None, OMIT_NONE] = None


@dataclass
class TableAudit:
    """The audit of one table: its items, each cue's score, the strongest cue (farthest from
    chance), the strong cues and their kinds, whether there are enough pairs for a verdict, and
    the verdict (``confounded``: a strong nuisance cue and enough pairs)."""

    set: str
    phenomenon: str
    items: list[CueItem]
    cues: dict[str, CueScore]
    strongest: str | None
    confounded: bool
    reason: str = ""
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    strong: list[str] = field(default_factory=list)
    # what a balance did to this table (:mod:`arena.stats.cue_balance`): n before → after, residual
    balance: dict[str, Any] | None = None

    @property
    def n(self) -> int:
        return len(self.items)

    @property
    def kinds(self) -> list[str]:
        """The kinds of the strong cues (:data:`arena.stats.cue_kinds.ORDER`)."""
        return cue_kinds.kinds_of(self.strong)

    @property
    def enough(self) -> bool:
        return cue_kinds.enough(self.n)

    def strongest_of(self, kind: str) -> str | None:
        """The strong cue of ``kind`` farthest from chance, or ``None``."""
        of_kind = [c for c in self.strong if cue_kinds.kind_of(c) == kind]
        return max(of_kind, key=lambda c: abs((self.cues[c].accuracy or 0.5) - 0.5)) if of_kind else None

    @property
    def reference(self) -> str | None:
        """The cue the Claudes are set against: the strongest strong nuisance cue (the confound),
        else the strongest cue."""
        return self.strongest_of(cue_kinds.NUISANCE) or self.strongest

    def hard(self) -> list[int]:
        """Indices of the cue-hard pairs: those the reference cue gets wrong or ties (S on them is
        biased against a Claude that follows the cue)."""
        if self.reference is None:
            return list(range(self.n))
        score = self.cues[self.reference]
        return [i for i, (hit, tie) in enumerate(zip(score.hits, score.ties)) if tie or not hit]

    def record(self) -> TableRecord:
        """What ``arena cues --json`` writes of this table (``dump(table.record())``)."""
        return TableRecord(self.set, self.phenomenon, self.n, self.cues, self.strongest, self.confounded,
                           list(self.strong), self.kinds, self.enough, self.balance)


def side(item_id: str, seed: int) -> int:
    """The seeded side on which a surface Claude is shown a pair's corrupted candidate (1: second)."""
    return int(random.Random(f"{seed}/{item_id}/cues").random() < 0.5)


def presented(items: Sequence[CueItem], seed: int) -> tuple[list[Pair], list[int]]:
    """The pairs as a surface Claude sees them (no source; a seeded side per pair) and the key."""
    pairs, answers = [], []
    for item in items:
        answer = side(item.id, seed)
        candidates = (item.correct, item.corrupted) if answer == 1 else (item.corrupted, item.correct)
        pairs.append(Pair(item.id, "", candidates))
        answers.append(answer)
    return pairs, answers


def fold_assignment(groups: Sequence[str], folds: int, seed: int) -> list[int]:
    """The fold of each pair of instance ``groups[i]``: its group's place in a seeded shuffle of the
    groups, modulo ``folds``."""
    shuffled = sorted(set(groups))
    random.Random(f"{seed}/folds").shuffle(shuffled)
    fold_of = {group: index % folds for index, group in enumerate(shuffled)}
    return [fold_of[group] for group in groups]


def unfittable(groups: Sequence[str], answers: Sequence[int]) -> str | None:
    """Why a fitted cue cannot be fitted on pairs of instances ``groups``, or ``None``."""
    if len(groups) < MIN_PAIRS:
        return f"n < {MIN_PAIRS} ({len(groups)} pairs)"
    if len(set(groups)) < 2:
        return "one instance only: no fold to hold out"
    if len(set(answers)) < 2:
        return "one class only: the corrupted candidate is always on the same side"
    return None


def _choices(claude: Claude, factory: Callable[[], Claude], pairs: Sequence[Any] | np.ndarray, answers: Sequence[int],
             fold_of: Sequence[int], folds: int) -> list[int | None]:
    if not isinstance(claude, Fittable):
        return [j.corrupted for j in claude.judge(list(pairs))]
    choices: list[int | None] = [None] * len(pairs)
    members: dict[int, list[int]] = {}
    for i, fold in enumerate(fold_of):
        members.setdefault(fold, []).append(i)
    for fold, test in sorted(members.items()):  # only folds that hold pairs (--folds may exceed the sentences)
        train = [i for i, f in enumerate(fold_of) if f != fold]
        fitted = factory()
        fitted.fit(_at(pairs, train), [answers[i] for i in train])  # type: ignore[attr-defined]
        for i, judgement in zip(test, fitted.judge(_at(pairs, test))):
            choices[i] = judgement.corrupted
    return choices


def _at(pairs: Sequence[Any] | np.ndarray, indices: list[int]) -> Any:
    """The pairs at ``indices``: a list, or the rows of an array of features."""
    return pairs[indices] if isinstance(pairs, np.ndarray) else [pairs[i] for i in indices]


def score_cue(name: str, claude: Claude, factory: Callable[[], Claude], items: Sequence[CueItem],
              folds: int, seed: int) -> CueScore:
    """One cue's out-of-fold accuracy on one table."""
    pairs, answers = presented(items, seed)
    return score_shown(name, claude, factory, [item.group for item in items], pairs, answers,
                       lambda i: tie_coin(items[i].id, name, seed), folds, seed)


def tie_coin(item_id: str, name: str, seed: int) -> int:
    """The seeded coin that settles a tie (no cue) of cue ``name`` on a pair: the side it picks."""
    return random.Random(f"{seed}/{item_id}/{name}/tie").randrange(2)


def score_shown(name: str, claude: Any, factory: Callable[[], Any], groups: Sequence[str],
                shown: Sequence[Any] | np.ndarray, answers: Sequence[int], coin: Callable[[int], int], folds: int,
                seed: int) -> CueScore:
    """:func:`score_cue` of pairs already shown as the cue takes them: pair ``i``, of instance
    ``groups[i]``, as ``shown[i]`` (a :class:`~arena.records.Pair`, or the row of features, in an
    array, that a cue such as :class:`arena.length_cue.LengthCue` is fitted on), its corrupted
    candidate on side ``answers[i]`` (:func:`side`), a tie settled by ``coin(i)`` (:func:`tie_coin`)."""
    if isinstance(claude, Fittable):
        reason = unfittable(groups, answers)
        if reason:
            return CueScore(name, len(groups), None, None, reason)
    fold_of = fold_assignment(groups, folds, seed)
    choices = _choices(claude, factory, shown, answers, fold_of, folds)
    hits, ties = [], []
    for i, (choice, answer) in enumerate(zip(choices, answers)):
        ties.append(choice is None)
        if choice is None:
            choice = coin(i)
        hits.append(float(choice == answer))
    accuracy = sum(hits) / len(hits) if hits else None
    return CueScore(name, len(groups), accuracy, wilson_ci(sum(hits), len(hits)), None, tuple(hits), tuple(ties))


def sign_test(wins: int, losses: int) -> float:
    """Two-sided sign test (ties dropped): exact up to 1,000 discordant pairs, else normal."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    if n <= 1000:
        return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2**n)
    z = (abs(wins - losses) - 1) / math.sqrt(n)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def _versus(both: Sequence[tuple[float, float]]) -> dict[str, Any]:
    wins = sum(1 for c, h in both if c > h)
    losses = sum(1 for c, h in both if c < h)
    n = len(both)
    return {"n": n, "s": sum(c for c, _ in both) / n if n else None,
            "cue_accuracy": sum(h for _, h in both) / n if n else None,
            "wins": wins, "losses": losses, "p": sign_test(wins, losses)}


def compare(items: Sequence[CueItem], cue: CueScore, claude: str, correct: Mapping[str, float]) -> dict[str, Any]:
    """A Claude against a cue on the pairs both judged: S of each, wins, losses, sign-test p; and
    the same on the cue-hard pairs (``hard``: those the cue gets wrong or ties), where a Claude
    that only follows the cue does no better than the cue."""
    both = [(correct[item.id], hit, tie) for item, hit, tie in zip(items, cue.hits, cue.ties) if item.id in correct]
    hard = [(c, h) for c, h, tie in both if tie or not h]
    return {"claude": claude, "cue": cue.name, **_versus([(c, h) for c, h, _ in both]), "hard": _versus(hard)}


def verdict(table: TableAudit, claudes: Mapping[str, Mapping[str, float]], threshold: float) -> None:
    """Set the table's strong cues, ``confounded``, ``reason`` and the Claude-vs-cue ``comparisons``."""
    table.strong = [name for name, score in table.cues.items() if cue_kinds.is_strong(score.ci, threshold)]
    if table.reference is None:
        table.reason = "no cue could be fitted"
        return
    cue = table.cues[table.reference]
    table.comparisons = [compare(table.items, cue, label, correct) for label, correct in sorted(claudes.items())]
    table.comparisons = [c for c in table.comparisons if c["n"]]
    if not table.enough:
        table.reason = cue_kinds.too_few(table.n)
        return
    nuisance = table.strongest_of(cue_kinds.NUISANCE)
    if nuisance is not None:
        score = table.cues[nuisance]
        table.confounded = True
        table.reason = (f"{nuisance} ({cue_kinds.NUISANCE}) reaches {score.accuracy:.3f} "
                        f"[{score.ci[0]:.3f}, {score.ci[1]:.3f}], wholly outside [{1 - threshold:.2f}, {threshold:.2f}]"
                        if score.accuracy is not None and score.ci is not None else nuisance)


def audit(data: CueInput, factories: Mapping[str, Callable[[], Claude]], folds: int = 5, seed: int = 0,
          threshold: float = THRESHOLD) -> list[TableAudit]:
    """Every cue on every table of ``data``; ``factories`` build a fresh surface Claude (one
    per fold for a fittable one; a cue that is not fitted is built once and reused)."""
    if folds < 2:
        from arena.errors import UsageError

        raise UsageError(f"--folds must be at least 2, not {folds}", key="--folds")
    built = {name: factory() for name, factory in factories.items()}
    tables: dict[tuple[str, str], list[CueItem]] = {}
    for item in data.items:
        tables.setdefault((item.set, item.phenomenon), []).append(item)
    result = []
    for (set_name, phenomenon), items in tables.items():
        scores = {name: score_cue(name, built[name], factories[name], items, folds, seed) for name in factories}
        fitted = {s.name: s.accuracy for s in scores.values() if s.accuracy is not None}
        strongest = max(fitted, key=lambda name: abs(fitted[name] - 0.5)) if fitted else None
        table = TableAudit(set_name, phenomenon, items, scores, strongest, False)
        claudes = {label: {i.id: c[i.id] for i in items if i.id in c} for label, c in data.claudes.items()}
        verdict(table, {k: v for k, v in claudes.items() if v}, threshold)
        result.append(table)
    return result
