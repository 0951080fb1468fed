"""Human- vs MT-reference test sets: build them, play them, compare them (Vamvas & Sennrich 2021).

    python experiments/johns/human_vs_mt.py experiments/johns/human_vs_mt.yaml --out runs/johns

For every Zellig of the config, the same selection (cap per phenomenon, seed, strata,
deduplication, prefilter) is applied to the two Johns of the config — ``human``
(newstest references) and ``mt`` (machine references of the same sentences, checked by
the validation step of the paper's §3.3) — and each test set is written in both
reference formats under ``OUT/testsets/<zellig>.<human|mt>/``.  All test sets are then
played in one arena run (``OUT/runs/``; ``replay`` Zellig, the config's Claude), so each
source's 1-best translation is decoded once, and the script reports per set: size
(pairs and sentences), kept / flagged / dropped by validation, distributional
discrepancy, contrastive accuracy and S, with paired bootstrap tests of human − MT on
the sentences both sets share.  The table goes to stdout, ``OUT/results.md`` and
``OUT/results.json``.

Re-running with the same ``--out`` rebuilds the test sets (deterministic: the same
files) and reuses the finished arena run, whose name carries a digest of the test
sets' content (a changed Zellig gives new test sets and so a new run).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from arena.specs.registry import build
from arena.specs.spec import PerformerSpec, spec_from_mapping
from arena.specs.yamlio import load_yaml

CONFIG_KEYS = ("name", "claude", "seed", "selection", "johns", "zelligs")
ZELLIG_KEYS = ("zellig", "prefilter", "phenomena")
KINDS = ("human", "mt")

logger = logging.getLogger("human_vs_mt")


def load_config(path: Path) -> dict[str, Any]:
    data = load_yaml(path)
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping with keys {', '.join(CONFIG_KEYS)}")
    unknown = sorted(set(data) - set(CONFIG_KEYS))
    if unknown:
        raise ValueError(f"{path}: unknown key '{unknown[0]}'; allowed keys: {', '.join(CONFIG_KEYS)}")
    for key in ("claude", "johns", "zelligs"):
        if key not in data:
            raise ValueError(f"{path}: missing key '{key}'")
    if not isinstance(data["johns"], dict) or set(data["johns"]) != set(KINDS):
        raise ValueError(f"{path}: 'johns' must map exactly {' and '.join(KINDS)} to a John")
    if not isinstance(data["zelligs"], list) or not data["zelligs"]:
        raise ValueError(f"{path}: 'zelligs' must be a non-empty list of {{zellig, prefilter?, phenomena?}}")
    for index, entry in enumerate(data["zelligs"]):
        if not isinstance(entry, dict) or "zellig" not in entry or set(entry) - set(ZELLIG_KEYS):
            raise ValueError(f"{path}: zelligs[{index}] must be a mapping with keys {', '.join(ZELLIG_KEYS)}")
    return data


def build_testsets(config: dict[str, Any], out: Path, cap: int | None, progress: bool) -> list[dict[str, Any]]:
    """Select and write the human and MT test set of every Zellig; returns one entry
    per (Zellig, kind) with its report and directory."""
    from performers.catalog import CATALOG
    from performers.john.selection import select
    from performers.john.selection_records import SelectionOptions
    from performers.john.testset import write_testset

    seed = int(config.get("seed", 1))
    selection = dict(config.get("selection") or {})
    if cap is not None:
        selection["cap"] = cap
    pools = {}
    for kind in KINDS:
        spec = spec_from_mapping(config["johns"][kind], where=f"johns.{kind}")
        john = build("john", spec, CATALOG, where=f"johns.{kind}")
        started = time.perf_counter()
        instances = list(john.instances())
        logger.info("%s John %s: %d instances (%.1fs)", kind, spec.label, len(instances), time.perf_counter() - started)
        pools[kind] = (spec, instances, getattr(john, "report", None))
    entries = []
    for entry in config["zelligs"]:
        zellig_spec = spec_from_mapping(entry["zellig"], where="zelligs")
        zellig = build("zellig", zellig_spec, CATALOG, where=f"zellig {zellig_spec.label}")
        phenomena = entry.get("phenomena")
        options = SelectionOptions(
            seed=seed, prefilter=entry.get("prefilter"),
            phenomena=tuple(phenomena) if phenomena else None, **selection,
        )
        for kind in KINDS:
            john_spec, instances, john_report = pools[kind]
            started = time.perf_counter()
            chosen = select(instances, zellig, options, progress, john=kind, zellig_label=zellig_spec.label,
                            john_report=john_report)
            seconds = time.perf_counter() - started
            directory = out / "testsets" / f"{zellig_spec.label}.{kind}"
            report = write_testset(chosen, directory, overwrite=True, extra_report={"seconds": round(seconds, 1)})
            logger.info("%s %s: %d sentences, %d pairs (%.1fs)", zellig_spec.label, kind, len(chosen.items),
                        chosen.pairs, seconds)
            for key, written in report["files"].items():
                if key.startswith("distil-lingeval:"):
                    phenomenon = key.split(":", 1)[1]
                    entries.append({"zellig": zellig_spec.label, "kind": kind, "phenomenon": phenomenon,
                                    "dir": written["path"], "report": report})
    return entries


def play(entries: list[dict[str, Any]], claude: Any, out: Path, seed: int, progress: bool) -> dict[str, Any]:
    """One arena run over every test set (``replay``), human − MT paired per phenomenon."""
    from arena.cli.compare_johns import compare_johns

    johns = [
        PerformerSpec("distil-lingeval", {"dir": entry["dir"]}, alias=f"{entry['phenomenon']}.{entry['kind']}")
        for entry in entries
    ]
    # the run directory is keyed by the config, which names the test sets by path only: a
    # digest of their content makes a rebuilt, different test set a new run, never a stale one
    digest = hashlib.sha256()
    for entry in entries:
        for name in ("src.en", "tgt.correct.de", "tgt.incorrect.de"):
            digest.update((Path(entry["dir"]) / name).read_bytes())
    labels = {spec.alias for spec in johns}
    pairs = [
        (f"{p}.human", f"{p}.mt")
        for p in dict.fromkeys(entry["phenomenon"] for entry in entries)
        if f"{p}.human" in labels and f"{p}.mt" in labels
    ]
    return compare_johns(
        johns, PerformerSpec("replay"), spec_from_mapping(claude, where="claude"), out / "runs",
        name=f"johns-human-vs-mt-{digest.hexdigest()[:8]}", seed=seed, variants_per_instance=1000, progress=progress, pairs=pairs,
    )


def results_table(entries: list[dict[str, Any]], comparison: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    rows_by_john = {row["john"]: row for row in comparison["johns"]}
    rows = []
    for entry in entries:
        label = f"{entry['phenomenon']}.{entry['kind']}"
        played = rows_by_john[label]
        validation = entry["report"].get("validation", {}).get(entry["phenomenon"], {})
        counts = entry["report"]["phenomena"][entry["phenomenon"]]
        rows.append({
            "set": label,
            "sentences": counts["selected"],
            "pairs": counts["pairs"],
            "kept": validation.get("kept"),
            "flagged": validation.get("flagged"),
            "dropped": validation.get("dropped"),
            "discrepancy": played["discrepancy"],
            "accuracy": played["accuracy"],
            "S": played["S"],
        })

    def cell(value: Any, digits: int = 3) -> str:
        if value is None:
            return "–"
        return f"{value:.{digits}f}" if isinstance(value, float) else str(value)

    lines = [
        "| test set | sentences | pairs | kept | flagged | dropped | discrepancy | accuracy % | S |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        accuracy = None if row["accuracy"] is None else 100 * row["accuracy"]
        lines.append(
            f"| {row['set']} | {row['sentences']} | {row['pairs']} | {cell(row['kept'])} | {cell(row['flagged'])} | "
            f"{cell(row['dropped'])} | {cell(row['discrepancy'], 2)} | {cell(accuracy, 1)} | {cell(row['S'])} |"
        )
    lines += ["", "Paired bootstrap, human − MT, on the sentences both sets share:", "",
              "| phenomenon | shared | Δ discrepancy [95% CI] p | Δ accuracy [95% CI] p |", "|---|---:|---|---|"]
    for pair in comparison["paired"]:
        def delta(test: dict[str, Any] | None) -> str:
            if not test:
                return "–"
            return f"{test['delta']:+.3f} [{test['low']:+.3f}, {test['high']:+.3f}] p={test['p_value']:.3f}"

        lines.append(f"| {pair['a'].rsplit('.', 1)[0]} | {pair['shared_sources']} | {delta(pair.get('discrepancy'))} | "
                     f"{delta(pair.get('accuracy'))} |")
    return rows, "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", nargs="?", default=str(Path(__file__).with_name("human_vs_mt.yaml")))
    parser.add_argument("--out", default="runs/johns", help="output directory (default: runs/johns)")
    parser.add_argument("--claude", help="override the config's Claude (a SPEC)")
    parser.add_argument("--cap", type=int, help="override the cap per phenomenon")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    config = load_config(Path(args.config))
    out = Path(args.out)
    started = time.perf_counter()
    entries = build_testsets(config, out, args.cap, not args.no_progress)
    built = time.perf_counter() - started
    comparison = play(entries, args.claude or config["claude"], out, int(config.get("seed", 1)), not args.no_progress)
    rows, table = results_table(entries, comparison)
    total = time.perf_counter() - started
    header = (f"Claude {comparison['claude']}; seed {comparison['seed']}; test sets built in {built:.0f}s, "
              f"all done in {total:.0f}s; run {comparison['run_dir']}")
    out.mkdir(parents=True, exist_ok=True)
    (out / "results.md").write_text(f"{header}\n\n{table}\n", encoding="utf-8")
    (out / "results.json").write_text(
        json.dumps({"rows": rows, "comparison": comparison, "seconds": round(total, 1)}, ensure_ascii=False, indent=2)
        + "\n", encoding="utf-8",
    )
    print(header)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
