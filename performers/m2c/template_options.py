"""The options of a template (second stage of :class:`~performers.m2c.space.TemplateSpace`): which
features are free, their combinations, and for each the admissible forms of every placeholder."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from math import prod

from performers.m2c.draws import (
    Lookup,
    Option,
    Repetition,
    Var,
    index_tuples,
)
from performers.m2c.features import TemplateError
from performers.m2c.syntax import Conditional
from performers.m2c.tables import AmbiguousLookup
from performers.m2c.template_syntax import TemplateSyntax

logger = logging.getLogger(__name__)


class TemplateOptions(TemplateSyntax):
    """A parsed template with its options compiled: ``free`` features, ``options`` and ``size``."""

    def _compile(self) -> None:
        super()._compile()
        self._compile_options()

    # ------------------------------------------------------------ free features
    def _free_variables(self) -> dict[Var, tuple[str, ...]]:
        free: dict[Var, tuple[str, ...]] = {}
        for front, dimension in self._conditioning_variables():
            for lookup in self.lookups:
                if lookup.front == front and dimension in lookup.dimensions:
                    free[(front, dimension)] = lookup.features[dimension]
        if not free:
            for lookup in self.lookups:
                if lookup.kind == "placeholder":
                    for dimension, feature in lookup.fixed.items():
                        free[(lookup.front, dimension)] = (feature,)
        return free

    def _conditioning_variables(self) -> list[Var]:
        """The feature variables the template's lookups depend on, in order: agreement
        targets first, then each slot's own dimensions that nothing fixes (a rule or
        choice slot only for sampleable dimensions)."""
        dims = self.language.dimensions
        conditions: list[Var] = []
        for lookup in self.lookups:
            for agreement in lookup.agreements:
                for dimension in agreement.dimensions:
                    var = (agreement.front, dimension)
                    if var not in conditions and (lookup.kind == "placeholder" or dims[dimension].sampleable):
                        conditions.append(var)
        for lookup in self.lookups:
            mentioned = lookup.mentioned
            for dimension in lookup.dimensions:
                var = (lookup.front, dimension)
                if dimension not in mentioned and var not in conditions:
                    if lookup.kind == "placeholder" or dims[dimension].sampleable:
                        conditions.append(var)
        return conditions

    def _free_options(self, free: dict[Var, tuple[str, ...]]) -> list[dict[Var, str]]:
        grouped: dict[str, dict[str, list[Var]]] = {}
        rest: list[Var] = []
        for var in free:
            front = var[0]
            if front in self.front_root and front in self.numbered.get(self.front_root[front], ()):
                grouped.setdefault(self.front_root[front], {}).setdefault(front, []).append(var)
            else:
                rest.append(var)
        products: list[list[dict[Var, str]]] = []
        for root, per_front in grouped.items():
            bundles = [
                [dict(zip(vars_, combination)) for combination in itertools.product(*(free[v] for v in vars_))]
                for vars_ in per_front.values()
            ]
            order = self.repetition.get(root, Repetition()).order
            products.append(
                [
                    {k: v for j, i in enumerate(t) for k, v in bundles[j][i].items()}
                    for t in index_tuples([len(b) for b in bundles], repeat=True, order=order)
                ]
            )
        if rest:
            products.append([dict(zip(rest, combination)) for combination in itertools.product(*(free[v] for v in rest))])
        return [{k: v for part in parts for k, v in part.items()} for parts in itertools.product(*products)]

    # --------------------------------------------------------------- lookups
    def _bundle(self, lookup: Lookup, attrs: Mapping[Var, str]) -> dict[str, str]:
        mentioned = lookup.mentioned
        bundle = {dimension: feature for (front, dimension), feature in attrs.items()
                  if front == lookup.front and dimension not in mentioned}
        bundle.update(lookup.fixed)
        for agreement in lookup.agreements:
            for dimension in agreement.dimensions:
                try:
                    bundle[dimension] = attrs[(agreement.front, dimension)]
                except KeyError:
                    raise TemplateError(self._missing(lookup, agreement.front, dimension)) from None
        for conditional in lookup.conditionals:
            feature = self._condition(conditional, attrs)
            if feature is not None:
                bundle[conditional.dimension] = feature
        return bundle

    def _missing(self, lookup: Lookup, front: str, dimension: str) -> str:
        if self.language.dimensions[dimension].computed:
            return (
                f"{self.where}: {{{lookup.key}}} agrees with the computed dimension {dimension} of {front!r}; "
                "only rules and inline choices may agree with computed dimensions"
            )
        return (
            f"{self.where}: {{{lookup.key}}} agrees with {front}.{dimension}, but {front!r} has no {dimension} "
            "feature in this template (its values do not use it and no other slot sets it)"
        )

    @staticmethod
    def _condition(conditional: Conditional, attrs: Mapping[Var, str]) -> str | None:
        for feature, conditions in conditional.options:
            if all(attrs.get((front, dimension)) == value for front, dimension, value in conditions):
                return feature
        return conditional.default

    def _record(self, lookup: Lookup, attrs: dict[Var, str], bundle: Mapping[str, str]) -> None:
        """A slot records the features it agreed on for its own front."""
        for agreement in lookup.agreements:
            for dimension in agreement.dimensions:
                attrs[(lookup.front, dimension)] = bundle[dimension]
        for conditional in lookup.conditionals:
            if conditional.dimension in bundle:
                attrs[(lookup.front, conditional.dimension)] = bundle[conditional.dimension]

    # --------------------------------------------------------------- options
    def _compile_options(self) -> None:
        self.free = self._free_variables()
        self.free_order: tuple[Var, ...] = tuple(self.free)
        placeholder_lookups = [lookup for lookup in self.lookups if lookup.kind == "placeholder"]
        self._sampled = placeholder_lookups
        self._nonsampled = self._dependency_order([lookup for lookup in self.lookups if lookup.kind != "placeholder"])
        self._computed = self._computed_dimensions()
        self._sampled_keys = [(lookup.key, lookup.front) for lookup in placeholder_lookups]
        self._plain_keys = [(key, front, self.lexicons[self.front_root[front]].plain or ()) for key, front in self.plain.items()]
        self._computed_vars = [var for var in self._computed if var[0] in self.fronts]
        self._computed_sources = [
            (self.fronts[front][-1], self.language.compute(dimension)) for front, dimension in self._computed_vars
        ]
        self.options: list[Option] = []
        self._option_index: dict[tuple[str, ...], int] = {}
        self.dropped_options = 0
        plain_groups = self._plain_groups()
        self._plain_groups_list = plain_groups
        plain_count = prod(len(tuples) for _, tuples in plain_groups)
        for free in self._free_options(self.free):
            option = self._option(free, placeholder_lookups)
            if option is None:
                self.dropped_options += 1
                continue
            option.count = prod(len(tuples) for _, tuples in option.groups) * plain_count
            if option.count == 0:
                self.dropped_options += 1
                continue
            self._option_index[tuple(free[v] for v in self.free_order)] = len(self.options)
            self.options.append(option)
        self._offsets = list(itertools.accumulate(option.count for option in self.options))
        self.size: int = self._offsets[-1] if self._offsets else 0
        if self.dropped_options:
            logger.debug("%s: %d feature combinations have no admissible values", self.where, self.dropped_options)

    def _option(self, free: dict[Var, str], lookups: list[Lookup]) -> Option | None:
        attrs = dict(free)
        bundles: dict[str, dict[str, str]] = {}
        forms: dict[str, dict[int, str]] = {}
        for lookup in lookups:
            bundle = self._bundle(lookup, attrs)
            bundles[lookup.key] = bundle
            found = self._entry_forms(lookup, bundle)
            if not found:
                return None
            forms[lookup.key] = found
            self._record(lookup, attrs, bundle)
        groups: list[tuple[tuple[str, ...], list[tuple[int, ...]]]] = []
        admissible: dict[str, list[int]] = {}
        for front, keys in self.fronts.items():
            sets = [set(forms[key]) for key in keys if key in forms]
            if sets:
                admissible[front] = sorted(set.intersection(*sets))
                if not admissible[front]:
                    return None
        done: set[str] = set()
        for root, fronts in self.numbered.items():
            fronts = [front for front in fronts if front in admissible]
            if not fronts:
                continue
            done.update(fronts)
            groups.append((tuple(fronts), self._numbered_tuples(root, fronts, admissible, attrs)))
        for front, entries in admissible.items():
            if front not in done:
                groups.append(((front,), [(entry,) for entry in entries]))
        return Option(free, attrs, bundles, forms, groups)

    def _entry_forms(self, lookup: Lookup, bundle: dict[str, str]) -> dict[int, str]:
        """The form of each lexicon entry of ``lookup`` for the feature ``bundle``
        (entries without one left out)."""
        found: dict[int, str] = {}
        for index, entry in enumerate(lookup.entries):
            try:
                form = entry.lookup(bundle)
            except AmbiguousLookup as error:
                raise TemplateError(f"{self.where}: {{{lookup.key}}}: {error}") from None
            if form is not None:
                found[index] = form
        return found

    def _numbered_tuples(
        self, root: str, fronts: list[str], admissible: dict[str, list[int]], attrs: dict[Var, str]
    ) -> list[tuple[int, ...]]:
        """The entry tuples of one placeholder's numbered ``fronts``, by its repetition
        setting; when an inherent feature of its lexicon differs between the fronts, all
        tuples (no order or repetition constraint)."""
        lexicon = self.lexicons[root]
        features: dict[str, set[str]] = {}
        for front in fronts:
            for (owner, dimension), feature in attrs.items():
                if owner == front:
                    features.setdefault(dimension, set()).add(feature)
        changing = {dimension for dimension, values in features.items() if len(values) > 1}
        setting = self.repetition.get(root, Repetition())
        order, repeat = (False, True) if changing & lexicon.inherent else (setting.order, setting.repeat)
        lists = [admissible[front] for front in fronts]
        return [
            tuple(lists[j][i] for j, i in enumerate(t))
            for t in index_tuples([len(entries) for entries in lists], repeat, order)
        ]

    def _plain_groups(self) -> list[tuple[tuple[str, ...], list[tuple[int, ...]]]]:
        plain_fronts = list(dict.fromkeys(self.plain.values()))
        groups = []
        done: set[str] = set()
        for root, fronts in self.numbered.items():
            fronts = [front for front in fronts if front in plain_fronts]
            if not fronts:
                continue
            done.update(fronts)
            setting = self.repetition.get(root, Repetition())
            size = len(self.lexicons[root])
            groups.append((tuple(fronts), index_tuples([size] * len(fronts), setting.repeat, setting.order)))
        for front in plain_fronts:
            if front not in done:
                groups.append(((front,), [(i,) for i in range(len(self.lexicons[self.front_root[front]]))]))
        return groups

    def _dependency_order(self, lookups: list[Lookup]) -> list[Lookup]:
        fronts = {lookup.front for lookup in lookups}
        pending = list(lookups)
        ordered: list[Lookup] = []
        while pending:
            for index, lookup in enumerate(pending):
                needs = {a.front for a in lookup.agreements} | {
                    front for c in lookup.conditionals for _, conditions in c.options for front, _, _ in conditions
                }
                needs = {front for front in needs if front in fronts and front != lookup.front}
                waiting = {other.front for other in pending if other is not lookup}
                if not (needs & waiting):
                    ordered.append(pending.pop(index))
                    break
            else:
                keys = ", ".join(sorted(other.key for other in pending))
                raise TemplateError(f"{self.where}: circular agreement between {keys}")
        return ordered

    def _computed_dimensions(self) -> list[Var]:
        needed: list[Var] = []
        for lookup in self._nonsampled:
            for agreement in lookup.agreements:
                for dimension in agreement.dimensions:
                    var = (agreement.front, dimension)
                    if self.language.dimensions[dimension].computed and var not in needed:
                        self.language.compute(dimension, f"{self.where}: {{{lookup.key}}}")
                        needed.append(var)
        return needed

