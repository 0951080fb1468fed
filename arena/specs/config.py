"""Experiment configuration: YAML (``yaml.safe_load``) mapped onto dataclasses.

An experiment names its performers and how the arena plays them::

    name: quickstart
    description: toy NMT against the DistilLingEval placeholder_ding sample
    johns:                      # or `john:` with a single performer
      - name: distil-lingeval
        params: {dir: ../shared/data/distil-lingeval/placeholder_ding.human, limit: 500}
    zelligs: [{name: replay}]   # or `zellig:`
    claudes: [{name: toy-en-de}, {name: random}]   # or `claude:`
    seeds: [1]                  # or `seed: 1`
    variants_per_instance: 1    # k sampled variants per (instance, Zellig)

A performer is ``{name, params}`` (plus optional ``alias`` and Ray ``resources``) or a
SPEC string (``random:seed=3``).  Unknown keys are errors naming the file, line and the
allowed keys.  ``--set key=value`` overrides use dotted keys (``seeds=[1,2]``,
``time_budget.zellig_seconds=0.5``, ``claudes.0.params.device=cuda``).

The whole mapping is checked in one pydantic validation, against :func:`experiment_keys`: a
pydantic model built once from the fields of :class:`Experiment`, so that each option's type,
range, choices and default are declared once, on the dataclass.  It is a model derived from the
dataclass, not a ``TypeAdapter`` over the dataclass itself, because the YAML is not the
dataclass's shape: ``john:`` for ``johns:``, one seed for a list, a SPEC string for a performer,
``time_budget: null``; pydantic's strict mode (which keeps ``"3"`` from passing for an int)
validates a plain dataclass only from an instance of it, not from a mapping; and the dataclass
holds what no YAML may set (``source``, ``key_lines``).  The model takes every key from the
dataclass and declares beside it only the keys the YAML spells otherwise; a performer entry
is the typed :class:`arena.specs.spec.Entry`; the rules between keys (replicas only for Claudes
and one for every seed, ``sees`` only for Claudes, ``balance`` only for Johns, no label twice in
a role) are the model's after-validator.  The frozen :class:`Experiment` is built from the keys
given, so that its defaults stay the dataclass's and its JSON (the config hash, the run
directory's name) is what the dataclass dumps.  pydantic's findings become one
:class:`~arena.errors.ConfigError` naming the file, line and key (:mod:`arena.specs.problems`).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from annotated_types import Ge, Gt, MinLen
from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    create_model,
    model_validator,
)

from arena.codec import dump
from arena.errors import ConfigError
from arena.specs.problems import SET, What, config_error, refuse, where
from arena.specs.schedule import Schedule, parse_schedule
from arena.specs.spec import Omitted, PerformerEntry, PerformerSpec, parse_spec, parse_value
from arena.specs.typecheck import Check, Name, PositiveInt, type_hints
from arena.specs.yamlio import check_yaml_texts, load_yaml, yaml_key_lines

TiePolicy = Literal["wrong", "correct", "half"]
ExecutorName = Literal["in-process", "ray"]
RelativeTo = Literal["working-directory", "config"]
TIE_POLICIES = get_args(TiePolicy)
Seconds = Annotated[float, Gt(0)]
# Ray refuses an object store below 75 MiB (ray_constants.OBJECT_STORE_MINIMUM_MEMORY_BYTES)
ObjectStoreBytes = Annotated[int, Ge(75 * 1024 * 1024)]
Retries = Annotated[int, Ge(-1)]  # -1: without limit, as Ray counts


def _named(name: str) -> str | None:
    return None if name.strip() else "must be a non-empty string"


@dataclass(frozen=True)
class TimeBudget:
    """Smith's time budget (seconds; ``None`` = unlimited).

    A Zellig that needs longer than ``zellig_seconds`` for one instance yields
    ``y = x`` (a free point for Claude, recorded as ``zellig_timeout``); pairs whose
    batch a Claude answers slower than ``claude_seconds_per_pair`` per pair get a
    coin flip (recorded as ``late``).  Budgets make runs timing-dependent, so byte-
    identical transcripts are only promised without them.
    """

    zellig_seconds: Seconds | None = None
    claude_seconds_per_pair: Seconds | None = None


@dataclass(frozen=True)
class RayOptions:
    """Where and how to run on Ray (see ``arena tournament``)."""

    address: str | None = None
    num_cpus: PositiveInt | None = None
    object_store_memory: ObjectStoreBytes = 200 * 1024 * 1024
    max_restarts: Retries = 3
    max_task_retries: Retries = 3
    chunk_size: PositiveInt = 256


@dataclass(frozen=True)
class Experiment:
    """A resolved experiment: Johns × Zelligs × Claudes × seeds and the match options.

    ``contrastive_ties`` decides how contrastive accuracy counts an exact score tie
    (``wrong`` as LingEval97 and DistilLingEval's strict reading; ``correct`` as
    DistilLingEval's ``>=``; ``half``).  S itself always resolves ties and abstentions
    by a seeded coin, recorded per round.  ``breakdowns`` names variant ``meta`` keys
    (e.g. ``dimension`` of the ``feature-flip`` Zellig) or, prefixed ``john.``, keys of
    the John's instance metadata m_n (``john.origin``, ``john.reference_kind``) to report
    S and accuracy by.  ``schedule`` makes the run a game (:mod:`arena.specs.schedule`).
    ``allow_empty: true`` records a run in which no round was judged (no instance, no
    applicable corruption, a balance that kept nothing); without it such a run stops with
    exit 2 and the reason, and is not marked finished (:mod:`arena.stats.no_rounds`).
    ``relative_paths: config`` reads the performers' relative paths that name a file or
    directory beside the config from the config's directory instead of the working directory
    (files arena writes, such as a person's ``replay.yaml``, say so, and run from anywhere).
    """

    name: Annotated[str, Check(_named)]
    johns: tuple[PerformerSpec, ...]
    zelligs: tuple[PerformerSpec, ...]
    claudes: tuple[PerformerSpec, ...]
    seeds: tuple[int, ...] = (1,)
    description: str = ""
    variants_per_instance: PositiveInt = 1
    max_instances: PositiveInt | None = None
    contrastive_ties: TiePolicy = "wrong"
    discrepancy: bool = True
    beam: PositiveInt = 5
    generative_rate: bool = True
    bootstrap_samples: Annotated[int, Ge(0)] = 1000
    breakdowns: tuple[str, ...] = ()
    executor: ExecutorName = "in-process"
    time_budget: TimeBudget = field(default_factory=TimeBudget)
    ray: RayOptions = field(default_factory=RayOptions)
    # the game's observation schedule (arena/specs/schedule.py); left out of the JSON when there is
    # none, as ``allow_empty`` when false, so that configs without them keep their hash and run directory
    schedule: Annotated[Schedule | None, Omitted] = None
    allow_empty: Annotated[bool, Omitted] = False  # record a run without judged rounds instead of refusing it
    # where performers' relative paths are read from: resolved when loaded, so never written (configs keep their hash)
    relative_paths: Annotated[RelativeTo, Field(exclude=True)] = "working-directory"
    source: Annotated[str, Field(exclude=True)] = ""  # the file it was loaded from
    # the line of each key path of that file (``SET``: given by --set), for messages (see ``where``)
    key_lines: Annotated[Mapping[tuple[str, ...], int], Field(exclude=True)] = field(
        default_factory=dict, compare=False, repr=False)


    def where(self, *keys: str) -> str:
        """``file:line`` of a key path (``"johns", "0"``) of the config, for messages;
        the nearest enclosing key's line when that key is not in the file."""
        return where(self.source or "config", self.key_lines, keys, _SPELLED)


SINGULAR = {"john": "johns", "zellig": "zelligs", "claude": "claudes", "seed": "seeds"}
_SPELLED = {plural: singular for singular, plural in SINGULAR.items()}  # a field's other spelling in the YAML
EXECUTORS = get_args(ExecutorName)
_PERFORMER_KEYS = ("john", "johns", "zellig", "zelligs", "claude", "claudes")
_HINTS: dict[tuple[str, ...], str] = {("transfer",): "a config with a 'transfer:' block is played by 'arena transfer CONFIG'"}


def apply_overrides(data: dict[str, Any], overrides: Sequence[str]) -> dict[str, Any]:
    """Apply ``key=value`` overrides (dotted keys, list indices) to a raw config."""
    for override in overrides:
        if "=" not in override:
            raise ConfigError(f"--set {override!r}: expected key=value")
        dotted, raw = override.split("=", 1)
        keys = dotted.strip().split(".")
        node: Any = data
        for position, key in enumerate(keys[:-1]):
            nxt = node[int(key)] if isinstance(node, list) and key.isdigit() and int(key) < len(node) else None
            if isinstance(node, dict):
                nxt = node.setdefault(key, {})
            if isinstance(nxt, str) and keys[0] in _PERFORMER_KEYS:
                # a performer given as a SPEC string: expand it to {name, params} to descend
                nxt = dump(parse_spec(nxt))
                if isinstance(node, list):
                    node[int(key)] = nxt
                else:
                    node[key] = nxt
            if not isinstance(nxt, (dict, list)):
                raise ConfigError(f"--set {override!r}: {'.'.join(keys[: position + 1])} is not a mapping or list")
            node = nxt
        last = keys[-1]
        value = parse_value(raw)
        if isinstance(node, list) and last.isdigit():
            node[int(last)] = value
        elif isinstance(node, dict):
            node[last] = value
        else:
            raise ConfigError(f"--set {override!r}: cannot set {dotted}")
    return data


def _resolved(value: Any, base: Path) -> Any:
    if isinstance(value, list):
        return [_resolved(item, base) for item in value]
    if isinstance(value, str) and value and not Path(value).is_absolute() and (base / value).exists():
        return str((base / value).resolve())
    return value


# -- the YAML's shape: one pydantic model, derived from the dataclasses above ---------------------------

_KEYS = ConfigDict(strict=True, extra="forbid", allow_inf_nan=False)  # "3" is no int, "no" no bool


def _listed(value: Any) -> Any:
    return value if isinstance(value, list) else [value]


def _distinct(seeds: list[int]) -> tuple[int, ...]:
    if len(set(seeds)) != len(seeds):
        refuse("lists a seed twice")
    return tuple(seeds)


def _default(declared: Any) -> Any:
    """A dataclass field's default for its key in the model (``...``: required); a default made
    by a factory is left to the dataclass (the key is only read when it is given)."""
    if declared.default is not MISSING:
        return declared.default
    return None if declared.default_factory is not MISSING else ...


@functools.cache
def _keys_of(cls: type) -> Any:
    """A record of options (:class:`TimeBudget`, :class:`RayOptions`) as a YAML mapping: its keys
    and their types are the dataclass's; the value is the dataclass built from the keys given."""
    hints = type_hints(cls)
    keys: dict[str, Any] = {f.name: (hints[f.name], _default(f)) for f in fields(cls)}
    model = create_model(f"{cls.__name__}Keys", __config__=_KEYS, **keys)

    def built(given: Any) -> Any:
        return cls() if given is None else cls(**{name: getattr(given, name) for name in given.model_fields_set})

    return Annotated[model | None, AfterValidator(built), What(f"a mapping with keys {', '.join(model.model_fields)}")]


def _schedule(value: Any, info: ValidationInfo) -> Schedule | None:
    context = info.context or {}
    return None if value is None else parse_schedule(value, context.get("path", "<config>"), context.get("lines"))


def _as_given(cls: Any, data: Any, info: ValidationInfo) -> Any:
    """Before the keys are validated: ``seed`` and ``seeds`` (and the other singular keys) are
    not both given; each performer key holds a list, its SPEC strings parsed (a refusal names
    the file and line) and, with ``relative_paths: config``, the relative paths in its params
    that name a file or directory beside the config made absolute."""
    if not isinstance(data, Mapping):
        return data
    context = info.context or {}
    path, lines = context.get("path", "<config>"), context.get("lines") or {}
    for singular, plural in SINGULAR.items():
        if singular in data and plural in data:
            refuse(f"is given beside '{plural}': give either '{singular}' or '{plural}', not both", (singular,))
    beside = data.get("relative_paths") == "config" and Path(path).is_file()
    base = Path(path).resolve().parent if beside else None
    data = dict(data)
    for role in _PERFORMER_KEYS:
        if role in data:
            data[role] = [_entry(item, (role, str(index)), path, lines, base)
                          for index, item in enumerate(_listed(data[role]))]
    return data


def _entry(item: Any, keys: tuple[str, str], path: str, lines: Mapping, base: Path | None) -> Any:
    if isinstance(item, str):
        spec = parse_spec(item, where=f"{where(path, lines, keys, _SPELLED)} ({keys[0]}[{keys[1]}])")
        item = {"name": spec.name, "params": dict(spec.params)}
    elif isinstance(item, Mapping):
        item = dict(item)
    if base is not None and isinstance(item, Mapping) and isinstance(item.get("params"), Mapping):
        item = {**item, "params": {name: _resolved(value, base) for name, value in item["params"].items()}}
    return item


def _across(given: Any) -> Any:
    """The rules between keys: which roles may list replicas, sees and balance; a replica for
    every seed; no label twice in a role."""
    for role in ("johns", "zelligs"):
        if any(spec.replicas for spec in getattr(given, role)):
            refuse("may not list 'replicas'; model replicas are for Claudes", (role,))
        if any(spec.sees for spec in getattr(given, role)):
            refuse("may not list 'sees'; what a performer sees is set per Claude", (role,))
    for role in ("zelligs", "claudes"):
        if any(spec.balance for spec in getattr(given, role)):
            refuse("may not list 'balance'; a John's balance subsamples the pairs it yields", (role,))
    seeds = getattr(given, "seeds", None) or Experiment.seeds
    for spec in given.claudes:
        missing = [seed for seed in seeds if spec.replicas and seed not in spec.replicas]
        if missing:
            refuse(f"{spec.label}: 'replicas' has no entry for seed {missing[0]}", ("claudes",))
    for role in ("johns", "zelligs", "claudes"):
        labels = [spec.label for spec in getattr(given, role)]
        duplicates = sorted({label for label in labels if labels.count(label) > 1})
        if duplicates:
            refuse(f"lists {duplicates[0]!r} twice; give one of them an 'alias'", (role,))
    return given


@functools.cache
def experiment_keys() -> type[BaseModel]:
    """The pydantic model of an experiment config as YAML gives it, built once: each key of
    :class:`Experiment` with its declared type and default, except where the YAML spells a
    field otherwise (a performer or a list of them, SPEC strings; one seed or a list; a
    mapping for a nested record; a schedule preset or mapping); ``john`` for ``johns`` etc."""
    performers = Annotated[list[PerformerEntry], MinLen(1), AfterValidator(tuple),
                           What("one performer or a non-empty list of performers")]
    shaped = {
        "johns": performers, "zelligs": performers, "claudes": performers,
        "seeds": Annotated[list[int], BeforeValidator(_listed), MinLen(1), AfterValidator(_distinct),
                           What("an integer or a list of integers")],
        "breakdowns": Annotated[list[Name], AfterValidator(tuple), What(
            "a list of variant meta keys or john.<instance meta key>, e.g. [dimension, john.origin]")],
        "time_budget": _keys_of(TimeBudget), "ray": _keys_of(RayOptions),
        "schedule": Annotated[Any, AfterValidator(_schedule)],
    }
    hints = type_hints(Experiment)
    keys: dict[str, Any] = {}
    for declared in fields(Experiment):
        if declared.name in ("source", "key_lines"):
            continue
        spelled = AliasChoices(declared.name, _SPELLED[declared.name]) if declared.name in _SPELLED else None
        keys[declared.name] = (shaped.get(declared.name, hints[declared.name]),
                               Field(_default(declared), validation_alias=spelled))
    validators: dict[str, Any] = {"as_given": model_validator(mode="before")(_as_given),
                                  "across": model_validator(mode="after")(_across)}
    return create_model("ExperimentKeys", __config__=_KEYS, __validators__=validators, **keys)


def experiment_from_dict(data: Any, path: str = "<config>", lines: Mapping | None = None) -> Experiment:
    """Check and map a raw config mapping onto :class:`Experiment`, in one pydantic validation
    (:func:`experiment_keys`); a refusal names the file, line and key
    (:func:`arena.specs.problems.config_error`)."""
    lines = dict(lines or {})
    model = experiment_keys()
    try:
        given = model.model_validate(dict(data) if isinstance(data, Mapping) else data,
                                     context={"path": path, "lines": lines})
    except ValidationError as error:
        raise config_error(error, model, path, lines, whole="an experiment is a YAML mapping",
                           spellings=_SPELLED, hints=_HINTS) from None
    return Experiment(**{name: getattr(given, name) for name in given.model_fields_set}, source=path, key_lines=lines)


def load_experiment(path: str | Path, overrides: Sequence[str] = ()) -> Experiment:
    """Load an experiment YAML file, apply ``--set`` overrides, check it."""
    path = Path(path)
    data = load_yaml(path)
    if overrides:
        if not isinstance(data, dict):
            raise ConfigError(f"{path}: an experiment is a YAML mapping")
        data = apply_overrides(data, overrides)
    lines = yaml_key_lines(path)
    for override in overrides:  # a message about an overridden key points at the --set
        lines[tuple(override.split("=", 1)[0].strip().split("."))] = SET
    if overrides:
        check_yaml_texts(data, path, lines)  # the text policy on what --set gave, as on the file's texts
    return experiment_from_dict(data, str(path), lines)
