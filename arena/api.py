"""The Python API: run an experiment, load a run, build a performer.

::

    import arena

    run = arena.run(john="distil-lingeval:dir=../shared/data/distil-lingeval/placeholder_ding.human,limit=50",
                    zellig="replay", claude=["toy-en-de", "random"])
    run.signature            # the one-line signature of every number below
    run.cells                # pandas: one row per John × Zellig × Claude × seed (S, CIs, accuracy, …)
    run.rounds               # pandas: one row per judged round × Claude
    run.leaderboards         # pandas: the three leaderboards with their paired tests
    arena.load_run(run.run_dir)            # the same from a run directory, later
    arena.performer("claude", "random:seed=3").judge(pairs)

``arena run`` calls :func:`run` (same run directory, resume, report); ``arena tournament``
calls :func:`play`, which plays a run with the game driving the engine when the
experiment has one (:func:`arena.game.play.driver_for`).  This module and the CLI are
the top layer: the only ones that hand the catalog of :mod:`performers` to the framework
(:func:`catalog`).  The tables are those of ``arena export --format csv|parquet|jsonl``
(columns in ``docs/exports.md``).  Data frames need pandas; everything else does not.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError, UsageError
from arena.specs.config import Experiment

if TYPE_CHECKING:
    from arena.engine.backends import Backend
    from arena.engine.core import RunResult
    from arena.engine.match import Round
    from arena.specs.registry import Catalog


@dataclass
class Run:
    """A finished run directory and its results; :func:`run` also says what it did
    (``already_finished``, ``resumed``, the reports it wrote)."""

    run_dir: Path
    manifest: dict[str, Any] = field(repr=False)
    scores: dict[str, Any] = field(repr=False)
    already_finished: bool = False  # run(): the run was finished before this call
    resumed: bool = False  # run(): an interrupted run was resumed
    reports: tuple[Path, ...] = ()  # run(): report.md and report.html, when written now

    @property
    def signature(self) -> str:
        return self.scores.get("signature", "")

    @cached_property
    def _tables(self) -> dict[str, Any]:
        from arena.formats.tidy import tables

        return tables(self.run_dir)

    @property
    def rounds(self):
        """One row per judged round × Claude (a pandas DataFrame)."""
        return self._tables["rounds"]

    @property
    def cells(self):
        """One row per John × Zellig × Claude × seed of ``scores.json`` (a pandas DataFrame)."""
        return self._tables["cells"]

    @property
    def leaderboards(self):
        """One row per leaderboard entry (a pandas DataFrame)."""
        return self._tables["leaderboards"]

    def records(self) -> list[dict[str, Any]]:
        """The rounds as plain dicts (no pandas needed)."""
        from arena.formats.tidy import round_rows

        return round_rows(self.run_dir)


def load_run(path: str | Path) -> Run:
    """A finished run directory (of ``arena run``, ``arena tournament`` or :func:`run`)."""
    from arena.engine import transcripts

    run_dir = Path(path)
    if not transcripts.is_finished(run_dir):
        raise UsageError(f"{run_dir}: not a finished run (no {transcripts.SCORES}); finish or resume it first")
    from arena.engine.verify import load_run as verified

    manifest = verified(run_dir).manifest  # a damaged run is refused, naming file and line
    scores = transcripts.read_json(run_dir / transcripts.SCORES)
    return Run(run_dir, manifest, scores)


def experiment_of(
    config: str | Path | Mapping[str, Any] | Experiment | None = None,
    *,
    john: str | Sequence[str] | None = None,
    zellig: str | Sequence[str] | None = None,
    claude: str | Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Experiment:
    """An experiment from a YAML path, a mapping as the YAML holds, an :class:`Experiment`,
    or SPECs (``john``, ``zellig``, ``claude``: a SPEC or a list of SPECs); ``options``
    sets further keys (dotted as ``--set``: ``{"seeds": [1, 2], "claudes.0.params.device": "cuda"}``)."""
    from arena.specs.config import apply_overrides, experiment_from_dict
    from arena.specs.yamlio import load_yaml, yaml_key_lines

    if isinstance(config, Experiment):
        if options or john or zellig or claude:
            raise UsageError("give options and SPECs with a path or mapping, not with an Experiment")
        return config
    path, lines = "<arena.run>", None
    if config is None:
        if not (john and zellig and claude):
            raise UsageError("arena.run: give a config, or all of john=, zellig= and claude= SPECs")
        data: dict[str, Any] = {"name": "run", "johns": _listed(john), "zelligs": _listed(zellig),
                                "claudes": _listed(claude)}
    elif isinstance(config, Mapping):
        data = json.loads(json.dumps(dict(config)))
    else:
        path = str(config)
        data = load_yaml(Path(config))
        lines = yaml_key_lines(Path(config))
    if (john or zellig or claude) and config is not None:
        raise UsageError("arena.run: give either a config or john=/zellig=/claude= SPECs, not both")
    if options:
        if not isinstance(data, dict):
            raise UsageError(f"{path}: an experiment is a YAML mapping")
        data = apply_overrides(data, [f"{key}={json.dumps(value)}" for key, value in options.items()])
    return experiment_from_dict(data, path, lines)


def _listed(specs: str | Sequence[str]) -> list[str]:
    return [specs] if isinstance(specs, str) else list(specs)


def catalog() -> Catalog:
    """The catalog of the performers shipped with the project (:mod:`performers.catalog`)."""
    from performers.catalog import CATALOG

    return CATALOG


def play(
    experiment: Experiment,
    out: str | Path = "runs",
    backend: str | Backend | None = None,
    *,
    address: str | None = None,
    num_cpus: int | None = None,
    progress: bool = False,
    performers: Catalog | None = None,
) -> RunResult:
    """Play (or resume) ``experiment`` under ``out`` on ``backend`` (default: the
    config's ``executor``) with the shipped catalog (or ``performers``), the game
    driving the engine when the experiment has a schedule or performers that observe or
    choose; the engine's :class:`~arena.engine.core.RunResult`."""
    from arena import engine
    from arena.game.play import driver_for

    chosen = catalog() if performers is None else performers
    return engine.run(
        experiment, chosen, Path(out), experiment.executor if backend is None else backend,
        address=address, num_cpus=num_cpus, progress=progress, driver=driver_for(experiment, chosen, progress),
    )


def prepare(
    experiment: Experiment, out: str | Path = "runs", *, progress: bool = False, performers: Catalog | None = None
) -> tuple[Path, list[Round]]:
    """Plan a run without playing it (people judge its rounds: ``arena play``, ``arena
    serve``); its run directory and rounds.  A game is refused: it is planned block by
    block while it is played."""
    from arena import engine
    from arena.game.play import schedule_of

    chosen = catalog() if performers is None else performers
    if schedule_of(experiment, chosen) is not None:
        raise ConfigError(f"{experiment.source or 'config'}: a game (schedule, or a performer that chooses or "
                         "observes) is planned block by block while it is played; people judge static runs only")
    return engine.prepare(experiment, chosen, Path(out), progress)


def run(
    config: str | Path | Mapping[str, Any] | Experiment | None = None,
    *,
    john: str | Sequence[str] | None = None,
    zellig: str | Sequence[str] | None = None,
    claude: str | Sequence[str] | None = None,
    options: Mapping[str, Any] | None = None,
    out: str | Path = "runs",
    progress: bool = False,
    report: bool = True,
) -> Run:
    """Play an experiment (see :func:`experiment_of` for the ways to give one) into a run
    directory under ``out`` and return its :class:`Run`; a finished run is loaded, not
    played again.  ``report`` writes ``report.md`` and ``report.html`` (unless a finished
    run has them already).  ``arena run`` is this function."""
    experiment = experiment_of(config, john=john, zellig=zellig, claude=claude, options=options)
    result = play(experiment, out, progress=progress)
    reports: tuple[Path, ...] = ()
    if report:
        from arena.present.report import MARKDOWN, write_reports

        if not result.already_finished or not (result.run_dir / MARKDOWN).exists():
            reports = tuple(write_reports([result.run_dir]))
    loaded = load_run(result.run_dir)
    return Run(loaded.run_dir, loaded.manifest, loaded.scores, result.already_finished, result.resumed, reports)


def performer(role: str, spec: str | Mapping[str, Any]):
    """Build a performer of the catalog (or a ``module:Class``) from a SPEC string
    (``"random:seed=3"``, ``"hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de"``) or a
    ``{name, params}`` mapping; ``role`` is ``john``, ``zellig`` or ``claude``."""
    from arena.specs.registry import build
    from arena.specs.spec import spec_from_mapping

    parsed = spec_from_mapping(spec, where=f"{role} spec")
    return build(role, parsed, catalog(), where=f"{role} {parsed.label}")
