"""Which decoder makes a Claude's 1-best translations, told without loading anything.

A Claude's 1-bests (for the distributional discrepancy and the generative rate) depend on
the decoder as much as on the model: CTranslate2's beam search and Transformers'
``generate`` give different 1-bests for a few sources in a hundred.  So the decoder is
part of the Claude's signature (``+decoder.`` in :func:`arena.specs.registry.signature`,
through :class:`arena.roles.Decoding`): backend and its version, compute type, beam and
length penalty, as in ``+decoder.ctranslate2-4.8.5/float32/beam5/lp1``.  Two numbers with
one signature come from the same decoder; two decoders never share a signature.

Everything here reads small files only (a model's ``config.json`` and
``generation_config.json``, from a directory or the Hugging Face cache) and package
metadata, so that ``arena validate`` stays fast.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# the encoder-decoder ``model_type``s CTranslate2's Transformers converter handles (its loaders for
# M2M100Config (NLLB too), MarianConfig, MT5Config, T5Config, UMT5Config; a test checks them against
# the installed converter).  Not BART, mBART and Pegasus: their loaders read ``normalize_before``
# from the model's config, which Transformers 5 no longer has, so they fail (CTranslate2 4.8);
# those models decode with ``generate``.
CT2_MODEL_TYPES = ("m2m_100", "marian", "mt5", "t5", "umt5")
# a Claude's ``dtype`` as the name of what the decoder computes in
COMPUTE = {"fp32": "float32", "float32": "float32", "bf16": "bfloat16", "bfloat16": "bfloat16",
           "fp16": "float16", "float16": "float16"}


def model_json(source: str | None, name: str, revision: str | None = None) -> dict[str, Any]:
    """The JSON file ``name`` of a model directory or of a cached hub model, ``{}`` where
    there is none (or it cannot be read; the model's own loading then says why)."""
    if not source:
        return {}
    path = Path(str(source)).expanduser()
    found: Any = path / name if path.is_dir() else None
    if found is None:
        from huggingface_hub import try_to_load_from_cache

        try:
            found = try_to_load_from_cache(str(source), name, revision=revision)
        except (ValueError, OSError):
            return {}
    if not isinstance(found, (str, Path)) or not Path(found).is_file():
        return {}
    try:
        value = json.loads(Path(found).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def version(package: str) -> str | None:
    """The installed version of ``package``, ``None`` when it is not installed."""
    if importlib.util.find_spec(package) is None:
        return None
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def ct2_converts(model: str | None, revision: str | None = None) -> bool:
    """Whether CTranslate2 is installed and converts this Transformers model (by its
    ``config.json``'s ``model_type``)."""
    return version("ctranslate2") is not None and model_json(model, "config.json", revision).get(
        "model_type") in CT2_MODEL_TYPES


def length_penalty(model: str | None, revision: str | None = None) -> float:
    """The length penalty of the model's ``generation_config.json``, 1.0 (Transformers'
    default) where it sets none; both decoders follow it."""
    value = model_json(model, "generation_config.json", revision).get("length_penalty")
    return 1.0 if value is None else float(value)


def describe(backend: str, compute: str, beam: int, penalty: float | None) -> str:
    """``backend-version/compute/beamN/lpX`` (``lpX`` left out where the search has none)."""
    package = {"generate": "transformers", "incremental": "torch"}.get(backend, backend)
    text = f"{backend}-{version(package) or 'missing'}/{compute}/beam{beam}"
    return text + (f"/lp{penalty:g}" if penalty is not None else "")


def seq2seq_decoder(decoder: str, model: str | None, revision: str | None, device: str) -> str:
    """``ctranslate2`` or ``generate``: what an ``hf-seq2seq`` Claude decodes with
    (``decoder=auto``: CTranslate2 where it is installed, the model converts and the
    device is ``cpu``, ``cuda`` or ``auto``, which resolves to one of them)."""
    if decoder != "auto":
        return decoder
    usable = device in ("cpu", "cuda", "auto")
    return "ctranslate2" if usable and ct2_converts(model, revision) else "generate"


def ct2_signature(model: str | None, params: Mapping[str, Any], beam: int) -> str:
    """A ``ctranslate2`` Claude's decoder: CTranslate2 in its ``compute_type``, with the length
    penalty of the model's generation config (none for a directory converted before)."""
    from performers.claude.ct2_convert import is_ct2_dir

    penalty = 1.0 if model is None or is_ct2_dir(model) else length_penalty(model, params.get("revision"))
    return describe("ctranslate2", str(params.get("compute_type", "int8")), beam, penalty)
