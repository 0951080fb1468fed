"""How much the detector calibration's intervals widen when they resample correct sentences instead
of pairs (issue 34, item 4).

For every detector of a calibration file (default: the shipped
``performers/zellig/detector_calibration.json``, version 2) it prints the pairs, the distinct correct
sentences, the effective number of pairs (pairs over the design effect of the sentences,
:mod:`arena.stats.rogan_gladen`), the 95% Jeffreys interval of the recall and the false-alarm rate
counted by pairs and by sentences, and the Rogan–Gladen corrected rate of an illustrative generative
rate (``--observed K/N``, default 50 detections in 1000 translations) with its 95% interval both ways::

    python experiments/false_positives/calibration_intervals.py
    python experiments/false_positives/calibration_intervals.py --observed 20/400
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def jeffreys(count: float, n: float) -> tuple[float, float]:
    from scipy.stats import beta

    return float(beta.ppf(0.025, count + 0.5, n - count + 0.5)), float(beta.ppf(0.975, count + 0.5, n - count + 0.5))


def pct(interval: tuple[float, float]) -> str:
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def main(argv: list[str] | None = None) -> int:
    from arena.stats.rogan_gladen import Calibration, corrected
    from performers.zellig.detector_calibration import PATH

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calibration", type=Path, default=PATH)
    parser.add_argument("--observed", default="50/1000", help="K/N: K detections in N translations")
    args = parser.parse_args(argv)
    count, n = (int(part) for part in args.observed.split("/"))
    data = json.loads(args.calibration.read_text(encoding="utf-8"))
    print(f"calibration: {args.calibration} (version {data.get('version', 1)}); observed {count}/{n}\n")
    print("| detector | pairs | sentences | effective +/− | recall by pairs | by sentences | false alarms by pairs "
          "| by sentences | corrected by pairs | by sentences | width × |")
    print("|---|---:|---:|---|---|---|---|---|---|---|---:|")
    for name, entry in sorted(data["detectors"].items()):
        calibration = Calibration.from_json(entry)
        by_pairs = replace(calibration, clusters=())
        positives, negatives = calibration.effective("positives"), calibration.effective("negatives")
        scale_p, scale_n = positives / calibration.positives, negatives / calibration.negatives
        rates = [corrected(count, n, c) for c in (by_pairs, calibration)]
        cells = ["-" if r is None else f"{100 * r['rate']:.1f} {pct(r['ci95'])}" for r in rates]
        widths = [None if r is None else r["ci95"][1] - r["ci95"][0] for r in rates]
        ratio = f"{widths[1] / widths[0]:.2f}" if None not in widths and widths[0] else "-"
        print(f"| {name} | {calibration.positives} | {calibration.sentences} | {positives:.0f}/{negatives:.0f} | "
              f"{pct(jeffreys(calibration.hits, calibration.positives))} | "
              f"{pct(jeffreys(calibration.hits * scale_p, positives))} | "
              f"{pct(jeffreys(calibration.false_alarms, calibration.negatives))} | "
              f"{pct(jeffreys(calibration.false_alarms * scale_n, negatives))} | {cells[0]} | {cells[1]} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
