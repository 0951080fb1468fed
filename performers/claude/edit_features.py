"""Where two candidates differ, and features of that difference for a Claude that
learns (:mod:`performers.claude.edit_aware`).

A Claude is shown two candidates and no edit.  :func:`word_diff` finds the edit
itself: the longest common word prefix and suffix of the two candidates, and the
words between them on each side.  From it come

- **prefix scores**: the base model's summed log-probability of each candidate cut
  right after its edited words (``upto``) and after one more word (``next``), given
  the source.  Both candidates share the prefix before the edit, so the difference
  of ``upto`` between them is the log-probability difference of the edited tokens
  (plus that of ending the sentence there); the difference of ``next`` adds the right
  neighbour's; and the full score minus ``next`` is the rest of the sentence: how the
  edit changes the model's view of the words after it;
- **surface features** of the edited words (:func:`surface`): their count and
  character length, capitalisation, and word endings (German inflection: ``-e``,
  ``-en``, ``-er``, ``-es``, ``-em``, ``-s``, ``-n``);
- **the best path**: whether the edited words occur in the base model's own 1-best
  translation of the source;
- **grammar and fluency** (optional, :mod:`performers.claude.edit_grammar`): agreement
  errors the German analysis finds in each candidate, and a German trigram model's
  log-probability of the edited words and their window.

Every pairwise feature is a second-minus-first difference, so swapping the
candidates negates it (the learned model has no side bias).  The features come once
per *kind* of edit (:func:`edit_kind`: a deletion, a re-inflected word, another
substitution), zero for the other kinds, so that a learner weighs the evidence of a
dropped clause, of a wrong ending and of a replaced word separately: a length cue
that solves clause omission must not decide agreement errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from arena.sdk import shared_affixes
from performers.claude.edit_grammar import GRAMMAR, LM

ENDINGS = ("em", "en", "er", "es", "e", "s", "n")


@dataclass(frozen=True)
class WordDiff:
    """Two word sequences as ``prefix + middle + suffix``: ``start`` words shared at
    the front, ``end`` at the back, ``middles`` the differing words of each."""

    start: int
    end: int
    words: tuple[tuple[str, ...], tuple[str, ...]]

    @property
    def middles(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(w[self.start : len(w) - self.end] for w in self.words)  # type: ignore[return-value]

    def cut(self, side: int, extra: int = 0) -> str:
        """Candidate ``side`` cut after its edited words and ``extra`` more words."""
        words = self.words[side]
        return " ".join(words[: min(len(words), len(words) - self.end + extra)])


def word_diff(first: str, second: str) -> WordDiff:
    """The shared word prefix and suffix of two candidates and what lies between."""
    a, b = tuple(first.split()), tuple(second.split())
    start, end = shared_affixes(a, b)
    return WordDiff(start, end, (a, b))


def _strip(word: str) -> str:
    return word.strip(".,;:!?\"'()[]«»„“”-").lower()


def surface(middle: Sequence[str]) -> list[float]:
    """Surface features of one side's edited words."""
    words = [_strip(w) for w in middle]
    last = words[-1] if words else ""
    ending = next((e for e in ENDINGS if last.endswith(e)), "")
    return [
        float(len(words)),
        float(sum(len(w) for w in words)),
        float(any(w[:1].isupper() for w in middle)),
        *(float(ending == e) for e in ENDINGS),
    ]


KINDS = ("deletion", "inflection", "substitution")


def edit_kind(diff: WordDiff) -> str:
    """``deletion`` (one side has no words), ``inflection`` (one word each, sharing
    their first two letters: *alte*/*alten*, *hat*/*haben*), else ``substitution``."""
    first, second = diff.middles
    if not first or not second:
        return "deletion"
    if len(first) == len(second) == 1 and first[0][:2].lower() == second[0][:2].lower():
        return "inflection"
    return "substitution"


SURFACE = ("words", "chars", "capitalised", *(f"ends-{e}" for e in ENDINGS))
SCORES = ("mean", "logprob", "tokens", "edit", "edit+next", "rest")
EXTRA = (*LM, *(f"grammar:{name}" for name in GRAMMAR))  # zero unless the Claude computes them
BASE_FEATURES = (*SCORES, *(f"surface:{name}" for name in SURFACE), "in-1best", *EXTRA)
FEATURES = ("mean", *(f"{kind}:{name}" for kind in KINDS for name in BASE_FEATURES))


def prefix_requests(diff: WordDiff) -> list[str]:
    """The targets to score per candidate beyond the full one: cut after the edit,
    and after the edit and one more word (first candidate's two, then the second's)."""
    return [diff.cut(side, extra) for side in (0, 1) for extra in (0, 1)]


def in_one_best(middle: Sequence[str], one_best: str) -> float:
    words = {_strip(w) for w in one_best.split()}
    return float(any(_strip(w) in words for w in middle if _strip(w)))


def pair_features(
    full: Sequence[tuple[float, int]], prefixes: Sequence[float], diff: WordDiff, one_best: str | None,
    extra: Sequence[float] = (),
) -> list[float]:
    """Second-minus-first features (see :data:`FEATURES`): :data:`BASE_FEATURES` in
    the block of the edit's kind, zeros elsewhere; the first is always the mean-score
    difference.  ``full``: each candidate's (logprob, tokens); ``prefixes``: the summed
    log-probabilities of :func:`prefix_requests`' targets, in its order; ``extra``: the
    :data:`EXTRA` features (:mod:`performers.claude.edit_grammar`), zeros if empty."""
    row = base_features(full, prefixes, diff, one_best) + (list(extra) or [0.0] * len(EXTRA))
    kind = KINDS.index(edit_kind(diff))
    blocks = [row if index == kind else [0.0] * len(row) for index in range(len(KINDS))]
    return [row[0]] + [value for block in blocks for value in block]


def base_features(
    full: Sequence[tuple[float, int]], prefixes: Sequence[float], diff: WordDiff, one_best: str | None
) -> list[float]:
    """The second-minus-first :data:`BASE_FEATURES` of one pair."""
    (lp_a, tok_a), (lp_b, tok_b) = full
    upto_a, next_a, upto_b, next_b = prefixes
    mid_a, mid_b = diff.middles
    best = [0.0] if one_best is None else [in_one_best(mid_b, one_best) - in_one_best(mid_a, one_best)]
    return [
        lp_b / max(tok_b, 1) - lp_a / max(tok_a, 1),
        lp_b - lp_a,
        float(tok_b - tok_a),
        upto_b - upto_a,
        next_b - next_a,
        (lp_b - next_b) - (lp_a - next_a),
        *(y - x for x, y in zip(surface(mid_a), surface(mid_b))),
        *best,
    ]


def signature_keys(middle: Sequence[str]) -> list[str]:
    """What one side of an edit looks like, as keys of the Zellig's edit distribution
    (:mod:`performers.claude.signature_em`): the whole edited text, each word, each
    word's ending, and ``∅`` for a side with no words (a deletion)."""
    words = [_strip(w) for w in middle if _strip(w)]
    if not words:
        return ["∅"]
    keys = ["text:" + " ".join(words)]
    keys += [f"word:{w}" for w in words]
    keys += [f"ending:{next((e for e in ENDINGS if w.endswith(e)), '-')}" for w in words]
    return keys
