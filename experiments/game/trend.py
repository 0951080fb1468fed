"""Does a learning Zellig's S fall over a game?  Tests on a finished run.

    python experiments/game/trend.py RUN --a adaptive --b uniform --window 100

For Zellig ``a`` (and, paired on the same instances, ``a`` minus Zellig ``b``) it
prints S per window and three tests, each over the rounds of one Claude and seed:

- first vs last window: the difference with a bootstrap 95% CI and two-sided p;
- the slope of S over rounds (least squares of found/not found on the round's rank),
  with a permutation p-value (the rounds' order shuffled);
- the same slope for the paired difference ``a − b`` on the same instances (the
  uniform mixture's rounds control for instances getting easier or harder).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path


def read(run: Path) -> tuple[dict[str, dict], dict[tuple[str, str], bool]]:
    rounds = {}
    for line in (run / "rounds.jsonl").read_text("utf-8").splitlines():
        r = json.loads(line)
        if r["status"] == "ok" and r.get("counts", True):
            rounds[r["round"]] = r
    found = {}
    for line in (run / "judgements.jsonl").read_text("utf-8").splitlines():
        j = json.loads(line)
        found[(j["round"], j["claude"])] = bool(j["correct"])
    return rounds, found


def slope(values: list[float]) -> float:
    n = len(values)
    mean_x, mean_y = (n - 1) / 2, sum(values) / n
    return sum((i - mean_x) * (v - mean_y) for i, v in enumerate(values)) / sum((i - mean_x) ** 2 for i in range(n))


def permutation_p(values: list[float], samples: int, rng: random.Random) -> float:
    observed = abs(slope(values))
    shuffled, extreme = list(values), 0
    for _ in range(samples):
        rng.shuffle(shuffled)
        extreme += abs(slope(shuffled)) >= observed
    return (extreme + 1) / (samples + 1)


def first_vs_last(values: list[float], window: int, samples: int, rng: random.Random) -> tuple[float, float, float, float]:
    first, last = values[:window], values[-window:]
    delta = sum(last) / len(last) - sum(first) / len(first)
    boots = sorted(
        sum(rng.choice(last) for _ in last) / len(last) - sum(rng.choice(first) for _ in first) / len(first)
        for _ in range(samples)
    )
    low, high = boots[int(0.025 * samples)], boots[int(0.975 * samples) - 1]
    p = min(1.0, 2 * min(sum(b >= 0 for b in boots), sum(b <= 0 for b in boots)) / samples)
    return delta, low, high, max(p, 1 / samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path)
    parser.add_argument("--a", required=True, help="the learning Zellig")
    parser.add_argument("--b", required=True, help="the baseline Zellig (same instances)")
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    rounds, found = read(args.run)
    rng = random.Random(0)
    claudes = sorted({claude for _, claude in found})
    for claude in claudes:
        series: dict[tuple[int, str], dict[str, list[tuple[int, str, bool]]]] = defaultdict(lambda: defaultdict(list))
        for order, (rid, r) in enumerate(rounds.items()):  # transcript order: the order of play
            if (rid, claude) in found and r["zellig"] in (args.a, args.b):
                series[(r["seed"], r["john"])][r["zellig"]].append((order, r["instance"]["id"], found[(rid, claude)]))
        for (seed, john), by_zellig in sorted(series.items()):
            a = [f for _, _, f in sorted(by_zellig[args.a], key=lambda x: x[0])]
            b_by_instance = {i: f for _, i, f in by_zellig[args.b]}
            paired = [float(f) - float(b_by_instance[i]) for _, i, f in sorted(by_zellig[args.a], key=lambda x: x[0])
                      if i in b_by_instance]
            values = [float(v) for v in a]
            print(f"claude {claude}, seed {seed}, john {john}: {len(values)} rounds of {args.a}, "
                  f"{len(paired)} paired with {args.b}")
            print(f"{'rounds':>10} {'S(' + args.a + ')':>14} {args.a + '−' + args.b:>20}")
            for start in range(0, len(values), args.window):
                part, diff = values[start : start + args.window], paired[start : start + args.window]
                print(f"{start + 1:>4}–{start + len(part):<5} {sum(part) / len(part):>14.3f} "
                      f"{sum(diff) / max(len(diff), 1):>+20.3f}")
            delta, low, high, p = first_vs_last(values, args.window, args.samples, rng)
            print(f"last − first window S({args.a}): {delta:+.3f}, 95% CI [{low:+.3f}, {high:+.3f}], p = {p:.3f}")
            print(f"slope of S({args.a}) per 100 rounds: {100 * slope(values):+.4f}, "
                  f"permutation p = {permutation_p(values, args.samples, rng):.3f}")
            print(f"slope of {args.a}−{args.b} per 100 rounds: {100 * slope(paired):+.4f}, "
                  f"permutation p = {permutation_p(paired, args.samples, rng):.3f}")
            delta, low, high, p = first_vs_last(paired, args.window, args.samples, rng)
            print(f"last − first window of {args.a}−{args.b}: {delta:+.3f}, 95% CI [{low:+.3f}, {high:+.3f}], "
                  f"p = {p:.3f}")


if __name__ == "__main__":
    main()
