"""Converting Hugging Face models to CTranslate2, cached, and exactly for Marian.

CTranslate2's stock Marian converter drops the ``<pad>`` token that Transformers adds
to Marian vocabularies and starts the decoder from a zero vector ("the decoder
always starts from a zero embedding").  That reproduces the original Marian C++
models, but not Transformers: there the decoder starts from the *embedding of*
``<pad>`` (``decoder_start_token_id``) and ``<pad>`` takes part in the softmax.  For
OPUS-MT conversions the pad embedding is zero and the difference is small; for a
model trained in Transformers with tied embeddings (like the shipped toy model) the
``<pad>`` row is trained and the stock conversion is off by several nats per
sentence.  The *exact* conversion here keeps ``<pad>`` and the decoder start token
as Transformers has them, so CTranslate2 float32 scores equal the ``hf-seq2seq``
Claude's (within 1e-4 per sentence on the toy model).  Since ``<pad>`` stays in the
vocabulary, this also converts Marian models whose ``<pad>`` is not the last token.

Conversions are cached under ``$ARENA_CACHE_DIR/ct2/`` (default
``~/.cache/arena/ct2/``), keyed by the source model's identity, the conversion
flavour and the stored precision; a conversion is written to a temporary directory
and renamed into place, so concurrent processes never see half a model.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

CONVERSION_VERSION = "1"
POSITIONS_FILE = "arena-positions.json"
TOKENIZER_FILES = (
    "source.spm", "target.spm", "vocab.json", "tokenizer_config.json", "special_tokens_map.json",
    "tokenizer.json", "sentencepiece.bpe.model", "spiece.model", "generation_config.json",
)


def is_ct2_dir(path: str | os.PathLike) -> bool:
    path = Path(path)
    return path.is_dir() and (path / "model.bin").is_file()


def stored_precision(compute_type: str) -> str:
    """The precision a conversion is stored in: float16 for 16-bit compute types,
    else float32 (CTranslate2 quantises to int8 when it loads)."""
    return "float16" if "16" in compute_type else "float32"


def _marian_loader(exact: bool):
    from ctranslate2.converters.transformers import BartLoader, MarianMTLoader

    if not exact:
        return MarianMTLoader()

    class ExactMarianLoader(MarianMTLoader):
        """Marian as Transformers computes it: ``<pad>`` kept, decoder started from
        the decoder start token's embedding."""

        def get_model_spec(self, model):
            model.config.normalize_before = False
            model.config.normalize_embedding = False
            return BartLoader.get_model_spec(self, model)

        def set_config(self, config, model, tokenizer):
            config.eos_token = tokenizer.eos_token
            config.unk_token = tokenizer.unk_token
            config.decoder_start_token = tokenizer.convert_ids_to_tokens(model.config.decoder_start_token_id)

        def set_decoder(self, spec, decoder):
            BartLoader.set_decoder(self, spec, decoder)

        def get_vocabulary(self, model, tokenizer):
            return BartLoader.get_vocabulary(self, model, tokenizer)

    return ExactMarianLoader()


def stored_positions(directory: str | os.PathLike) -> int | None:
    """The positions recorded by :func:`convert` in a CTranslate2 directory, if any."""
    path = Path(directory) / POSITIONS_FILE
    if not path.is_file():
        return None
    value = json.loads(path.read_text(encoding="utf-8")).get("max_positions")
    return value if isinstance(value, int) and value > 0 else None


def convert(source: str, output: Path, revision: str | None, precision: str, exact: bool) -> None:
    """Convert a Hugging Face model (hub name or directory) into ``output``."""
    import torch
    import transformers
    from ctranslate2.converters import TransformersConverter

    from performers.claude.engine_settings import config_positions

    config = transformers.AutoConfig.from_pretrained(source, revision=revision)
    if config.model_type == "marian":
        loader = _marian_loader(exact)

        class MarianConverter(TransformersConverter):
            def _load(self):
                with torch.no_grad():
                    model = transformers.MarianMTModel.from_pretrained(source, revision=revision, dtype=torch.float32)
                    tokenizer = transformers.AutoTokenizer.from_pretrained(source, revision=revision)
                    return loader(model, tokenizer)

        converter = MarianConverter(source, revision=revision)
    else:
        converter = TransformersConverter(source, revision=revision)
    converter.convert(str(output), quantization=precision, force=True)
    positions = config_positions(config)
    if positions is not None:  # CTranslate2's own config does not say; its Claude reads it from here
        (output / POSITIONS_FILE).write_text(json.dumps({"max_positions": positions}) + "\n", encoding="utf-8")
    local = Path(source)
    if local.is_dir():  # keep the tokenizer next to the converted model
        for name in TOKENIZER_FILES:
            if (local / name).is_file():
                shutil.copy(local / name, output / name)


def cached_conversion(source: str, identity: dict[str, Any], revision: str | None, precision: str, exact: bool,
                      root: Path) -> Path:
    """The converted model directory for ``source``, converting on first use."""
    import ctranslate2

    from performers.claude.conversion_cache import cached_directory

    key = {"source": identity, "precision": precision, "exact": exact, "ctranslate2": ctranslate2.__version__,
           "conversion": CONVERSION_VERSION}

    def build(output: Path) -> None:
        log.info("converting %s to CTranslate2 (%s%s)", source, precision, ", exact" if exact else "")
        convert(source, output, revision, precision, exact)

    return cached_directory("ct2", key, build, is_ct2_dir, root)
