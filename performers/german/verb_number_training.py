"""Training of the verb-number model (:mod:`performers.german.verb_number_model`), self-supervised on correct
German: every ``--every``-th line of the corpus (default the target side of the project's parallel corpus,
``../shared/data/parallel-toy/train.de``; newstest 2009–2016 is not in it) is analysed with the project's
German analysis (SoMaJo + HanTa, cached on disk), each finite verb with a third-person number becomes an
example, and every 20th sampled sentence is held out to measure number-prediction accuracy.

    nice python -m performers.german.verb_number_training --every 3 --epochs 3 --suffix-dim 16 --out performers/german/data/verb_number

Deterministic by ``--seed`` (torch on one thread, a seeded shuffle).  ``--curve 5000 10000`` also trains on
the first N training sentences only and reports their held-out accuracy (the learning curve), without saving
(``--curve-only``: nothing else).
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from performers.german.syntax import FINITE
from performers.german.tokens import Analysis
from performers.german.verb_number_model import (
    MASK,
    Config,
    Example,
    VerbNumberModel,
    Vocabulary,
    batch_tensors,
    build_network,
    suffix,
    verb_examples,
)

logger = logging.getLogger(__name__)

HELD_OUT_EVERY = 20


def corpus_sample(corpus: Path, every: int, first: int | None = None) -> list[str]:
    """Every ``every``-th non-empty line of the first ``first`` lines of ``corpus`` (lines 0, every, …)."""
    lines = corpus.read_text(encoding="utf-8").split("\n")[:first]
    return [line for line in lines[::every] if line.strip()]


def build_vocabulary(analyses: Sequence[Analysis], words: int = 20_000, lemmas: int = 400,
                     suffixes: int = 3000) -> Vocabulary:
    """The ``words`` most frequent lower-cased forms, every tag, the ``lemmas`` most frequent finite-verb
    lemmas and the ``suffixes`` most frequent word endings of ``analyses`` (ties broken alphabetically, so the
    vocabulary is deterministic)."""
    forms: Counter[str] = Counter()
    tags: set[str] = set()
    verbs: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    for analysis in analyses:
        for token in analysis.tokens:
            forms[token.text.lower()] += 1
            endings[suffix(token.text)] += 1
            tags.add(token.pos)
            if token.pos in FINITE:
                verbs[token.lemma.lower()] += 1

    def top(counts: Counter[str], n: int) -> list[str]:
        return [w for w, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]]

    return Vocabulary(["<pad>", "<unk>", "<mask>"] + top(forms, words), ["<pad>", "<unk>", "<mask>"] + sorted(tags),
                      ["<pad>", "<other>"] + top(verbs, lemmas),
                      ["<pad>", "<unk>", "<mask>"] + top(Counter({k: v for k, v in endings.items() if k}), suffixes))


def collect(analyses: Sequence[Analysis], vocabulary: Vocabulary) -> list[Example]:
    """The labelled examples of ``analyses``."""
    return [example for analysis in analyses for _, _, example in verb_examples(analysis, vocabulary)]


def train(examples: list[Example], vocabulary: Vocabulary, config: Config, epochs: int = 4, seed: int = 0,
          batch: int = 128, held_out: list[Example] | None = None) -> VerbNumberModel:
    """Train a network on ``examples`` (Adam, binary cross-entropy); logs held-out accuracy after each epoch."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    network = build_network(vocabulary, config)
    optimiser = torch.optim.Adam(network.parameters(), lr=3e-3)
    loss_function = torch.nn.BCEWithLogitsLoss()
    order = list(range(len(examples)))
    shuffle = random.Random(seed)
    model = VerbNumberModel(vocabulary, config, network)
    for epoch in range(epochs):
        network.train()
        started, total = time.perf_counter(), 0.0
        for batch_indices in length_batches(examples, order, batch, shuffle):
            chosen = [word_dropout(examples[i], shuffle) for i in batch_indices]
            labels = torch.tensor([float(e.label) for e in chosen])
            optimiser.zero_grad()
            loss = loss_function(network(*batch_tensors(chosen)), labels)
            loss.backward()
            optimiser.step()
            total += float(loss.detach()) * len(chosen)
        network.eval()
        score = accuracy(model, held_out) if held_out else float("nan")
        logger.info("epoch %d: loss %.4f, held-out accuracy %.4f (%.0f s)", epoch + 1, total / max(len(order), 1),
                    score, time.perf_counter() - started)
    return model


def length_batches(examples: list[Example], order: list[int], batch: int, rng: random.Random) -> list[list[int]]:
    """``order`` shuffled, cut into batches of similar lengths (sorted within pools of 50 batches, so little
    padding), the batches shuffled."""
    rng.shuffle(order)
    pool = 50 * batch
    batches = []
    for start in range(0, len(order), pool):
        chunk = sorted(order[start : start + pool], key=lambda i: len(examples[i].words))
        batches += [chunk[i : i + batch] for i in range(0, len(chunk), batch)]
    rng.shuffle(batches)
    return batches


def word_dropout(example: Example, rng: random.Random, rate: float = 0.05) -> Example:
    """``example`` with a few known words replaced by the unknown-word symbol (their tags stay), so the
    network learns to use the tags of words outside its vocabulary."""
    words = tuple(1 if w > MASK and rng.random() < rate else w for w in example.words)
    return dataclasses.replace(example, words=words)


def accuracy(model: VerbNumberModel, examples: list[Example], batch: int = 256) -> float:
    """Share of ``examples`` whose label the model predicts (P(plural) ≥ 0.5 for plural)."""
    right = 0
    for start in range(0, len(examples), batch):
        chunk = examples[start : start + batch]
        for example, plural in zip(chunk, model.plural_probabilities(chunk)):
            right += (plural >= 0.5) == bool(example.label)
    return right / len(examples) if examples else float("nan")


def main(argv: list[str] | None = None) -> int:
    from performers.claude.fingerprint import file_digest
    from performers.claude.target_lm import DEFAULT_CORPUS  # the corpus target-lm is trained on

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="German text, one sentence a line")
    parser.add_argument("--every", type=int, default=3, help="use every N-th line of the corpus")
    parser.add_argument("--first", type=int, help="only the corpus's first N lines")
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--suffix-dim", type=int, default=16, help="size of the word-ending embedding (0: none)")
    parser.add_argument("--workers", type=int, default=1, help="analysis processes")
    parser.add_argument("--out", type=Path, help="save the model in this directory")
    parser.add_argument("--curve", type=int, nargs="*", default=[], help="also train on this many sentences only")
    parser.add_argument("--curve-only", action="store_true", help="only the learning curve: no full model")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")

    from performers.german.analysis import analyze, analyze_many

    started = time.perf_counter()
    sentences = corpus_sample(args.corpus, args.every, args.first)
    analyze_many(sentences, workers=args.workers, progress=False)
    analyses = [analyze(s) for s in sentences]
    held = [a for i, a in enumerate(analyses) if i % HELD_OUT_EVERY == 0]
    kept = [a for i, a in enumerate(analyses) if i % HELD_OUT_EVERY]
    vocabulary = build_vocabulary(kept)
    held_out = collect(held, vocabulary)
    logger.info("%d sentences analysed (%.0f s); %d held out, %d verb examples held out",
                len(sentences), time.perf_counter() - started, len(held), len(held_out))
    for size in args.curve:
        examples = collect(kept[:size], vocabulary)
        model = train(examples, vocabulary, Config(suffix_dim=args.suffix_dim), args.epochs, args.seed, held_out=held_out)
        print(f"learning curve: {size} sentences, {len(examples)} examples: held-out accuracy "
              f"{accuracy(model, held_out):.4f}")
    if args.curve_only:
        return 0
    examples = collect(kept, vocabulary)
    started = time.perf_counter()
    model = train(examples, vocabulary, Config(suffix_dim=args.suffix_dim), args.epochs, args.seed, held_out=held_out)
    score = accuracy(model, held_out)
    print(f"{len(kept)} sentences, {len(examples)} examples, trained in {time.perf_counter() - started:.0f} s: "
          f"held-out accuracy {score:.4f} on {len(held_out)} verbs "
          f"(majority class {max(sum(e.label for e in held_out), len(held_out) - sum(e.label for e in held_out)) / len(held_out):.4f})")
    if args.out:
        meta = {"corpus": args.corpus.name, "corpus_sha256": file_digest(args.corpus), "every": args.every, "first": args.first,
                "epochs": args.epochs, "seed": args.seed, "sentences": len(kept), "examples": len(examples),
                "held_out_accuracy": round(score, 4), "held_out_examples": len(held_out),
                "command": "nice python -m performers.german.verb_number_training " + " ".join(argv or sys.argv[1:])}
        model.save(args.out, meta)
        print(f"saved in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
