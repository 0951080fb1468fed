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
import logging
import random
import re
from bisect import bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

from arena.errors import ConfigError
from performers.m2c import registry
from performers.m2c.features import TemplateError
from performers.m2c.language import Language
from performers.m2c.syntax import Agreement, Call, Choice, Conditional, KeyParser, Mask, Occurrence, Ref, split_template
from performers.m2c.tables import AmbiguousLookup, FeatureTable, Lexicon

logger = logging.getLogger(__name__)

Var = tuple[str, str]  # (front, dimension)


@dataclass(frozen=True)
class Repetition:
    """How numbered fronts of one root combine (M2C's ``same_keys_cfg``)."""

    order: bool = True
    repeat: bool = False


def index_tuples(lengths: Sequence[int], repeat: bool, order: bool) -> list[tuple[int, ...]]:
    """Position tuples for fronts whose lists have ``lengths`` (position ``j`` < ``lengths[j]``)."""
    if not lengths:
        return [()]
    width, count = max(lengths), len(lengths)
    if not order and repeat:
        it = itertools.product(range(width), repeat=count)
    elif not order:
        it = itertools.permutations(range(width), count)
    elif not repeat:
        it = itertools.combinations(range(width), count)
    else:
        it = itertools.combinations_with_replacement(range(width), count)
    return [t for t in it if all(i < n for i, n in zip(t, lengths))]


@dataclass
class Lookup:
    """A slot whose value is looked up by features: a placeholder slot (``kind``
    ``placeholder``), a language rule (``rule``) or an inline choice (``choice``)."""

    key: str
    kind: str
    front: str
    dimensions: tuple[str, ...]
    features: Mapping[str, tuple[str, ...]]
    fixed: Mapping[str, str]
    agreements: tuple[Agreement, ...]
    conditionals: tuple[Conditional, ...]
    table: FeatureTable | None = None
    lexicon: Lexicon | None = None
    mentioned: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        dims = set(self.fixed)
        for agreement in self.agreements:
            dims.update(agreement.dimensions)
        dims.update(conditional.dimension for conditional in self.conditionals)
        self.mentioned = frozenset(dims)


@dataclass
class Option:
    """One combination of free features and what follows from it."""

    free: dict[Var, str]
    attrs: dict[Var, str]  # after placeholder slots recorded their agreeing features
    bundles: dict[str, dict[str, str]]  # placeholder slot key → lookup features
    forms: dict[str, dict[int, str]]  # placeholder slot key → entry → form
    groups: list[tuple[tuple[str, ...], list[tuple[int, ...]]]]  # (fronts, entry tuples)
    count: int = 0
    # rule/choice values, features and bundles per tuple of computed features (e.g. STARTSWITH)
    cache: dict[tuple, tuple[dict[str, str], dict[Var, str], dict[str, dict[str, str]]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Draw:
    """One point of a template's space: ``rank`` in the enumeration, the free
    ``features`` (``{"name1.GENDER": "FEM"}``) and the ``entries`` (front → index into
    the placeholder's value list).  JSON-serialisable via :meth:`to_json`."""

    rank: int
    features: Mapping[str, str]
    entries: Mapping[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "features": dict(self.features), "entries": dict(self.entries)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Draw:
        if not isinstance(data, Mapping) or not {"features", "entries"} <= set(data):
            raise TemplateError("a draw is a mapping with 'features' and 'entries'")
        return cls(int(data.get("rank", -1)), dict(data["features"]), {k: int(v) for k, v in data["entries"].items()})


@dataclass(frozen=True)
class Item:
    """A generated string and the draw it came from."""

    text: str
    draw: Draw


@dataclass(frozen=True)
class FlipTarget:
    """A feature of one occurrence of a slot that comes from agreement (another
    placeholder, a conditional, an inline choice, or a free feature other slots share)."""

    occurrence: int
    key: str
    kind: str
    front: str
    dimension: str
    source: str


@dataclass(frozen=True)
class Flip:
    """A re-rendering with one feature of one slot occurrence flipped."""

    text: str
    target: FlipTarget
    before: str  # the feature drawn
    after: str  # the feature put instead
    value_before: str
    value_after: str


@dataclass
class _Evaluation:
    values: dict[str, str]
    attrs: dict[Var, str]
    bundles: dict[str, dict[str, str]] = field(default_factory=dict)


def _var(text: str) -> Var:
    front, _, dimension = text.rpartition(".")
    return front, dimension


def _var_text(var: Var) -> str:
    return f"{var[0]}.{var[1]}"


class TemplateSpace:
    """Compile a template against a language and its placeholders' lexicons.

    ``functions`` maps function names used as ``{$name(...)}`` to callables; names
    not given are looked up in :mod:`performers.m2c.registry` for the language.
    """

    def __init__(
        self,
        text: str,
        language: Language,
        lexicons: Mapping[str, Lexicon],
        repetition: Mapping[str, Repetition] | None = None,
        functions: Mapping[str, Callable[..., str]] | None = None,
        name: str = "template",
        where: str = "",
    ):
        self.name = name
        self.text = text
        self.language = language
        self.lexicons = dict(lexicons)
        self.repetition = dict(repetition or {})
        self.where = where or f"template {name!r}"
        for root in self.lexicons:
            if re.search(r"\d$", root):
                raise TemplateError(f"{self.where}: placeholder name {root!r} may not end in a digit (digits number draws)")
        unknown = sorted(set(self.repetition) - set(self.lexicons))
        if unknown:
            # M2C accepts settings for placeholders a template does not have (zh comparative2 does this)
            logger.warning(
                "%s: repetition settings for unknown placeholder(s) %s have no effect; placeholders: %s",
                self.where, ", ".join(unknown), ", ".join(sorted(self.lexicons)),
            )
        self._parse()
        self._resolve()
        self._functions(functions or {})
        self._compile_options()
        self._flip_targets = self._find_flip_targets()

    # ------------------------------------------------------------------ parsing
    def _parse(self) -> None:
        parser = KeyParser(self.language.dimensions, self.language.modifiers)
        self.slots: dict[str, Any] = {}
        self.layout: list[str | Occurrence] = []
        for chunk in split_template(self.text, self.where):
            if isinstance(chunk, str):
                self.layout.append(chunk)
                continue
            slot, modifiers = parser.parse(chunk.key, self.where)
            self.slots.setdefault(slot.key, slot)
            self.layout.append(Occurrence(slot.key, modifiers))
        modifiers = {
            name: self.language.modifiers[name] if name in self.language.modifiers else registry.modifier(name, self.where)
            for chunk in self.layout
            if isinstance(chunk, Occurrence)
            for name in chunk.modifiers
        }
        self._segments: list[tuple[int, str, str | None, tuple]] = []
        for index, chunk in enumerate(self.layout):
            if isinstance(chunk, str):
                self._segments.append((index, chunk, None, ()))
            elif isinstance(self.slots[chunk.key], Mask):
                self._segments.append((index, "{" + chunk.key + "}", None, ()))
            else:
                self._segments.append((index, "", chunk.key, tuple(modifiers[name] for name in chunk.modifiers)))

    def _resolve(self) -> None:
        """Sort slots into placeholder lookups, plain placeholders, rules, choices, calls."""
        self.lookups: list[Lookup] = []  # placeholder, rule and choice slots in template order
        self.plain: dict[str, str] = {}  # plain slot key → front
        self.fronts: dict[str, list[str]] = {}  # placeholder front → slot keys (template order)
        self.front_root: dict[str, str] = {}
        self.numbered: dict[str, list[str]] = {}  # root → numbered fronts, first appearance order
        self.calls: list[Call] = []
        choice_index = 0
        for key, slot in self.slots.items():
            if isinstance(slot, Mask):
                continue
            if isinstance(slot, Call):
                self.calls.append(slot)
                continue
            if isinstance(slot, Choice):
                self._check_front(slot.front, key)
                items = [(frozenset(features), value) for value, features in slot.options]
                table = FeatureTable(items, self.language.dimensions, where=f"{self.where}: {{{key}}}")
                front = f"<choice{choice_index}>"
                choice_index += 1
                self.lookups.append(
                    Lookup(key, "choice", front, table.dimensions, table.features, {},
                           (Agreement(slot.front, table.dimensions),), (), table=table)
                )
                continue
            assert isinstance(slot, Ref)
            fixed = self.language.dimensions.dimensions_of(slot.fixed)
            if slot.root in self.lexicons:
                lexicon = self.lexicons[slot.root]
                self.fronts.setdefault(slot.front, []).append(key)
                self.front_root[slot.front] = slot.root
                if slot.numbered and slot.front not in self.numbered.setdefault(slot.root, []):
                    self.numbered[slot.root].append(slot.front)
                if lexicon.is_plain:
                    if not slot.bare:
                        raise TemplateError(
                            f"{self.where}: {{{key}}}: {slot.root!r} is a list of plain strings and has no features"
                        )
                    self.plain[key] = slot.front
                    continue
                for dimension in fixed:
                    if dimension not in lexicon.dimensions:
                        raise TemplateError(
                            f"{self.where}: {{{key}}}: the values of {slot.root!r} have no {dimension} features "
                            f"(they use {', '.join(lexicon.dimensions) or 'none'})"
                        )
                self.lookups.append(
                    Lookup(key, "placeholder", slot.front, lexicon.dimensions, lexicon.features, fixed,
                           slot.agreements, slot.conditionals, lexicon=lexicon)
                )
            elif slot.root in self.language.rules:
                table = self.language.rules[slot.root]
                self.lookups.append(
                    Lookup(key, "rule", slot.front, table.dimensions, table.features, fixed,
                           slot.agreements, slot.conditionals, table=table)
                )
            else:
                raise TemplateError(self._unknown(slot.front, key))
        for plain_front in set(self.plain.values()):
            if any(lookup.front == plain_front for lookup in self.lookups):
                raise TemplateError(f"{self.where}: {plain_front!r} is used both with and without features")
        known_fronts = set(self.fronts) | {lookup.front for lookup in self.lookups}
        for lookup in self.lookups:
            for agreement in lookup.agreements:
                if agreement.front not in known_fronts:
                    raise TemplateError(
                        f"{self.where}: {{{lookup.key}}} agrees with {agreement.front!r}, which the template does not use"
                    )
            for conditional in lookup.conditionals:
                for front, _, _ in (c for _, conditions in conditional.options for c in conditions):
                    if front not in known_fronts:
                        raise TemplateError(
                            f"{self.where}: {{{lookup.key}}} has a condition on {front!r}, which the template does not use"
                        )

    def _check_front(self, front: str, key: str) -> None:
        root = re.sub(r"\d+$", "", front)
        if root not in self.lexicons and root not in self.language.rules:
            raise TemplateError(self._unknown(front, key))

    def _unknown(self, front: str, key: str) -> str:
        import difflib

        known = sorted(self.lexicons) + sorted(self.language.rules)
        close = difflib.get_close_matches(re.sub(r"\d+$", "", front), known, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        return (
            f"{self.where}: {{{key}}}: unknown placeholder {front!r}.{hint} "
            f"Placeholders: {', '.join(sorted(self.lexicons)) or '(none)'}; "
            f"rules: {', '.join(sorted(self.language.rules)) or '(none)'}"
        )

    def _functions(self, given: Mapping[str, Callable[..., str]]) -> None:
        """Resolve computed placeholders and their arguments."""
        self.hidden: list[str] = []  # plain roots only used as function arguments
        self._calls: list[tuple[Call, Callable[..., str], list[tuple[str, Any]]]] = []
        parser = KeyParser(self.language.dimensions, self.language.modifiers)
        for call in self.calls:
            here = f"{self.where}: {{{call.key}}}"
            fn = given.get(call.name) or registry.function(call.name, self.language.code, here)
            args: list[tuple[str, Any]] = []
            for arg in call.args:
                if arg in self.slots:
                    args.append(("value", arg))
                    continue
                try:
                    canonical = parser.parse(arg, here)[0].key
                except TemplateError:
                    canonical = None
                if canonical in self.slots:
                    args.append(("value", canonical))
                elif "." in arg and _var(arg)[1] in self.language.dimensions:
                    args.append(("feature", _var(arg)))
                elif arg in self.lexicons and self.lexicons[arg].is_plain:
                    if arg not in self.fronts:
                        self.fronts[arg] = [arg]
                        self.front_root[arg] = arg
                        self.hidden.append(arg)
                        self.plain[arg] = arg
                    args.append(("value", arg))
                else:
                    raise TemplateError(
                        f"{here}: argument {arg!r} is neither a key of the template, a feature (placeholder.DIMENSION) "
                        "nor a list of plain values"
                    )
            self._calls.append((call, fn, args))

    # ------------------------------------------------------------ free features
    def _free_variables(self) -> dict[Var, tuple[str, ...]]:
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
        free: dict[Var, tuple[str, ...]] = {}
        for front, dimension in conditions:
            for lookup in self.lookups:
                if lookup.front == front and dimension in lookup.dimensions:
                    free[(front, dimension)] = lookup.features[dimension]
        if not free:
            for lookup in self.lookups:
                if lookup.kind == "placeholder":
                    for dimension, feature in lookup.fixed.items():
                        free[(lookup.front, dimension)] = (feature,)
        return free

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
        self._plain_keys = [(key, front, self.lexicons[self.front_root[front]].plain) for key, front in self.plain.items()]
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
            found: dict[int, str] = {}
            for index, entry in enumerate(lookup.lexicon.entries):
                try:
                    form = entry.lookup(bundle)
                except AmbiguousLookup as error:
                    raise TemplateError(f"{self.where}: {{{lookup.key}}}: {error}") from None
                if form is not None:
                    found[index] = form
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
            tuples = [
                tuple(lists[j][i] for j, i in enumerate(t))
                for t in index_tuples([len(entries) for entries in lists], repeat, order)
            ]
            groups.append((tuple(fronts), tuples))
        for front, entries in admissible.items():
            if front not in done:
                groups.append(((front,), [(entry,) for entry in entries]))
        return Option(free, attrs, bundles, forms, groups)

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

    # ------------------------------------------------------------- evaluation
    def _evaluate(self, option: Option, entries: Mapping[str, int]) -> _Evaluation:
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
        evaluation = _Evaluation(values, attrs, bundles)
        for call, fn, args in self._calls:
            resolved = []
            for kind, arg in args:
                if kind == "value":
                    if arg not in values:
                        raise TemplateError(f"{self.where}: {{{call.key}}}: argument {arg!r} has no value yet")
                    resolved.append(values[arg])
                else:
                    if arg not in attrs:
                        raise TemplateError(f"{self.where}: {{{call.key}}}: no feature {_var_text(arg)} in this draw")
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
                value = lookup.table.lookup(bundle)
            except AmbiguousLookup as error:
                raise TemplateError(f"{self.where}: {{{lookup.key}}}: {error}") from None
            if value is None:
                shown = self.language.dimensions.key(bundle.values()) or "(no features)"
                raise TemplateError(f"{self.where}: {{{lookup.key}}}: no value for features {shown}")
            values[lookup.key] = value
            self._record(lookup, attrs, bundle)
            for front, dimension in self._computed:
                if front == lookup.front:
                    attrs[(front, dimension)] = self.language.compute(dimension)(value)
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
        return Draw(rank, {_var_text(v): f for v, f in option.free.items()}, entries)

    def draws(self) -> Iterator[Draw]:
        """Every draw, in rank order."""
        rank = 0
        for option in self.options:
            groups = self._groups(option)
            features = {_var_text(v): f for v, f in option.free.items()}
            for choice in itertools.product(*(range(len(tuples)) for _, tuples in groups)):
                yield Draw(rank, features, self._entries(groups, choice))
                rank += 1

    def _option_of(self, draw: Draw) -> Option:
        try:
            key = tuple(draw.features[_var_text(v)] for v in self.free_order)
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
            features = {_var_text(v): f for v, f in option.free.items()}
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
        consumers: dict[Var, int] = {}
        recorded: set[Var] = set()
        sample_attrs = self.options[0].attrs if self.options else dict(self.free)
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
        by_key = {lookup.key: lookup for lookup in self.lookups}
        targets = []
        for index, chunk in enumerate(self.layout):
            if not isinstance(chunk, Occurrence) or chunk.key not in by_key:
                continue
            lookup = by_key[chunk.key]
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
            for dimension in lookup.dimensions:
                if dimension in sources and len(lookup.features.get(dimension, ())) > 1:
                    targets.append(FlipTarget(index, chunk.key, lookup.kind, lookup.front, dimension, sources[dimension]))
        return targets

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
                        value = lookup.lexicon.entries[draw.entries[lookup.front]].lookup(changed)
                    else:
                        value = lookup.table.lookup(changed)
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
