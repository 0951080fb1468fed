"""The one-line signature of a run, printed with every number (as sacrebleu prints its own).

It names what produced a score, so that two numbers with the same signature are
comparable and two different experiments never share one::

    john:ding-human=distil-lingeval@1+data.3f2a1b9c|zellig:replay@1|claude:toy=toy-en-de@1+model.ab12cd34+decoder.ctranslate2-4.8.5/float32/beam5/lp1,random@1|k:1|seeds:1|ties:wrong|schedule:none|visibility:adequacy|cfg:9e0f1a2b3c|arena:0.1.0

Fields, separated by ``|``:

- ``john``: each John as ``alias=name@version`` (``name@version`` without an
  alias; params are in ``cfg``) and ``+data.`` the first 8 hex digits of the SHA-256 of the instances it
  yielded in this run (ids, sources, references, metadata, in order);
- ``zellig`` and ``claude``: each performer as ``alias=name@version``; a Claude whose
  class declares a model (:class:`arena.roles.Fingerprinted`) adds ``+model.`` and a
  digest of its weights and tokenizer (or of its hub name and revision), and a Claude
  whose 1-bests the run decodes (:class:`arena.roles.Decoding`) adds ``+decoder.`` and
  the decoder: backend and version, compute type, beam and length penalty
  (``performers/claude/decoding.py``);
- ``k`` (variants per instance and Zellig), ``seeds``, ``ties`` (contrastive tie
  policy), ``schedule`` (``none`` without an observation schedule, else the preset's
  name or a digest of the phases), ``visibility`` (what the Claudes see: ``adequacy``
  = the source, ``fluency`` = no source, ``+metadata``; per Claude where they differ);
- ``cfg``: a digest of the resolved configuration that can change a number (every
  param of every performer, the match options; not the experiment's name and
  description, nor where it runs: ``executor``, ``ray``, Ray ``resources``), so that
  any such difference shows even where the readable fields coincide;
- ``arena``: the package version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

DIGEST_LENGTH = 8


def digest(value: Any, length: int = DIGEST_LENGTH) -> str:
    """The first ``length`` hex digits of the SHA-256 of ``value`` as canonical JSON."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def _label(spec: Mapping[str, Any]) -> str:
    from arena.specs.spec import PerformerSpec

    return spec.get("alias") or PerformerSpec(spec["name"], spec.get("params") or {}).label


def _performer(spec: Mapping[str, Any], signatures: Mapping[str, str]) -> str:
    """``alias=name@version`` (+ model digest) from a performer's entry in the manifest's
    signatures (``name@version(params)+model.…``)."""
    full = signatures.get(_label(spec), spec["name"])
    name_version = full.split("(", 1)[0]
    model = full.rsplit("+model.", 1)[1] if "+model." in full else None
    alias = spec.get("alias")
    text = f"{alias}={name_version}" if alias and alias != spec["name"] else name_version
    return text + (f"+model.{model}" if model else "")


class DataDigests:
    """:func:`data_digests` fed one ``rounds.jsonl`` record at a time (:meth:`add`), so that a
    reader passing over the rounds for something else computes it in the same pass."""

    def __init__(self) -> None:
        # streamed: the SHA-256 of the JSON list of a John's instances, one instance at a time (the
        # same text json.dumps writes for the whole list), so memory holds ids, not instances
        self.seen: dict[str, set[str]] = {}
        self.hashes: dict[str, Any] = {}

    def add(self, record: Mapping[str, Any]) -> None:
        instance = record["instance"]
        ids = self.seen.setdefault(record["john"], set())
        if instance["id"] in ids:
            return
        hashed = self.hashes.setdefault(record["john"], hashlib.sha256(b"["))
        text = json.dumps(instance, sort_keys=True, ensure_ascii=False, default=str)
        hashed.update(((", " if ids else "") + text).encode("utf-8"))
        ids.add(instance["id"])

    def digests(self) -> dict[str, str]:
        result = {}
        for john, hashed in self.hashes.items():
            final = hashed.copy()
            final.update(b"]")
            result[john] = final.hexdigest()[:DIGEST_LENGTH]
        return result


def data_digests(rounds: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Per John, the digest of the instances of the rounds (each instance once, in
    order of first appearance); ``rounds`` are ``rounds.jsonl`` records."""
    digests = DataDigests()
    for record in rounds:
        digests.add(record)
    return digests.digests()


def _schedule(experiment: Mapping[str, Any]) -> str:
    schedule = experiment.get("schedule")
    if not schedule:
        return "none"
    if isinstance(schedule, str):
        return schedule
    return f"custom.{digest(schedule, 6)}"


def _visibility(claudes: Sequence[Mapping[str, Any]]) -> str:
    """What the Claudes see besides the candidates (a spec's ``sees``): ``adequacy``
    (the source, the default) or ``fluency`` (no source), ``+metadata`` when a Claude
    sees John's metadata; one word when all Claudes see the same, else per Claude."""
    views = []
    for spec in claudes:
        sees = {"source": True, "metadata": False, **(spec.get("sees") or {})}
        views.append((_label(spec), ("adequacy" if sees["source"] else "fluency") + ("+metadata" if sees["metadata"] else "")))
    if len({view for _, view in views}) <= 1:
        return views[0][1] if views else "adequacy"
    return ",".join(f"{label}={view}" for label, view in views)


# keys that do not change a number: naming and where the work runs (backends give
# byte-identical transcripts)
_NOT_SIGNED = ("name", "description", "executor", "ray")


def signed_config(experiment: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a resolved experiment that the ``cfg`` digest covers."""
    config = {key: value for key, value in experiment.items() if key not in _NOT_SIGNED}
    for role in ("johns", "zelligs", "claudes"):
        config[role] = [{k: v for k, v in spec.items() if k != "resources"} for spec in experiment.get(role, [])]
    return config


def run_signature(manifest: Mapping[str, Any], rounds: Iterable[Mapping[str, Any]] = (),
                  data: Mapping[str, str] | None = None) -> str:
    """The one-line signature of a run from its manifest and its ``rounds.jsonl`` records (or
    their :func:`data_digests`, ``data``, computed already)."""
    from arena.version import __version__

    experiment = manifest["experiment"]
    signatures = manifest.get("signatures", {})
    data = data_digests(rounds) if data is None else data
    johns = []
    for spec in experiment["johns"]:
        text = _performer(spec, signatures.get("johns", {}))
        johns.append(text + (f"+data.{data[_label(spec)]}" if _label(spec) in data else ""))
    fields = [
        "john:" + ",".join(johns),
        "zellig:" + ",".join(_performer(s, signatures.get("zelligs", {})) for s in experiment["zelligs"]),
        "claude:" + ",".join(_performer(s, signatures.get("claudes", {})) for s in experiment["claudes"]),
        f"k:{experiment.get('variants_per_instance', 1)}",
        "seeds:" + ",".join(str(seed) for seed in experiment.get("seeds", [])),
        f"ties:{experiment.get('contrastive_ties', 'wrong')}",
        f"schedule:{_schedule(experiment)}",
        f"visibility:{_visibility(experiment['claudes'])}",
        f"cfg:{digest({'experiment': signed_config(experiment), 'signatures': signatures}, 10)}",
        f"arena:{manifest.get('versions', {}).get('arena', __version__)}",
    ]
    return "|".join(fields)
