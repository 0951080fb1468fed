"""``arena train``: make the teacher and sequence-level distilled student models of
Vamvas & Sennrich 2021 (Table 1) from a parallel corpus.

- ``arena train teacher --out DIR``: a MarianMT Transformer trained from scratch on
  ``--train PREFIX`` (``PREFIX.en``/``PREFIX.de``; default ``../shared/data/parallel-toy/train``).
- ``arena train distill --teacher DIR --out DATA``: the teacher's beam-5 translations of
  the training sources (Kim & Rush 2016), decoded with CTranslate2, batched and sorted by
  length, into ``DATA/train.en``/``DATA/train.de``.
- ``arena train student --data DATA --out DIR``: a (smaller) model trained on them.

Each training run takes ``--seed``, a time budget ``--minutes`` (summed over resumed
runs) and writes a checkpoint every ``--save-minutes``: kill it and run the same command
again to continue.  When training ends the model is exported to ``DIR/hf`` (Hugging Face;
``hf-seq2seq:model=DIR/hf``) and ``DIR/ct2`` (CTranslate2; ``ctranslate2:model=DIR/ct2``)
and its sacrebleu BLEU on the held-out sets (beam 5) goes to ``DIR/bleu.json``.  Models
are not part of the repository: put them under ``models/`` (ignored by git) or anywhere
else.  On a GPU pass ``--device cuda`` and a bigger ``--preset`` (``base-teacher``,
``base-student``).
"""

from __future__ import annotations

import logging
from pathlib import Path

from arena.cli import add_verb
from arena.cli.ranges import integer, real
from arena.errors import UsageError

log = logging.getLogger(__name__)

DATA = "../shared/data/parallel-toy"
MAX_LENGTH = 4096  # tokens; the position table grows with it

EXAMPLES = """
  arena train teacher --out models/teacher-s1 --seed 1 --minutes 30
  arena train distill --teacher models/teacher-s1 --out models/distilled-s1 --max-pairs 40000
  arena train student --data models/distilled-s1 --out models/student-s1 --seed 1 --minutes 15
  arena train student --data models/distilled-s1 --out models/student-s2 --seed 2 --minutes 15
  arena train teacher --out models/base-s1 --preset base-teacher --device cuda --batch-tokens 16384 --minutes 240
  arena train bleu models/student-s1                     # BLEU again (e.g. with --limit 0 for whole sets)"""


def add_parser(subparsers) -> None:
    parser = add_verb(subparsers, "train", "train teacher and sequence-level distilled student MT models",
                      EXAMPLES, description=__doc__.split("\n\n", 1)[1] if __doc__ else None)
    steps = parser.add_subparsers(dest="step", metavar="STEP", required=True)
    for name, preset, help_text in (
        ("teacher", "toy-teacher", "train a teacher on a parallel corpus"),
        ("student", "toy-student", "train a student on a distilled corpus (from 'arena train distill')"),
    ):
        sub = steps.add_parser(name, help=help_text, description=help_text, epilog="examples:\n" + EXAMPLES.strip("\n"),
                               formatter_class=parser.formatter_class)
        sub.add_argument("--out", required=True, metavar="DIR", help="model directory (checkpoint, hf/, ct2/, bleu.json)")
        if name == "teacher":
            sub.add_argument("--train", default=f"{DATA}/train", metavar="PREFIX",
                             help="training corpus PREFIX.en / PREFIX.de (default: %(default)s)")
        else:
            sub.add_argument("--data", required=True, metavar="DIR",
                             help="distilled corpus directory (DIR/train.en, DIR/train.de)")
        sub.add_argument("--preset", default=preset, help=f"model size: {', '.join(_presets())} (default: %(default)s)")
        sub.add_argument("--seed", type=integer(0, 2**63 - 1), default=1, help="seed of weights, dropout and batch order (default: 1)")
        sub.add_argument("--minutes", type=real(0, low_open=True), default=30.0,
                         help="training time budget in minutes, summed over resumed runs (default: 30)")
        sub.add_argument("--max-steps", type=integer(1), metavar="N", help="stop after N updates (also within the budget)")
        sub.add_argument("--max-pairs", type=integer(1), metavar="N", help="train on the first N pairs only")
        sub.add_argument("--batch-tokens", type=integer(1, 10**7), default=4096, metavar="N",
                         help="padded tokens per batch (default: 4096)")
        sub.add_argument("--lr", type=real(0, 1, low_open=True), default=1e-3, help="peak learning rate (default: 1e-3)")
        sub.add_argument("--warmup", type=integer(0, 10**9), default=400, metavar="N", help="warm-up updates (default: 400)")
        sub.add_argument("--max-length", type=integer(1, MAX_LENGTH), default=128, metavar="N",
                         help="leave out pairs with a side longer than N tokens (default: 128)")
        sub.add_argument("--tokenizer", default=None, metavar="DIR",
                         help="Marian tokenizer directory (source.spm, target.spm, vocab.json); "
                              "default: the shipped toy model's 8k SentencePiece vocabulary")
        sub.add_argument("--save-minutes", type=real(0, low_open=True), default=5.0, metavar="M",
                         help="write a checkpoint every M minutes (default: 5)")
        _common(sub)
        _bleu_options(sub)
        sub.set_defaults(func=run_train)

    sub = steps.add_parser("distill", help="the teacher's beam-5 translations of the training sources",
                           description="the teacher's beam-5 translations of the training sources (CTranslate2)",
                           epilog="examples:\n" + EXAMPLES.strip("\n"), formatter_class=parser.formatter_class)
    sub.add_argument("--teacher", required=True, metavar="DIR",
                     help="teacher: a model directory of 'arena train', a CTranslate2 or a Hugging Face directory")
    sub.add_argument("--out", required=True, metavar="DIR", help="distilled corpus directory (train.en, train.de)")
    sub.add_argument("--train", default=f"{DATA}/train", metavar="PREFIX",
                     help="the sources to translate: PREFIX.en (default: %(default)s)")
    sub.add_argument("--max-pairs", type=integer(1), metavar="N", help="translate the first N sources only")
    sub.add_argument("--max-source-tokens", type=integer(1), metavar="N",
                     help="leave out sources longer than N tokens (counted): the longest few percent cost "
                          "as much beam search as the rest")
    sub.add_argument("--beam", type=integer(1, 100), default=5, help="beam size (default: 5)")
    _common(sub)
    sub.set_defaults(func=run_distill)

    sub = steps.add_parser("bleu", help="sacrebleu BLEU of a model on the held-out sets",
                           description="sacrebleu BLEU of a model on the held-out sets (writes DIR/bleu.json)",
                           epilog="examples:\n" + EXAMPLES.strip("\n"), formatter_class=parser.formatter_class)
    sub.add_argument("model", metavar="DIR", help="model directory of 'arena train' (with hf/)")
    _common(sub)
    _bleu_options(sub)
    sub.set_defaults(func=run_bleu)


def _presets() -> list[str]:
    from performers.claude.training import PRESETS

    return list(PRESETS)


def _common(sub) -> None:
    sub.add_argument("--device", default="cpu", help="cpu, cuda, cuda:N or auto (default: cpu)")
    sub.add_argument("--threads", type=integer(1, 4096), metavar="N", help="CPU threads (default: the CPUs this process may use)")
    sub.add_argument("--compute-type", default="int8", metavar="TYPE",
                     help="CTranslate2 compute type for decoding (default: int8; float32 for exact scores)")
    sub.add_argument("--no-progress", action="store_true", help="no progress bars")


def _bleu_options(sub) -> None:
    sub.add_argument("--held-out", default=DATA, metavar="DIR",
                     help="directory of the held-out sets newstest2014.{en,de}, multi30k_test2016.{en,de} "
                          "(default: %(default)s)")
    sub.add_argument("--limit", type=integer(0), default=1000, metavar="N",
                     help="BLEU on the first N sentences of each set; 0 = all (default: 1000)")


def _bleu(args, out: Path) -> None:
    from performers.claude.distillation import evaluate_bleu

    record = evaluate_bleu(out, args.held_out, limit=args.limit or None, device=args.device, threads=args.threads or 0,
                           compute_type=args.compute_type, progress=not args.no_progress)
    for name, result in record["sets"].items():
        print(f"{out}: {name} BLEU {result['bleu']:.2f} ({result['sentences']} sentences, beam {record['beam']}) "
              f"{result['signature']}")


def run_train(args) -> int:
    from performers.claude.distillation import export_ct2
    from performers.claude.training import DEFAULT_TOKENIZER, PRESETS, TrainSettings, train

    if args.preset not in PRESETS:
        raise UsageError(f"--preset {args.preset!r}: presets are {', '.join(PRESETS)}", key="--preset")
    prefix = args.train if args.step == "teacher" else str(Path(args.data) / "train")
    settings = TrainSettings(
        preset=args.preset, seed=args.seed, train_source=f"{prefix}.en", train_target=f"{prefix}.de",
        tokenizer=str(args.tokenizer or DEFAULT_TOKENIZER), minutes=args.minutes, max_steps=args.max_steps,
        max_pairs=args.max_pairs, batch_tokens=args.batch_tokens, learning_rate=args.lr, warmup_steps=args.warmup,
        max_length=args.max_length, device=args.device, threads=args.threads, save_minutes=args.save_minutes,
    )
    out = Path(args.out)
    record = train(settings, out, progress=not args.no_progress)
    print(f"{out}: {record['parameters']:,} parameters, {record['updates']} updates, {record['epochs']} epochs "
          f"in {record['train_minutes']} min, final loss {record['final_loss']}")
    export_ct2(out)
    print(f"{out}: exported {out / 'hf'} (hf-seq2seq:model={out / 'hf'}) and {out / 'ct2'} "
          f"(ctranslate2:model={out / 'ct2'})")
    _bleu(args, out)
    return 0


def run_distill(args) -> int:
    from performers.claude.distillation import distill

    out = Path(args.out)
    record = distill(args.teacher, f"{args.train}.en", out, max_pairs=args.max_pairs, beam=args.beam,
                     device=args.device, threads=args.threads or 0, compute_type=args.compute_type,
                     max_source_tokens=args.max_source_tokens, progress=not args.no_progress)
    print(f"{out}: {record['pairs']} sources translated by {args.teacher} (beam {record['beam']}) in "
          f"{record['seconds']} s ({record['sentences_per_second']} sentences/s); {record['empty']} empty, "
          f"{record['left_out_long']} left out as longer than --max-source-tokens")
    return 0


def run_bleu(args) -> int:
    out = Path(args.model)
    if not (out / "hf").is_dir() and not (out / "ct2").is_dir():
        raise UsageError("not a model directory of 'arena train' (no hf/ or ct2/)", file=out)
    _bleu(args, out)
    return 0
