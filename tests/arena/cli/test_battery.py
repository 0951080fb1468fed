"""The battery: bad inputs and faults, each through the real command line.

Every case checks the exit status, that no Python traceback reaches the user, that the
message names the file (and line) and the key or path at fault, and that nothing
computed is lost (a failed run leaves no directory behind, an ``--out`` that cannot
be written is refused before any work, a full disk keeps what was written and the
rerun resumes to the same transcripts, scores outlive a failed write in the cache).

Config faults run through both ``arena validate`` and ``arena run``: both must refuse
them with the same message, so that "OK" from ``validate`` means that ``run`` does not
fail on its config.  Cases that need a real pipe or real processes run the ``arena``
command as a subprocess; the rest call :func:`arena.cli.main` in process.
"""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from arena.cli import main

REPO = Path(__file__).resolve().parents[3]

SOURCES = ["The thing is new.", "I have no time.", "She does not like it.", "We saw nothing."]
CORRECT = ["Das Ding ist neu.", "Ich habe keine Zeit.", "Sie mag es nicht.", "Wir sahen nichts."]
INCORRECT = ["Das Ding ist alt.", "Ich habe Zeit.", "Sie mag es.", "Wir sahen etwas."]

# the fault-free experiment; a case replaces one line (numbered from 1) or appends one
BASE = """name: battery
johns:
  - name: distil-lingeval
    alias: d
    params: {dir: DIR, limit: 3}
zelligs: [replay]
claudes: [oracle, random]
bootstrap_samples: 10
"""


def invoke(argv: list[str], capsys) -> tuple[int, str, str]:
    """Run ``arena ARGV`` in process; (status, stdout, stderr)."""
    try:
        status = main(argv)
    except SystemExit as exit_info:  # argparse
        status = exit_info.code if isinstance(exit_info.code, int) else 2
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text


@pytest.fixture
def testset(tmp_path: Path) -> Path:
    """A DistilLingEval directory of four pairs (ding placeholder)."""
    directory = tmp_path / "placeholder_ding.human"
    directory.mkdir()
    for name, lines in (("src.en", SOURCES), ("tgt.correct.de", CORRECT), ("tgt.incorrect.de", INCORRECT)):
        (directory / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return directory


def write_config(tmp_path: Path, testset: Path, line: int | None = None, text: str | None = None) -> Path:
    """BASE with line ``line`` replaced by ``text`` (or ``text`` appended when line is None);
    a ``text`` of several lines replaces as many lines."""
    lines = BASE.replace("DIR", str(testset)).splitlines()
    if text is not None:
        if line is None:
            lines.append(text)
        else:
            new = text.split("\n")
            lines[line - 1 : line - 1 + len(new)] = new
    path = tmp_path / "exp.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- config faults: validate and run agree ------------------------------------------------

@dataclass(frozen=True)
class ConfigFault:
    line: int | None  # the line replaced (None: appended as line 9)
    text: str
    expect: tuple[str, ...]  # fragments of the one-line message
    at: int | None = None  # the line the message must name (default: the faulty line)


CONFIG_FAULTS = {
    "limit-forty": ConfigFault(5, "    params: {dir: DIR, limit: forty}", ("johns[0]", "'limit'", "integer", "'forty'"), 3),
    "limit-zero": ConfigFault(5, "    params: {dir: DIR, limit: 0}", ("'limit'", "≥ 1"), 3),
    "john-dir-missing": ConfigFault(5, "    params: {dir: /no/such/dir}", ("'dir'", "names no directory: /no/such/dir"), 3),
    "john-dir-without-files": ConfigFault(
        5, "    params: {dir: EMPTY}", ("'dir'", "names a directory without src.en, tgt.correct.de, tgt.incorrect.de"), 3
    ),
    "john-dir-is-a-file": ConfigFault(5, "    params: {dir: EXP}", ("'dir'", "names a file, expected a directory"), 3),
    "john-param-unknown": ConfigFault(5, "    params: {dir: DIR, limt: 3}", ("no parameter(s) limt", "allowed:"), 3),
    "john-param-missing": ConfigFault(5, "    params: {limit: 3}", ("needs parameter(s) dir",), 3),
    "john-unknown": ConfigFault(3, "  - name: distil-lingevel", ("unknown John 'distil-lingevel'", "Did you mean distil-lingeval"), 3),
    "john-skip-empty-string": ConfigFault(5, "    params: {dir: DIR, skip_empty: 'yes'}", ("'skip_empty'", "boolean"), 3),
    "claude-batch-tokens-zero": ConfigFault(
        7, "claudes: [oracle, 'toy-en-de:batch_tokens=0']", ("claudes[1]", "'batch_tokens'", "≥ 1")
    ),
    "claude-convention-unknown": ConfigFault(
        7, "claudes: [oracle, 'toy-en-de:convention=avg']", ("claudes[1]", "'convention'", "mean, sum")
    ),
    "john-reference-kind-unknown": ConfigFault(
        3, "  - name: parallel-text\n    alias: p\n    params: {source: EXP, reference: EXP, reference_kind: robot}",
        ("'reference_kind'", "human, machine"),
    ),
    "john-file-missing": ConfigFault(
        3, "  - name: parallel-text\n    alias: p\n    params: {source: EXP, reference: /no/such.de}",
        ("'reference'", "names no file: /no/such.de"),
    ),
    "claude-param-unknown": ConfigFault(7, "claudes: [oracle, 'random:sed=3']", ("claudes[1]", "no parameter(s) sed")),
    "zellig-unknown": ConfigFault(6, "zelligs: [no-such-zellig]", ("zelligs[0]", "unknown Zellig 'no-such-zellig'")),
    "nested-john-dir-missing": ConfigFault(
        3, "  - name: select\n    alias: s\n    params: {john: 'distil-lingeval:dir=/no/such/set', zellig: replay}",
        ("parameter 'john'", "'dir'", "/no/such/set"),
    ),
    "discrepancy-no-string": ConfigFault(None, 'discrepancy: "no"', ("'discrepancy'", "boolean", "'no'")),
    "ray-num-cpus-abc": ConfigFault(None, "ray: {num_cpus: abc}", ("'ray.num_cpus'", "integer", "'abc'")),
    "ray-object-store-tiny": ConfigFault(None, "ray: {object_store_memory: 10}", ("'ray.object_store_memory'", "≥")),
    "ray-unknown-key": ConfigFault(None, "ray: {cpus: 2}", ("unknown key 'ray.cpus'", "allowed keys: address")),
    "time-budget-negative": ConfigFault(
        None, "time_budget: {zellig_seconds: -1}", ("'time_budget.zellig_seconds'", "> 0")
    ),
    "time-budget-word": ConfigFault(
        None, "time_budget: {claude_seconds_per_pair: fast}", ("'time_budget.claude_seconds_per_pair'", "'fast'")
    ),
    "time-budget-not-a-mapping": ConfigFault(None, "time_budget: 5", ("'time_budget' must be a mapping",)),
    "beam-zero": ConfigFault(None, "beam: 0", ("'beam'", "≥ 1")),
    "variants-negative": ConfigFault(None, "variants_per_instance: -1", ("'variants_per_instance'", "≥ 1")),
    "max-instances-string": ConfigFault(None, "max_instances: all", ("'max_instances'", "'all'")),
    "bootstrap-negative": ConfigFault(8, "bootstrap_samples: -5", ("'bootstrap_samples'", "≥ 0")),
    "seeds-twice": ConfigFault(None, "seeds: [1, 1]", ("'seeds' lists a seed twice",)),
    "seeds-words": ConfigFault(None, "seeds: one", ("'seeds' must be an integer or a list of integers",)),
    "ties-unknown": ConfigFault(None, "contrastive_ties: maybe", ("'contrastive_ties'", "wrong, correct, half")),
    "executor-unknown": ConfigFault(None, "executor: spark", ("'executor'", "in-process, ray")),
    "breakdowns-not-a-list": ConfigFault(None, "breakdowns: dimension", ("'breakdowns' must be a list",)),
    "description-a-list": ConfigFault(None, "description: [a, b]", ("'description' must be a string",)),
    "name-empty": ConfigFault(1, "name: ''", ("'name' must be a non-empty string",)),
    "unknown-top-key": ConfigFault(None, "seed_list: [1]", ("unknown key 'seed_list'", "allowed keys:")),
    "key-twice": ConfigFault(None, "bootstrap_samples: 0", ("key 'bootstrap_samples' given twice (first on line 8)",)),
    "param-twice": ConfigFault(5, "    params: {dir: DIR, limit: 3, limit: 0}", ("key 'limit' given twice",), 5),
    "malformed-yaml": ConfigFault(None, "beam: [5", ("malformed YAML",), 10),
}


@pytest.mark.parametrize("verb", ["validate", "run"])
@pytest.mark.parametrize("case", list(CONFIG_FAULTS), ids=list(CONFIG_FAULTS))
def test_config_fault_is_refused_by_validate_and_run_alike(case, verb, tmp_path, testset, capsys):
    fault = CONFIG_FAULTS[case]
    exp = tmp_path / "exp.yaml"
    text = fault.text.replace("DIR", str(testset)).replace("EXP", str(exp)).replace("EMPTY", str(tmp_path))
    config = write_config(tmp_path, testset, fault.line, text)
    out = tmp_path / "runs"
    argv = ["validate", str(config)] if verb == "validate" else ["run", str(config), "--out", str(out), "--no-progress"]
    status, stdout, stderr = invoke(argv, capsys)
    no_traceback(stdout, stderr)
    assert status == 2, stderr
    assert stderr.count("\n") == 1 and stderr.startswith(f"arena {verb}: error: "), stderr
    line = fault.at or fault.line or 9
    assert f"{config}:{line}" in stderr, stderr
    for fragment in fault.expect:
        assert fragment in stderr, stderr
    assert not out.exists(), "a refused config must leave no run directory"


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        (["--set", "johns.0.params.limit=forty"], ("'limit'", "'forty'")),
        (["--set", "ray.num_cpus=abc"], ("exp.yaml (--set ray.num_cpus): 'ray.num_cpus'", "'abc'")),
        (["--set", "discrepancy=maybe"], ("exp.yaml (--set discrepancy): 'discrepancy'", "boolean")),
        (["--set", "seeds"], ("--set 'seeds': expected key=value",)),
        (["--set", "name.first=x"], ("name is not a mapping or list",)),
    ],
    ids=["limit-forty", "num-cpus-abc", "discrepancy-word", "set-without-value", "set-into-a-string"],
)
def test_override_faults_exit_2(argv, expect, tmp_path, testset, capsys):
    config = write_config(tmp_path, testset)
    status, stdout, stderr = invoke(["validate", str(config), *argv], capsys)
    no_traceback(stdout, stderr)
    assert status == 2 and all(fragment in stderr for fragment in expect), stderr


@pytest.mark.parametrize("verb", ["validate", "run", "tournament"])
def test_run_name_cannot_leave_out(verb, tmp_path, testset, capsys):
    """``--set name=../../x`` is refused by every front end before anything is written."""
    config = write_config(tmp_path, testset)
    out = tmp_path / "a" / "b" / "runs"
    argv = [verb, str(config), "--set", "name=../../escaped"]
    if verb != "validate":
        argv += ["--out", str(out), "--no-progress"] + (["--executor", "in-process"] if verb == "tournament" else [])
    status, stdout, stderr = invoke(argv, capsys)
    no_traceback(stdout, stderr)
    assert status == 2 and "'../../escaped' must be a plain name" in stderr, stderr
    assert not list(tmp_path.rglob("escaped*")) and not out.exists()


def test_fault_free_config_validates_and_runs(tmp_path, testset, capsys):
    """The must-not-fire case: the base config is OK for validate and for run."""
    config = write_config(tmp_path, testset)
    assert invoke(["validate", str(config)], capsys)[0] == 0
    status, stdout, stderr = invoke(["run", str(config), "--out", str(tmp_path / "runs"), "--no-progress"], capsys)
    assert status == 0, stderr
    no_traceback(stdout, stderr)


# -- files the CLI reads or writes ---------------------------------------------------------

@dataclass(frozen=True)
class FileFault:
    argv: Callable[[Path, Path], list[str]]  # (tmp_path, testset) -> argv
    expect: tuple[str, ...]
    setup: Callable[[Path], None] = lambda tmp_path: None
    untouched: tuple[str, ...] = field(default=())  # files under tmp_path that must keep their content


def _file(name: str, text: str = "keep me\n") -> Callable[[Path], None]:
    return lambda tmp_path: (tmp_path / name).write_text(text, encoding="utf-8")


def _dir(name: str) -> Callable[[Path], None]:
    return lambda tmp_path: (tmp_path / name).mkdir()


FILE_FAULTS = {
    "config-missing": FileFault(lambda t, s: ["validate", str(t / "missing.yaml")], ("missing.yaml: file not found",)),
    "config-is-a-directory": FileFault(lambda t, s: ["validate", str(t)], ("is a directory, expected a file",)),
    "config-not-utf8": FileFault(
        lambda t, s: ["validate", str(t / "latin.yaml")], ("latin.yaml:1: not valid UTF-8",),
        lambda t: (t / "latin.yaml").write_bytes("name: Größe\n".encode("latin-1")),
    ),
    "config-a-list": FileFault(
        lambda t, s: ["validate", str(t / "list.yaml")], ("an experiment is a YAML mapping",), _file("list.yaml", "- a\n- b\n")
    ),
    "run-out-is-a-file": FileFault(
        lambda t, s: ["run", str(t / "exp.yaml"), "--out", str(t / "taken"), "--no-progress"],
        ("taken",), _file("taken"), ("taken",),
    ),
    "show-missing-dir": FileFault(lambda t, s: ["show", str(t / "nothing")], ("nothing: no such run directory",)),
    "show-a-file": FileFault(lambda t, s: ["show", str(t / "taken")], ("taken: not a run directory",), _file("taken")),
    "show-dir-without-run": FileFault(lambda t, s: ["show", str(t / "empty")], ("empty: not a run directory",), _dir("empty")),
    "score-missing-dir": FileFault(lambda t, s: ["score", str(t / "nothing")], ("nothing",)),
    "leaderboard-missing-dir": FileFault(lambda t, s: ["leaderboard", str(t / "nothing")], ("nothing",)),
    "score-pairs-out-is-a-dir": FileFault(
        lambda t, s: ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset", str(s),
                      "--out", str(t / "adir")],
        ("adir: is a directory; --out names the file to write",), _dir("adir"),
    ),
    "score-pairs-out-under-a-file": FileFault(
        lambda t, s: ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset", str(s),
                      "--out", str(t / "taken" / "x.scores")],
        ("taken", "is not a directory"), _file("taken"), ("taken",),
    ),
    "score-pairs-testset-missing": FileFault(
        lambda t, s: ["score-pairs", "--claude", "random", "--format", "distil-lingeval", "--testset", str(t / "none"),
                      "--out", str(t / "x.scores")],
        ("none",),
    ),
    "export-out-is-a-file": FileFault(
        lambda t, s: ["export", str(t / "exp.yaml"), "--format", "distil-lingeval", "--out", str(t / "taken")],
        ("taken: is a file; --out names a directory",), _file("taken"), ("taken",),
    ),
    "build-testset-out-is-a-file": FileFault(
        lambda t, s: ["build-testset", "--john", f"distil-lingeval:dir={s}", "--zellig", "placeholder-ding",
                      "--out", str(t / "taken")],
        ("taken: is a file; --out names a directory",), _file("taken"), ("taken",),
    ),
    "evaluate-scores-missing": FileFault(
        lambda t, s: ["evaluate", "--format", "distil-lingeval", "--testset", str(s), "--scores", str(t / "none.scores")],
        ("none.scores",),
    ),
    "corrupt-input-missing": FileFault(
        lambda t, s: ["corrupt", "--zellig", "placeholder-ding", "--input", str(t / "none.txt")], ("none.txt",)
    ),
    "template-spec-missing": FileFault(
        lambda t, s: ["template", "--spec", str(t / "none.json"), "--all"], ("none.json",)
    ),
}


@pytest.mark.parametrize("case", list(FILE_FAULTS), ids=list(FILE_FAULTS))
def test_file_fault_exit_2_naming_the_path(case, tmp_path, testset, capsys):
    fault = FILE_FAULTS[case]
    write_config(tmp_path, testset)
    fault.setup(tmp_path)
    before = {name: (tmp_path / name).read_bytes() for name in fault.untouched}
    status, stdout, stderr = invoke(fault.argv(tmp_path, testset), capsys)
    no_traceback(stdout, stderr)
    assert status == 2, stderr
    assert stderr.rstrip("\n").count("\n") == 0, f"one line expected: {stderr}"
    for fragment in fault.expect:
        assert fragment in stderr, stderr
    for name, content in before.items():
        assert (tmp_path / name).read_bytes() == content


# -- the disk fails under a run ---------------------------------------------------------------

def _transcripts(run_dir: Path) -> dict[str, bytes]:
    return {name: (run_dir / name).read_bytes() for name in ("rounds.jsonl", "judgements.jsonl")}


def test_full_disk_mid_run_exits_2_and_the_rerun_resumes_to_the_same_transcripts(tmp_path, testset, capsys, monkeypatch):
    config = write_config(tmp_path, testset)
    clean = tmp_path / "clean"
    assert invoke(["run", str(config), "--out", str(clean), "--no-progress"], capsys)[0] == 0
    (clean_run,) = clean.iterdir()

    real_fsync = os.fsync
    calls = {"n": 0}

    def fsync(fd: int) -> None:  # the disk fills up after the rounds are written
        calls["n"] += 1
        if calls["n"] > 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    out = tmp_path / "runs"
    monkeypatch.setattr(os, "fsync", fsync)
    status, stdout, stderr = invoke(["run", str(config), "--out", str(out), "--no-progress"], capsys)
    monkeypatch.setattr(os, "fsync", real_fsync)
    no_traceback(stdout, stderr)
    assert status == 2 and "No space left on device" in stderr, stderr
    (run_dir,) = out.iterdir()
    assert str(run_dir) in stderr  # the message names the file it could not write
    assert (run_dir / "rounds.jsonl").exists(), "the rounds planned before the fault are kept"

    status, stdout, stderr = invoke(["run", str(config), "--out", str(out), "--no-progress"], capsys)
    assert status == 0, stderr
    assert "(resumed)" in stdout
    assert _transcripts(run_dir) == _transcripts(clean_run)


def _read_only_dir(path: Path) -> Path:
    """A directory nobody may write into, even root (``chattr +i``); skip where the
    file system cannot make one."""
    path.mkdir()
    path.chmod(0o555)
    probe = path / ".probe"
    try:
        probe.touch()
    except PermissionError:
        return path
    probe.unlink()
    if shutil.which("chattr") and subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0:
        return path
    pytest.skip("cannot make a read-only directory here (root without chattr +i)")


@pytest.fixture
def read_only(tmp_path):
    path = _read_only_dir(tmp_path / "read-only")
    yield path
    if shutil.which("chattr"):
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    path.chmod(0o755)


@pytest.mark.parametrize(
    ("argv", "expect"),
    [
        (lambda t, s, ro: ["run", str(t / "exp.yaml"), "--out", str(ro / "runs"), "--no-progress"], "read-only/runs"),
        (lambda t, s, ro: ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset", str(s),
                           "--out", str(ro / "x.scores")], "cannot write into"),
        (lambda t, s, ro: ["export", str(t / "exp.yaml"), "--format", "distil-lingeval", "--out", str(ro / "e")],
         "cannot write into"),
    ],
    ids=["run", "score-pairs", "export"],
)
def test_read_only_out_exit_2(argv, expect, tmp_path, testset, read_only, capsys):
    write_config(tmp_path, testset)
    status, stdout, stderr = invoke(argv(tmp_path, testset, read_only), capsys)
    no_traceback(stdout, stderr)
    assert status == 2 and expect in stderr and str(read_only) in stderr, stderr


# -- scores survive a failed write; a corrupt cache is named -------------------------------

def test_score_pairs_on_a_full_disk_keeps_the_scores_in_the_cache(tmp_path, testset, capsys, monkeypatch):
    """/dev/full accepts the open and fails the write, as a full disk does."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    argv = ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset", str(testset)]
    status, stdout, stderr = invoke([*argv, "--out", "/dev/full"], capsys)
    no_traceback(stdout, stderr)
    assert status == 2 and "/dev/full: No space left on device" in stderr, stderr

    from performers.claude.score_cache import ScoreCache

    cache = ScoreCache(tmp_path / "cache" / "scores.sqlite")
    assert cache.count_scores() == 2 * len(SOURCES), "the scores computed before the failed write are kept"
    cache.close()
    assert invoke([*argv, "--out", str(tmp_path / "ding.scores")], capsys)[0] == 0
    assert len((tmp_path / "ding.scores").read_text().splitlines()) == 2 * len(SOURCES)


def test_corrupt_score_cache_is_named_and_safe_to_delete(tmp_path, testset, capsys, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "scores.sqlite").write_bytes(b"this is no SQLite database, but it is long enough to be read" * 20)
    monkeypatch.setenv("ARENA_CACHE_DIR", str(cache))
    argv = ["score-pairs", "--claude", "toy-en-de", "--format", "distil-lingeval", "--testset", str(testset),
            "--out", str(tmp_path / "ding.scores")]
    status, stdout, stderr = invoke(argv, capsys)
    no_traceback(stdout, stderr)
    assert status == 2, stderr
    assert f"{cache / 'scores.sqlite'}: the score cache is corrupt" in stderr and "safe to delete" in stderr


# -- a closed pipe ends quietly -----------------------------------------------------------------

def _arena(*argv: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", *argv]


@pytest.mark.parametrize(
    "argv",
    [
        lambda t: ["ls", "zelligs", "--params"],
        lambda t: ["corrupt", "--zellig", "placeholder-ding", "--input", str(t / "many.txt")],
        lambda t: ["--help"],
    ],
    ids=["ls", "corrupt", "help"],
)
def test_closed_pipe_ends_quietly(argv, tmp_path):
    (tmp_path / "many.txt").write_text("Das Ding ist neu.\n" * 3000, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    producer = subprocess.Popen(_arena(*argv(tmp_path)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=REPO)
    producer.stdout.readline()  # read one line, then hang up, as `| head -1` does
    producer.stdout.close()
    stderr = producer.stderr.read().decode()
    status = producer.wait(timeout=120)
    no_traceback(stderr)
    assert "BrokenPipe" not in stderr and "Exception ignored" not in stderr, stderr
    assert status in (0, 141), stderr
