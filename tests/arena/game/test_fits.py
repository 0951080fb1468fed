"""A schedule whose observation rounds take every instance of a John is refused before the
first round (:mod:`arena.game.fits`); Johns that would need a Claude to count are left to
the game's own check, and schedules with rounds left to count pass."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.game.fits import check_johns
from arena.game.play import schedule_of
from arena.specs.config import load_experiment
from performers.catalog import CATALOG

MT_CLAUDE = "{name: mt-reference, params: {john: 'distil-lingeval:dir=DIR', claude: toy-en-de}}"


def _experiment(tmp_path, john: str, schedule: str, extra: str = ""):
    path = tmp_path / "game.yaml"
    path.write_text(f"name: fits\njohns: [{john}]\nzelligs: [replay]\nclaudes: [random]\n{extra}schedule: {schedule}\n",
                    encoding="utf-8")
    return load_experiment(path)


@pytest.mark.parametrize("john, schedule, extra, refused", [
    ("{name: distil-lingeval, params: {dir: DIR, limit: 5}}", "supervised:5", "", "yields 5 instances"),
    ("{name: distil-lingeval, params: {dir: DIR, limit: 5}}", "semi-supervised:3+3", "", "yields 5 instances"),
    ("{name: distil-lingeval, params: {dir: DIR}}", "unsupervised:8", "max_instances: 8\n", "capped at 8"),
    ("{name: distil-lingeval, params: {dir: DIR, limit: 5}}", "supervised:4", "", None),    # one round to count
    ("{name: distil-lingeval, params: {dir: DIR, limit: 5}}", "zero-observation", "", None),
    (MT_CLAUDE, "supervised:100000", "", None),            # counting would load a model: left to the game
    (f"{{name: select, params: {{john: {MT_CLAUDE}, zellig: replay}}}}", "supervised:100000", "", None),  # nested
])
def test_observation_rounds_against_the_johns(tmp_path, distil_dir, john, schedule, extra, refused):
    experiment = _experiment(tmp_path, john.replace("DIR", str(distil_dir / "placeholder_ding.human")), schedule, extra)
    plan = schedule_of(experiment, CATALOG)
    assert plan is not None
    if refused is None:
        check_johns(experiment, plan, CATALOG)
        return
    with pytest.raises(ConfigError, match=refused) as raised:
        check_johns(experiment, plan, CATALOG)
    assert raised.value.key == "schedule" and raised.value.line == 5 + (1 if extra else 0)  # the schedule line
