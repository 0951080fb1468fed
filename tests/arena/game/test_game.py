"""The game end to end, in process: determinism, what each performer is shown, S
without observation phases, the timeline, resume after a kill mid-schedule, and
schedule-less runs unchanged."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from arena import api
from arena.codec import load
from arena.engine import match
from arena.game import play as game
from arena.game import visibility
from arena.record import transcripts
from arena.record.rounds import JudgementRecord, Round
from arena.records import Instance, Variant
from arena.specs.config import load_experiment
from arena.specs.schedule import Phase
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG

HERE = "tests.arena.game.helpers"
FILES = ("rounds.jsonl", "judgements.jsonl", "observations.jsonl", "onebest.jsonl", "scores.json")


def game_config(tmp_path: Path, data: Path, schedule: str | None = None, limit: int = 30, seeds: str = "[1, 2]") -> Path:
    newstest = data / "wmt" / "newstest"
    path = tmp_path / "game.yaml"
    path.write_text(
        f"""name: g
johns:
  - name: adaptive
    alias: news
    params: {{john: {{name: newstest, params: {{dir: {newstest}, years: [2009, 2010], limit: {limit}}}}}, key: origin}}
zelligs:
  - {{name: adaptive, alias: mix, params: {{zelligs: [placeholder-ding, clause-omission]}}}}
  - {{name: placeholder-ding, alias: ding}}
claudes:
  - {{name: '{HERE}:SideLearner', alias: side}}
  - {{name: learned, alias: learned, params: {{claude: 'tests.arena.engine.helpers:HashScorer', min_examples: 4}}}}
  - random
seeds: {seeds}
bootstrap_samples: 50
schedule:
{schedule or '''  block_size: 8
  window: 6
  phases:
    - {rounds: 6, transparent: [claude, zellig, john], counts: false}
    - {rounds: 4, counts: false}
    - {rounds: null, transparent: [zellig, john]}'''}
""",
        encoding="utf-8",
    )
    return path


def contents(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in FILES if (run_dir / name).exists()}


def run(path: Path, out: Path, backend="in-process"):
    return api.play(load_experiment(path), out, backend)


@pytest.fixture(scope="module")
def played(tmp_path_factory, data_dir):
    tmp = tmp_path_factory.mktemp("game")
    path = game_config(tmp, data_dir)
    return path, run(path, tmp / "a"), run(path, tmp / "b")


def test_a_game_is_byte_identical_when_replayed(played):
    _, first, second = played
    assert contents(first.run_dir) == contents(second.run_dir)
    assert set(contents(first.run_dir)) >= {"rounds.jsonl", "observations.jsonl", "judgements.jsonl"}


def test_rounds_carry_phase_block_and_count_and_follow_the_schedule(played):
    _, result, _ = played
    rounds = [load(Round, r) for r in transcripts.read_jsonl(result.run_dir / "rounds.jsonl")]
    for (seed, zellig) in {(r.seed, r.zellig) for r in rounds}:
        cell = [r for r in rounds if (r.seed, r.zellig) == (seed, zellig) and r.judged]
        assert [r.phase for r in cell[:10]] == [0] * 6 + [1] * 4
        assert all(r.phase == 2 and r.counts for r in cell[10:]) and not any(r.counts for r in cell[:10])
    assert max(r.block for r in rounds) >= 4  # 60 instances in blocks of 8 per seed


def test_s_leaves_out_observation_phases_and_the_timeline_covers_all(played):
    _, result, _ = played
    rounds = [load(Round, r) for r in transcripts.read_jsonl(result.run_dir / "rounds.jsonl")]
    for cell in result.scores.cells:
        played_rounds = [r for r in rounds if (r.john, r.zellig, r.seed) == (cell.john, cell.zellig, cell.seed)
                         and r.judged]
        assert cell.observation_rounds == 10
        assert cell.summary.rounds == len(played_rounds) - 10
        assert cell.timeline is not None and cell.timeline.convergence is not None
        windows = cell.timeline.windows
        assert windows[0].first == 1 and windows[-1].last == len(played_rounds)
        assert [w.counts for w in windows[:2]] == [False, False] and windows[-1].counts
        assert cell.timeline.convergence.epsilon == 0.05


def test_observers_see_what_the_schedule_lets_them_see(played):
    _, result, _ = played
    lines = list(transcripts.read_jsonl(result.run_dir / "observations.jsonl"))
    roles = {(line["role"], line["performer"]) for line in lines}
    # random and the plain Zellig do not observe; everyone else does
    assert roles == {("john", "news"), ("zellig", "mix"), ("claude", "side"), ("claude", "learned")}
    for line in lines:
        for outcome in line["outcomes"]:
            phase = outcome["phase"]
            if line["role"] == "claude":
                assert outcome["transparent"] == (phase == 0)
                assert set(outcome["choices"]) == ({"side", "learned", "random"} if phase == 0 else {line["performer"]})
                assert (outcome["corrupted"] is not None) == (phase == 0)
                assert outcome["candidates"] is not None
            else:
                assert outcome["transparent"] == (phase != 1)
                assert (outcome["corrupted"] is not None) == (phase != 1)
                assert outcome["instance"] is not None
                if line["role"] == "zellig":
                    assert outcome["variant"] is not None
                elif phase == 1:
                    assert outcome["variant"] is None and outcome["candidates"] is None


def test_a_kill_mid_schedule_resumes_to_identical_transcripts(played, tmp_path, monkeypatch):
    path, undisturbed, _ = played
    monkeypatch.setenv("ARENA_TEST_GAME_INTERRUPT", "4")  # the SideLearner's 4th block of seed 1
    with pytest.raises(KeyboardInterrupt):
        run(path, tmp_path)
    run_dir = tmp_path / undisturbed.run_dir.name
    assert not transcripts.is_finished(run_dir)
    committed = sorted(path.name for path in (run_dir / "cells").glob("*-block.jsonl"))
    assert committed == ["s1-j0-b0-block.jsonl", "s1-j0-b1-block.jsonl", "s1-j0-b2-block.jsonl"]
    assert (run_dir / "cells" / "s1-j0-b3-rounds.jsonl").exists()  # planned, not played
    monkeypatch.delenv("ARENA_TEST_GAME_INTERRUPT")
    result = run(path, tmp_path)
    assert result.resumed
    assert contents(result.run_dir) == contents(undisturbed.run_dir)


def test_the_learned_claude_learns_only_from_transparent_rounds(played):
    _, result, _ = played
    lines = [json.loads(line) for line in (result.run_dir / "observations.jsonl").read_text().splitlines()]
    labelled = sum(1 for line in lines if line["performer"] == "learned" and line["seed"] == 1
                   for o in line["outcomes"] if o["transparent"])
    assert labelled == 12  # 6 transparent rounds per Zellig cell


def test_a_chooser_must_return_a_candidate_index():
    class Bad:
        def choose(self, instance, candidates, rng):
            return len(candidates)

    instance = Instance("i", "s", "Das Haus.", {})
    corruption = match.Corruption(instance, (Variant("i", "Das Ding.", "p"),))
    with pytest.raises(ValueError, match="Zellig z chose 1 for i"):
        match.plan_rounds([corruption], 1, "j", "z", 1, choose=Bad().choose)


def test_a_chooser_picks_the_offered_variants_with_the_round_rng():
    seen = []

    def first(instance, candidates, rng):
        seen.append((len(candidates), rng.random()))
        return 0

    instance = Instance("i", "s", "Das Haus steht.", {})
    variants = tuple(Variant("i", text, "p") for text in ("Das Ding steht.", "Das Haus Ding.", "Ding Haus steht."))
    rounds = match.plan_rounds([match.Corruption(instance, variants)], 1, "j", "z", 2, choose=first)
    assert [r.variant.text for r in rounds] == ["Das Ding steht.", "Das Haus Ding."]
    assert [n for n, _ in seen] == [3, 2]
    assert seen[0][1] == match.round_rng(1, "i", "z").random()


@pytest.mark.parametrize(
    "role, transparent, visible, hidden",
    [
        ("claude", True, {"candidates", "corrupted", "variant", "instance", "source"}, set()),
        ("claude", False, {"candidates", "source"}, {"corrupted", "variant", "instance"}),
        ("zellig", True, {"candidates", "corrupted", "variant", "instance"}, set()),
        ("zellig", False, {"variant", "instance"}, {"candidates", "corrupted"}),
        ("john", True, {"candidates", "corrupted", "variant", "instance"}, set()),
        ("john", False, {"instance"}, {"candidates", "corrupted", "variant"}),
    ],
)
def test_shown_by_role_and_transparency(role, transparent, visible, hidden):
    instance = Instance("i", "The house.", "Das Haus.", {"origin": "x"})
    round_ = Round("r", 1, "j", "z", instance, Variant("i", "Das Ding.", "p"), ("Das Haus.", "Das Ding."), 1,
                         phase=0, block=0, counts=False)
    judgements = {name: JudgementRecord("r", name, choice, choice, "claude", choice == 1, (0.1, 0.2))
                  for name, choice in (("a", 1), ("b", 0))}
    phase = Phase(rounds=5, transparent=frozenset({role}) if transparent else frozenset(), counts=False)
    outcome = visibility.shown(role, "a", round_, phase, judgements, PerformerSpec("x") if role == "claude" else None)
    assert outcome.transparent == transparent and not outcome.counts
    for key in visible:
        assert getattr(outcome, key) is not None, key
    for key in hidden:
        assert getattr(outcome, key) is None, key
    if role == "claude" and not transparent:
        assert outcome.choices == {"a": 1} and outcome.scores == {"a": (0.1, 0.2)}
    elif transparent:
        assert outcome.choices == {"a": 1, "b": 0}


def test_a_fluency_claude_is_shown_no_source():
    instance = Instance("i", "The house.", "Das Haus.", {"genre": "news"})
    round_ = Round("r", 1, "j", "z", instance, None, ("Das Haus.", "Das Ding."), 1)
    assert round_.pair(sees_source=False).source == "" and round_.pair(sees_source=False).meta == {}
    assert round_.pair(sees_metadata=True).meta == {"genre": "news"}
    record = JudgementRecord("r", "a", 1, 1, "claude", True)
    outcome = visibility.shown("claude", "a", round_, Phase(rounds=1), {"a": record}, PerformerSpec("x", sees={"source": False}))
    assert outcome.source == ""


def test_collusion_names_a_zellig_that_consults_a_claude_under_test(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text(
        """name: c
john: {name: distil-lingeval, params: {dir: /nowhere}}
zelligs:
  - {name: model-guided, alias: mg, params: {base: placeholder-ding, model: toy-en-de}}
  - {name: adaptive, alias: ad, params: {zelligs: [{name: model-guided, params: {base: compound, model: 'toy-en-de'}}]}}
  - {name: model-guided, alias: other, params: {base: placeholder-ding, model: 'toy-en-de:dtype=fp16'}}
claudes: [{name: toy-en-de, alias: toy}, random]
""",
        encoding="utf-8",
    )
    found = game.collusion(load_experiment(path))
    assert [(f["zellig"], f["claude"]) for f in found] == [("mg", "toy"), ("ad", "toy")]
    assert found[0]["param"] == "model"


def test_choosing_performers_without_a_schedule_play_zero_observation(tmp_path, distil_dir):
    path = tmp_path / "c.yaml"
    path.write_text(f"name: c\njohn: {{name: distil-lingeval, params: {{dir: {distil_dir / 'placeholder_ding.human'}}}}}\n"
                    "zellig: {name: adaptive, params: {zelligs: [placeholder-ding]}}\nclaude: random\n", encoding="utf-8")
    assert game.schedule_of(load_experiment(path), CATALOG) is game.IMPLICIT
    path.write_text(f"name: c\njohn: {{name: distil-lingeval, params: {{dir: {distil_dir / 'placeholder_ding.human'}}}}}\nzellig: replay\nclaude: random\n",
                    encoding="utf-8")
    assert game.schedule_of(load_experiment(path), CATALOG) is None


# sha256 of the transcripts of GOLDEN, played by the code before the game existed
# (main at a2b2155): schedule-less configs must keep them byte for byte
GOLDEN = """name: golden
johns:
  - {{name: distil-lingeval, alias: ding, params: {{dir: {distil}/placeholder_ding.human, limit: 25}}}}
  - {{name: newstest, alias: news, params: {{dir: {newstest}, years: [2009], limit: 25}}}}
zelligs: [replay, placeholder-ding]
claudes: [oracle, random, {{name: 'tests.arena.engine.helpers:HashScorer', alias: hash}}]
seeds: [1, 2]
variants_per_instance: 2
bootstrap_samples: 100
"""
GOLDEN_SHA256 = {
    "rounds.jsonl": "955bfbfd4b0d202e46242a698474bce445936fa17e133db663d5aa71d55fef9c",
    "judgements.jsonl": "4547c9ce8e45b5e6b91011da9c852ce9586ceb7b518ae8eedded52cca70ec219",
    "onebest.jsonl": "f873458646d6fc21f22afa1180b10d1bb246ec17faaae0cda324673b20823798",
}


def test_schedule_less_transcripts_are_unchanged(tmp_path, data_dir):
    path = tmp_path / "golden.yaml"
    path.write_text(GOLDEN.format(distil=data_dir / "distil-lingeval", newstest=data_dir / "wmt" / "newstest"),
                    encoding="utf-8")
    result = run(path, tmp_path / "out")
    assert not (result.run_dir / "observations.jsonl").exists()
    digests = {name: hashlib.sha256((result.run_dir / name).read_bytes()).hexdigest() for name in GOLDEN_SHA256}
    assert digests == GOLDEN_SHA256
    assert result.scores.cells[0].timeline is None


def test_sigkill_mid_schedule_resumes_to_identical_transcripts(played, tmp_path):
    """A real kill (SIGKILL of ``arena run``) between blocks of a game: the rerun
    replays the committed blocks and ends with the undisturbed run's transcripts."""
    import os
    import signal
    import subprocess
    import sys
    import time

    path, undisturbed, _ = played
    slow = path.read_text(encoding="utf-8").replace(
        "  - random\n", "  - {name: 'tests.arena.engine.helpers:SlowClaude', alias: random, params: {delay: 0.3}}\n"
    )
    config = tmp_path / "slow.yaml"
    config.write_text(slow, encoding="utf-8")
    reference = run(config, tmp_path / "reference")
    command = [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main(sys.argv[1:]))",
               "run", str(config), "--out", str(tmp_path / "out"), "--no-progress"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    log = tmp_path / "stderr.txt"
    with open(log, "wb") as stderr:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    marker = tmp_path / "out" / reference.run_dir.name / "cells" / "s1-j0-b1-block.jsonl"
    deadline = time.monotonic() + 300
    while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert marker.exists(), log.read_text(encoding="utf-8", errors="replace")[-2000:]
    assert not transcripts.is_finished(marker.parents[1])
    result = run(config, tmp_path / "out")
    assert result.resumed
    assert contents(result.run_dir) == contents(reference.run_dir)
    assert contents(reference.run_dir)["rounds.jsonl"] == contents(undisturbed.run_dir)["rounds.jsonl"]
