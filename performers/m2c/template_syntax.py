"""Parsing a template (first stage of :class:`~performers.m2c.space.TemplateSpace`): slots, layout,
lookups and computed placeholders, with errors that name the template and the slot."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from typing import Any

from performers.m2c import registry
from performers.m2c.draws import (
    Lookup,
    Repetition,
    parse_var,
)
from performers.m2c.features import TemplateError
from performers.m2c.language import Language
from performers.m2c.syntax import Agreement, Call, Choice, KeyParser, Mask, Occurrence, Ref, split_template
from performers.m2c.tables import FeatureTable, Lexicon

logger = logging.getLogger(__name__)


class TemplateSyntax:
    """A template parsed against a language and its placeholders' lexicons: its slots and
    layout, the placeholder, rule and choice lookups, and the computed placeholders' functions.

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
        self._compile()

    def _compile(self) -> None:
        """What later stages build from the parsed template (their ``_compile`` extends this)."""

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
        functions = {
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
                self._segments.append((index, "", chunk.key, tuple(functions[name] for name in chunk.modifiers)))

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
            elif isinstance(slot, Choice):
                self._resolve_choice(key, slot, f"<choice{choice_index}>")
                choice_index += 1
            else:
                assert isinstance(slot, Ref)
                self._resolve_ref(key, slot)
        self._check_fronts_used()

    def _resolve_choice(self, key: str, slot: Choice, front: str) -> None:
        """A choice slot: a lookup in its own feature table, agreeing with ``slot.front``."""
        self._check_front(slot.front, key)
        items = [(frozenset(features), value) for value, features in slot.options]
        table = FeatureTable(items, self.language.dimensions, where=f"{self.where}: {{{key}}}")
        self.lookups.append(
            Lookup(key, "choice", front, table.dimensions, table.features, {},
                   (Agreement(slot.front, table.dimensions),), (), table=table)
        )

    def _resolve_ref(self, key: str, slot: Ref) -> None:
        """A reference slot: a placeholder (plain or with features) or a language rule."""
        fixed = self.language.dimensions.dimensions_of(slot.fixed)
        if slot.root in self.lexicons:
            self._resolve_placeholder(key, slot, fixed)
        elif slot.root in self.language.rules:
            table = self.language.rules[slot.root]
            self.lookups.append(
                Lookup(key, "rule", slot.front, table.dimensions, table.features, fixed,
                       slot.agreements, slot.conditionals, table=table)
            )
        else:
            raise TemplateError(self._unknown(slot.front, key))

    def _resolve_placeholder(self, key: str, slot: Ref, fixed: dict[str, str]) -> None:
        """A placeholder slot: its front recorded, then plain (no features) or a lookup
        whose fixed features its lexicon must have."""
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
            return
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

    def _check_fronts_used(self) -> None:
        """A front is plain or with features, not both; agreements and conditions name
        fronts the template uses."""
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
                elif "." in arg and parse_var(arg)[1] in self.language.dimensions:
                    args.append(("feature", parse_var(arg)))
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

