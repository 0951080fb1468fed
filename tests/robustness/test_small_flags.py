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


def test_a_game_whose_observation_rounds_eat_every_instance_is_refused(capsys, tmp_path, distil_dir):
    config = _game(tmp_path, distil_dir, "supervised:1000")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert f"{config}:6: " in err and "schedule" in err and "no round is left to count toward S" in err
    assert "Traceback" not in err


def test_a_game_with_evaluation_rounds_left_is_played(capsys, tmp_path, distil_dir):
    config = _game(tmp_path, distil_dir, "supervised:5")
    assert main(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
