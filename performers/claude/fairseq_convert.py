"""fairseq Transformer checkpoints as Hugging Face FSMT models, without fairseq installed.

The models of Vamvas & Sennrich (2021) and the WMT19 systems of Ng et al. (2019) are fairseq
``transformer`` checkpoints: a directory with ``model.pt`` (weights and training config), the
dictionaries ``dict.<src>.txt`` / ``dict.<tgt>.txt`` and the BPE codes (``bpecodes``, fastBPE or
subword-nmt).  Transformers' FSMT is a port of exactly that architecture (post-norm Transformer,
sinusoidal positions offset by the padding index, embeddings scaled by √d, the decoder started from
``</s>``), so a checkpoint maps onto it by renaming:

- every fairseq parameter ``X`` becomes ``model.X`` (FSMT kept fairseq's module names);
  ``decoder.embed_out`` (older fairseq) becomes ``model.decoder.output_projection.weight``; shared
  input/output embeddings tie FSMT's output projection to the decoder embeddings;
- a fairseq dictionary (``<s> <pad> </s> <unk>``, then one ``token count`` line per entry, ids in
  file order; ``madeupwordNNNN`` fillers up to the embedding size) becomes FSMT's vocabulary, with
  BPE continuation marks rewritten as FSMT writes them (``ab@@`` → ``ab``, ``ab`` → ``ab</w>``);
- the BPE codes become ``merges.txt`` (counts dropped).

:func:`convert` reads the checkpoint with ``torch.load(weights_only=True)``: only tensors and an
``argparse.Namespace`` or plain-dict config are accepted.  Checkpoints whose config is an omegaconf
object need ``trusted=True`` (and omegaconf installed), which unpickles arbitrary objects: only for
checkpoints from a source you trust.  Architectures FSMT cannot represent (pre-norm layers, learned
positions, an embedding layer norm, adaptive softmax) are refused with the setting that is in the
way; nothing is approximated.  Checkpoints segmented with SentencePiece are refused too: FSMT's
tokenizer is Moses + BPE.

Conversions are cached under ``$ARENA_CACHE_DIR/fairseq/`` keyed by the digests of the files they
come from (:func:`performers.claude.conversion_cache.cached_directory`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena.sdk import ConfigError, DataError, EnvError

log = logging.getLogger(__name__)

CONVERSION_VERSION = "1"
SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")  # fairseq's Dictionary: bos 0, pad 1, eos 2, unk 3
CODES_NAMES = ("bpecodes", "codes", "code", "bpe.codes")
IGNORED = re.compile(r"(^|\.)version$|embed_positions\._float_tensor$")
# fairseq options that FSMT has no module or setting for: any of them switched on is refused
UNSUPPORTED = (
    "encoder_normalize_before", "decoder_normalize_before", "encoder_learned_pos", "decoder_learned_pos",
    "layernorm_embedding", "adaptive_softmax_cutoff", "no_token_positional_embeddings", "cross_self_attention",
    "quant_noise_pq",
)


def load_checkpoint(path: Path, trusted: bool = False) -> Mapping[str, Any]:
    """The checkpoint's dict (``model`` weights, ``args`` or ``cfg``)."""
    import argparse
    import pickle

    import torch

    try:
        with torch.serialization.safe_globals([argparse.Namespace]):
            return torch.load(path, map_location="cpu", weights_only=not trusted)
    except ModuleNotFoundError as error:
        if trusted:  # fairseq's own classes or omegaconf, pickled in the checkpoint
            raise EnvError(f"{path}: the checkpoint needs the Python package {error.name!r}, which is not installed",
                           hint=f"pip install {error.name} (fairseq itself does not install on Python 3.11: "
                                "re-save the checkpoint with a plain argparse config instead)") from None
        raise DataError(
            f"{path}: the checkpoint holds objects other than tensors and a plain config (e.g. an omegaconf "
            "config); if you trust its source, pass trusted=true (needs omegaconf installed)"
        ) from None
    except (pickle.UnpicklingError, RuntimeError, AttributeError) as error:
        if trusted:
            raise DataError(f"{path}: cannot read the checkpoint: {error}") from None
        raise DataError(
            f"{path}: the checkpoint holds objects other than tensors and a plain config (e.g. an omegaconf "
            "config); if you trust its source, pass trusted=true (needs omegaconf installed)"
        ) from None
    except OSError as error:
        raise DataError(f"{path}: {error.strerror or error}") from None


def model_settings(checkpoint: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The model and task settings as a dict, from ``cfg`` (fairseq ≥ 0.10) or ``args`` (older)."""
    cfg = checkpoint.get("cfg")
    if cfg is not None:
        settings = dict(_as_dict(cfg.get("task")) or {})
        settings.update(_as_dict(cfg.get("model")) or {})
    elif checkpoint.get("args") is not None:
        settings = _as_dict(checkpoint["args"]) or {}
    else:
        raise DataError(f"{where}: the checkpoint has neither 'cfg' nor 'args' (is it a fairseq checkpoint?)")
    return settings


def _as_dict(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return dict(value)
    if hasattr(value, "__dict__"):  # argparse.Namespace
        return dict(vars(value))
    try:  # an omegaconf DictConfig (trusted checkpoints)
        from omegaconf import OmegaConf

        return OmegaConf.to_container(value, resolve=True)
    except ImportError:
        raise ConfigError(f"cannot read a config of type {type(value).__name__}") from None


def read_dictionary(path: Path, size: int) -> list[str]:
    """Tokens of a fairseq dictionary file in id order, padded with fairseq's ``madeupwordNNNN``
    fillers up to ``size`` (the embedding rows)."""
    tokens = list(SPECIALS)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise DataError(f"{path}: {error.strerror or error}") from None
    for number, line in enumerate(lines, start=1):
        fields = line.rstrip().split(" ")
        if fields and fields[-1] == "#fairseq:overwrite":
            fields = fields[:-1]
        if len(fields) < 2 or not fields[-1].lstrip("-").isdigit():
            raise DataError(f"{path}, line {number}: expected 'token count', got {line!r}")
        token = " ".join(fields[:-1])
        if token in SPECIALS:
            continue
        tokens.append(token)
    if len(tokens) > size:
        raise DataError(f"{path}: {len(tokens)} tokens but the checkpoint's embeddings have {size} rows")
    tokens += [f"madeupword{index:04d}" for index in range(size - len(tokens))]
    return tokens


def fsmt_vocabulary(tokens: list[str]) -> dict[str, int]:
    """FSMT's vocabulary from fairseq's tokens: continuation marks ``@@`` dropped, ``</w>`` added to
    word-final pieces, special tokens kept as they are."""
    vocabulary: dict[str, int] = {}
    for index, token in enumerate(tokens):
        if token in SPECIALS:
            key = token
        elif token.endswith("@@"):
            key = token[:-2]
        else:
            key = token + "</w>"
        vocabulary.setdefault(key, index)
    return vocabulary


def find_codes(directory: Path, name: str | None) -> Path:
    if name is not None:
        path = directory / name if not Path(name).is_absolute() else Path(name)
        if not path.is_file():
            raise ConfigError(f"bpe_codes: {path} does not exist")
        return path
    for candidate in CODES_NAMES:
        if (directory / candidate).is_file():
            return directory / candidate
    if any(directory.glob("*.model")) or any(directory.glob("*spm*")):
        raise DataError(f"{directory}: SentencePiece checkpoints cannot be mapped onto FSMT (Moses + BPE only)")
    raise DataError(f"{directory}: no BPE codes ({', '.join(CODES_NAMES)}); name the file with bpe_codes=")


def languages(settings: Mapping[str, Any], directory: Path, where: str) -> tuple[str, str]:
    source, target = settings.get("source_lang"), settings.get("target_lang")
    if source and target:
        return str(source), str(target)
    found = sorted(path.name[len("dict.") : -len(".txt")] for path in directory.glob("dict.*.txt"))
    if len(found) == 2:
        raise DataError(f"{where}: the config names no source_lang/target_lang; dictionaries for {found}: "
                         "pass source_lang= and target_lang=")
    raise DataError(f"{where}: the config names no source_lang/target_lang and there are not two dict.*.txt")


def fsmt_config(settings: Mapping[str, Any], languages: tuple[str, str], sizes: tuple[int, int], where: str) -> Any:
    """An FSMTConfig for the checkpoint's settings; refuses what FSMT cannot represent."""
    import transformers

    for key in UNSUPPORTED:
        if settings.get(key):
            raise DataError(f"{where}: {key}={settings[key]!r} has no counterpart in FSMT (it must be off)")
    if settings.get("encoder_embed_dim") != settings.get("decoder_embed_dim", settings.get("encoder_embed_dim")):
        raise DataError(f"{where}: encoder and decoder embedding sizes differ; FSMT has one d_model")
    positions = max(int(settings.get("max_source_positions", 1024)), int(settings.get("max_target_positions", 1024)))
    tie = bool(settings.get("share_decoder_input_output_embed") or settings.get("share_all_embeddings"))
    return transformers.FSMTConfig(
        langs=list(languages), src_vocab_size=sizes[0], tgt_vocab_size=sizes[1],
        d_model=int(settings["encoder_embed_dim"]),
        encoder_layers=int(settings["encoder_layers"]), decoder_layers=int(settings["decoder_layers"]),
        encoder_attention_heads=int(settings["encoder_attention_heads"]),
        decoder_attention_heads=int(settings["decoder_attention_heads"]),
        encoder_ffn_dim=int(settings["encoder_ffn_embed_dim"]), decoder_ffn_dim=int(settings["decoder_ffn_embed_dim"]),
        activation_function=str(settings.get("activation_fn") or "relu"),
        max_position_embeddings=positions, scale_embedding=not settings.get("no_scale_embedding", False),
        dropout=0.0, attention_dropout=0.0, activation_dropout=0.0,
        pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2,
        tie_word_embeddings=tie, num_beams=5, early_stopping=True,
    )


def fsmt_state_dict(weights: Mapping[str, Any], tie: bool, where: str) -> dict[str, Any]:
    """fairseq parameter names → FSMT's."""
    mapped: dict[str, Any] = {}
    for name, tensor in weights.items():
        if IGNORED.search(name):
            continue
        if name == "decoder.embed_out":
            name = "decoder.output_projection.weight"
        mapped[f"model.{name}"] = tensor
    if "model.decoder.output_projection.weight" not in mapped:
        if not tie:
            raise DataError(f"{where}: no output projection and the embeddings are not shared")
        mapped["model.decoder.output_projection.weight"] = mapped["model.decoder.embed_tokens.weight"]
    return mapped


def convert(
    directory: Path, output: Path, checkpoint_file: str = "model.pt", bpe_codes: str | None = None,
    source_lang: str | None = None, target_lang: str | None = None, trusted: bool = False,
) -> None:
    """Write the FSMT model and tokenizer of the fairseq checkpoint in ``directory`` into ``output``."""
    import torch
    import transformers

    where = str(directory / checkpoint_file)
    checkpoint = load_checkpoint(directory / checkpoint_file, trusted)
    settings = model_settings(checkpoint, where)
    if source_lang and target_lang:
        settings.update(source_lang=source_lang, target_lang=target_lang)
    pair = languages(settings, directory, where)
    weights = checkpoint.get("model")
    if not isinstance(weights, Mapping):
        raise DataError(f"{where}: no 'model' weights in the checkpoint")
    sizes = (weights["encoder.embed_tokens.weight"].shape[0], weights["decoder.embed_tokens.weight"].shape[0])
    dictionaries = [read_dictionary(directory / f"dict.{lang}.txt", size) for lang, size in zip(pair, sizes)]
    config = fsmt_config(settings, pair, sizes, where)

    model = transformers.FSMTForConditionalGeneration(config).eval()
    mapped = fsmt_state_dict(weights, config.tie_word_embeddings, where)
    expected = model.state_dict()
    unknown = sorted(set(mapped) - set(expected))
    missing = sorted(key for key in set(expected) - set(mapped) if not key.endswith("embed_positions.weight"))
    if unknown or missing:
        raise DataError(f"{where}: parameters FSMT lacks: {unknown[:5] or 'none'}; "
                         f"FSMT parameters the checkpoint lacks: {missing[:5] or 'none'}")
    for key, tensor in mapped.items():
        if tuple(tensor.shape) != tuple(expected[key].shape):
            raise DataError(f"{where}: {key} has shape {tuple(tensor.shape)}, FSMT expects {tuple(expected[key].shape)}")
    with torch.no_grad():
        model.load_state_dict({key: tensor.float() for key, tensor in mapped.items()}, strict=False)

    output.mkdir(parents=True, exist_ok=True)
    for name, tokens in zip(("vocab-src.json", "vocab-tgt.json"), dictionaries):
        (output / name).write_text(json.dumps(fsmt_vocabulary(tokens), ensure_ascii=False), encoding="utf-8")
    codes = find_codes(directory, bpe_codes).read_text(encoding="utf-8")
    merges = [re.sub(r" \d+$", "", line) for line in codes.splitlines() if line.strip() and not line.startswith("#")]
    (output / "merges.txt").write_text("#version: 0.2\n" + "\n".join(merges) + "\n", encoding="utf-8")
    tokenizer = transformers.FSMTTokenizer(
        langs=list(pair), src_vocab_file=str(output / "vocab-src.json"), tgt_vocab_file=str(output / "vocab-tgt.json"),
        merges_file=str(output / "merges.txt"),
    )
    model.save_pretrained(output)
    tokenizer.save_pretrained(output)


def cached_fsmt(directory: str | Path, checkpoint_file: str = "model.pt", bpe_codes: str | None = None,
                source_lang: str | None = None, target_lang: str | None = None, trusted: bool = False) -> Path:
    """The FSMT directory for the fairseq checkpoint in ``directory``, converting on first use."""
    from performers.claude.conversion_cache import cached_directory
    from performers.claude.fingerprint import file_digest

    directory = Path(directory).expanduser()
    if not (directory / checkpoint_file).is_file():
        raise ConfigError(f"checkpoint: {directory / checkpoint_file} does not exist")
    files = [directory / checkpoint_file, *sorted(directory.glob("dict.*.txt"))]
    codes = [find_codes(directory, bpe_codes)]
    key = {
        "files": {path.name: file_digest(path) for path in files + codes},
        "languages": [source_lang, target_lang], "conversion": CONVERSION_VERSION,
    }

    def build(output: Path) -> None:
        log.info("mapping the fairseq checkpoint %s onto FSMT", directory / checkpoint_file)
        convert(directory, output, checkpoint_file, bpe_codes, source_lang, target_lang, trusted)

    return cached_directory("fairseq", key, build, lambda path: (path / "config.json").is_file())
