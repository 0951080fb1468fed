"""Diagnose the ``edit-aware`` Claude on one phenomenon, outside the game: what its
features look like, how well its base model and each feature alone decide the pairs,
and how a supervised fit on the first rounds does on the rest, per feature set and
L2 penalty.

    python experiments/game/edit_diagnose.py --zellig np-agreement --years 2009-2010 --instances 400 --train 150
    python experiments/game/edit_diagnose.py --zellig hypercorrect-genitive \
        --distil ../shared/data/distil-lingeval/hypercorrect_genitive.mt --instances 400 --train 150

Pairs: the first ``--instances`` sentences of newstest ``--years`` that the Zellig
corrupts, one candidate per instance drawn as the arena draws it (seed 1), shown in a
seeded random order.  The first ``--train`` pairs are the labelled rounds; the rest are
held back (``--dump`` writes every pair's feature values).  ``l2`` is chosen per feature set by 5-fold cross-validation on the
training pairs only; the held-back accuracy of every L2 is printed too, for the
diagnosis, but the chosen one is the one to quote.  Paired bootstrap (2000 samples)
of held-back accuracy against the base model's decision.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from arena.api import performer
from arena.logistic import fit_logistic
from performers.claude import edit_features as ef
from performers.claude.edit_aware import EditAwareClaude

L2S = (0.3, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0)


def feature_sets() -> dict[str, list[int]]:
    """Columns of :data:`ef.FEATURES` per feature set."""
    names = ef.FEATURES
    extra = {f"{kind}:{name}" for kind in ef.KINDS for name in ef.EXTRA}
    lm = {f"{kind}:{name}" for kind in ef.KINDS for name in ef.EXTRA if name.startswith("lm")}
    grammar = extra - lm
    return {
        "v1 (base scores + surface)": [i for i, n in enumerate(names) if n not in extra],
        "v1 + target-lm": [i for i, n in enumerate(names) if n not in grammar],
        "v1 + grammar": [i for i, n in enumerate(names) if n not in lm],
        "v1 + target-lm + grammar": list(range(len(names))),
        "mean + target-lm + grammar": [0, *(i for i, n in enumerate(names) if n in extra)],
    }


def accuracy(weights: Sequence[float], x: np.ndarray, y: np.ndarray) -> np.ndarray:
    margin = x @ np.asarray(weights)
    return ((margin > 0) == (y == 1)).astype(float)


def fit(x: np.ndarray, y: np.ndarray, l2: float) -> list[float]:
    return fit_logistic(np.vstack([x, -x]).tolist(), [*y.tolist(), *(1 - y).tolist()], l2)


def cross_validated(x: np.ndarray, y: np.ndarray, l2: float, folds: int = 5) -> float:
    order = np.arange(len(y))
    right = 0.0
    for k in range(folds):
        test = order % folds == k
        right += accuracy(fit(x[~test], y[~test], l2), x[test], y[test]).sum()
    return right / len(y)


def paired(a: np.ndarray, b: np.ndarray, samples: int = 2000) -> tuple[float, float, float, float]:
    rng = np.random.default_rng(0)
    d = a - b
    boots = np.sort(d[rng.integers(0, len(d), (samples, len(d)))].mean(axis=1))
    p = min(1.0, 2 * min((boots >= 0).mean(), (boots <= 0).mean()))
    return float(d.mean()), float(boots[int(0.025 * samples)]), float(boots[int(0.975 * samples) - 1]), max(p, 1 / samples)


def pairs(zellig_name: str, years: str, instances: int, distil: str | None = None
          ) -> tuple[list[str], list[tuple[str, str]], list[int]]:
    john = performer("john", {"name": "distil-lingeval", "params": {"dir": distil, "skip_empty": True}} if distil else
                     {"name": "newstest", "params": {"dir": "../shared/data/wmt/newstest", "years": years}})
    zellig = performer("zellig", zellig_name)
    sources, candidates, labels = [], [], []
    for count, instance in enumerate(john.instances()):
        if count >= instances:
            break
        variants = zellig.corrupt(instance)
        if not variants:
            continue
        rng = random.Random(f"1/{instance.id}/{zellig_name}")
        variant = variants[rng.randrange(len(variants))]
        second = rng.random() < 0.5  # the corrupted candidate is shown second
        sources.append(instance.source)
        candidates.append((instance.reference, variant.text) if second else (variant.text, instance.reference))
        labels.append(int(second))
    return sources, candidates, labels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zellig", required=True)
    parser.add_argument("--years", default="2009-2010")
    parser.add_argument("--instances", type=int, default=400)
    parser.add_argument("--train", type=int, default=150)
    parser.add_argument("--distil", help="a DistilLingEval directory as the John (its references), not newstest")
    parser.add_argument("--dump", type=Path, help="write every pair's features to this TSV (one row per pair)")
    args = parser.parse_args()
    started = time.perf_counter()
    sources, candidates, labels = pairs(args.zellig, args.years, args.instances, args.distil)
    claude = EditAwareClaude("toy-en-de", one_best=False, target_lm=True, grammar=True)
    x = np.asarray([row for row, _, _ in claude._examples(sources, candidates)])
    y = np.asarray(labels)
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            out.write("\t".join(["pair", "split", "corrupted", "first", "second", *ef.FEATURES]) + "\n")
            for i, (row, pair) in enumerate(zip(x, candidates)):
                split = "train" if i < args.train else "held-back"
                out.write("\t".join([str(i), split, str(y[i]), *pair, *(f"{v:.4g}" for v in row)]) + "\n")
    print(f"{args.zellig}: {len(y)} pairs from {args.instances} sentences of {args.distil or 'newstest ' + args.years} "
          f"({time.perf_counter() - started:.0f} s)")
    kinds = {kind: int(sum(ef.edit_kind(ef.word_diff(*c)) == kind for c in candidates)) for kind in ef.KINDS}
    print("edit kinds:", kinds)
    sign = np.where(y == 1, 1.0, -1.0)  # features oriented corrupted-minus-correct
    print(f"\n{'feature':<36} {'mean (corr−ref)':>16} {'≠0':>6} {'corr<ref':>9} {'corr>ref':>9}")
    for i, name in enumerate(ef.FEATURES):
        column = x[:, i] * sign
        if not np.any(column):
            continue
        print(f"{name:<36} {column.mean():>16.3f} {(column != 0).mean():>6.2f} {(column < 0).mean():>9.3f} "
              f"{(column > 0).mean():>9.3f}")
    train, test = slice(0, args.train), slice(args.train, None)
    base = np.where(x[:, 0] * sign < 0, 1.0, np.where(x[:, 0] == 0, 0.5, 0.0))
    print(f"\nbase model (mean score) accuracy: all {base.mean():.3f}, training {base[train].mean():.3f}, "
          f"held back {base[test].mean():.3f} ({len(y) - args.train} pairs)")
    grammar = x[:, [i for i, n in enumerate(ef.FEATURES) if ":grammar:" in n]].sum(axis=1) * sign
    rule = np.where(grammar > 0, 1.0, np.where(grammar < 0, 0.0, base))  # more errors = corrupted, else base
    delta, low, high, p = paired(rule[test], base[test])
    print(f"{'rule: agreement checks, else base':<28} held back {rule[test].mean():.3f}, − base {delta:+.3f} "
          f"[{low:+.3f}, {high:+.3f}], p = {p:.3f}   (no learning: the checks decide where they differ)")
    for name, columns in feature_sets().items():
        xs = x[:, columns]
        cv = {l2: cross_validated(xs[train], y[train], l2) for l2 in L2S}
        chosen = max(L2S, key=lambda l2: (cv[l2], l2))
        held = {l2: accuracy(fit(xs[train], y[train], l2), xs[test], y[test]) for l2 in L2S}
        delta, low, high, p = paired(held[chosen], base[test])
        grid = " ".join(f"{l2:g}:{cv[l2]:.2f}/{held[l2].mean():.2f}" for l2 in L2S)
        print(f"{name:<28} l2={chosen:<5g} held back {held[chosen].mean():.3f}, − base {delta:+.3f} "
              f"[{low:+.3f}, {high:+.3f}], p = {p:.3f}   (l2: cv/held {grid})")
        curve = " ".join(f"{n}:{accuracy(fit(xs[:n], y[:n], chosen), xs[test], y[test]).mean():.3f}"
                         for n in (20, 40, 60, 100) if n < args.train)
        print(f"   learning curve (labelled pairs: held-back accuracy, same l2): {curve}")
        if name.startswith("v1 + target-lm + grammar"):
            weights = fit(xs[train], y[train], chosen)
            scale = xs[train].std(axis=0)
            top = sorted(zip([ef.FEATURES[c] for c in columns], np.asarray(weights) * scale), key=lambda t: -abs(t[1]))
            print("   standardised weights (top 10):", ", ".join(f"{n} {w:+.2f}" for n, w in top[:10]))


if __name__ == "__main__":
    main()
