"""The cost planner's table (``arena tournament CONFIG --plan``): counts per Claude model and, with a
calibration, the estimated hours on the calibration's machine."""

from __future__ import annotations

from arena.engine.calibration import Calibration
from arena.engine.cost import Estimate, WorkPlan


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.3f} h ({seconds:.0f} s)"


def format_plan(work: WorkPlan, estimate: Estimate | None, calibration: Calibration | None) -> str:
    lines = [
        f"cells: {work.cells}   rounds: {work.rounds} ({work.judged} judged)   instances: {work.instances}",
        f"planning (Johns and Zelligs, measured now): {work.plan_seconds:.1f} CPU-s",
        "",
        f"{'model':<24} {'kind':<8} {'requests':>9} {'distinct':>9} {'words':>9} {'sources':>8} "
        f"{'1-best':>7} {'1b words':>9} {'estimate':>18}",
    ]
    for model in work.models:
        cost = ""
        if estimate is not None and model.name in estimate.models:
            cost = _hours(estimate.models[model.name]) + " " + estimate.units[model.name]
        elif estimate is not None:
            cost = "not calibrated"
        if model.scoring:
            lines.append(f"{model.name:<24} {'scores':<8} {model.requests:>9} {model.unique:>9} {model.target_words:>9} "
                         f"{model.sources:>8} {model.one_best_sources:>7} {model.one_best_words:>9} {cost:>18}")
        else:
            lines.append(f"{model.name:<24} {'judges':<8} {model.judged:>9} {'':>9} {'':>9} {'':>8} {'':>7} {'':>9} "
                         f"{cost:>18}")
    lines.append("(requests: candidates sent before deduplication; distinct: (source, candidate) pairs scored once; "
                 "words: theirs +1 each; 1-best: distinct sources decoded, beam search)")
    if calibration is None or estimate is None:
        lines.append("no estimate: no calibration file; write one on this machine with "
                     "'python experiments/bench/calibrate.py' (or pass --calibration FILE)")
        return "\n".join(lines)
    machine = calibration.machine
    lines += [
        "",
        f"estimate: {_hours(estimate.total)} on the calibration's machine "
        f"(planning {estimate.plan:.0f} s, driver {estimate.driver:.0f} s, models {sum(estimate.models.values()):.0f} s)",
        f"calibration: {calibration.path} of {calibration.date}, {machine.get('processor') or machine.get('platform')}, "
        f"{machine.get('cpus')} CPUs, GPU: {machine.get('gpu') or 'none'}",
    ]
    if estimate.missing:
        lines.append(f"not in the calibration (left out of the estimate): {', '.join(estimate.missing)}; "
                     "calibrate them with experiments/bench/calibrate.py --config CONFIG")
    if calibration.loose:
        lines.append(f"calibrated with other params (matched by name and version): {', '.join(calibration.loose)}")
    return "\n".join(lines)
