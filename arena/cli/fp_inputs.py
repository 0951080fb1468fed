"""What ``arena false-positives`` hands the report besides the run (issue 25, item 5): the detectors'
calibrations by Zellig label and the surface-cue verdicts by Zellig label and phenomenon."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from arena.errors import DataError, UsageError
from arena.specs.yamlio import load_json

logger = logging.getLogger(__name__)


def default_calibration() -> Path:
    from performers.zellig import detector_calibration

    return detector_calibration.PATH


def detector_of(zellig: dict[str, Any]) -> str | None:
    """The catalog name of the detector a Zellig spec of the manifest uses."""
    params = zellig.get("params") or {}
    if zellig.get("name") == "replay":
        return params.get("detector")
    return zellig.get("name")


def calibrations(run_dir: Path, path: Path | None) -> dict[str, Any]:
    """Calibration by Zellig label of the run (alias, else the label the transcripts use)."""
    from arena.codec import load
    from arena.stats.rogan_gladen import Calibration

    if path is None and not default_calibration().is_file():
        logger.warning("no detector calibration at %s: generative rates are not corrected", default_calibration())
        return {}
    path = path or default_calibration()
    if not path.is_file():
        raise UsageError(f"{path}: no such calibration file", file=path, key="--calibration")
    try:
        table = load_json(path)["detectors"]  # bounded; damage is a DataError with file and line
        measured = {name: load(Calibration, entry) for name, entry in table.items()}
    except (ValueError, KeyError, TypeError) as error:
        raise DataError(f"{path}: not a detector calibration ({error})", file=path, key="detectors",
                        hint="write one with: python experiments/bench/detectors.py --calibration FILE") from None
    from arena.record.verify import load_manifest

    manifest = load_manifest(run_dir)  # damage is a DataError naming file and line
    result = {}
    for spec in manifest.experiment.get("zelligs", []):
        detector = detector_of(spec)
        if detector in measured:
            for label in _labels(spec):
                result[label] = measured[detector]
    return result


def _labels(spec: dict[str, Any]) -> list[str]:
    from arena.specs.spec import PerformerSpec

    labels = [str(spec["alias"])] if spec.get("alias") else []
    try:
        labels.append(PerformerSpec(spec["name"], spec.get("params") or {}).label)
    except (KeyError, TypeError, ValueError):
        pass
    return labels


def cue_verdicts(run_dir: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """The strongest cue of every Zellig and phenomenon of the run, with the kinds of its strong cues."""
    from arena.api import surface_cues
    from arena.stats import cue_items, cues

    setup = surface_cues()
    data = cue_items.from_run(run_dir, setup.not_compared)
    result = {}
    for table in cues.audit(data, setup.factories) if data.items else []:
        if table.strongest is None:
            continue
        score = table.cues[table.strongest]
        result[table.set, table.phenomenon] = {"name": table.strongest, "accuracy": score.accuracy,
                                               "ci": score.ci, "kinds": table.kinds, "enough": table.enough,
                                               "n": table.n}
    return result
