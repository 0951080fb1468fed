"""What a run is checked against and records before it plays: the performers' names,
params and resources (:func:`validate`, nothing built), the run directory's name
(:func:`run_dir_for`), the signature and ``manifest.json`` (:func:`make_manifest`).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from arena.codec import dump
from arena.engine.resources import actor_count, resource_options
from arena.errors import ConfigError, UsageError
from arena.record import transcripts
from arena.record.manifest import Manifest
from arena.record.order import models
from arena.roles import Untranslating
from arena.specs.breakdowns import check_breakdowns
from arena.specs.config import Experiment
from arena.specs.registry import Catalog, signature
from arena.specs.registry import validate as validate_spec
from arena.specs.spec import PerformerSpec

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


def validate(experiment: Experiment, catalog: Catalog) -> dict[str, dict[str, str]]:
    """Check every performer's name and params (every Claude replica's too) and its Ray
    resources without building anything; return the signatures
    ``{role: {label: name@version(params)}}`` (a replica's under ``"<label> (seed <s>)"``)."""
    check_name(experiment)
    signatures: dict[str, dict[str, str]] = {}
    classes: dict[str, list[type]] = {}
    for role, specs in (("john", experiment.johns), ("zellig", experiment.zelligs), ("claude", experiment.claudes)):
        signatures[role + "s"] = {}
        classes[role + "s"] = []
        for index, spec in enumerate(specs):
            at = f"{experiment.where(role + 's', str(index))}: {role}s[{index}]"
            cls = validate_spec(role, spec, catalog, where=at)
            classes[role + "s"].append(cls)
            if role == "claude" and experiment.discrepancy and spec.sees_source and isinstance(cls, Untranslating):
                raise UsageError(f"{at}: discrepancy: {cls.why_untranslating()}", key="discrepancy",
                                 hint=f"give Claude {spec.label} sees: {{source: false}}, or set discrepancy: false")
            beam = _beam(experiment, spec) if role == "claude" else None
            signatures[role + "s"][spec.label] = signature(role, spec, catalog, beam)
            if role != "john":
                resource_options(role, spec, at)
    check_breakdowns(experiment, classes)  # a breakdowns: key no performer gives
    for model in models(experiment):
        at = f"{experiment.where('claudes', str(model.claude_index))}: claudes[{model.claude_index}]"
        actor_count(model.spec, at)
        if model.replica is not None:
            validate_spec("claude", model.spec, catalog, where=f"{at}.replicas.{model.replica}")
            signatures["claudes"][f"{model.spec.label} (seed {model.replica})"] = signature(
                "claude", model.spec, catalog, _beam(experiment, model.spec))
    return signatures


def _beam(experiment: Experiment, spec: PerformerSpec) -> int | None:
    """The beam of the run's 1-best decoding where it decodes with this Claude (the discrepancy
    on, the source seen), else ``None``: the decoder is then no part of its signature."""
    return experiment.beam if experiment.discrepancy and spec.sees_source else None


def config_hash(experiment: Experiment) -> str:
    text = json.dumps(dump(experiment), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def run_dir_for(experiment: Experiment, out: Path) -> Path:
    """``OUT/<name>-<config hash>``; a name that is no plain file name (``../x``, ``a/b``)
    is an error, so a run never leaves ``out``."""
    check_name(experiment)
    return Path(out) / f"{experiment.name}-{config_hash(experiment)}"


def check_name(experiment: Experiment) -> None:
    if not _NAME.match(experiment.name):
        raise ConfigError(
            f"{experiment.where('name')}: name {experiment.name!r} must be a plain name (letters, digits and "
            "'._+-', not starting with '.' or '-'): it names the run directory under --out"
        )


def make_manifest(experiment: Experiment, signatures: dict[str, dict[str, str]], **extra: Any) -> Manifest:
    """What ``manifest.json`` records: resolved config, performer signatures, versions, commit,
    and ``extra`` (the backend, a driver's entries: :meth:`arena.engine.driver.Driver.manifest`).
    The run's one-line signature needs the played instances; it is derived with the scores
    (:func:`arena.specs.signature.run_signature`), not written here."""
    return Manifest(
        experiment=dump(experiment), config_file=experiment.source, config_hash=config_hash(experiment),
        signatures=signatures, versions=transcripts.package_versions(), git_commit=transcripts.git_commit(), **extra,
    )
