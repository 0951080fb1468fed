"""Token-level views of a minimal pair: where in the sentence a model prefers one candidate.

The two candidates of a minimal pair share most tokens.  :func:`align` lines up their
per-token log-probabilities (difflib over the token strings): equal tokens face each
other one to one; a changed stretch (the edit) faces the other side's stretch as one
row, with the sums of its log-probabilities.  Each row's ``delta`` is
``logprob(correct) − logprob(incorrect)``: positive where the model prefers the correct
candidate there, negative where it prefers the corrupted one.

:func:`blame` names the row that decided the pair the way the model decided it: the
row with the largest ``|delta|`` whose sign agrees with the sum of all deltas (for a
misjudged pair, the token that misled the model).  Note that a pair is decided by
*mean* log-probabilities (length-normalised); the deltas are of the sums, so for
candidates of different lengths they show where the mass moved, not the whole decision.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import computed_field

from arena.records import TokenScores


@dataclass(frozen=True)
class TokenRow:
    """One aligned row: the tokens of each side (joined) and their summed log-probabilities.
    Stored (:mod:`arena.codec`) with its ``delta``, which is not read back."""

    correct: str
    incorrect: str
    logprob_correct: float
    logprob_incorrect: float
    changed: bool

    @computed_field  # type: ignore[prop-decorator]
    @property
    def delta(self) -> float:
        return self.logprob_correct - self.logprob_incorrect

    def json_keys(self) -> tuple[str, ...]:
        return ("correct", "incorrect", "logprob_correct", "logprob_incorrect", "delta", "changed")


def piece(token: str) -> str:
    """A subword piece as a reader sees it (SentencePiece's word marker as a space)."""
    return token.replace("\u2581", " ").replace("Ġ", " ")


def _joined(tokens: Sequence[str]) -> str:
    return "".join(piece(t) for t in tokens).strip() or "∅"


def align(correct: TokenScores, incorrect: TokenScores) -> list[TokenRow]:
    """The candidates' tokens side by side (see the module docstring)."""
    matcher = difflib.SequenceMatcher(a=correct.tokens, b=incorrect.tokens, autojunk=False)
    rows: list[TokenRow] = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag == "equal":
            for i, j in zip(range(a0, a1), range(b0, b1)):
                rows.append(TokenRow(piece(correct.tokens[i]).strip() or correct.tokens[i],
                                     piece(incorrect.tokens[j]).strip() or incorrect.tokens[j],
                                     correct.logprobs[i], incorrect.logprobs[j], False))
        else:
            rows.append(TokenRow(_joined(correct.tokens[a0:a1]), _joined(incorrect.tokens[b0:b1]),
                                 math.fsum(correct.logprobs[a0:a1]), math.fsum(incorrect.logprobs[b0:b1]), True))
    return rows


def blame(rows: Sequence[TokenRow]) -> TokenRow | None:
    """The row that pushed the decision the way it went (``None`` without rows or deltas)."""
    finite = [row for row in rows if math.isfinite(row.delta)]
    if not finite:
        return None
    total = math.fsum(row.delta for row in finite)
    sign = 1.0 if total >= 0 else -1.0
    best = max(finite, key=lambda row: sign * row.delta)
    return best if sign * best.delta > 0 else None


def render(rows: Sequence[TokenRow], *, mark: TokenRow | None = None) -> str:
    """A plain-text table of the aligned rows (the blamed row marked with ``<``)."""
    width = max([len(r.correct) for r in rows] + [7])
    lines = [f"  {'correct':<{width}}  {'lp':>7}  {'incorrect':<{width}}  {'lp':>7}  {'delta':>7}"]
    for row in rows:
        flag = " <" if row is mark else ""
        change = "*" if row.changed else " "
        lines.append(f"{change} {row.correct:<{width}}  {row.logprob_correct:7.2f}  {row.incorrect:<{width}}  "
                     f"{row.logprob_incorrect:7.2f}  {row.delta:+7.2f}{flag}")
    return "\n".join(lines)


def summary(rows: Sequence[TokenRow]) -> str:
    """One line: the blamed row, e.g. ``'nicht' vs '∅' (+2.30)``; an unchanged token that
    the edit's context moved reads ``'vom' on both sides (-0.44)``, not ``'vom' vs 'vom'``."""
    row = blame(rows)
    if row is None:
        return ""
    if not row.changed and row.correct == row.incorrect:
        return f"{row.correct!r} on both sides ({row.delta:+.2f})"
    return f"{row.correct!r} vs {row.incorrect!r} ({row.delta:+.2f})"
