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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from annotated_types import Ge, Gt
from pydantic import Field

from arena.codec import dump
from arena.errors import ConfigError
from arena.specs.schedule import Schedule, parse_schedule
from arena.specs.spec import Omitted, PerformerSpec, parse_value, spec_from_mapping
from arena.specs.typecheck import PositiveInt, check_value, type_hints
from arena.specs.yamlio import check_yaml_texts, load_yaml, yaml_key_lines

TiePolicy = Literal["wrong", "correct", "half"]
ExecutorName = Literal["in-process", "ray"]
RelativeTo = Literal["working-directory", "config"]
TIE_POLICIES = get_args(TiePolicy)
Seconds = Annotated[float, Gt(0)]
# Ray refuses an object store below 75 MiB (ray_constants.OBJECT_STORE_MINIMUM_MEMORY_BYTES)
ObjectStoreBytes = Annotated[int, Ge(75 * 1024 * 1024)]
Retries = Annotated[int, Ge(-1)]  # -1: without limit, as Ray counts


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

    name: str
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
        path = self.source or "config"
        singular = {plural: key for key, plural in SINGULAR.items()}
        for spelled in (keys, (singular.get(keys[0], keys[0]), *keys[1:])) if keys else ():
            for end in range(len(spelled), 0, -1):
                line = self.key_lines.get(spelled[:end])
                if line == SET:
                    return f"{path} (--set {'.'.join(spelled[:end])})"
                if line:
                    return f"{path}:{line}"
        return path


SINGULAR = {"john": "johns", "zellig": "zelligs", "claude": "claudes", "seed": "seeds"}
_ALLOWED = sorted({f.name for f in fields(Experiment)} - {"source", "key_lines"} | set(SINGULAR))
_NESTED = {"time_budget": TimeBudget, "ray": RayOptions}
_EXPERIMENT_TYPES = {**type_hints(Experiment), "relative_paths": RelativeTo}  # a value is checked without its exclusion
EXECUTORS = get_args(ExecutorName)
_PERFORMER_KEYS = ("john", "johns", "zellig", "zelligs", "claude", "claudes")


SET = 0  # the "line" of a key given on the command line (--set)


def _where(path: str, lines: Mapping[tuple[str, ...], int], key: tuple[str, ...]) -> str:
    line = lines.get(key)
    if line == SET:
        return f"{path} (--set {'.'.join(key)})"
    return f"{path}:{line}" if line else path


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
                from arena.specs.spec import parse_spec

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


def _performers(value: Any, role: str, path: str, lines: Mapping) -> tuple[PerformerSpec, ...]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ConfigError(f"{_where(path, lines, (role,))}: '{role}' lists no performer")
    return tuple(
        spec_from_mapping(item, where=f"{_where(path, lines, (role, str(index)))} ({role}[{index}])")
        for index, item in enumerate(items)
    )


def _beside(value: Any, base: Path) -> Any:
    """Performer entries with each relative path in their params that names a file or directory
    in ``base`` (the config's directory) made absolute; other values as they are."""
    if isinstance(value, list):
        return [_beside(item, base) for item in value]
    if isinstance(value, str):  # a SPEC string
        from arena.specs.spec import parse_spec

        value = dump(parse_spec(value))
    if not isinstance(value, Mapping) or not isinstance(value.get("params"), Mapping):
        return value
    return {**value, "params": {name: _resolved(item, base) for name, item in value["params"].items()}}


def _resolved(value: Any, base: Path) -> Any:
    if isinstance(value, list):
        return [_resolved(item, base) for item in value]
    if isinstance(value, str) and value and not Path(value).is_absolute() and (base / value).exists():
        return str((base / value).resolve())
    return value


def _nested(cls: type, value: Any, key: str, path: str, lines: Mapping) -> Any:
    if value is None:
        return cls()
    if not isinstance(value, Mapping):
        raise ConfigError(f"{_where(path, lines, (key,))}: '{key}' must be a mapping")
    allowed = [f.name for f in fields(cls)]
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        where = _where(path, lines, (key, unknown[0]))
        raise ConfigError(f"{where}: unknown key '{key}.{unknown[0]}'; allowed keys: {', '.join(allowed)}")
    hints = type_hints(cls)
    for name, item in value.items():
        _check_field(item, hints[name], f"{key}.{name}", _where(path, lines, (key, name)))
    return cls(**value)


def _check_field(value: Any, annotation: Any, key: str, where: str) -> None:
    """A config value against its field's declared type (see :mod:`arena.specs.typecheck`)."""
    problem = check_value(value, annotation)
    if problem:
        raise ConfigError(f"{where}: '{key}' {problem}")


def experiment_from_dict(data: Any, path: str = "<config>", lines: Mapping | None = None) -> Experiment:
    """Check and map a raw config mapping onto :class:`Experiment`."""
    lines = lines or {}
    if not isinstance(data, Mapping):
        raise ConfigError(f"{path}: an experiment is a YAML mapping, not {type(data).__name__}")
    unknown = sorted(set(data) - set(_ALLOWED))
    if unknown:
        raise ConfigError(
            f"{_where(path, lines, (unknown[0],))}: unknown key '{unknown[0]}'; allowed keys: {', '.join(_ALLOWED)}",
            hint="a config with a 'transfer:' block is played by 'arena transfer CONFIG'" if unknown[0] == "transfer"
            else None,
        )
    values: dict[str, Any] = {}
    for singular, plural in SINGULAR.items():
        if singular in data and plural in data:
            raise ConfigError(f"{_where(path, lines, (singular,))}: give either '{singular}' or '{plural}', not both")
    for key, value in data.items():
        name: str = key  # every key is one of _ALLOWED (checked above)
        values[SINGULAR.get(name, name)] = (key, value)
    for required in ("name", "johns", "zelligs", "claudes"):
        if required not in values:
            raise ConfigError(f"{path}: missing key '{required}'")
    if data.get("relative_paths") == "config" and Path(path).is_file():
        base = Path(path).resolve().parent
        for role in _PERFORMER_KEYS:
            if role in values:
                key, value = values[role]
                values[role] = (key, _beside(value, base))
    kwargs: dict[str, Any] = {"source": path, "key_lines": dict(lines)}
    for target, (key, value) in values.items():
        kwargs[target] = _experiment_field(target, key, value, path, lines)
    experiment = Experiment(**kwargs)
    _check_values(experiment, path, lines)
    return experiment


def _experiment_field(target: str, key: str, value: Any, path: str, lines: Mapping) -> Any:
    """One top-level config value, checked and mapped onto its :class:`Experiment` field."""
    where = _where(path, lines, (key,))
    if target in ("johns", "zelligs", "claudes"):
        return _performers(value, key, path, lines)
    if target == "seeds":
        return _seeds(value, key, where)
    if target == "breakdowns":
        if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
            raise ConfigError(f"{where}: '{key}' must be a list of variant meta keys or john.<instance meta key>, e.g. [dimension, john.origin]")
        return tuple(value)
    if target == "schedule":
        return None if value is None else parse_schedule(value, path, lines)
    if target in _NESTED:
        return _nested(_NESTED[target], value, key, path, lines)
    _check_field(value, _EXPERIMENT_TYPES[target], key, where)
    return value


def _seeds(value: Any, key: str, where: str) -> tuple[int, ...]:
    """``seed``/``seeds``: one integer or a list of distinct integers."""
    seeds = value if isinstance(value, list) else [value]
    if not seeds or not all(isinstance(seed, int) and not isinstance(seed, bool) for seed in seeds):
        raise ConfigError(f"{where}: '{key}' must be an integer or a list of integers")
    if len(set(seeds)) != len(seeds):
        raise ConfigError(f"{where}: '{key}' lists a seed twice")
    return tuple(seeds)


def _check_values(experiment: Experiment, path: str, lines: Mapping) -> None:
    def fail(key: str, message: str) -> None:
        raise ConfigError(f"{_where(path, lines, (key,))}: '{key}' {message}")

    if not experiment.name.strip():
        fail("name", "must be a non-empty string")
    for role in ("johns", "zelligs"):
        if any(spec.replicas for spec in getattr(experiment, role)):
            fail(role, "may not list 'replicas'; model replicas are for Claudes")
        if any(spec.sees for spec in getattr(experiment, role)):
            fail(role, "may not list 'sees'; what a performer sees is set per Claude")
    for role in ("zelligs", "claudes"):
        if any(spec.balance for spec in getattr(experiment, role)):
            fail(role, "may not list 'balance'; a John's balance subsamples the pairs it yields")
    for spec in experiment.claudes:
        missing = [seed for seed in experiment.seeds if spec.replicas and seed not in spec.replicas]
        if missing:
            fail("claudes", f"{spec.label}: 'replicas' has no entry for seed {missing[0]}")
    for role in ("johns", "zelligs", "claudes"):
        labels = [spec.label for spec in getattr(experiment, role)]
        duplicates = sorted({label for label in labels if labels.count(label) > 1})
        if duplicates:
            fail(role, f"lists {duplicates[0]!r} twice; give one of them an 'alias'")


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
