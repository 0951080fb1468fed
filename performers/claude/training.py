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
schedule, position in the epoch, elapsed time, RNG state; safetensors, see
:mod:`performers.claude.checkpoint`) is written atomically every ``save_minutes``, at the
end and on Ctrl-C; the same command run again resumes from it.  ``minutes`` is the
training time budget summed over resumed runs; ``max_steps`` caps the updates.  A loss
that is not finite (NaN, infinite: a learning rate far too high) stops training with a
:class:`~arena.errors.UsageError` before anything is saved or exported; weights that are
not finite are never written.

Modules: :mod:`performers.claude.training_data` (corpus, tokens, batches),
:mod:`performers.claude.checkpoint` (safe checkpoints), :mod:`performers.claude.distillation`
(CTranslate2 export, distillation, BLEU).

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
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.errors import EnvError, UsageError
from arena.record.transcripts import atomic_write_json
from performers.claude import checkpoint
from performers.claude.checkpoint import writing
from performers.claude.training_data import (
    copy_tokenizer,
    encode_corpus,
    make_batches,
    pad,
    read_parallel,
)

log = logging.getLogger(__name__)

RECIPE_VERSION = "1"
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


def marian_config(preset: str, tokenizer, max_length: int):
    """A MarianConfig of the preset for the tokenizer's vocabulary (shared, tied
    embeddings; ``<pad>`` starts the decoder, as in Transformers' Marian models)."""
    import transformers

    if preset not in PRESETS:
        raise UsageError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}", key="--preset")
    vocab_size = len(tokenizer)
    return transformers.MarianConfig(
        vocab_size=vocab_size, decoder_vocab_size=vocab_size, pad_token_id=tokenizer.pad_token_id,
        decoder_start_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
        forced_eos_token_id=tokenizer.eos_token_id, bos_token_id=None, max_position_embeddings=max(256, max_length + 2),
        share_encoder_decoder_embeddings=True, tie_word_embeddings=True, scale_embedding=True,
        activation_function="swish", attention_dropout=0.0, activation_dropout=0.0, **PRESETS[preset],
    )


def inverse_sqrt(warmup_steps: int):
    """Linear warm-up to the peak learning rate, then decay ∝ 1/sqrt(step)."""
    warmup = max(1, warmup_steps)

    def factor(step: int) -> float:
        step = step + 1
        return min(step / warmup, math.sqrt(warmup / step))

    return factor


@contextmanager
def exclusive(directory: Path, what: str) -> Iterator[None]:
    """Hold ``directory/.lock`` for the duration: a second process working on the same
    directory is refused (a :class:`UsageError` naming it) instead of corrupting it."""
    import fcntl

    with writing(directory, "the model directory"):
        directory.mkdir(parents=True, exist_ok=True)
        handle = open(directory / ".lock", "w")
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise UsageError(f"another process is already {what} there", file=directory) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def resolve_device(device: str) -> str:
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device.startswith("cuda") and not torch.cuda.is_available():
        raise EnvError(f"--device {device}: torch sees no CUDA device", key="--device")
    if device != "cpu" and not device.startswith("cuda"):
        raise UsageError(f"--device must be cpu, cuda, cuda:N or auto, not {device!r}", key="--device")
    return device


def train(settings: TrainSettings, out: Path, progress: bool = True) -> dict[str, Any]:
    """Train (or resume training) a model into ``out``; returns the training record.

    Stops at the time budget, at ``max_steps``, or never otherwise (epochs repeat).
    ``out/checkpoint.safetensors`` holds the state; ``out/hf`` the final model.  Ctrl-C
    saves a checkpoint and re-raises :class:`KeyboardInterrupt`."""
    with exclusive(Path(out), "training"):
        return _train(settings, Path(out), progress)


def _train(settings: TrainSettings, out: Path, progress: bool) -> dict[str, Any]:
    import torch
    import transformers

    device = resolve_device(settings.device)
    torch.set_num_threads(settings.threads or cpu_count())
    state = checkpoint.load(out)
    if state is not None and state.info["settings"] != settings.identity():
        changed = sorted(k for k in settings.identity() if state.info["settings"].get(k) != settings.identity()[k])
        raise UsageError(f"the checkpoint was trained with other settings ({', '.join(changed)}); "
                         "use another --out or the same settings to resume", file=state.path)
    tokenizer_dir = out / "tokenizer"
    if not (tokenizer_dir / "vocab.json").is_file():
        with writing(tokenizer_dir, "the tokenizer"):
            copy_tokenizer(settings.tokenizer, tokenizer_dir)
    tokenizer = transformers.MarianTokenizer.from_pretrained(str(tokenizer_dir))
    sources, targets = read_parallel(settings.train_source, settings.train_target, settings.max_pairs)
    source_ids, target_ids, dropped = encode_corpus(tokenizer, sources, targets, settings.max_length, progress)
    if not source_ids:
        raise UsageError(f"no usable training pairs (all empty or longer than {settings.max_length} tokens)",
                         file=settings.train_source, key="--max-length")
    log.info("%d training pairs (%d left out: empty or over %d tokens), %d target tokens",
             len(source_ids), dropped, settings.max_length, sum(len(t) for t in target_ids))
    trainer = Trainer(settings, out, device, tokenizer, source_ids, target_ids)
    if state is not None:
        trainer.restore(state)
    trainer.run(progress)
    trainer.export(out / "hf")
    record = {
        "recipe_version": RECIPE_VERSION, "settings": asdict(settings), "config": PRESETS[settings.preset],
        "parameters": trainer.parameters, "pairs": len(source_ids), "pairs_left_out": dropped,
        "updates": trainer.step, "epochs": round(trainer.epoch + trainer.position / trainer.epoch_batches, 3),
        "train_minutes": round(trainer.elapsed / 60, 2), "device": device, "threads": torch.get_num_threads(),
        "final_loss": trainer.history[-1]["loss"] if trainer.history else None, "history": trainer.history,
        "versions": {"torch": torch.__version__, "transformers": transformers.__version__},
    }
    with writing(out / "train.json", "the training record"):
        atomic_write_json(out / "train.json", record)
    log.info("trained %s: %d updates, %.2f epochs, %.1f min, %d parameters", out, trainer.step, record["epochs"],
             record["train_minutes"], trainer.parameters)
    return record


class Trainer:
    """One training run's model, optimiser, schedule and position (update, epoch, batch)."""

    def __init__(self, settings: TrainSettings, out: Path, device: str, tokenizer, source_ids: list[list[int]],
                 target_ids: list[list[int]]) -> None:
        import torch
        import transformers

        self.settings, self.out, self.device, self.tokenizer = settings, out, device, tokenizer
        self.source_ids, self.target_ids = source_ids, target_ids
        self.lengths = [(len(s), len(t)) for s, t in zip(source_ids, target_ids)]
        torch.manual_seed(settings.seed)
        self.config = marian_config(settings.preset, tokenizer, settings.max_length)
        self.model = transformers.MarianMTModel(self.config)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=settings.learning_rate, betas=(0.9, 0.98),
                                           eps=1e-9, weight_decay=0.0)
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, inverse_sqrt(settings.warmup_steps))
        self.loss_function = torch.nn.CrossEntropyLoss(ignore_index=-100, label_smoothing=settings.label_smoothing)
        self.parameters = sum(p.numel() for p in self.model.parameters())
        self.step, self.epoch, self.position, self.elapsed = 0, 0, 0, 0.0
        self.history: list[dict[str, Any]] = []
        self.epoch_batches = 1
        self.saved_step: int | None = None

    def restore(self, state: checkpoint.Checkpoint) -> None:
        import torch

        self.model.load_state_dict(state.model)
        self.optimizer.load_state_dict(state.optimizer)
        self.scheduler.load_state_dict(state.info["scheduler"])
        info = state.info
        self.step, self.epoch, self.position, self.elapsed = info["step"], info["epoch"], info["position"], info["elapsed"]
        self.history = info["history"]
        self.saved_step = self.step
        torch.set_rng_state(state.rng)
        if self.device.startswith("cuda") and state.cuda_rng is not None:
            torch.cuda.set_rng_state_all(state.cuda_rng)
        log.info("resuming %s at update %d (epoch %d, %.1f min trained)", self.out, self.step, self.epoch,
                 self.elapsed / 60)

    def save(self) -> None:
        """Write the checkpoint; weights that are not finite stop training instead."""
        import torch

        bad = checkpoint.non_finite(self.model.state_dict())
        if bad:
            raise UsageError(f"update {self.step}: the weights are not finite ({', '.join(bad[:3])}); training "
                             "stopped, no checkpoint written, nothing exported", key="--lr",
                             hint=f"lower --lr (now {self.settings.learning_rate}) or raise --warmup; "
                                  "use another --out to start afresh")
        info = {"settings": self.settings.identity(), "step": self.step, "epoch": self.epoch,
                "position": self.position, "elapsed": self.elapsed, "history": self.history,
                "scheduler": self.scheduler.state_dict()}
        cuda = torch.cuda.get_rng_state_all() if self.device.startswith("cuda") else None
        checkpoint.save(self.out, info, self.model.state_dict(), self.optimizer.state_dict(), torch.get_rng_state(),
                        cuda)
        self.saved_step = self.step

    def done(self) -> bool:
        limit = self.settings.max_steps
        return self.elapsed >= self.settings.minutes * 60 or (limit is not None and self.step >= limit)

    def update(self, rows: list[int]) -> tuple[float, int]:
        """One optimiser update on the pairs ``rows``; returns (mean loss, target tokens).
        A loss that is not finite stops training (:class:`UsageError`) before the update."""
        import torch

        pad_id = self.tokenizer.pad_token_id
        input_ids = pad([self.source_ids[i] for i in rows], pad_id).to(self.device)
        labels = pad([self.target_ids[i] for i in rows], -100).to(self.device)
        decoder_input_ids = torch.cat(
            [torch.full((len(rows), 1), self.config.decoder_start_token_id, dtype=torch.long, device=self.device),
             labels[:, :-1].masked_fill(labels[:, :-1] < 0, pad_id)], dim=1)
        logits = self.model(input_ids=input_ids, attention_mask=(input_ids != pad_id).long(),
                            decoder_input_ids=decoder_input_ids).logits
        loss = self.loss_function(logits.reshape(-1, logits.size(-1)).float(), labels.reshape(-1))
        value = float(loss.detach())
        if not math.isfinite(value):
            self._stop_non_finite(value)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        self.scheduler.step()
        return value, int((labels >= 0).sum())

    def _stop_non_finite(self, value: float) -> None:
        kept = (f"the checkpoint of update {self.saved_step} is kept" if self.saved_step is not None
                else "no checkpoint was written")
        raise UsageError(f"update {self.step + 1}: the training loss is {value} (not finite); training stopped, "
                         f"nothing exported ({kept})", key="--lr",
                         hint=f"lower --lr (now {self.settings.learning_rate}) or raise --warmup "
                              f"(now {self.settings.warmup_steps}); use another --out to start afresh")

    def run(self, progress: bool) -> None:
        """Update until :meth:`done`; checkpoints every ``save_minutes``, at the end and on Ctrl-C."""
        try:
            self._epochs(progress)
        except KeyboardInterrupt:
            if self.saved_step != self.step:
                log.warning("interrupted at update %d: saving a checkpoint to resume from", self.step)
                self.save()
            raise
        self.save()

    def _epochs(self, progress: bool) -> None:
        from arena.engine.progress import progress_bar

        settings = self.settings
        started = last_save = time.monotonic()
        run_start_elapsed = self.elapsed
        window_loss, window_tokens = 0.0, 0
        self.epoch_batches = len(make_batches(self.lengths, settings.batch_tokens, settings.seed, self.epoch))
        with progress_bar(settings.max_steps, f"training {self.out.name}", enabled=progress, unit="update") as bar:
            bar.update(self.step)
            while not self.done():
                batches = make_batches(self.lengths, settings.batch_tokens, settings.seed, self.epoch)
                self.epoch_batches = len(batches)
                while self.position < len(batches) and not self.done():
                    loss, tokens = self.update(batches[self.position])
                    self.step += 1
                    self.position += 1
                    window_loss += loss * tokens
                    window_tokens += tokens
                    now = time.monotonic()
                    self.elapsed = run_start_elapsed + (now - started)
                    bar.update(1)
                    if self.step % 50 == 0 or self.done():
                        self._log(window_loss / max(1, window_tokens), bar)
                        window_loss, window_tokens = 0.0, 0
                    if now - last_save >= settings.save_minutes * 60:
                        self.save()
                        last_save = now
                if self.position >= len(batches):
                    self.epoch, self.position = self.epoch + 1, 0

    def _log(self, loss: float, bar) -> None:
        self.history.append({"step": self.step, "epoch": self.epoch, "minutes": round(self.elapsed / 60, 2),
                             "loss": round(loss, 4), "lr": self.scheduler.get_last_lr()[0]})
        bar.set_postfix_str(f"loss {self.history[-1]['loss']:.3f} epoch {self.epoch}")
        log.info("update %d: %s", self.step, self.history[-1])

    def export(self, hf_dir: Path) -> None:
        """The model and tokenizer in Hugging Face format (after :meth:`save`, which refuses
        weights that are not finite)."""
        if checkpoint.non_finite(self.model.state_dict()):
            raise ValueError("refusing to export weights that are not finite")
        with writing(hf_dir, "the Hugging Face model"):
            self.model.to("cpu").save_pretrained(str(hf_dir))
            self.tokenizer.save_pretrained(str(hf_dir))
