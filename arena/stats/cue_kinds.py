"""The kinds of surface cue and when a cue is strong: one vocabulary for ``arena cues``, the
reports' *Surface cues* section, the leaderboards, ``arena false-positives`` and the API.

Each surface Claude has a kind (:data:`KINDS`):

- ``nuisance`` (``length``): a formal property of the pair that a (length-normalised) scorer can
  exploit; a strong one **confounds** the set for contrastive scoring.
- ``edit-identity`` (``edit-words``): the corruption's own words; an observing Claude can learn
  the Zellig, a model that never trains on the pairs cannot.
- ``target-only`` (``target-lm``): a source-blind language model solves the pairs; the set
  measures fluency, not adequacy.

A cue is *strong* on a set when the 95% interval of its out-of-fold accuracy lies wholly above
:data:`HIGH` (0.75) or wholly below :data:`LOW` (0.25): a reversed cue is as strong as a direct
one.  A set with fewer than :data:`MIN_PAIRS` (30) pairs gets no cue verdict ("too few pairs").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

NUISANCE, EDIT_IDENTITY, TARGET_ONLY = "nuisance", "edit-identity", "target-only"

# surface Claude (catalog name) -> its kind; declared here only
KINDS: dict[str, str] = {"length": NUISANCE, "edit-words": EDIT_IDENTITY, "target-lm": TARGET_ONLY}

# kind -> one line: what a strong cue of this kind says, and the control that removes it
MEANINGS: dict[str, str] = {
    NUISANCE: "confounded: a scorer can exploit a formal property of the pairs; read S net of cues "
              "or S on a balanced John",
    EDIT_IDENTITY: "learnable by an observing Claude: the corruption's own words give it away; not an "
                   "artefact for a model that never trains on the pairs",
    TARGET_ONLY: "measures fluency, not adequacy: a source-blind LM solves the pairs",
}

ORDER = (NUISANCE, EDIT_IDENTITY, TARGET_ONLY)
HIGH = 0.75
LOW = 0.25
MIN_PAIRS = 30
TOO_FEW = "too few pairs"


def kind_of(cue: str) -> str | None:
    """The kind of a surface Claude, or ``None`` for a name that is not one."""
    return KINDS.get(cue)


def is_strong(ci: Sequence[float] | None, high: float = HIGH) -> bool:
    """Whether an accuracy interval lies wholly above ``high`` or wholly below ``1 - high``."""
    if ci is None:
        return False
    return ci[0] > high or ci[1] < 1 - high


def kinds_of(cues: Iterable[str]) -> list[str]:
    """The kinds of ``cues`` (no repeats), in :data:`ORDER`."""
    found = {KINDS[c] for c in cues if c in KINDS}
    return [kind for kind in ORDER if kind in found]


def enough(n: int) -> bool:
    return n >= MIN_PAIRS


def too_few(n: int) -> str:
    return f"{TOO_FEW} (n = {n} < {MIN_PAIRS})"


def check_kind(kind: str, available: Iterable[str], key: str = "--kind") -> None:
    """A kind asked for must be one some available cue has (else a usage error naming ``key``)."""
    from arena.errors import UsageError

    available = list(available)
    have = kinds_of(available)
    if kind not in have:
        raise UsageError(f"{key} {kind!r}: no cue of that kind"
                         + (f" among {', '.join(sorted(available))}" if available else ""), key=key,
                         hint=f"kinds: {', '.join(f'{k} ({c})' for c, k in KINDS.items())}")
