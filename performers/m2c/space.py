"""The output space of one template: its draws, their count, enumeration, seeded
sampling and rendering.

A **draw** fixes everything a generated string depends on:

- the *free features*: the features of placeholders that nothing in the template
  fixes (``obj1.NUMBER`` when the template writes ``{obj1}`` and an article agrees
  with it).  Each combination of free features is an *option*;
- the *entries*: which value of its list each placeholder front (``name1``, ``job``)
  takes, among the values that have the forms the option asks for.

Everything else is determined: agreeing forms (``{job.<name1.NUMBER.GENDER>}``),
inline choices, rules (articles), computed dimensions (``STARTSWITH``), computed
placeholders (``{$sum(...)}``), modifiers and post-processing.  Different draws can
render the same string (*Rechner* is singular and plural); generation deduplicates.

Semantics follow M2C's ``Template`` (Hlavnova & Ruder 2023) so that the same
template gives the same set of strings:

*Free features.*  A placeholder's feature on a dimension is free when (a) a slot of
the placeholder leaves that dimension of its lexicon open (neither fixed, nor agreed,
nor conditional), or (b) a slot agrees with it on that dimension and either the
agreeing slot is a placeholder or the dimension is *sampleable*.  It ranges over the
features the placeholder's (completed) forms use.  When nothing is free, the fixed
features of placeholder slots are the option.

*Features travel.*  Slots are evaluated in template order; a slot that agrees with
``name1`` on GENDER (or has a conditional GENDER) records that GENDER for its own
placeholder, and later slots of that placeholder use it for dimensions they leave
open.

*Numbered placeholders* (``name1``, ``name2`` from ``name``) follow the root's
``{"order": bool, "repeat": bool}`` setting (default: order, no repeat): order and no
repeat = combinations, no order and no repeat = permutations, order and repeat =
combinations with replacement, no order and repeat = the full product — of positions
in each front's list of admissible entries.  Their free features are combined the
same way, always with repetition (with ``order``, ``name1``'s feature bundle never
comes after ``name2``'s in the enumeration order).  When two numbered fronts differ
on an *inherent* dimension of the list (one constant per entry, e.g. a name's
gender), they cannot coincide and are combined as a full product.

*Plain* placeholders (lists of strings) are combined the same way, without features.

The number of draws (:attr:`TemplateSpace.size`) is exact; it is the number of
distinct outputs when different draws never render the same string (M2C's
"theoretical number of options", which M2C itself only estimates).
"""

from __future__ import annotations

import itertools
import random
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from arena.sdk import ConfigError
from performers.m2c.draws import (
    Draw,
    Evaluation,
    Flip,
    FlipTarget,
    Item,
    Lookup,
    Option,
    Repetition,
    Var,
    index_tuples,
    var_text,
)
from performers.m2c.features import TemplateError
from performers.m2c.syntax import Occurrence
from performers.m2c.tables import AmbiguousLookup
from performers.m2c.template_options import TemplateOptions

__all__ = ["Draw", "Flip", "FlipTarget", "Item", "Repetition", "TemplateSpace", "index_tuples"]


class TemplateSpace(TemplateOptions):
    """Compile a template against a language and its placeholders' lexicons.

    ``functions`` maps function names used as ``{$name(...)}`` to callables; names
    not given are looked up in :mod:`performers.m2c.registry` for the language.
    Parsing is :class:`~performers.m2c.template_syntax.TemplateSyntax`'s job, the options
    :class:`~performers.m2c.template_options.TemplateOptions`'; this class evaluates,
    enumerates, samples and flips draws.
    """

    def _compile(self) -> None:
        super()._compile()
        self._flip_targets = self._find_flip_targets()

    # ------------------------------------------------------------- evaluation
    def _evaluate(self, option: Option, entries: Mapping[str, int]) -> Evaluation:
        values: dict[str, str] = {}
        try:
            for key, front in self._sampled_keys:
                values[key] = option.forms[key][entries[front]]
            for key, front, plain in self._plain_keys:
                values[key] = plain[entries[front]]
        except (KeyError, IndexError):
            raise TemplateError(f"{self.where}: entries {dict(entries)} are not admissible for this option") from None
        computed = tuple(fn(values[key]) for key, fn in self._computed_sources)
        cached = option.cache.get(computed)
        if cached is None:
            cached = option.cache[computed] = self._evaluate_rules(option, computed)
        rule_values, attrs, bundles = cached
        values.update(rule_values)
        evaluation = Evaluation(values, attrs, bundles)
        for call, fn, args in self._calls:
            resolved = []
            for kind, arg in args:
                if kind == "value":
                    if arg not in values:
                        raise TemplateError(f"{self.where}: {{{call.key}}}: argument {arg!r} has no value yet")
                    resolved.append(values[arg])
                else:
                    if arg not in attrs:
                        raise TemplateError(f"{self.where}: {{{call.key}}}: no feature {var_text(arg)} in this draw")
                    resolved.append(attrs[arg])
            result = fn(*resolved)
            if not isinstance(result, str):
                raise TemplateError(f"{self.where}: {{{call.key}}} returned {type(result).__name__}, expected a string")
            values[call.key] = result
        return evaluation

    def _evaluate_rules(self, option: Option, computed: tuple) -> tuple[dict, dict, dict]:
        """Rules and inline choices for an option and the computed features of its draw."""
        attrs = dict(option.attrs)
        attrs.update(zip(self._computed_vars, computed))
        values: dict[str, str] = {}
        bundles = dict(option.bundles)
        for lookup in self._nonsampled:
            bundle = self._bundle(lookup, attrs)
            bundles[lookup.key] = bundle
            try:
                value = lookup.values.lookup(bundle)
            except AmbiguousLookup as error:
                raise TemplateError(f"{self.where}: {{{lookup.key}}}: {error}") from None
            if value is None:
                shown = self.language.dimensions.key(bundle.values()) or "(no features)"
                raise TemplateError(f"{self.where}: {{{lookup.key}}}: no value for features {shown}")
            values[lookup.key] = value
            self._record(lookup, attrs, bundle)
            for front, dimension in self._computed:
                if front == lookup.front:
                    # None: the value has no such feature (no word to start with); lookups then find no form
                    attrs[(front, dimension)] = self.language.compute(dimension)(value)  # type: ignore[assignment]
        return values, attrs, bundles

    def _assemble(self, values: Mapping[str, str], override: tuple[int, str] | None = None) -> str:
        pieces = []
        for index, literal, key, modifiers in self._segments:
            if key is None:
                pieces.append(literal)
                continue
            value = override[1] if override is not None and override[0] == index else values[key]
            for modifier in modifiers:
                value = modifier(value)
            pieces.append(value)
        return self.language.postprocess("".join(pieces))

    # ------------------------------------------------------------ enumeration
    def _groups(self, option: Option) -> list[tuple[tuple[str, ...], list[tuple[int, ...]]]]:
        return option.groups + self._plain_groups_list

    def _entries(self, groups, choice: Sequence[int]) -> dict[str, int]:
        entries: dict[str, int] = {}
        for (fronts, tuples), index in zip(groups, choice):
            entries.update(zip(fronts, tuples[index]))
        return entries

    def draw_at(self, rank: int) -> Draw:
        """The draw of rank ``rank`` (0 ≤ rank < :attr:`size`)."""
        if not 0 <= rank < self.size:
            raise IndexError(f"{self.where}: rank {rank} outside 0..{self.size - 1}")
        o = bisect_right(self._offsets, rank)
        option = self.options[o]
        rest = rank - (self._offsets[o - 1] if o else 0)
        groups = self._groups(option)
        choice = []
        for _, tuples in reversed(groups):
            rest, index = divmod(rest, len(tuples))
            choice.append(index)
        entries = self._entries(groups, list(reversed(choice)))
        return Draw(rank, {var_text(v): f for v, f in option.free.items()}, entries)

    def draws(self) -> Iterator[Draw]:
        """Every draw, in rank order."""
        rank = 0
        for option in self.options:
            groups = self._groups(option)
            features = {var_text(v): f for v, f in option.free.items()}
            for choice in itertools.product(*(range(len(tuples)) for _, tuples in groups)):
                yield Draw(rank, features, self._entries(groups, choice))
                rank += 1

    def _option_of(self, draw: Draw) -> Option:
        try:
            key = tuple(draw.features[var_text(v)] for v in self.free_order)
            return self.options[self._option_index[key]]
        except KeyError:
            raise TemplateError(f"{self.where}: draw features {dict(draw.features)} are not an option of this template") from None

    def render(self, draw: Draw) -> str:
        """The post-processed string of a draw."""
        return self._assemble(self._evaluate(self._option_of(draw), draw.entries).values)

    def features(self, draw: Draw) -> dict[str, dict[str, str]]:
        """Every feature of every placeholder in a draw, free or agreeing or computed:
        ``{"name1": {"NUMBER": "SG", "GENDER": "FEM"}, ...}``."""
        evaluation = self._evaluate(self._option_of(draw), draw.entries)
        out: dict[str, dict[str, str]] = {}
        for (front, dimension), feature in evaluation.attrs.items():
            if front in self.fronts and feature is not None:
                out.setdefault(front, {})[dimension] = feature
        return {front: dict(sorted(dims.items())) for front, dims in out.items()}

    def generate(self) -> list[Item]:
        """Every distinct string (first draw kept), in rank order."""
        seen: dict[str, Item] = {}
        rank = 0
        for option in self.options:
            groups = self._groups(option)
            features = {var_text(v): f for v, f in option.free.items()}
            for choice in itertools.product(*(range(len(tuples)) for _, tuples in groups)):
                entries = self._entries(groups, choice)
                text = self._assemble(self._evaluate(option, entries).values)
                if text not in seen:
                    seen[text] = Item(text, Draw(rank, features, entries))
                rank += 1
        return list(seen.values())

    def sample(self, n: int, seed: int) -> list[Item]:
        """``n`` distinct strings drawn uniformly over draws without replacement
        (fewer when the space has fewer distinct strings), reproducible by ``seed``."""
        return [Item(text, draw) for text, draw in self.sample_draws(n, seed, self.render)]

    def sample_draws(self, n: int, seed: int, key: Callable[[Draw], Any]) -> list[tuple[Any, Draw]]:
        """``n`` draws with distinct ``key(draw)`` (e.g. the rendered string), drawn
        uniformly without replacement with ``random.Random(seed)``; fewer when the
        space has fewer distinct keys.  Returns ``(key, draw)`` in sampling order."""
        if not isinstance(n, int) or n < 0:
            raise ConfigError(f"n must be a non-negative integer, not {n!r}")
        rng = random.Random(seed)
        seen: dict[Any, Draw] = {}
        for rank in self._ranks(rng, n):
            if len(seen) >= n:
                break
            draw = self.draw_at(rank)
            value = key(draw)
            if value is not None and value not in seen:
                seen[value] = draw
        return list(seen.items())

    def _ranks(self, rng: random.Random, n: int) -> Iterator[int]:
        if self.size == 0 or n == 0:
            return
        if 2 * n >= self.size:
            ranks = list(range(self.size))
            rng.shuffle(ranks)
            yield from ranks
            return
        used: set[int] = set()
        while len(used) < self.size:
            rank = rng.randrange(self.size)
            if rank not in used:
                used.add(rank)
                yield rank

    # ---------------------------------------------------------------- flips
    def _find_flip_targets(self) -> list[FlipTarget]:
        sample_attrs = self.options[0].attrs if self.options else dict(self.free)
        consumers, recorded = self._flip_consumers(sample_attrs)
        by_key = {lookup.key: lookup for lookup in self.lookups}
        targets = []
        for index, chunk in enumerate(self.layout):
            if not isinstance(chunk, Occurrence) or chunk.key not in by_key:
                continue
            lookup = by_key[chunk.key]
            sources = _flip_sources(lookup, sample_attrs, consumers, recorded)
            for dimension in lookup.dimensions:
                if dimension in sources and len(lookup.features.get(dimension, ())) > 1:
                    targets.append(FlipTarget(index, chunk.key, lookup.kind, lookup.front, dimension, sources[dimension]))
        return targets

    def _flip_consumers(self, sample_attrs: Mapping[Var, Any]) -> tuple[dict[Var, int], set[Var]]:
        """How many slots and calls read each feature variable, and which variables a
        lookup records (agreement or conditional dimensions of its own front)."""
        consumers: dict[Var, int] = {}
        recorded: set[Var] = set()
        for lookup in self.lookups:
            for agreement in lookup.agreements:
                for dimension in agreement.dimensions:
                    consumers[(agreement.front, dimension)] = consumers.get((agreement.front, dimension), 0) + 1
                    recorded.add((lookup.front, dimension))
            for conditional in lookup.conditionals:
                recorded.add((lookup.front, conditional.dimension))
                for _, conditions in conditional.options:
                    for front, dimension, _ in conditions:
                        consumers[(front, dimension)] = consumers.get((front, dimension), 0) + 1
            for (front, dimension) in sample_attrs:
                if front == lookup.front and dimension not in lookup.mentioned:
                    consumers[(front, dimension)] = consumers.get((front, dimension), 0) + 1
        for _, _, args in self._calls:
            for kind, arg in args:
                if kind == "feature":
                    consumers[arg] = consumers.get(arg, 0) + 1
        return consumers, recorded

    @property
    def flip_targets(self) -> list[FlipTarget]:
        return list(self._flip_targets)

    def flips(self, draw: Draw, dimensions: Sequence[str] | None = None) -> list[Flip]:
        """Every re-rendering of ``draw`` with one agreeing feature of one slot
        occurrence flipped to another feature of its dimension, where that gives a
        different string (duplicates of an earlier flip's string are left out)."""
        option = self._option_of(draw)
        evaluation = self._evaluate(option, draw.entries)
        original = self._assemble(evaluation.values)
        by_key = {lookup.key: lookup for lookup in self.lookups}
        out: list[Flip] = []
        seen = {original}
        for target in self._flip_targets:
            if dimensions is not None and target.dimension not in dimensions:
                continue
            lookup = by_key[target.key]
            bundle = evaluation.bundles[target.key]
            current = bundle.get(target.dimension)
            if current is None:
                continue
            for feature in lookup.features[target.dimension]:
                if feature == current:
                    continue
                changed = dict(bundle)
                changed[target.dimension] = feature
                try:
                    if lookup.kind == "placeholder":
                        value = lookup.entries[draw.entries[lookup.front]].lookup(changed)
                    else:
                        value = lookup.values.lookup(changed)
                except AmbiguousLookup:
                    value = None
                if value is None:
                    continue
                text = self._assemble(evaluation.values, override=(target.occurrence, value))
                if text in seen:
                    continue
                seen.add(text)
                out.append(Flip(text, target, current, feature, evaluation.values[target.key], value))
        return out


def _flip_sources(
    lookup: Lookup, sample_attrs: Mapping[Var, Any], consumers: Mapping[Var, int], recorded: set[Var]
) -> dict[str, str]:
    """Per dimension of ``lookup``, where its feature comes from (an agreeing front's
    variable, a conditional, or its own shared free variable): the flippable dimensions."""
    sources: dict[str, str] = {}
    for agreement in lookup.agreements:
        for dimension in agreement.dimensions:
            sources[dimension] = f"{agreement.front}.{dimension}"
    for conditional in lookup.conditionals:
        sources[conditional.dimension] = "conditional"
    for (front, dimension) in sample_attrs:
        if front == lookup.front and dimension not in lookup.mentioned and dimension not in sources:
            var = (front, dimension)
            if consumers.get(var, 0) >= 2 or var in recorded:
                sources[dimension] = f"{front}.{dimension}"
    return sources
