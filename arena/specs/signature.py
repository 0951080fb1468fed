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
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

DIGEST_LENGTH = 8
_DECODER = re.compile(r"^(?P<backend>[^-/]+)-(?P<version>[^/]+)/(?P<compute>[^/]+)/beam(?P<beam>\d+)(?:/lp(?P<lp>[^/]+))?$")


@dataclass(frozen=True)
class Decoder:
    """The decoder of a Claude's 1-bests (:class:`arena.roles.Decoding`): ``backend`` (``ctranslate2``,
    ``generate``, ``incremental``) and the ``version`` of the package that runs it, the
    ``compute`` type, the ``beam`` and the ``length_penalty`` (``None`` where the search has
    none); ``str()`` is ``backend-version/compute/beamN/lpX`` as signatures print it."""

    backend: str
    version: str
    compute: str
    beam: int
    length_penalty: float | None = None

    def __str__(self) -> str:
        text = f"{self.backend}-{self.version}/{self.compute}/beam{self.beam}"
        return text + (f"/lp{self.length_penalty:g}" if self.length_penalty is not None else "")

    @classmethod
    def parse(cls, text: str) -> Decoder:
        """The decoder a ``decoder_signature`` names; a ``ValueError`` for text of another shape."""
        match = _DECODER.match(text)
        if match is None:
            raise ValueError(f"{text!r} is not a decoder signature (backend-version/compute/beamN[/lpX])")
        lp = match["lp"]
        return cls(match["backend"], match["version"], match["compute"], int(match["beam"]),
                   None if lp is None else float(lp))


@dataclass(frozen=True)
class Signature:
    """What produced a performer's numbers, as :func:`arena.specs.registry.performer_signature`
    signs it: ``str()`` is ``name@version(params)`` (``params``: ``key=value`` sorted, as signed),
    then ``+model.`` and the ``model`` digest (a :class:`~arena.roles.Fingerprinted` class),
    ``+decoder.`` and the :class:`Decoder` (a :class:`~arena.roles.Decoding` one whose 1-bests the
    run decodes), ``[sees:VISIBILITY]`` (a Claude that does not see the default) and
    ``[balance:CUE]`` (a balanced John); ``manifest.json`` stores that text."""

    name: str
    version: str
    params: str = ""
    model: str | None = None
    decoder: Decoder | None = None
    sees: str | None = None
    balance: str | None = None

    @property
    def stem(self) -> str:
        """``name@version``: the same performer whatever its params."""
        return f"{self.name}@{self.version}"

    def _suffix(self) -> str:
        return ((f"+decoder.{self.decoder}" if self.decoder is not None else "")
                + (f"[sees:{self.sees}]" if self.sees else "") + (f"[balance:{self.balance}]" if self.balance else ""))

    def __str__(self) -> str:
        model = f"+model.{self.model}" if self.model is not None else ""
        return f"{self.stem}({self.params}){model}{self._suffix()}"

    def in_run_signature(self) -> str:
        """The performer's part of the run's one-line signature: ``name@version``, and for a
        performer with a model, ``+model.`` and all that follows it in :meth:`__str__`."""
        return self.stem + (f"+model.{self.model}{self._suffix()}" if self.model is not None else "")

    @classmethod
    def parse(cls, text: str) -> Signature:
        """The signature whose ``str()`` is ``text`` (a ``manifest.json`` entry), read from the end:
        the bracketed visibility and balance, the decoder, the model digest, then the params."""
        rest, balance = _bracket(text, "balance")
        rest, sees = _bracket(rest, "sees")
        decoder = model = None
        at = rest.rfind("+decoder.")
        if at >= 0 and ")" not in rest[at:]:
            rest, decoder = rest[:at], Decoder.parse(rest[at + len("+decoder."):])
        at = rest.rfind("+model.")
        if at >= 0 and ")" not in rest[at:]:
            rest, model = rest[:at], rest[at + len("+model."):]
        head, _, params = rest.partition("(")
        if not params.endswith(")"):
            raise ValueError(f"{text!r} is not a performer signature (name@version(params)…)")
        name, _, version = head.rpartition("@")
        return cls(name, version, params[:-1], model, decoder, sees, balance)


def _bracket(text: str, key: str) -> tuple[str, str | None]:
    """``text`` without a trailing ``[key:VALUE]``, and ``VALUE`` (``None`` when there is none)."""
    match = re.search(rf"\[{key}:([^\[\]]*)\]$", text)
    return (text[: match.start()], match[1]) if match else (text, None)


_CANONICAL = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)  # as json.dumps with these, built once


def digest(value: Any, length: int = DIGEST_LENGTH) -> str:
    """The first ``length`` hex digits of the SHA-256 of ``value`` as canonical JSON."""
    text = _CANONICAL.encode(value)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:length]


def _label(spec: Mapping[str, Any]) -> str:
    from arena.specs.spec import PerformerSpec

    return spec.get("alias") or PerformerSpec(spec["name"], spec.get("params") or {}).label


def _performer(spec: Mapping[str, Any], signatures: Mapping[str, str]) -> str:
    """``alias=name@version`` (+ model digest) from a performer's entry in the manifest's
    signatures (``name@version(params)+model.…``, a :class:`Signature`)."""
    full = signatures.get(_label(spec))
    signed = Signature.parse(full).in_run_signature() if full is not None else spec["name"]
    alias = spec.get("alias")
    return f"{alias}={signed}" if alias and alias != spec["name"] else signed


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
        text = _CANONICAL.encode(instance)
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
