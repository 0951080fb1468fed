"""Recall and false alarms of the Zelligs' detectors (``detect(text, source)``), the instruments
behind the generative rate.

For every DistilLingEval set directory ``<error_type>.<human|mt>`` whose error type names a Zellig of
the catalog with a detector (``np_agreement`` → ``np-agreement``), and for the WMT news test sets'
human references, report per detector:

- ``recall``: the share of published ``tgt.incorrect.de`` variants (with their ``src.en``) on which
  the detector fires — how much of the phenomenon, as DistilLingEval makes it, it recognises;
- ``fires on correct``: the share of the same sets' ``tgt.correct.de`` sides on which it fires (the
  matched control: the same sentences without the error);
- ``paired precision``: of all firings on a set's two sides, the share on the incorrect side,
  ``recall / (recall + fires on correct)`` — the detector's precision on a population where half the
  translations have the error;
- ``false alarms on human references``: the share of newstest references (default 2009–2016, the
  sources of DistilLingEval's human sets, with their English sources) on which it fires.  A human
  reference is taken to be free of these errors, so a firing is a false alarm — except for the
  source-based detectors of *plausible* hypotheses (a translator may legitimately drop a negation
  or a clause), where part of them are true, so the number is an upper bound on the false-alarm
  rate.  It is the floor under any model's generative rate: a generative rate at or below it says
  nothing about the model.

Detectors of Zelligs without a DistilLingEval set (the insertions: *nicht*, *kein-*, *un-*) are measured
on the Zellig's own corruptions of the same newstest references instead (set ``self-made``): recall on
the first candidate of every reference it corrupts, "fires on correct" on those references.

    python experiments/bench/detectors.py                        # all sets, 1000 lines each
    python experiments/bench/detectors.py --sets np_agreement --examples 10
    python experiments/bench/detectors.py --limit 300 --years 2014 --json detectors.json
    python experiments/bench/detectors.py --split heldback --calibration performers/zellig/detector_calibration.json

``--params KEY=VALUE …`` builds the measured Zelligs with these params (YAML values; give ``--sets`` of one
detector), e.g. ``--sets subj_verb_agreement --params detector=rules+model model_threshold=0.99``.

``--lines A:B`` keeps lines A to B-1 of every set before the split: the agreement detectors were developed
on lines 0–3599 (``--lines :3600``) and are measured on the untouched lines 3600 and after (``--lines 3600:``).
``--split heldback`` measures on the odd-numbered lines of every set only (``dev``: the even ones, which
detector work may look at); ``--calibration FILE`` writes each detector's hits and false alarms pooled over
its sets (the Rogan–Gladen correction of ``arena false-positives`` reads it, see
:mod:`arena.stats.rogan_gladen`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_DATA = ROOT / ".." / "shared" / "data" / "distil-lingeval"
DEFAULT_NEWSTEST = ROOT / ".." / "shared" / "data" / "wmt" / "newstest"
DEFAULT_YEARS = tuple(range(2009, 2017))
sys.path.insert(0, str(ROOT))


def fire_rate(zellig, texts: list[str], sources: list[str], examples: int) -> tuple[int, list[str]]:
    """How many of ``texts`` the detector fires on, and up to ``examples`` of them."""
    fired, shown = 0, []
    for text, source in zip(texts, sources):
        if zellig.detect(text, source=source):
            fired += 1
            if len(shown) < examples:
                shown.append(f"  {text.strip()}\n    source: {source.strip()}")
    return fired, shown


def newstest(directory: Path, years: list[int], limit: int | None) -> tuple[list[str], list[str]]:
    """(German references, English sources) of the given years, ``limit`` lines per year."""
    from arena.formats.textlines import read_lines

    references, sources = [], []
    for year in years:
        german = read_lines(directory / f"newstest{year}.de", allow_empty=True)
        english = read_lines(directory / f"newstest{year}.en", allow_empty=True)
        if len(german) != len(english):
            raise ValueError(f"{directory}/newstest{year}: .de and .en differ in length")
        references += german[:limit]
        sources += english[:limit]
    return references, sources


def self_made(zellig, references: list[str], sources: list[str]) -> list:
    """(source, reference, first candidate) of every reference the Zellig corrupts, as DistilLingEval pairs."""
    from arena.formats.distil_lingeval import ContrastivePair
    from arena.records import Instance

    pairs = []
    for i, (reference, source) in enumerate(zip(references, sources)):
        if not reference.strip():
            continue
        variants = zellig.corrupt(Instance(f"newstest.{i}", source, reference))
        if variants:
            pairs.append(ContrastivePair(source, reference, variants[0].text))
    return pairs


def line_range(text: str) -> tuple[int, int | None]:
    """``A:B`` (either end may be left out) as a slice's (start, stop)."""
    start, sep, stop = text.partition(":")
    try:
        if not sep:
            raise ValueError
        bounds = (int(start) if start else 0, int(stop) if stop else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected A:B, A: or :B with whole numbers, got {text!r}") from None
    if bounds[0] < 0 or (bounds[1] is not None and bounds[1] <= bounds[0]):
        raise argparse.ArgumentTypeError(f"expected 0 <= A < B, got {text!r}")
    return bounds


def param(text: str) -> tuple[str, object]:
    """``KEY=VALUE`` as (key, the value read as YAML)."""
    import yaml

    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    return key, yaml.safe_load(value)


def sentence_counts(zellig, pairs: list) -> dict:
    """Pairs, hits and false alarms, and the same per correct sentence (the cluster a bootstrap
    resamples: np-agreement repeats a correct sentence once per variant): ``clusters`` maps each correct
    sentence to [pairs, hits, false alarms]."""
    clusters: dict[str, list[int]] = {}
    for pair in pairs:
        counts = clusters.setdefault(pair.correct.strip(), [0, 0, 0])
        counts[0] += 1
        counts[1] += int(bool(zellig.detect(pair.incorrect, source=pair.source)))
        counts[2] += int(bool(zellig.detect(pair.correct, source=pair.source)))
    return {"pairs": len(pairs), "hits": sum(c[1] for c in clusters.values()),
            "false_alarms": sum(c[2] for c in clusters.values()), "clusters": clusters}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="DistilLingEval data directory")
    parser.add_argument("--newstest", type=Path, default=DEFAULT_NEWSTEST, help="WMT newstest directory")
    parser.add_argument("--years", type=int, nargs="*", default=list(DEFAULT_YEARS), help="newstest years")
    parser.add_argument("--sets", nargs="*", help="only these error types or set names")
    parser.add_argument("--limit", type=int, default=1000, help="at most this many lines per set and per year")
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1), help="analysis processes")
    parser.add_argument("--examples", type=int, default=0, help="print this many firings and misses per detector")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--split", choices=("all", "dev", "heldback"), default="all",
                        help="which lines of each set: all, dev (even-numbered) or heldback (odd-numbered)")
    parser.add_argument("--lines", type=line_range, default=(0, None), metavar="A:B",
                        help="only lines A to B-1 of each set (before --split; A: or :B leave one end open)")
    parser.add_argument("--calibration", type=Path, help="write the detectors' calibration (hits, false alarms) here")
    parser.add_argument("--merge", action="store_true",
                        help="with --calibration: keep the entries of the detectors not measured now")
    parser.add_argument("--params", type=param, nargs="*", default=[], metavar="KEY=VALUE",
                        help="params of the measured Zelligs (YAML values; with --sets of one detector)")
    args = parser.parse_args(argv)
    params = dict(args.params)

    from performers.german.analysis import analyze_many

    if not args.data.is_dir():
        print(f"no DistilLingEval data at {args.data}", file=sys.stderr)
        return 2
    detectors, plan, references, ref_sources = measured_sets(args, params)

    cpu, started = time.process_time(), time.perf_counter()
    texts = [t for _, _, pairs in plan for p in pairs for t in (p.correct, p.incorrect)] + references
    analyze_many(texts, workers=args.workers, progress=os.environ.get("ARENA_PROGRESS", "1") != "0")
    analysed = time.perf_counter() - started

    rows = [measure(set_name, name, detectors[name], pairs, args.examples) for set_name, name, pairs in plan]
    human = {}
    for name, zellig in detectors.items() if references else ():
        fired, shown = fire_rate(zellig, references, ref_sources, args.examples)
        human[name] = {"references": len(references), "fired": fired, "rate": fired / len(references),
                       "examples": shown}
    elapsed = time.perf_counter() - started

    print(f"{'set':36} {'detector':28} {'pairs':>6} {'recall':>7} {'fires on correct':>17} {'paired precision':>17}")
    for row in rows:
        precision = "-" if row["paired_precision"] is None else f"{row['paired_precision']:.1%}"
        print(f"{row['set']:36} {row['detector']:28} {row['pairs']:6d} {row['recall']:7.1%} "
              f"{row['fires_on_correct']:17.1%} {precision:>17}")
    years = f"{min(args.years)}–{max(args.years)}" if args.years else "none"
    print(f"\nfalse alarms on newstest{years} human references ({len(references)} sentences, with sources):")
    for name, entry in human.items():
        print(f"  {name:28} {entry['fired']:5d}  {entry['rate']:.2%}")
    print(f"\nanalysis of {len(set(texts))} texts: {analysed:.0f} s wall; detectors and analysis "
          f"{elapsed:.0f} s wall, {time.process_time() - cpu:.0f} s CPU of this process")
    if args.examples:
        for row in rows:
            print(f"\n{row['set']}: firings on the correct side\n" + "\n".join(row["false_alarm_examples"]))
            print(f"{row['set']}: misses on the incorrect side\n" + "\n".join(row["miss_examples"]))
        for name, entry in human.items():
            print(f"\n{name}: firings on human references\n" + "\n".join(entry["examples"]))
    if args.json:
        shown = [{**row, "calibration": {k: v for k, v in row["calibration"].items() if k != "clusters"}}
                 for row in rows]  # the sentences themselves only go to --calibration's histogram
        args.json.write_text(json.dumps({"sets": shown, "human_references": human}, ensure_ascii=False, indent=1),
                             encoding="utf-8")
    if args.calibration:
        write_calibration(args.calibration, rows, args)
    return 0


def measure(set_name: str, name: str, zellig, pairs, examples: int) -> dict:
    """One set's row: recall, firings on the correct side, paired precision, the calibration counts."""
    from arena.roles import ConditionalDetector

    sources = [p.source for p in pairs]
    hits, missed = fire_rate(zellig, [p.incorrect for p in pairs], sources, 0)
    false, shown = fire_rate(zellig, [p.correct for p in pairs], sources, examples)
    n = len(pairs)
    row = {"set": set_name, "detector": name, "pairs": n, "recall": hits / n if n else None,
           "fires_on_correct": false / n if n else None}
    row["paired_precision"] = hits / (hits + false) if hits + false else None
    # what the Rogan-Gladen correction needs: a conditional detector's generative rate counts only the
    # translations of sources it applies to, so it is calibrated on those pairs only
    counted = [p for p in pairs if zellig.applies(p.source)] if isinstance(zellig, ConditionalDetector) else pairs
    row["calibration"] = sentence_counts(zellig, counted)
    row["false_alarm_examples"] = shown
    if examples:
        row["miss_examples"] = [
            f"  {p.incorrect.strip()}\n    source: {p.source.strip()}"
            for p in pairs if not zellig.detect(p.incorrect, source=p.source)
        ][: examples]
    return row


def measured_sets(args: argparse.Namespace, params: dict):
    """The detectors to measure and their pairs: each DistilLingEval set of a Zellig with a
    detector, then the detectors without a set on variants of their own; and the newstest
    references the false-alarm rates are measured on."""
    from arena.formats.distil_lingeval import find_sets, read_distil_lingeval
    from arena.roles import Detector
    from arena.specs.registry import build
    from arena.specs.spec import PerformerSpec
    from performers.catalog import CATALOG

    directories = find_sets(args.data, args.sets)
    detectors, plan = {}, []
    for directory in directories:
        name = directory.name.split(".")[0].replace("_", "-")
        if name not in CATALOG.zelligs:
            continue
        if name not in detectors:
            zellig = build("zellig", PerformerSpec(name, params), CATALOG)
            if not isinstance(zellig, Detector):
                print(f"{directory.name}: {name} has no detector, skipped")
                continue
            detectors[name] = zellig
        if name in detectors:
            pairs = read_distil_lingeval(directory, allow_empty=True).pairs[slice(*args.lines)]
            pairs = {"all": pairs, "dev": pairs[0::2], "heldback": pairs[1::2]}[args.split][: args.limit]
            plan.append((directory.name, name, pairs))
    references, ref_sources = newstest(args.newstest, args.years, args.limit)
    for name in CATALOG.zellig_groups["all"]:  # detectors without a DistilLingEval set: their own variants
        if name in detectors or (args.sets and name.replace("-", "_") not in args.sets):
            continue
        zellig = build("zellig", PerformerSpec(name, params), CATALOG)
        if isinstance(zellig, Detector):
            detectors[name] = zellig
            plan.append(("self-made", name, self_made(zellig, references, ref_sources)))
    return detectors, plan, references, ref_sources


def write_calibration(path: Path, rows: list[dict], args) -> None:
    """Hits and false alarms of each detector, pooled over its sets (published sets only where it has one);
    a conditional detector's only on the pairs whose source it applies to; with the histogram of its
    correct sentences' pairs, hits and false alarms (``clusters``, file version 2: the Rogan-Gladen
    interval resamples sentences).  ``--merge`` keeps the other detectors of an existing ``path``."""
    from arena.codec import dump
    from arena.stats.rogan_gladen import FILE_VERSION, Calibration, clusters_of

    pooled: dict[str, dict] = {}
    for row in rows:
        entry = pooled.setdefault(row["detector"], {"sentences": {}, "sets": []})
        for sentence, counts in row["calibration"]["clusters"].items():
            total = entry["sentences"].setdefault(sentence, [0, 0, 0])
            for i, value in enumerate(counts):
                total[i] += value
        entry["sets"].append(row["set"])
    lines = "" if args.lines == (0, None) else f" --lines {args.lines[0]}:{'' if args.lines[1] is None else args.lines[1]}"
    detectors, split = {}, args.split
    if args.merge and path.is_file():  # the other detectors' entries, and the split the file was made with
        existing = json.loads(path.read_text(encoding="utf-8"))
        detectors, split = existing["detectors"], existing.get("split", split)
    for name, entry in pooled.items():
        counts = list(entry["sentences"].values())
        pairs = sum(c[0] for c in counts)
        calibration = Calibration(
            sum(c[1] for c in counts), pairs, sum(c[2] for c in counts), pairs,
            f"experiments/bench/detectors.py{lines} --split {args.split} --limit {args.limit}: " + ", ".join(entry["sets"]),
            clusters_of(counts))
        detectors[name] = dump(calibration)
    path.write_text(json.dumps({"version": FILE_VERSION, "split": split, "detectors": detectors},
                               ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"calibration: {path}")


if __name__ == "__main__":
    sys.exit(main())
