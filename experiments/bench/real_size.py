"""Randomly initialised models with the exact architectures of real EN→DE systems.

The benchmarks' ``--arch`` option: no weights are downloaded; the architecture is
written out here from the models' published ``config.json`` and filled with random
weights (seed 0), which is enough to time scoring and decoding (speed and memory do
not depend on the weights; the 1-bests of a random model are nonsense and usually run
to the length cap, so decoding timings are an upper bound per sentence).

- ``opus-mt-en-de``: ``Helsinki-NLP/opus-mt-en-de`` (MarianMT: d_model 512, 6+6
  layers, 8 heads, FFN 2048, swish, 58,101-token shared vocabulary, 512 positions);
- ``wmt19-en-de``: ``facebook/wmt19-en-de`` (FSMT, the WMT19 winner: d_model 1024,
  6+6 layers, 16 heads, FFN 8192, ReLU, 42,024-token source and target vocabularies,
  untied output layer, 1024 positions).

Tokenizer: the shipped toy model's SentencePiece tokenizer (8,000 pieces), whose ids
are valid ids of both vocabularies; the special-token ids (pad, end of sentence,
decoder start) follow that tokenizer.  Sentences therefore have the toy model's
token counts, which are close to OPUS-MT's on DistilLingEval (both are ~8k–58k
SentencePiece vocabularies over the same text); the output layer has the real
vocabulary size, which is what the cost of scoring depends on (for Marian the
tokenizer's vocabulary is padded with unused entries to the model's 58,101, so that
CTranslate2 converts it).
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

log = logging.getLogger(__name__)

ARCHITECTURES = ("opus-mt-en-de", "wmt19-en-de")
TOKENIZER_FILES = ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json")


def build(arch: str, directory: Path) -> Path:
    """Write a random model of ``arch`` with the toy tokenizer into ``directory``."""
    import torch
    import transformers as T

    from performers.claude.toy_en_de import toy_model_dir

    if arch not in ARCHITECTURES:
        raise ValueError(f"--arch must be one of {', '.join(ARCHITECTURES)}, not {arch!r}")
    toy = toy_model_dir()
    tokenizer = T.AutoTokenizer.from_pretrained(toy)
    pad, eos = tokenizer.pad_token_id, tokenizer.eos_token_id
    torch.manual_seed(0)
    if arch == "opus-mt-en-de":
        config = T.MarianConfig(
            vocab_size=58101, decoder_vocab_size=58101, d_model=512, encoder_layers=6, decoder_layers=6,
            encoder_attention_heads=8, decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048,
            activation_function="swish", max_position_embeddings=512, scale_embedding=True,
            share_encoder_decoder_embeddings=True, tie_word_embeddings=True, dropout=0.1,
            pad_token_id=pad, eos_token_id=eos, decoder_start_token_id=pad, forced_eos_token_id=eos,
        )
        model = T.MarianMTModel(config)
    else:
        config = T.FSMTConfig(
            langs=["en", "de"], src_vocab_size=42024, tgt_vocab_size=42024, d_model=1024, encoder_layers=6,
            decoder_layers=6, encoder_attention_heads=16, decoder_attention_heads=16, encoder_ffn_dim=8192,
            decoder_ffn_dim=8192, activation_function="relu", max_position_embeddings=1024, scale_embedding=True,
            tie_word_embeddings=False, dropout=0.2, pad_token_id=pad, bos_token_id=0, eos_token_id=eos,
            decoder_start_token_id=eos,
        )
        model = T.FSMTForConditionalGeneration(config)
    directory.mkdir(parents=True, exist_ok=True)
    model.eval().save_pretrained(directory)
    for name in TOKENIZER_FILES:
        shutil.copy(toy / name, directory / name)
    if arch == "opus-mt-en-de":  # the vocabulary as large as the model's (CTranslate2 checks), unused entries
        vocabulary = json.loads((toy / "vocab.json").read_text(encoding="utf-8"))
        for index in range(len(vocabulary), config.vocab_size):
            vocabulary[f"<unused{index}>"] = index
        (directory / "vocab.json").write_text(json.dumps(vocabulary, ensure_ascii=False), encoding="utf-8")
    parameters = sum(p.numel() for p in model.parameters())
    log.info("%s: random %s with %.1fM parameters in %s", arch, type(model).__name__, parameters / 1e6, directory)
    return directory


def model_dir(arch: str, root: Path) -> Path:
    """The model of ``arch`` under ``root``, built on first use."""
    directory = root / arch
    if not (directory / "config.json").is_file():
        build(arch, directory)
    return directory
