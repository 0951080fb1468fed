"""S of two Claudes per Zellig and their paired difference, from a finished run:
the adequacy-vs-fluency gap per phenomenon, or a learner against its base model.

    python experiments/game/gap.py RUN --a toy-adequacy --b fluency-lm

For every Zellig (one phenomenon each) it prints the rounds, S of ``a`` and ``b``
(counted rounds only), and the paired difference ``a − b`` over the same rounds with
a bootstrap 95% CI and two-sided p (rounds resampled).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path


def paired(values: list[float], samples: int, rng: random.Random) -> tuple[float, float, float, float]:
    mean = sum(values) / len(values)
    boots = sorted(sum(rng.choice(values) for _ in values) / len(values) for _ in range(samples))
    p = min(1.0, 2 * min(sum(b >= 0 for b in boots), sum(b <= 0 for b in boots)) / samples)
    return mean, boots[int(0.025 * samples)], boots[int(0.975 * samples) - 1], max(p, 1 / samples)


def read(run: Path, claudes: tuple[str, str]) -> tuple[dict[str, dict], dict[str, dict[str, bool]]]:
    """The counted rounds of a finished run by id, and for each round whether each of ``claudes``
    judged it right (a round neither judged is absent)."""
    rounds = {}
    for line in (run / "rounds.jsonl").read_text("utf-8").splitlines():
        r = json.loads(line)
        if r["status"] == "ok" and r.get("counts", True):
            rounds[r["round"]] = r
    correct: dict[str, dict[str, bool]] = defaultdict(dict)
    for line in (run / "judgements.jsonl").read_text("utf-8").splitlines():
        j = json.loads(line)
        if j["round"] in rounds and j["claude"] in claudes:
            correct[j["round"]][j["claude"]] = bool(j["correct"])
    return rounds, correct


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--a", required=True, help="a Claude (alias)")
    parser.add_argument("--b", required=True, help="another Claude (alias), on the same rounds")
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    rounds, correct = read(args.run, (args.a, args.b))
    zellig_of = {round_id: r["zellig"] for round_id, r in rounds.items()}
    rng = random.Random(0)
    print(f"{'zellig':<24} {'rounds':>6} {'S(' + args.a + ')':>16} {'S(' + args.b + ')':>16}  {args.a} − {args.b}")
    for zellig in dict.fromkeys(zellig_of.values()):
        both = [c for r, c in correct.items() if zellig_of[r] == zellig and len(c) == 2]
        if not both:
            continue
        s_a = sum(c[args.a] for c in both) / len(both)
        s_b = sum(c[args.b] for c in both) / len(both)
        delta, low, high, p = paired([float(c[args.a]) - float(c[args.b]) for c in both], args.samples, rng)
        print(f"{zellig:<24} {len(both):>6} {s_a:>16.3f} {s_b:>16.3f}  {delta:+.3f} [{low:+.3f}, {high:+.3f}], "
              f"p = {p:.3f}")


if __name__ == "__main__":
    main()
