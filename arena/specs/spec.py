"""Performer specifications: ``{name, params}``, one syntax everywhere.

On the command line a SPEC is either

- a catalog name with optional params: ``toy-en-de``, ``random:seed=3``,
  ``hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de,device=cuda``,
  ``newstest:years=[2009,2010],dir=../shared/data/wmt/newstest``;
- a ``module:Class`` path for performers outside the repository, also with params:
  ``mylab.claudes:MyClaude:beam=4``;
- the path of a YAML file holding ``{name: ..., params: {...}}``.

Param values are read as YAML scalars/flow collections (``3`` is an int, ``true`` a
bool, ``[1,2]`` a list, anything else a string).

In a config (and wherever a mapping names a performer) an entry is checked by one pydantic
validation against :class:`Entry`, which declares each key once (its type, its range, what it
means in a message) and builds the :class:`PerformerSpec`; a refusal names the key
(:mod:`arena.specs.problems`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from annotated_types import MinLen
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer

from arena.errors import ConfigError
from arena.specs.problems import What

BalanceCue = Literal["length"]  # the surface cues a John's ``balance:`` can put at chance
SeesKey = Literal["source", "metadata"]
BALANCE_CUES = get_args(BalanceCue)
SEES_KEYS = get_args(SeesKey)
SEES_DEFAULT = {"source": True, "metadata": False}
A_PERFORMER = "a performer is a mapping {name, params} or a SPEC string"
# module:Class (mylab.claudes:MyClaude, mymodule:MyClaude) or path/to/file.py:Class
_CLASS_PATH = re.compile(r"^(?:[\w.~/\\-]+\.py|[A-Za-z_][\w.]*):[A-Za-z_]\w*$")


def _empty(value: Any) -> bool:
    return not value


# in a spec's JSON (manifest.json, the config hash) a key that is not set is left out
Omitted = Field(exclude_if=_empty)


def _seed_keys(replicas: Mapping[int, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(seed): dict(params) for seed, params in replicas.items()}  # JSON keys: the seeds as text


@dataclass(frozen=True)
class PerformerSpec:
    """A performer to build: ``name`` (catalog entry or ``module:Class``) and the
    keyword arguments of its constructor.  :meth:`to_json` is pydantic's serialisation of
    the fields, without those that are not set."""

    name: str
    params: Mapping[str, Any] = field(default_factory=dict)
    alias: Annotated[str | None, Omitted] = None
    resources: Annotated[Mapping[str, Any], Omitted] = field(default_factory=dict)
    # seed -> params overriding ``params`` for that seed: model replicas (e.g. the same
    # architecture trained with different seeds); the label stays the same for all
    replicas: Annotated[Mapping[int, Mapping[str, Any]], Omitted, PlainSerializer(_seed_keys)] = field(
        default_factory=dict)
    # what a Claude sees besides the candidates (Smith §4.3): the source (adequacy; without
    # it, fluency: the targets are scored with an empty source) and the John's metadata m_n;
    # only keys that differ from SEES_DEFAULT are stored
    sees: Annotated[Mapping[str, bool], Omitted] = field(default_factory=dict)
    # a John's ``balance: {cue: length}``: subsample the pairs so that the cue sits at chance
    # (:mod:`arena.engine.balance`); empty: no balancing
    balance: Annotated[Mapping[str, Any], Omitted] = field(default_factory=dict)

    @property
    def sees_source(self) -> bool:
        return bool(self.sees.get("source", SEES_DEFAULT["source"]))

    @property
    def sees_metadata(self) -> bool:
        return bool(self.sees.get("metadata", SEES_DEFAULT["metadata"]))

    @property
    def visibility(self) -> str:
        """``adequacy`` or ``fluency`` (without the source), ``+metadata`` when it sees m_n."""
        return ("adequacy" if self.sees_source else "fluency") + ("+metadata" if self.sees_metadata else "")

    @property
    def label(self) -> str:
        """A short readable label: the alias if one was given, else the name with
        params when there are any."""
        if self.alias:
            return self.alias
        balanced = f"+balance:{self.balance['cue']}" if self.balance else ""
        if not self.params:
            return self.name + balanced
        inner = ",".join(f"{key}={_short(value)}" for key, value in sorted(self.params.items()))
        return f"{self.name}:{inner}{balanced}"


    def for_seed(self, seed: int) -> PerformerSpec:
        """The spec of the replica that plays ``seed`` (this spec when there are no
        replicas); it keeps this spec's label, so its cells aggregate over seeds."""
        if not self.replicas:
            return self
        if seed not in self.replicas:
            raise ConfigError(f"{self.label}: 'replicas' has no entry for seed {seed}")
        return PerformerSpec(
            self.name, {**self.params, **self.replicas[seed]}, self.label, self.resources, sees=self.sees,
            balance=self.balance,
        )


class _Keys(BaseModel):
    # strict: "3" is no int, "no" no bool; a key the model does not declare is refused
    model_config = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False, defer_build=True)


class Balance(_Keys):
    """A John's ``balance: {cue: NAME}``: subsample the pairs so that the cue sits at chance."""

    cue: Annotated[BalanceCue, What(
        f"one of {', '.join(BALANCE_CUES)} (edit-words cannot be balanced by subsampling: the edit's words are the "
        "phenomenon; target-lm is a scoring Claude the planner does not run)")]


def _seed_keyed(value: Any) -> Any:
    """``replicas`` with seed keys given as digit strings made ints (a ``--set
    claudes.0.replicas.1.model=…`` override adds ``"1"`` beside ``1``: one seed, later params
    updating earlier ones); anything else as it is, for the declaration to judge."""
    if not isinstance(value, Mapping):
        return value
    merged: dict[Any, Any] = {}
    for key, params in value.items():
        seed = int(key) if isinstance(key, str) and key.lstrip("-").isdigit() else key
        earlier = merged.get(seed)
        if isinstance(earlier, Mapping) and isinstance(params, Mapping):
            params = {**earlier, **params}
        elif earlier is not None and not isinstance(earlier, Mapping):
            params = earlier  # the one the declaration refuses
        merged[seed] = params
    return merged


class Entry(_Keys):
    """A performer as a config gives it: a mapping whose keys are the constructor's ``params``, an
    ``alias`` (to tell two performers of one name apart), Ray ``resources``, and for a Claude its
    model ``replicas`` per seed (params overriding ``params`` for that seed) and what it ``sees``
    (``{source: false}`` judges fluency only), for a John a ``balance`` (:mod:`arena.engine.balance`)."""

    name: Annotated[str, MinLen(1), What("a catalog entry or module:Class (a non-empty string)")]
    params: Annotated[Mapping[str, Any] | None, What("a mapping of constructor keyword arguments")] = None
    alias: Annotated[str, MinLen(1)] | None = None
    resources: Annotated[Mapping[str, Any] | None, What("a mapping such as {num_gpus: 1, num_cpus: 2}")] = None
    replicas: Annotated[
        Annotated[Mapping[Annotated[int, What("seeds (integers)")], Annotated[Mapping[str, Any], What("a mapping of params")]],
                  MinLen(1)] | None,
        BeforeValidator(_seed_keyed), What("a mapping of seeds to params, e.g. {1: {model: a}, 2: {model: b}}"),
    ] = None
    sees: Annotated[Mapping[SeesKey, Annotated[bool, What("true or false")]] | None,
                    What("a mapping such as {source: false, metadata: true}")] = None
    balance: Annotated[Balance | None, What("a mapping, e.g. {cue: length}")] = None

    def spec(self) -> PerformerSpec:
        """The :class:`PerformerSpec`: unset keys empty, ``sees`` only where it differs from the default."""
        return PerformerSpec(
            self.name, dict(self.params or {}), self.alias, dict(self.resources or {}), dict(self.replicas or {}),
            {key: flag for key, flag in (self.sees or {}).items() if flag != SEES_DEFAULT[key]},
            {"cue": self.balance.cue} if self.balance else {},
        )


SPEC_KEYS = tuple(Entry.model_fields)
# a performer entry of a config, validated into its spec (a SPEC string is parsed before)
PerformerEntry = Annotated[Entry, AfterValidator(Entry.spec), What(A_PERFORMER.replace(" is ", ": "))]


def _short(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_short(item) for item in value) + "]"
    return str(value)


def _split_top_level(text: str, separator: str) -> list[str]:
    """Split on ``separator`` outside brackets and quotes."""
    parts: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for char in text:
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return parts


def parse_value(text: str) -> Any:
    """Read one param value as YAML (``3`` → 3, ``[a,b]`` → list); strings stay strings."""
    import yaml

    from arena.specs.yamlio import safe_loader

    try:
        value = yaml.load(text, Loader=safe_loader())  # safe, and without aliases
    except (yaml.YAMLError, RecursionError):
        return text
    return text if value is None and text.strip() not in ("null", "~") else value


def parse_params(text: str, where: str = "spec") -> dict[str, Any]:
    """Parse ``key=value,key=value`` (values as in :func:`parse_value`)."""
    params: dict[str, Any] = {}
    if not text.strip():
        return params
    for item in _split_top_level(text, ","):
        if "=" not in item:
            raise ConfigError(f"{where}: parameter {item!r} is not of the form key=value")
        key, value = item.split("=", 1)
        key = key.strip()
        if not key.isidentifier():
            raise ConfigError(f"{where}: {key!r} is not a valid parameter name")
        if key in params:
            raise ConfigError(f"{where}: parameter {key!r} given twice")
        params[key] = parse_value(value.strip())
    return params


def spec_from_mapping(data: Any, where: str) -> PerformerSpec:
    """Build a spec from ``{name, params}`` (or a SPEC string), checked by :data:`PerformerEntry`
    in one pydantic call; a refusal names ``where`` and the key."""
    from pydantic import ValidationError

    from arena.specs.problems import config_error

    if isinstance(data, str):
        return parse_spec(data, where=where)
    try:
        return _entry_adapter().validate_python(dict(data) if isinstance(data, Mapping) else data)
    except ValidationError as error:
        raise config_error(error, PerformerEntry, where, {}, whole=A_PERFORMER) from None


@functools.cache
def _entry_adapter() -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(PerformerEntry)


def parse_spec(text: str, where: str = "spec") -> PerformerSpec:
    """Parse a SPEC string (see module docstring) or load a YAML spec file."""
    text = text.strip()
    if not text:
        raise ConfigError(f"{where}: empty performer spec")
    path = Path(text)
    if text.endswith((".yaml", ".yml")):
        if not path.is_file():
            raise ConfigError(f"{where}: spec file {text} does not exist")
        from arena.specs.yamlio import load_yaml

        return spec_from_mapping(load_yaml(path), where=str(path))
    segments = text.split(":")
    if len(segments) >= 2 and _CLASS_PATH.match(":".join(segments[:2])) and (
        "." in segments[0] or segments[1][:1].isupper()  # mylab.x:C, file.py:C, or mymodule:MyClaude
    ):
        name, rest = ":".join(segments[:2]), ":".join(segments[2:])  # module:Class[:params]
    else:
        name, rest = segments[0], ":".join(segments[1:])
    return PerformerSpec(name, parse_params(rest, where=f"{where} {text!r}"))
