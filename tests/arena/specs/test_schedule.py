"""Observation schedules: presets, explicit phases, and bad schedules as errors naming
file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.codec import dump
from arena.specs.config import load_experiment
from arena.specs.schedule import Phase, Schedule, parse_schedule

BASE = """name: t
john: {name: distil-lingeval, params: {dir: /nowhere}}
zellig: replay
claude: random
"""


def write(tmp_path: Path, schedule: str) -> Path:
    path = tmp_path / "exp.yaml"
    path.write_text(BASE + schedule, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "value, phases",
    [
        ("zero-observation", [(None, set(), True)]),
        ("supervised:200", [(200, {"claude"}, False), (None, set(), True)]),
        ({"preset": "supervised", "rounds": 50}, [(50, {"claude"}, False), (None, set(), True)]),
        ("unsupervised:30", [(30, set(), False), (None, set(), True)]),
        ("semi-supervised:10+20", [(10, {"claude"}, False), (20, set(), False), (None, set(), True)]),
        ({"phases": [{"rounds": 5, "transparent": ["zellig", "john"], "counts": False}, {"rounds": 7}]},
         [(5, {"zellig", "john"}, False), (7, set(), True)]),
        ({"phases": [{"rounds": None, "transparent": "zellig"}]}, [(None, {"zellig"}, True)]),
    ],
)
def test_presets_and_phases(value, phases):
    schedule = parse_schedule(value)
    assert [(p.rounds, set(p.transparent), p.counts) for p in schedule.phases] == phases


def test_phase_of_counts_rounds_per_cell():
    schedule = Schedule(phases=(Phase(rounds=2, transparent=frozenset({"claude"}), counts=False), Phase(rounds=3)), block_size=4)
    assert [schedule.phase_of(i) for i in range(6)] == [0, 0, 1, 1, 1, None]
    assert schedule.total == 5 and schedule.window_size == 4
    assert parse_schedule("supervised:2").phase_of(10**6) == 1  # the last phase is open-ended


@pytest.mark.parametrize(
    "schedule, line, key, message",
    [
        ("schedule:\n  phases:\n    - {rounds: 5, transparent: [claude, judge]}\n", 7,
         "schedule.phases.0.transparent.1", "unknown role 'judge'"),
        ("schedule:\n  phases:\n    - {rounds: 5}\n    - rounds: -3\n", 8, "schedule.phases.1.rounds", "integer ≥ 0"),
        ("schedule:\n  phases:\n    - {rounds: 5, counts: false}\n", 6, "schedule.phases", "no evaluation phase"),
        ("schedule:\n  phases:\n    - {rounds: 0}\n", 6, "schedule.phases", "no evaluation phase"),
        ("schedule:\n  phases:\n    - {rounds: null}\n    - {rounds: 3}\n", 7, "schedule.phases.0.rounds", "last phase"),
        ("schedule: {preset: supervised}\n", 5, "schedule.preset", "needs 1 round count"),
        ("schedule: {preset: guided, rounds: 3}\n", 5, "schedule.rounds", "unknown preset 'guided'"),
        ("schedule: supervised:-4\n", 5, "schedule.preset", "≥ 0"),
        ("schedule: {preset: supervised, rounds: 10, block_size: 0}\n", 5, "schedule.block_size", "integer ≥ 1"),
        ("schedule:\n  phases: [{rounds: 3}]\n  blocks: 5\n", 7, "schedule.blocks", "allowed keys"),
        ("schedule:\n  phases:\n    - {rounds: 3, visible: [claude]}\n", 7, "schedule.phases.0.visible", "allowed keys"),
        ("schedule: {epsilon: 2, preset: zero-observation}\n", 5, "schedule.epsilon", "between 0 and 1"),
    ],
)
def test_bad_schedules_name_file_line_and_key(tmp_path, schedule, line, key, message):
    path = write(tmp_path, schedule)
    with pytest.raises(ValueError) as error:
        load_experiment(path)
    text = str(error.value)
    assert text.startswith(f"{path}:{line}: '{key}'"), text
    assert message in text


def test_bad_schedule_is_exit_2_without_traceback(tmp_path, capsys):
    from arena.cli import main

    path = write(tmp_path, "schedule:\n  phases:\n    - {rounds: -1}\n")
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{path}:7" in err and "schedule.phases.0.rounds" in err


def test_schedule_less_config_keeps_its_hash(tmp_path):
    """``schedule`` is left out of the resolved config when absent, so schedule-less
    runs keep their run directory."""
    from arena.engine import config_hash

    plain = load_experiment(write(tmp_path, ""))
    assert "schedule" not in dump(plain)
    scheduled = load_experiment(write(tmp_path, "schedule: supervised:10\n"))
    assert dump(scheduled)["schedule"]["phases"][0]["transparent"] == ["claude"]
    assert config_hash(plain) != config_hash(scheduled)


def test_sees_is_checked_and_only_for_claudes(tmp_path):
    path = tmp_path / "exp.yaml"
    path.write_text(BASE.replace("claude: random", "claude: {name: random, sees: {source: maybe}}"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"exp.yaml:4: 'claude.0.sees.source' must be true or false, not 'maybe'"):
        load_experiment(path)
    path.write_text(BASE.replace("zellig: replay", "zellig: {name: replay, sees: {source: false}}"), encoding="utf-8")
    with pytest.raises(ValueError, match="set per Claude"):
        load_experiment(path)
