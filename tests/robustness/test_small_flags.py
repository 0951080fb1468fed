"""Small flags that meant something else than they said: negative bootstrap samples,
``--num-cpus 0`` (all CPUs), ``show`` filters on names a run does not have ("0 of 0"),
a ``supervised:N`` game whose John runs out before any round counts (exit 0, no S)."""

from __future__ import annotations

import pytest

from arena.cli import main
from arena.errors import UsageError


def _exit_2(capsys, argv) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "Traceback" not in err
    return err


@pytest.mark.parametrize("value", ["-7", "0", "1e3", "2000000"])
def test_bootstrap_samples_out_of_range(capsys, tmp_path, value):
    err = _exit_2(capsys, ["compare-johns", "--john", "a", "--john", "b", "--claude", "random",
                           "--out", str(tmp_path), "--bootstrap-samples", value])
    assert "argument --bootstrap-samples:" in err


@pytest.mark.parametrize("value", ["0", "-2"])
def test_num_cpus_zero_is_refused_not_all(capsys, tmp_path, value):
    err = _exit_2(capsys, ["tournament", str(tmp_path / "x.yaml"), "--num-cpus", value])
    assert "argument --num-cpus:" in err


def test_num_cpus_zero_through_the_api_is_refused_before_ray_starts():
    from arena.engine.ray_backend import start_ray

    with pytest.raises(UsageError, match="at least 1") as error:
        start_ray(num_cpus=0)
    assert error.value.key == "--num-cpus"


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir):
    directory = tmp_path_factory.mktemp("show")
    config = directory / "exp.yaml"
    config.write_text(f"name: show\njohn: {{name: distil-lingeval, alias: d, params: "
                      f"{{dir: {distil_dir / 'polarity_affix_del.human'}, limit: 30}}}}\n"
                      "zellig: replay\nclaudes: [oracle, random]\nbootstrap_samples: 50\n", encoding="utf-8")
    assert main(["run", str(config), "--out", str(directory / "runs"), "--no-progress"]) == 0
    (run,) = (directory / "runs").iterdir()
    return run


@pytest.mark.parametrize("flag, value, listed", [
    ("--claude", "orcale", "oracle, random"),
    ("--zellig", "replays", "replay"),
    ("--phenomenon", "no_such_thing", "polarity"),
    ("--seed", "7", "1"),
])
def test_show_names_what_exists_for_an_unknown_filter(capsys, run_dir, flag, value, listed):
    assert main(["show", str(run_dir), flag, value]) == 2
    err = capsys.readouterr().err
    assert f"{flag}: " in err and repr(value if flag != "--seed" else int(value)) in err and listed in err
    assert "Traceback" not in err


def test_show_answers_0_of_0_for_a_known_name_without_matches(capsys, run_dir):
    assert main(["show", str(run_dir), "--claude", "oracle", "--wrong"]) == 0
    assert "0 of 0 matching pairs shown" in capsys.readouterr().out


def _game(tmp_path, distil_dir, schedule: str):
    config = tmp_path / "game.yaml"
    config.write_text(f"name: game\njohn: {{name: distil-lingeval, params: "
                      f"{{dir: {distil_dir / 'polarity_affix_del.human'}, limit: 20}}}}\n"
                      f"zellig: replay\nclaudes: [random]\nbootstrap_samples: 50\nschedule: {schedule}\n",
                      encoding="utf-8")
    return config


@pytest.mark.parametrize("verb", ["validate", "run"])
@pytest.mark.parametrize("schedule, extra, count", [
    ("supervised:1000", "", 20),                      # the John's 20 instances
    ("supervised:20", "", 20),                        # exactly as many: none left to count
    ("semi-supervised:10+10", "", 20),                # the phases together
    ("unsupervised:50", "max_instances: 30\n", 20),  # the cap is above the John's 20
    ("supervised:30", "max_instances: 30\n", 20),    # the cap itself is refused first: 30 ≤ 30
])
def test_a_game_whose_observation_rounds_eat_every_instance_is_refused_before_its_first_round(
        capsys, tmp_path, distil_dir, verb, schedule, extra, count):
    config = _game(tmp_path, distil_dir, schedule)
    config.write_text(config.read_text(encoding="utf-8") + extra, encoding="utf-8")
    out = tmp_path / "runs"
    argv = ["validate", str(config)] if verb == "validate" else ["run", str(config), "--out", str(out), "--no-progress"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{config}:6: " in err and "schedule" in err and "no round would be left to count toward S" in err
    assert "Traceback" not in err
    assert not out.exists(), "refused before the first round: no run directory"


@pytest.mark.parametrize("schedule, extra", [
    ("supervised:19", ""),                      # one round left to count (must NOT be refused)
    ("zero-observation", ""),
    ("supervised:5", "max_instances: 6\n"),
])
def test_validate_passes_a_game_with_rounds_left_to_count(capsys, tmp_path, distil_dir, schedule, extra):
    config = _game(tmp_path, distil_dir, schedule)
    config.write_text(config.read_text(encoding="utf-8") + extra, encoding="utf-8")
    assert main(["validate", str(config)]) == 0, capsys.readouterr().err


def test_a_game_with_evaluation_rounds_left_is_played(capsys, tmp_path, distil_dir):
    config = _game(tmp_path, distil_dir, "supervised:5")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
