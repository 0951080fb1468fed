"""Held-out judges: which model a performer consults while it plays, and whether the
Claude judging a round is that model (``self``) or another one (``held-out``).

A performer that consults a model names it in one of its params, declared by the
class attribute ``consults`` (the param's name): ``search`` and ``model-guided`` their
``model`` (a scoring Claude SPEC), ``learned`` and ``edit-aware`` their ``claude``,
the ``adaptive`` Zellig its ``learn_from`` (the labels of the Claudes whose choices
teach it; without it, every Claude of the round).  The consulted model is thus named
apart from the Claudes that judge the rounds.

For each (Zellig, Claude) of an experiment whose Zellig consults a model, the judge is
``self`` when it is the consulted model — the same name and params as the Zellig's
consulted SPEC, or a wrapping Claude (``edit-aware``) whose own consulted model is
it, or a Claude the adaptive Zellig learns from, or a Claude that :func:`collusion`
finds anywhere in the Zellig's params (nested specs) — and ``held-out`` otherwise.
``manifest.json`` records the labels under ``judges`` and the report shows them.
"""

from __future__ import annotations

import json
from typing import Any

from arena.errors import ConfigError
from arena.record.manifest import Manifest
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, resolve
from arena.specs.spec import PerformerSpec, spec_from_mapping

SELF, HELD_OUT = "self", "held-out"


def _identity(spec: PerformerSpec) -> tuple[str, str]:
    return spec.name, json.dumps(dict(spec.params), sort_keys=True, default=str)


def consulted(spec: PerformerSpec, catalog: Catalog, role: str) -> tuple[str, Any] | None:
    """``(param, value)`` of the model ``spec`` consults, or ``None``: the class declares no
    ``consults`` param, or the spec leaves it out (an adaptive Zellig learning from all)."""
    key = getattr(resolve(role, spec.name, catalog), "consults", None)
    if key is None or key not in spec.params:
        return None
    return key, spec.params[key]


def _claude_identities(spec: PerformerSpec, catalog: Catalog) -> set[tuple[str, str]]:
    """The Claude itself and, for a wrapping Claude, the model it consults."""
    found = {_identity(spec)}
    inner = consulted(spec, catalog, "claude")
    if inner is not None and not isinstance(inner[1], list):
        try:
            found.add(_identity(spec_from_mapping(inner[1], where=spec.label)))
        except ConfigError:
            pass
    return found


def check_learn_from(experiment: Experiment, catalog: Catalog) -> None:
    """A Zellig that names the Claudes it learns from names Claudes of the experiment
    (exit 2 naming file, line and key otherwise)."""
    labels = [c.label for c in experiment.claudes]
    for index, spec in enumerate(experiment.zelligs):
        entry = consulted(spec, catalog, "zellig")
        if entry is None or not isinstance(entry[1], list):
            continue
        for position, label in enumerate(entry[1]):
            if label not in labels:
                key = f"zelligs.{index}.params.{entry[0]}.{position}"
                raise ConfigError(f"{experiment.where('zelligs', str(index), 'params', entry[0])}: '{key}' names "
                                  f"{label!r}, not a Claude of the experiment; Claudes: {', '.join(labels)}")


def judge_labels(experiment: Experiment, catalog: Catalog) -> list[dict[str, str]]:
    """``{zellig, claude, judge}`` for each model-consulting Zellig × Claude, ``judge``
    being ``self`` or ``held-out`` (see the module docstring)."""
    from arena.game.play import collusion

    colluding = {(c["zellig"], c["claude"]) for c in collusion(experiment)}
    identities = {c.label: _claude_identities(c, catalog) for c in experiment.claudes}
    result = []
    for spec in experiment.zelligs:
        entry = consulted(spec, catalog, "zellig")
        nested = any(z == spec.label for z, _ in colluding)
        learns_from_all = entry is None and getattr(resolve("zellig", spec.name, catalog), "consults", None)
        if entry is None and not nested and not learns_from_all:
            continue
        for claude in experiment.claudes:
            if learns_from_all or (spec.label, claude.label) in colluding:
                is_self = True
            elif entry is None:
                is_self = False
            elif isinstance(entry[1], list):
                is_self = claude.label in entry[1]
            else:
                target = _identity(spec_from_mapping(entry[1], where=spec.label))
                is_self = target in identities[claude.label]
            result.append({"zellig": spec.label, "claude": claude.label, "judge": SELF if is_self else HELD_OUT})
    return result


def labels_of(manifest: Manifest) -> dict[tuple[str, str], str]:
    """``(zellig, claude) → self/held-out`` as recorded in a run's manifest."""
    return manifest.judge_labels()
