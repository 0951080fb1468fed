"""A transfer experiment: a game config with a ``transfer:`` block instead of ``zelligs:``.

``arena transfer CONFIG`` asks whether what a model-consulting Zellig learns against one
Claude holds against the others.  The block lists the Zelligs (each a performer that
consults a model: its class names the param in ``consults``) and, for each, its untuned
``base``; the Claudes are the config's ``claudes:``::

    claudes: [{name: toy-en-de, alias: teacher}, {name: target-lm, alias: lm}]
    seeds: [1, 2, 3, 4, 5]
    transfer:
      tuned_against: [teacher, lm]         # optional; default: every Claude
      zelligs:
        - {name: search, params: {base: placeholder-ding, budget: 12}, base: placeholder-ding}

Each Zellig is played once per Claude ``A`` of ``tuned_against`` as ``NAME@A``, its
consulted param set to ``A`` (``search``/``model-guided``: ``model`` = A's name and
params; ``adaptive``: ``learn_from: [A]``), plus its base as ``NAME@base`` (one Zellig
for bases that are the same performer).  Every round is judged by every Claude, in one
run, so the engine's deduplicated scoring serves all cells (one score per model, source
and candidate).  Bad input is a :class:`~arena.errors.ConfigError` naming file, line and
key: fewer than 2 Claudes, a ``tuned_against`` that is no Claude, a Zellig that consults
no model or sets its consulted param itself, a ``zelligs:`` key beside ``transfer:``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.codec import dump
from arena.errors import ConfigError
from arena.specs.config import Experiment, experiment_from_dict
from arena.specs.problems import where as key_where
from arena.specs.registry import Catalog, resolve
from arena.specs.spec import spec_from_mapping
from arena.specs.yamlio import load_yaml, yaml_key_lines

BLOCK_KEYS = ("zelligs", "tuned_against")
PLAN_FILE = "transfer-plan.json"


@dataclass(frozen=True)
class TransferPlan:
    """What each Zellig of the expanded experiment is: ``cells[alias] = [family, tuned
    against]`` (``None`` for the base); ``bases[family]`` the base's alias."""

    claudes: tuple[str, ...]
    tuned_against: tuple[str, ...]
    zelligs: tuple[str, ...]
    seeds: tuple[int, ...]
    bases: dict[str, str]
    cells: dict[str, tuple[str, str | None]]


    def alias(self, family: str, claude: str) -> str:
        return f"{family}@{claude}"


def is_transfer(path: str | Path) -> bool:
    """Whether a config file is a transfer config (a mapping with a ``transfer:`` key)."""
    data = load_yaml(path)
    return isinstance(data, dict) and "transfer" in data


def load_transfer(path: str | Path, catalog: Catalog, overrides: tuple[str, ...] = ()) -> tuple[Experiment, TransferPlan]:
    """The expanded experiment and its plan from a transfer config (see the module docstring)."""
    from arena.specs.config import SET, apply_overrides

    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: a transfer config is a YAML mapping")
    data = apply_overrides(data, overrides)
    lines = yaml_key_lines(path)
    for override in overrides:
        lines[tuple(override.split("=", 1)[0].strip().split("."))] = SET
    return expand(data, str(path), lines, catalog)


def expand(data: dict[str, Any], path: str, lines: dict[tuple[str, ...], int],
           catalog: Catalog) -> tuple[Experiment, TransferPlan]:
    """Check the ``transfer:`` block of a raw config and expand it into Zelligs."""
    data = dict(data)
    block = data.pop("transfer", None)
    if not isinstance(block, Mapping):
        raise ConfigError(f"{key_where(path, lines, ('transfer',))}: 'transfer' must be a mapping with "
                          f"{', '.join(BLOCK_KEYS)} (docs/game.md, Transfer)")
    for key in ("zellig", "zelligs"):
        if key in data:
            raise ConfigError(f"{key_where(path, lines, (key,))}: '{key}' goes inside 'transfer' in a transfer config: "
                              "the Zelligs are built from transfer.zelligs")
    unknown = sorted(set(block) - set(BLOCK_KEYS))
    if unknown:
        raise ConfigError(f"{key_where(path, lines, ('transfer', unknown[0]))}: unknown key 'transfer.{unknown[0]}'; "
                          f"allowed keys: {', '.join(BLOCK_KEYS)}")
    probe = experiment_from_dict({**data, "zelligs": ["placeholder-ding"]}, path, lines)  # the rest, checked
    claudes = [c.label for c in probe.claudes]
    if len(claudes) < 2:
        raise ConfigError(f"{key_where(path, lines, ('claudes',))}: 'claudes' lists {len(claudes)} Claude; a transfer "
                          "plays each Zellig tuned against one Claude and judged by the others: give at least 2")
    tuned = _tuned_against(block, claudes, path, lines)
    families = block.get("zelligs")
    if not isinstance(families, list) or not families:
        raise ConfigError(f"{key_where(path, lines, ('transfer', 'zelligs'))}: 'transfer.zelligs' must be a non-empty "
                          "list of model-consulting Zelligs, each with its 'base'")
    zelligs: list[dict[str, Any]] = []
    expanded_lines: dict[int, int | None] = {}
    bases: dict[str, str] = {}
    cells: dict[str, tuple[str, str | None]] = {}
    claude_specs = {c.label: {"name": c.name, "params": dict(c.params)} for c in probe.claudes}
    base_alias: dict[str, str] = {}
    for index, item in enumerate(families):
        where = key_where(path, lines, ("transfer", "zelligs", str(index)))
        family, spec, base, param, by_label = _family(item, index, where, catalog)
        line = lines.get(("transfer", "zelligs", str(index)))
        key = json.dumps(base, sort_keys=True, default=str)
        if key not in base_alias:
            base_alias[key] = f"{family}@base"
            expanded_lines[len(zelligs)] = line
            zelligs.append({**base, "alias": base_alias[key]})
        bases[family] = base_alias[key]
        cells[base_alias[key]] = (family, None)
        for claude in tuned:
            consulted = [claude] if by_label else claude_specs[claude]
            params = {**spec.get("params", {}), param: consulted}
            expanded_lines[len(zelligs)] = line
            zelligs.append({**spec, "params": params, "alias": f"{family}@{claude}"})
            cells[f"{family}@{claude}"] = (family, claude)
    data["zelligs"] = zelligs
    for position, line in expanded_lines.items():
        if line:
            lines[("zelligs", str(position))] = line
    experiment = experiment_from_dict(data, path, lines)
    plan = TransferPlan(tuple(claudes), tuple(tuned), tuple(_families(families)), experiment.seeds, bases, cells)
    return experiment, plan


def _families(families: list[Any]) -> list[str]:
    return [str(item.get("alias") or item.get("name")) for item in families]


def _tuned_against(block: Mapping[str, Any], claudes: list[str], path: str, lines: Mapping) -> list[str]:
    tuned = block.get("tuned_against", claudes)
    where = key_where(path, lines, ("transfer", "tuned_against"))
    if not isinstance(tuned, list) or not tuned or not all(isinstance(t, str) for t in tuned):
        raise ConfigError(f"{where}: 'transfer.tuned_against' must be a non-empty list of Claude labels")
    for position, label in enumerate(tuned):
        if label not in claudes:
            raise ConfigError(f"{where}: 'transfer.tuned_against.{position}' names {label!r}, not a Claude of "
                              f"the config; Claudes: {', '.join(claudes)}")
    if len(set(tuned)) != len(tuned):
        raise ConfigError(f"{where}: 'transfer.tuned_against' lists a Claude twice")
    return list(tuned)


def _family(item: Any, index: int, where: str, catalog: Catalog) -> tuple[str, dict, dict, str, bool]:
    """One entry of ``transfer.zelligs``: its name, spec (without ``base``), base spec, the
    param that names its consulted model, and whether that param takes Claude labels."""
    key = f"transfer.zelligs.{index}"
    if not isinstance(item, Mapping) or "base" not in item:
        raise ConfigError(f"{where}: '{key}' must be a Zellig mapping with a 'base' (its untuned version)")
    spec = {k: v for k, v in item.items() if k != "base"}
    parsed = spec_from_mapping(spec, where=f"{where} ({key})")
    base = dump(spec_from_mapping(item["base"], where=f"{where} ({key}.base)"))
    cls = resolve("zellig", parsed.name, catalog, where)
    param = getattr(cls, "consults", None)
    if param is None:
        raise ConfigError(f"{where}: '{key}' {parsed.name} consults no model, so it cannot be tuned against a "
                          "Claude; transfer Zelligs: search, model-guided, adaptive")
    if param in parsed.params:
        raise ConfigError(f"{where}: '{key}.params.{param}' is set by the transfer (one Zellig per Claude "
                          "it is tuned against); leave it out")
    family = str(item.get("alias") or parsed.name)
    by_label = getattr(cls, "consults_by", "spec") == "label"
    return family, {k: v for k, v in dump(parsed).items() if k != "alias"}, base, param, by_label
