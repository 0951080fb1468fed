"""Training MarianMT translation models from scratch: the teachers and the sequence-level
distilled students of Vamvas & Sennrich 2021 (Table 1), at toy scale on a CPU or larger
on a GPU.

One recipe, three steps (``arena train teacher | distill | student``):

1. **teacher**: a Transformer (:class:`transformers.MarianMTModel`, randomly initialised
   from a size preset) trained on a parallel corpus (default ``../shared/data/parallel-toy/train``).
2. **distill**: the teacher's beam-5 translations of the training sources (sequence-level
   knowledge distillation, Kim & Rush 2016), decoded with CTranslate2, batched and sorted
   by length (:meth:`performers.claude.ct2.CTranslate2Claude.translate`).
3. **student**: a (smaller) Transformer trained on the sources and the teacher's
   translations.

Training: label-smoothed cross-entropy (0.1), AdamW, linear warm-up then inverse-square-root
decay, batches of about ``batch_tokens`` tokens made from length-sorted pairs and shuffled
per epoch by a seeded RNG (``random.Random(f"{seed}/{epoch}")``).  Everything random is
seeded by ``seed`` (weights, dropout, batch order).  A checkpoint (model, optimiser,
schedule, position in the epoch, elapsed time, RNG state) is written atomically every
``save_minutes`` and at the end; the same command run again resumes from it.  ``minutes``
is the training time budget summed over resumed runs; ``max_steps`` caps the updates.

A finished model directory holds ``hf/`` (Hugging Face format, loadable as
``hf-seq2seq:model=DIR/hf``), ``ct2/`` (CTranslate2, float32 stored; loadable as
``ctranslate2:model=DIR/ct2``), ``bleu.json`` (sacrebleu on the held-out sets, beam 5)
and ``train.json`` (what was trained, how long, on what).  All models share the
tokenizer they were given (default: the shipped toy model's 8k SentencePiece vocabulary).
"""

from __future__ import annotations

import logging
import math
import os
import random
import shutil
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.engine.transcripts import atomic_write_json, atomic_write_text

log = logging.getLogger(__name__)

RECIPE_VERSION = "1"
TOKENIZER_FILES = ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json")
DEFAULT_TOKENIZER = Path(__file__).resolve().parent / "models" / "toy-en-de"
HELD_OUT = ("newstest2014", "multi30k_test2016")

# size presets: MarianConfig keyword arguments
PRESETS: dict[str, dict[str, Any]] = {
    "tiny": dict(d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                 decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, dropout=0.0),
    "toy-student": dict(d_model=128, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                        decoder_attention_heads=4, encoder_ffn_dim=512, decoder_ffn_dim=512, dropout=0.1),
    "toy-teacher": dict(d_model=256, encoder_layers=3, decoder_layers=3, encoder_attention_heads=4,
                        decoder_attention_heads=4, encoder_ffn_dim=1024, decoder_ffn_dim=1024, dropout=0.1),
    # GPU sizes: Transformer-base teacher (Vaswani et al. 2017) and a half-depth student
    "base-student": dict(d_model=512, encoder_layers=6, decoder_layers=3, encoder_attention_heads=8,
                         decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, dropout=0.1),
    "base-teacher": dict(d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                         decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, dropout=0.1),
}


@dataclass(frozen=True)
class TrainSettings:
    """What one training run is; recorded in ``train.json`` and checked on resume."""

    preset: str
    seed: int
    train_source: str
    train_target: str
    tokenizer: str
    minutes: float
    max_steps: int | None = None
    max_pairs: int | None = None
    batch_tokens: int = 4096
    learning_rate: float = 1e-3
    warmup_steps: int = 400
    label_smoothing: float = 0.1
    max_length: int = 128
    device: str = "cpu"
    threads: int | None = None
    save_minutes: float = 5.0

    def identity(self) -> dict[str, Any]:
        """The settings a resumed run must share with the checkpoint (not the budget,
        the device, threads or the save interval)."""
        keep = ("preset", "seed", "train_source", "train_target", "tokenizer", "max_pairs", "batch_tokens",
                "learning_rate", "warmup_steps", "label_smoothing", "max_length")
        return {key: getattr(self, key) for key in keep}


def cpu_count() -> int:
    """The CPUs this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def read_lines(path: str | os.PathLike) -> list[str]:
    with open(path, encoding="utf-8") as handle:
        return [line.rstrip("\n") for line in handle]


def read_parallel(source: str | os.PathLike, target: str | os.PathLike, max_pairs: int | None = None
                  ) -> tuple[list[str], list[str]]:
    """Line-aligned source and target lines (the first ``max_pairs``); a length mismatch
    is an error naming both files."""
    for path in (source, target):
        if not Path(path).is_file():
            raise ValueError(f"{path}: no such file")
    sources, targets = read_lines(source), read_lines(target)
    if len(sources) != len(targets):
        raise ValueError(f"{source} has {len(sources)} lines but {target} has {len(targets)}; they must be line-aligned")
    if max_pairs is not None:
        sources, targets = sources[:max_pairs], targets[:max_pairs]
    return sources, targets


def copy_tokenizer(tokenizer_dir: str | os.PathLike, out: Path) -> None:
    """Copy the Marian tokenizer files into ``out`` (an error naming what is missing)."""
    tokenizer_dir = Path(tokenizer_dir)
    missing = [name for name in TOKENIZER_FILES if not (tokenizer_dir / name).is_file()]
    if missing:
        raise ValueError(f"--tokenizer {tokenizer_dir}: not a Marian tokenizer directory (missing {', '.join(missing)})")
    out.mkdir(parents=True, exist_ok=True)
    for name in TOKENIZER_FILES:
        shutil.copy(tokenizer_dir / name, out / name)


def marian_config(preset: str, tokenizer, max_length: int):
    """A MarianConfig of the preset for the tokenizer's vocabulary (shared, tied
    embeddings; ``<pad>`` starts the decoder, as in Transformers' Marian models)."""
    import transformers

    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
    vocab_size = len(tokenizer)
    return transformers.MarianConfig(
        vocab_size=vocab_size, decoder_vocab_size=vocab_size, pad_token_id=tokenizer.pad_token_id,
        decoder_start_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
        forced_eos_token_id=tokenizer.eos_token_id, bos_token_id=None, max_position_embeddings=max(256, max_length + 2),
        share_encoder_decoder_embeddings=True, tie_word_embeddings=True, scale_embedding=True,
        activation_function="swish", attention_dropout=0.0, activation_dropout=0.0, **PRESETS[preset],
    )


def encode_corpus(tokenizer, sources: Sequence[str], targets: Sequence[str], max_length: int,
                  progress: bool = True) -> tuple[list[list[int]], list[list[int]], int]:
    """Token ids of every pair (end-of-sentence included); pairs with an empty side or
    longer than ``max_length`` tokens are left out and counted."""
    from arena.engine.progress import progress_bar

    source_ids: list[list[int]] = []
    target_ids: list[list[int]] = []
    dropped = 0
    chunk = 2000
    with progress_bar(len(sources), "tokenizing", enabled=progress, unit="pair") as bar:
        for start in range(0, len(sources), chunk):
            src = list(sources[start:start + chunk])
            tgt = list(targets[start:start + chunk])
            encoded = tokenizer(src, text_target=tgt)
            for text_s, text_t, s, t in zip(src, tgt, encoded["input_ids"], encoded["labels"]):
                if not text_s.strip() or not text_t.strip() or len(s) > max_length or len(t) > max_length:
                    dropped += 1
                    continue
                source_ids.append(list(s))
                target_ids.append(list(t))
            bar.update(len(src))
    return source_ids, target_ids, dropped


def make_batches(lengths: Sequence[tuple[int, int]], batch_tokens: int, seed: int, epoch: int) -> list[list[int]]:
    """Batches of pair indices for one epoch: pairs sorted by length (ties broken by a
    seeded shuffle), cut into batches of at most ``batch_tokens`` padded tokens (longer
    side × rows), batch order shuffled.  Deterministic in ``(seed, epoch)``."""
    rng = random.Random(f"{seed}/{epoch}")
    order = list(range(len(lengths)))
    rng.shuffle(order)
    order.sort(key=lambda i: lengths[i])
    batches: list[list[int]] = []
    current: list[int] = []
    longest = 0
    for i in order:
        size = max(lengths[i])
        if current and max(longest, size) * (len(current) + 1) > batch_tokens:
            batches.append(current)
            current, longest = [], 0
        current.append(i)
        longest = max(longest, size)
    if current:
        batches.append(current)
    rng.shuffle(batches)
    return batches


def inverse_sqrt(warmup_steps: int):
    """Linear warm-up to the peak learning rate, then decay ∝ 1/sqrt(step)."""
    warmup = max(1, warmup_steps)

    def factor(step: int) -> float:
        step = step + 1
        return min(step / warmup, math.sqrt(warmup / step))

    return factor


def _pad(rows: Sequence[Sequence[int]], value: int):
    import torch

    width = max(len(row) for row in rows)
    return torch.tensor([list(row) + [value] * (width - len(row)) for row in rows], dtype=torch.long)


def _save_atomic(obj: Any, path: Path) -> None:
    import torch

    scratch = path.with_name(path.name + f".tmp{os.getpid()}")
    torch.save(obj, scratch)
    os.replace(scratch, path)


@contextmanager
def exclusive(directory: Path, what: str) -> Iterator[None]:
    """Hold ``directory/.lock`` for the duration: a second process working on the same
    directory is refused (a ``ValueError`` naming it) instead of corrupting it."""
    import fcntl

    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValueError(f"{directory}: another process is already {what} there") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def resolve_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"--device {device}: torch sees no CUDA device")
    if device != "cpu" and not device.startswith("cuda"):
        raise ValueError(f"--device must be cpu, cuda, cuda:N or auto, not {device!r}")
    return device


def train(settings: TrainSettings, out: Path, progress: bool = True) -> dict[str, Any]:
    """Train (or resume training) a model into ``out``; returns the training record.

    Stops at the time budget, at ``max_steps``, or never otherwise (epochs repeat).
    ``out/checkpoint.pt`` holds the state; ``out/hf`` the final model."""
    with exclusive(Path(out), "training"):
        return _train(settings, Path(out), progress)


def _train(settings: TrainSettings, out: Path, progress: bool) -> dict[str, Any]:
    import torch
    import transformers

    from arena.engine.progress import progress_bar

    out.mkdir(parents=True, exist_ok=True)
    device = resolve_device(settings.device)
    torch.set_num_threads(settings.threads or cpu_count())
    checkpoint_path = out / "checkpoint.pt"
    record_path = out / "train.json"
    state = torch.load(checkpoint_path, map_location="cpu", weights_only=False) if checkpoint_path.is_file() else None
    if state is not None and state["settings"] != settings.identity():
        changed = sorted(k for k in settings.identity() if state["settings"].get(k) != settings.identity()[k])
        raise ValueError(f"{checkpoint_path}: the checkpoint was trained with other settings ({', '.join(changed)}); "
                         "use another --out or the same settings to resume")

    tokenizer_dir = out / "tokenizer"
    if not (tokenizer_dir / "vocab.json").is_file():
        copy_tokenizer(settings.tokenizer, tokenizer_dir)
    tokenizer = transformers.MarianTokenizer.from_pretrained(str(tokenizer_dir))
    sources, targets = read_parallel(settings.train_source, settings.train_target, settings.max_pairs)
    source_ids, target_ids, dropped = encode_corpus(tokenizer, sources, targets, settings.max_length, progress)
    if not source_ids:
        raise ValueError(f"{settings.train_source}: no usable training pairs (all empty or longer than "
                         f"{settings.max_length} tokens)")
    lengths = [(len(s), len(t)) for s, t in zip(source_ids, target_ids)]
    log.info("%d training pairs (%d left out: empty or over %d tokens), %d target tokens",
             len(source_ids), dropped, settings.max_length, sum(t for _, t in lengths))

    torch.manual_seed(settings.seed)
    config = marian_config(settings.preset, tokenizer, settings.max_length)
    model = transformers.MarianMTModel(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate, betas=(0.9, 0.98), eps=1e-9,
                                  weight_decay=0.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, inverse_sqrt(settings.warmup_steps))
    step, epoch, position, elapsed, history = 0, 0, 0, 0.0, []
    if state is not None:
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step, epoch, position, elapsed = state["step"], state["epoch"], state["position"], state["elapsed"]
        history = state["history"]
        torch.set_rng_state(state["rng"])
        if device.startswith("cuda") and state.get("cuda_rng") is not None:
            torch.cuda.set_rng_state_all(state["cuda_rng"])
        log.info("resuming %s at update %d (epoch %d, %.1f min trained)", out, step, epoch, elapsed / 60)
    model.to(device)
    model.train()
    parameters = sum(p.numel() for p in model.parameters())
    loss_function = torch.nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=settings.label_smoothing)
    pad = tokenizer.pad_token_id
    budget = settings.minutes * 60

    def save() -> None:
        _save_atomic({"settings": settings.identity(), "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                      "scheduler": scheduler.state_dict(), "step": step, "epoch": epoch, "position": position,
                      "elapsed": elapsed, "history": history, "rng": torch.get_rng_state(),
                      "cuda_rng": torch.cuda.get_rng_state_all() if device.startswith("cuda") else None},
                     checkpoint_path)

    def done() -> bool:
        return elapsed >= budget or (settings.max_steps is not None and step >= settings.max_steps)

    started = time.monotonic()
    run_start_elapsed = elapsed
    last_save = started
    window_loss, window_tokens = 0.0, 0
    epoch_batches = len(make_batches(lengths, settings.batch_tokens, settings.seed, epoch))
    total = settings.max_steps if settings.max_steps is not None else None
    with progress_bar(total, f"training {out.name}", enabled=progress, unit="update") as bar:
        bar.update(step)
        while not done():
            batches = make_batches(lengths, settings.batch_tokens, settings.seed, epoch)
            epoch_batches = len(batches)
            while position < len(batches) and not done():
                rows = batches[position]
                input_ids = _pad([source_ids[i] for i in rows], pad).to(device)
                labels = _pad([target_ids[i] for i in rows], -100).to(device)
                decoder_input_ids = torch.cat(
                    [torch.full((len(rows), 1), config.decoder_start_token_id, dtype=torch.long, device=device),
                     labels[:, :-1].masked_fill(labels[:, :-1] < 0, pad)], dim=1)
                logits = model(input_ids=input_ids, attention_mask=(input_ids != pad).long(),
                               decoder_input_ids=decoder_input_ids).logits
                loss = loss_function(logits.reshape(-1, logits.size(-1)).float(), labels.reshape(-1))
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                optimizer.step()
                scheduler.step()
                step += 1
                position += 1
                tokens = int((labels >= 0).sum())
                window_loss += float(loss.detach()) * tokens
                window_tokens += tokens
                now = time.monotonic()
                elapsed = run_start_elapsed + (now - started)
                bar.update(1)
                if step % 50 == 0 or done():
                    history.append({"step": step, "epoch": epoch, "minutes": round(elapsed / 60, 2),
                                    "loss": round(window_loss / max(1, window_tokens), 4),
                                    "lr": scheduler.get_last_lr()[0]})
                    bar.set_postfix_str(f"loss {history[-1]['loss']:.3f} epoch {epoch}")
                    log.info("update %d: %s", step, history[-1])
                    window_loss, window_tokens = 0.0, 0
                if now - last_save >= settings.save_minutes * 60:
                    save()
                    last_save = now
            if position >= len(batches):
                epoch, position = epoch + 1, 0
    save()
    hf_dir = out / "hf"
    model.to("cpu").save_pretrained(str(hf_dir))
    tokenizer.save_pretrained(str(hf_dir))
    record = {
        "recipe_version": RECIPE_VERSION, "settings": asdict(settings), "config": PRESETS[settings.preset],
        "parameters": parameters, "pairs": len(source_ids), "pairs_left_out": dropped, "updates": step,
        "epochs": round(epoch + position / epoch_batches, 3),
        "train_minutes": round(elapsed / 60, 2), "device": device, "threads": torch.get_num_threads(),
        "final_loss": history[-1]["loss"] if history else None, "history": history,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
    }
    atomic_write_json(record_path, record)
    log.info("trained %s: %d updates, %.2f epochs, %.1f min, %d parameters", out, step, record["epochs"],
             record["train_minutes"], parameters)
    return record


def export_ct2(out: Path) -> Path:
    """Convert ``out/hf`` to CTranslate2 (exact Marian conversion, float32 stored) in
    ``out/ct2``; written to a scratch directory and renamed into place."""
    from performers.claude.ct2_convert import convert, is_ct2_dir

    target = out / "ct2"
    scratch = out / f"ct2.tmp{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    convert(str(out / "hf"), scratch, None, "float32", exact=True)
    if is_ct2_dir(target):
        shutil.rmtree(target)
    os.replace(scratch, target)
    return target


def translator(model_dir: str | os.PathLike, device: str = "cpu", threads: int = 0, compute_type: str = "int8",
               cache: str | bool = False, progress: bool = True):
    """A CTranslate2 Claude for a model directory: a recipe model (``DIR`` with ``ct2/``),
    a CTranslate2 directory or a Hugging Face one (converted, cached)."""
    from performers.claude.ct2 import CTranslate2Claude

    path = Path(model_dir)
    if (path / "ct2" / "model.bin").is_file():
        path = path / "ct2"
    elif (path / "hf" / "config.json").is_file():
        path = path / "hf"
    if not path.exists():
        raise ValueError(f"{model_dir}: no such model directory")
    return CTranslate2Claude(model=str(path), compute_type=compute_type, device="cuda" if device.startswith("cuda") else "cpu",
                             threads=threads, cache=cache, progress=progress)


def evaluate_bleu(model_dir: Path, data_dir: str | os.PathLike, sets: Sequence[str] = HELD_OUT, limit: int | None = 1000,
                  beam: int = 5, device: str = "cpu", threads: int = 0, compute_type: str = "int8",
                  progress: bool = True) -> dict[str, Any]:
    """sacrebleu BLEU of the model's beam-search translations of the held-out sets
    (``DATA/SET.en`` against ``DATA/SET.de``, the first ``limit`` lines), written to
    ``model_dir/bleu.json``."""
    from arena.extras import require

    sacrebleu = require("sacrebleu", "train", "BLEU of a trained model")

    claude = translator(model_dir, device, threads, compute_type, progress=progress)
    results: dict[str, Any] = {}
    for name in sets:
        sources, references = read_parallel(Path(data_dir) / f"{name}.en", Path(data_dir) / f"{name}.de", limit)
        hypotheses = claude.translate(sources, beam=beam)
        bleu = sacrebleu.metrics.BLEU()
        score = bleu.corpus_score(hypotheses, [references])
        results[name] = {"bleu": round(score.score, 2), "sentences": len(sources),
                         "signature": str(bleu.get_signature())}
        log.info("%s: %s BLEU %.2f (%d sentences, beam %d)", model_dir, name, score.score, len(sources), beam)
    record = {"beam": beam, "compute_type": compute_type, "limit": limit, "sets": results}
    atomic_write_json(model_dir / "bleu.json", record)
    return record


def distill(teacher: str | os.PathLike, source: str | os.PathLike, out: Path, max_pairs: int | None = None,
            beam: int = 5, device: str = "cpu", threads: int = 0, compute_type: str = "int8",
            max_source_tokens: int | None = None, progress: bool = True) -> dict[str, Any]:
    """Sequence-level knowledge distillation data: the teacher's beam-search 1-best of
    the first ``max_pairs`` lines of ``source``, written to ``out/train.en`` and
    ``out/train.de``.  Translations are cached in ``out/cache.sqlite`` as they are
    made, so an interrupted run resumes; sources the teacher cannot read (too long)
    come back empty and are left out (counted) by the student's training.  Sources of
    more than ``max_source_tokens`` tokens (end of sentence included) are left out and
    counted: beam search over the longest few percent costs as much as the rest."""
    with exclusive(Path(out), "distilling"):
        return _distill(teacher, source, Path(out), max_pairs, beam, device, threads, compute_type, max_source_tokens,
                        progress)


def _distill(teacher, source, out: Path, max_pairs, beam, device, threads, compute_type, max_source_tokens,
             progress) -> dict[str, Any]:
    sources = read_lines(source)[:max_pairs] if max_pairs is not None else read_lines(source)
    if not sources:
        raise ValueError(f"{source}: no source lines")
    claude = translator(teacher, device, threads, compute_type, cache=str(out / "cache.sqlite"), progress=progress)
    too_long = 0
    if max_source_tokens is not None:
        lengths = [len(ids) for ids in claude.tokenizer(sources)["input_ids"]]
        kept = [s for s, n in zip(sources, lengths) if n <= max_source_tokens]
        too_long = len(sources) - len(kept)
        if not kept:
            raise ValueError(f"{source}: no source has at most {max_source_tokens} tokens")
        log.info("%d of %d sources are longer than %d tokens and left out", too_long, len(sources), max_source_tokens)
        sources = kept
    started = time.monotonic()
    translations = claude.translate(sources, beam=beam)
    seconds = time.monotonic() - started
    for name, lines in (("train.en", sources), ("train.de", translations)):
        atomic_write_text(out / name, "".join(line.replace("\n", " ") + "\n" for line in lines))
    record = {"recipe_version": RECIPE_VERSION, "teacher": str(teacher), "source": str(source), "pairs": len(sources),
              "empty": sum(1 for t in translations if not t.strip()), "left_out_long": too_long,
              "max_source_tokens": max_source_tokens, "beam": beam, "compute_type": compute_type,
              "seconds": round(seconds, 1), "sentences_per_second": round(len(sources) / max(seconds, 1e-9), 1)}
    atomic_write_json(out / "distill.json", record)
    log.info("distilled %d sentences with %s in %.0f s", len(sources), teacher, seconds)
    return record
