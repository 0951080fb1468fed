"""The ``select`` John: a John that selects from another John the instances a Zellig applies to
(:func:`performers.john.selection.select`), yielding them with their chosen variants."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any

from annotated_types import Gt, Le

from arena.sdk import Instance, Name, Performer, PositiveInt
from performers.john.selection import select
from performers.john.selection_records import Dedup, Selected, Selection, SelectionOptions


def selected_instance(item: Selected, seed: int) -> Instance:
    """The instance a :class:`SelectJohn` yields for a selected item: its chosen
    variants in ``meta["variants"]`` (replayable), the phenomena and validation."""
    meta = dict(item.instance.meta)
    meta["variants"] = [
        {"text": v.text, "phenomenon": v.phenomenon, "meta": dict(v.meta)} for v in item.variants
    ]
    meta["phenomena"] = list(item.phenomena)
    meta["selection"] = {"seed": seed, "stratum": item.stratum}
    if item.validation is not None:
        meta["validation"] = {p: check.to_json() for p, check in sorted(item.validation.items())}
    return Instance(item.instance.id, item.instance.source, item.instance.reference, meta)


class SelectJohn:
    """A John that selects from another John the instances a Zellig applies to, with
    caps, seeded stratified sampling, deduplication, length limits and, for machine
    references, the validation step (module docstring).  ``report`` holds the counts
    of the last :meth:`instances` call.

    Params: ``john`` (the John to select from, a SPEC), ``zellig`` (the Zellig that must
    apply, a SPEC), ``cap`` (at most this many instances per phenomenon), ``seed`` (of the
    seeded ranks that sample under the cap), ``stratify`` (the metadata key whose values share
    the cap in proportion to their sizes), ``dedup`` (source, pair or none: which duplicates
    are left out), ``min_words``/``max_words`` (bounds on the words of the source),
    ``variants_per_instance`` (variants kept per instance and phenomenon), ``validate``
    (check machine references against the human one), ``phenomena`` (the phenomena to fill
    to the cap in every stratum), ``max_phrase_words`` (validation: the longest phrase aligned to the
    human reference), ``min_overlap`` (validation: the least word overlap with the human
    reference), ``prefilter`` (a regular expression the reference must match before the
    Zellig runs), ``progress`` (show progress bars)."""

    version = "1"

    def __init__(
        self,
        john: Annotated[Any, Performer("john")],
        zellig: Annotated[Any, Performer("zellig")],
        cap: PositiveInt | None = None,
        seed: int = 1,
        stratify: Name | None = "origin",
        dedup: Dedup = "source",
        min_words: PositiveInt | None = None,
        max_words: PositiveInt | None = None,
        variants_per_instance: PositiveInt | None = 1,
        validate: bool = True,
        phenomena: list[Name] | None = None,
        max_phrase_words: PositiveInt = 5,
        min_overlap: Annotated[float, Gt(0), Le(1)] = 0.5,
        prefilter: Name | None = None,
        progress: bool = True,
    ):
        from performers.nested import build_nested

        self.options = SelectionOptions(
            cap, seed, stratify, dedup, min_words, max_words, variants_per_instance, validate,
            tuple(phenomena) if phenomena is not None else None, max_phrase_words, min_overlap, prefilter,
        )
        self.progress = progress
        self._john_spec, self._john = build_nested("john", john, where="select: john")
        self._zellig_spec, self._zellig = build_nested("zellig", zellig, where="select: zellig")
        self.report: dict[str, Any] = {}

    def select(self) -> Selection:
        instances = list(self._john.instances())
        selection = select(
            instances, self._zellig, self.options, self.progress,
            john=self._john_spec.label, zellig_label=self._zellig_spec.label,
            john_report=getattr(self._john, "report", None),
        )
        self.report = selection.report
        return selection

    def instances(self) -> Iterator[Instance]:
        for item in self.select().items:
            yield selected_instance(item, self.options.seed)
