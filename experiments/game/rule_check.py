"""The agreement checks as a fixed rule, on the evaluation rounds of a finished run: does
a learner gain over a hand-wired rule, or only over its base model?

    python experiments/game/rule_check.py RUN --base toy --learner edit-aware-lm-grammar

The rule names the candidate in which the German analysis finds more agreement errors
(:func:`performers.claude.edit_grammar.grammar_counts`, all four checks summed) and,
where both have as many, decides as the ``--base`` Claude did in that round.  It prints
S of the base, the rule and the learner over the same counted rounds, and the paired
differences rule − base and learner − rule (bootstrap over rounds, 95% CI, two-sided p).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import gap  # experiments/game/gap.py: the same paired bootstrap

from performers.claude.edit_grammar import grammar_counts


def paired(values: list[float], samples: int, rng: random.Random) -> str:
    mean, low, high, p = gap.paired(values, samples, rng)
    return f"{mean:+.3f} [{low:+.3f}, {high:+.3f}], p = {p:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--base", required=True, help="the base Claude (alias) whose decision breaks ties")
    parser.add_argument("--learner", required=True, help="the learning Claude (alias)")
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    rounds, correct = gap.read(args.run, (args.base, args.learner))
    base, rule, learner = [], [], []
    for round_id, c in correct.items():
        if len(c) < 2:
            continue
        r = rounds[round_id]
        errors = [sum(grammar_counts(text)) for text in r["candidates"]]
        base.append(float(c[args.base]))
        learner.append(float(c[args.learner]))
        rule.append(base[-1] if errors[0] == errors[1] else float(errors[r["corrupted"]] > errors[1 - r["corrupted"]]))
    rng = random.Random(0)
    n = len(base)
    print(f"{n} rounds: S({args.base}) {sum(base) / n:.3f}, S(rule) {sum(rule) / n:.3f}, "
          f"S({args.learner}) {sum(learner) / n:.3f}")
    print(f"rule − {args.base}: {paired([a - b for a, b in zip(rule, base)], args.samples, rng)}")
    print(f"{args.learner} − rule: {paired([a - b for a, b in zip(learner, rule)], args.samples, rng)}")


if __name__ == "__main__":
    main()
