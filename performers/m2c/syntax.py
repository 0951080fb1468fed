"""Parsing M2C template strings into slots.

A template is literal text with keys in braces (``{{`` and ``}}`` are literal braces).
The keys, compatible with M2C (Hlavnova & Ruder 2023, google-research/multi-morph-checklist):

``{job}``                        a placeholder: draws a value of ``job``
``{name1}``, ``{name2}``         numbered draws from the same list ``name`` (see the
                                 repetition/order settings in :mod:`performers.m2c.space`)
``{job.PL.MASC}``                the form with these features
``{job.<name1.NUMBER.GENDER>}``  agreement: NUMBER and GENDER as drawn for ``name1``
``{job.<name2.NUMBER>.MASC}``    fixed and agreeing features mixed
``{job1.PL.<FEM:name1.FEM,name2.FEM|MASC>}``
                                 a conditional feature: FEM if name1 and name2 are FEM,
                                 else the default MASC
``{is:name1.SG|are:name1.PL}``   an inline choice on what was drawn for ``name1``
``{ART1.INDF.<job.STARTSWITH>.<name1.NUMBER>}``
                                 a language rule (``ART``; a trailing number tells uses
                                 apart) looked up by fixed and agreeing features
``{$sum(number1,number2)}``      a computed placeholder: a registered Python function of
                                 other keys' values or of drawn features (``fruit1.GENDER``)
``{prep.TO_CAPITALIZE}``         a modifier applied to the value (any key may carry one)
``{mask}``, ``{mask1}``          left verbatim (CheckList mask tokens)

This module only parses; what a front name refers to (a placeholder, a rule) is
resolved by :mod:`performers.m2c.space`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from performers.m2c.features import Dimensions, TemplateError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MASK = re.compile(r"^mask\d*$")
_FUNCTION = re.compile(r"^\$([A-Za-z_][A-Za-z0-9_]*)\((.*)\)$")


@dataclass(frozen=True)
class Agreement:
    """``<front.D1.D2>``: take dimensions D1, D2 from what was drawn for ``front``."""

    front: str
    dimensions: tuple[str, ...]


@dataclass(frozen=True)
class Conditional:
    """``<FEM:name1.FEM,name2.FEM|MASC>``: the first feature whose conditions all hold
    (each condition ``front.F`` asks that ``front`` was drawn with feature F), else the
    default (the last option, without conditions)."""

    dimension: str
    options: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]  # (feature, ((front, dimension, feature), ...))
    default: str | None


@dataclass(frozen=True)
class Ref:
    """A placeholder or rule key: ``front`` with fixed features, agreements and
    conditional features."""

    key: str
    front: str
    fixed: tuple[str, ...]
    agreements: tuple[Agreement, ...]
    conditionals: tuple[Conditional, ...]

    @property
    def root(self) -> str:
        """The front without its trailing number (``name1`` → ``name``)."""
        return re.sub(r"\d+$", "", self.front)

    @property
    def numbered(self) -> bool:
        return self.root != self.front

    @property
    def bare(self) -> bool:
        return not (self.fixed or self.agreements or self.conditionals)


@dataclass(frozen=True)
class Choice:
    """``{is:name1.SG|are:name1.PL}``: a value per feature bundle of ``front``."""

    key: str
    front: str
    options: tuple[tuple[str, tuple[str, ...]], ...]  # (value, features)


@dataclass(frozen=True)
class Call:
    """``{$fn(arg,…)}``: a registered function of other keys' values or features."""

    key: str
    name: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class Mask:
    """``{mask}``: left in the output verbatim."""

    key: str


Slot = Ref | Choice | Call | Mask


@dataclass(frozen=True)
class Occurrence:
    """One place in the template where a slot's value goes, with its modifiers."""

    key: str
    modifiers: tuple[str, ...]


def split_template(template: str, where: str = "template") -> list[str | Occurrence]:
    """Split a template into literal text and raw keys (modifiers not yet removed)."""
    if not isinstance(template, str):
        raise TemplateError(f"{where}: a template must be a string, not {type(template).__name__}")
    chunks: list[str | Occurrence] = []
    text: list[str] = []
    i, n = 0, len(template)
    while i < n:
        char = template[i]
        if char == "{" and i + 1 < n and template[i + 1] == "{":
            text.append("{")
            i += 2
        elif char == "}" and i + 1 < n and template[i + 1] == "}":
            text.append("}")
            i += 2
        elif char == "{":
            end = template.find("}", i + 1)
            inner_open = template.find("{", i + 1)
            if end < 0 or (0 <= inner_open < end):
                raise TemplateError(f"{where}: unclosed '{{' at character {i}: {template[i:i + 40]!r}")
            key = template[i + 1 : end]
            if not key.strip():
                raise TemplateError(f"{where}: empty key '{{}}' at character {i}")
            if text:
                chunks.append("".join(text))
                text = []
            chunks.append(Occurrence(key, ()))
            i = end + 1
        elif char == "}":
            raise TemplateError(f"{where}: single '}}' at character {i} (write '}}}}' for a literal brace)")
        else:
            text.append(char)
            i += 1
    if text:
        chunks.append("".join(text))
    return chunks


def split_parts(text: str, separator: str = ".") -> list[str]:
    """Split on ``separator`` outside ``<…>``."""
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
            if depth < 0:
                raise TemplateError(f"unbalanced '>' in {text!r}")
        if char == separator and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    if depth != 0:
        raise TemplateError(f"unbalanced '<' in {text!r}")
    parts.append("".join(current))
    return parts


class KeyParser:
    """Parses keys against a language's dimensions and modifier names."""

    def __init__(self, dimensions: Dimensions, modifiers: Iterable[str]):
        self.dimensions = dimensions
        self.modifiers = frozenset(modifiers)

    def parse(self, raw: str, where: str) -> tuple[Slot, tuple[str, ...]]:
        """Parse one raw key into a slot and its modifiers."""
        key = raw.strip()
        here = f"{where}: key {{{raw}}}"
        if _MASK.match(key):
            return Mask(key), ()
        if key.startswith("$"):
            return self._call(key, here)
        if ":" in key and "<" not in key:  # M2C requires a '|' too; a one-option choice is accepted
            return self._choice(key, here)
        return self._ref(key, here)

    def _strip_modifiers(self, parts: list[str]) -> tuple[list[str], tuple[str, ...]]:
        kept: list[str] = []
        modifiers: list[str] = []
        for part in parts:
            (modifiers if part in self.modifiers else kept).append(part)
        return kept, tuple(modifiers)

    def _call(self, key: str, here: str) -> tuple[Call, tuple[str, ...]]:
        close = key.rfind(")")
        if close < 0:
            raise TemplateError(f"{here}: a computed placeholder is written {{$name(arg,...)}}")
        head, tail = key[: close + 1], key[close + 1 :]
        modifiers: tuple[str, ...] = ()
        if tail:
            if not tail.startswith("."):
                raise TemplateError(f"{here}: unexpected {tail!r} after the function call")
            rest, modifiers = self._strip_modifiers(tail[1:].split("."))
            if rest:
                raise TemplateError(f"{here}: unknown modifier(s) {', '.join(rest)}; known: {', '.join(sorted(self.modifiers))}")
        match = _FUNCTION.match(head)
        if not match:
            raise TemplateError(f"{here}: a computed placeholder is written {{$name(arg,...)}}")
        args = tuple(arg.strip() for arg in split_parts(match.group(2), ",")) if match.group(2).strip() else ()
        if any(not arg for arg in args):
            raise TemplateError(f"{here}: empty function argument")
        return Call(head, match.group(1), args), modifiers

    def _choice(self, key: str, here: str) -> tuple[Choice, tuple[str, ...]]:
        options = []
        front: str | None = None
        modifiers: tuple[str, ...] = ()
        raw_options = key.split("|")
        for index, option in enumerate(raw_options):
            if option.count(":") != 1:
                raise TemplateError(
                    f"{here}: each inline choice option is value:placeholder.FEATURES, got {option!r}"
                )
            value, ref = option.split(":")
            parts = ref.split(".")
            if index == len(raw_options) - 1:
                parts, modifiers = self._strip_modifiers(parts)
            name, features = parts[0], parts[1:]
            if not _NAME.match(name):
                raise TemplateError(f"{here}: {name!r} is not a placeholder name")
            if front is None:
                front = name
            elif name != front:
                raise TemplateError(f"{here}: an inline choice must test one placeholder, got {front!r} and {name!r}")
            if not features:
                raise TemplateError(f"{here}: option {option!r} names no features")
            self._check_bundle(features, f"{here} option {option!r}")
            options.append((value, tuple(features)))
        assert front is not None  # key.split('|') gives at least one option
        canonical = "|".join(f"{value}:{front}.{'.'.join(features)}" for value, features in options)
        return Choice(canonical, front, tuple(options)), modifiers

    def _check_bundle(self, features: list[str] | tuple[str, ...], where: str) -> dict[str, str]:
        seen: dict[str, str] = {}
        for feature in features:
            if feature in self.dimensions:
                raise TemplateError(f"{where}: {feature!r} is a dimension; write <placeholder.{feature}> to agree on it")
            dimension = self.dimensions.dimension_of(feature, where)
            if dimension in seen:
                raise TemplateError(f"{where}: {dimension} given twice ({seen[dimension]}, {feature})")
            seen[dimension] = feature
        return seen

    def _ref(self, key: str, here: str) -> tuple[Ref, tuple[str, ...]]:
        try:
            parts = split_parts(key)
        except TemplateError as error:
            raise TemplateError(f"{here}: {error}") from None
        parts, modifiers = self._strip_modifiers(parts)
        front = parts[0] if parts else ""
        if not _NAME.match(front):
            raise TemplateError(f"{here}: {front!r} is not a placeholder or rule name")
        fixed: list[str] = []
        agreements: list[Agreement] = []
        conditionals: list[Conditional] = []
        used: dict[str, str] = {}

        def claim(dimension: str, what: str) -> None:
            if dimension in used:
                raise TemplateError(f"{here}: {dimension} is given twice ({used[dimension]} and {what})")
            used[dimension] = what

        for part in parts[1:]:
            if not part:
                raise TemplateError(f"{here}: empty part (two dots in a row?)")
            if part.startswith("<") and part.endswith(">"):
                inner = part[1:-1]
                if ":" in inner or "|" in inner:
                    conditional = self._conditional(inner, here)
                    claim(conditional.dimension, part)
                    conditionals.append(conditional)
                else:
                    agreement = self._agreement(inner, here)
                    for dimension in agreement.dimensions:
                        claim(dimension, part)
                    agreements.append(agreement)
            elif "<" in part or ">" in part:
                raise TemplateError(f"{here}: malformed part {part!r}")
            else:
                if part in self.dimensions:
                    raise TemplateError(f"{here}: {part!r} is a dimension; write <placeholder.{part}> to agree on it")
                claim(self.dimensions.dimension_of(part, here), part)
                fixed.append(part)
        canonical = ".".join(parts)
        return Ref(canonical, front, tuple(fixed), tuple(agreements), tuple(conditionals)), modifiers

    def _agreement(self, inner: str, here: str) -> Agreement:
        parts = inner.split(".")
        front, dimensions = parts[0], parts[1:]
        if not _NAME.match(front) or not dimensions:
            raise TemplateError(f"{here}: agreement <{inner}> is written <placeholder.DIMENSION...>")
        for dimension in dimensions:
            if dimension not in self.dimensions:
                hint = ""
                if self.dimensions.is_feature(dimension):
                    hint = f" ({dimension} is a feature of {self.dimensions.dimension_of(dimension)})"
                raise TemplateError(
                    f"{here}: <{inner}>: unknown dimension {dimension!r}{hint}; "
                    f"dimensions: {', '.join(self.dimensions.names)}"
                )
        if len(set(dimensions)) != len(dimensions):
            raise TemplateError(f"{here}: <{inner}> names a dimension twice")
        return Agreement(front, tuple(dimensions))

    def _conditional(self, inner: str, here: str) -> Conditional:
        raw_options = inner.split("|")
        options = []
        default = None
        dimension = None
        for index, option in enumerate(raw_options):
            if ":" in option:
                if option.count(":") != 1:
                    raise TemplateError(f"{here}: conditional option {option!r} has more than one ':'")
                feature, conditions_text = option.split(":")
                conditions = []
                for condition in conditions_text.split(","):
                    parts = condition.split(".")
                    if len(parts) < 2 or not _NAME.match(parts[0]):
                        raise TemplateError(f"{here}: condition {condition!r} is written placeholder.FEATURE")
                    bundle = self._check_bundle(parts[1:], f"{here} condition {condition!r}")
                    for condition_dimension, condition_feature in bundle.items():
                        conditions.append((parts[0], condition_dimension, condition_feature))
                options.append((feature, tuple(conditions)))
            else:
                if index != len(raw_options) - 1:
                    raise TemplateError(f"{here}: the default of <{inner}> (an option without ':') must come last")
                feature = option
                default = option
            feature_dimension = self.dimensions.dimension_of(feature, f"{here} <{inner}>")
            if dimension is None:
                dimension = feature_dimension
            elif feature_dimension != dimension:
                raise TemplateError(f"{here}: <{inner}> mixes {dimension} and {feature_dimension} features")
        if not options and default is None:
            raise TemplateError(f"{here}: empty conditional <{inner}>")
        return Conditional(dimension or "", tuple(options), default)
