"""Exporting, decoding and scoring the models of ``arena train``: the CTranslate2 export,
the teacher's beam-search translations of the training sources (sequence-level knowledge
distillation, Kim & Rush 2016) and sacrebleu BLEU on the held-out sets."""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import DataError, UsageError
from arena.record.transcripts import atomic_write_json, atomic_write_text
from performers.claude.checkpoint import writing
from performers.claude.training import HELD_OUT, RECIPE_VERSION, exclusive
from performers.claude.training_data import read_lines, read_parallel

if TYPE_CHECKING:
    from performers.claude.ct2 import ComputeType

log = logging.getLogger(__name__)


def export_ct2(out: Path) -> Path:
    """Convert ``out/hf`` to CTranslate2 (exact Marian conversion, float32 stored) in
    ``out/ct2``; written to a scratch directory and renamed into place."""
    from performers.claude.ct2_convert import convert, is_ct2_dir

    target = out / "ct2"
    scratch = out / f"ct2.tmp{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        with writing(scratch, "the CTranslate2 model"):
            convert(str(out / "hf"), scratch, None, "float32", exact=True)
            if is_ct2_dir(target):
                shutil.rmtree(target)
            os.replace(scratch, target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def translator(model_dir: str | os.PathLike, device: str = "cpu", threads: int = 0, compute_type: ComputeType = "int8",
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
        raise UsageError("no such model directory", file=model_dir)
    return CTranslate2Claude(model=str(path), compute_type=compute_type, device="cuda" if device.startswith("cuda") else "cpu",
                             threads=threads, cache=cache, progress=progress)


def evaluate_bleu(model_dir: Path, data_dir: str | os.PathLike, sets: Sequence[str] = HELD_OUT, limit: int | None = 1000,
                  beam: int = 5, device: str = "cpu", threads: int = 0, compute_type: ComputeType = "int8",
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
            beam: int = 5, device: str = "cpu", threads: int = 0, compute_type: ComputeType = "int8",
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
        raise DataError("no source lines", file=source)
    claude = translator(teacher, device, threads, compute_type, cache=str(out / "cache.sqlite"), progress=progress)
    too_long = 0
    if max_source_tokens is not None:
        lengths = [len(ids) for ids in claude.tokenizer(sources)["input_ids"]]
        kept = [s for s, n in zip(sources, lengths) if n <= max_source_tokens]
        too_long = len(sources) - len(kept)
        if not kept:
            raise DataError(f"no source has at most {max_source_tokens} tokens", file=source, key="--max-source-tokens")
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
