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
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.engine.core import RunResult
from arena.errors import ConfigError, UsageError
from arena.record.run_dir import RunDir
from arena.specs.config import Experiment

if TYPE_CHECKING:
    from arena.engine.backends import Backend
    from arena.record.manifest import Manifest
    from arena.record.rounds import Round
    from arena.specs.registry import Catalog
    from arena.stats.results import Scores

logger = logging.getLogger(__name__)


@dataclass(kw_only=True)
class Finished(RunResult):
    """A run the engine played (:class:`~arena.engine.core.RunResult`: backend, cells, time, work) and
    :func:`finish` scored: ``scores.json`` as typed results (:class:`arena.stats.results.Scores`), the ones it
    derived and wrote, or read back (validated) when the run was finished before."""

    scores: Scores


@dataclass
class Run:
    """A finished run directory (its :class:`~arena.record.run_dir.RunDir`, verified) and its
    results; :func:`run` also says what it did (``already_finished``, ``resumed``, the reports
    it wrote)."""

    record: RunDir
    already_finished: bool = False  # run(): the run was finished before this call
    resumed: bool = False  # run(): an interrupted run was resumed
    reports: tuple[Path, ...] = ()  # run(): report.md and report.html, when written now
    _scores: Scores | None = field(default=None, repr=False)  # run(): the scores finish() derived or read

    @property
    def run_dir(self) -> Path:
        return self.record.path

    @property
    def manifest(self) -> Manifest:
        """``manifest.json`` (:class:`arena.record.manifest.Manifest`)."""
        return self.record.manifest

    @property
    def scores(self) -> Scores:
        """``scores.json`` as typed results (:class:`arena.stats.results.Scores`, read and validated once by
        pydantic: :func:`arena.stats.results.read_scores`, or handed on by :func:`run` as
        :func:`finish` derived them); ``arena.codec.dump(run.scores)`` gives its JSON values back."""
        if self._scores is None:
            from arena.stats.results import read_scores

            self._scores = read_scores(self.run_dir)
        return self._scores

    @property
    def signature(self) -> str:
        return self.scores.signature

    @cached_property
    def _tables(self) -> dict[str, Any]:
        from arena.present.tidy import tables

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

    def to_frame(self):
        """The cells (one row per John × Zellig × Claude × seed) as a pandas DataFrame."""
        return self.cells

    def _repr_html_(self) -> str:  # Jupyter
        from arena.run_view import run_html

        return run_html(self)

    def records(self) -> list[dict[str, Any]]:
        """The rounds as plain dicts (no pandas needed)."""
        from arena.present.tidy import round_rows

        return round_rows(self.run_dir)


def load_run(path: str | Path) -> Run:
    """A finished run directory (of ``arena run``, ``arena tournament`` or :func:`run`); a damaged
    run is refused, naming file and line (verified streamed)."""
    return Run(RunDir.open(path, finished=True))


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


def score_pairs(pairs: Any, claude: Any = "toy-en-de", *, tokens: bool = False,
                columns: str | Mapping[str, str] | None = None):
    """Score minimal pairs (a path, a DataFrame or a list of dicts with ``source``,
    ``correct``, ``incorrect``) with one scoring Claude (a SPEC, a mapping or a built
    Claude): a pandas DataFrame, one row per pair; ``tokens=True`` adds per-token
    log-probabilities (columns in :mod:`arena.pairs_api`, docs/api.md)."""
    from arena import pairs_api

    return pairs_api.score_pairs(pairs, claude, catalog(), tokens=tokens, columns=columns)


def run_pairs(pairs: Any, claude: str | Sequence[str] = "toy-en-de", **kwargs: Any) -> Run:
    """Play minimal pairs in the arena (the ``pairs`` John, the ``replay`` Zellig) against
    the Claudes and return the :class:`Run` (see :func:`arena.pairs_api.run_pairs`)."""
    from arena import pairs_api

    return pairs_api.run_pairs(pairs, claude, run, **kwargs)


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
) -> Finished:
    """Play (or resume) ``experiment`` under ``out`` on ``backend`` (default: the
    config's ``executor``) with the shipped catalog (or ``performers``), the game
    driving the engine when the experiment has a schedule or performers that observe or
    choose, and score it: the engine's :class:`~arena.engine.core.RunResult` with the run's typed
    scores (:class:`Finished`)."""
    return _played(experiment, out, backend, address=address, num_cpus=num_cpus, progress=progress,
                   performers=performers)[0]


def _played(
    experiment: Experiment, out: str | Path, backend: str | Backend | None, *, address: str | None = None,
    num_cpus: int | None = None, progress: bool = False, performers: Catalog | None = None,
) -> tuple[Finished, RunDir]:
    """:func:`play`, and the run directory it verified and scored."""
    from arena import engine
    from arena.game.play import driver_for

    chosen = catalog() if performers is None else performers
    result = engine.run(
        experiment, chosen, Path(out), experiment.executor if backend is None else backend,
        address=address, num_cpus=num_cpus, progress=progress, driver=driver_for(experiment, chosen, progress),
    )
    record = RunDir(result.run_dir)
    return finish(result, record, experiment), record


def finish(result: RunResult, record: RunDir | None = None, experiment: Experiment | None = None) -> Finished:
    """Score a run the engine played (:func:`arena.engine.run`): ``scores.json``, the finished
    marker, derived from its transcripts in one streamed pass (:func:`arena.stats.streamed.score_run`)
    as typed results, written from them under the run's lock and kept; a finished run's scores are read
    (:func:`arena.stats.results.read_scores`).  ``record``: the run's
    :class:`~arena.record.run_dir.RunDir` to verify and read through (made here by default).  A run
    in which no round was judged is not marked finished (:func:`arena.stats.no_rounds.check_judged`,
    naming ``experiment``'s config, by default the run's own)."""
    from arena.record.store import RunStore
    from arena.stats.no_rounds import check_judged
    from arena.stats.results import read_scores, write_scores
    from arena.stats.streamed import score_run

    record = RunDir(result.run_dir) if record is None else record
    with RunStore(result.run_dir).locked():
        if record.finished:
            scores = read_scores(record.path)
        else:
            scores = score_run(record)
            check_judged(record.experiment if experiment is None else experiment, scores)
            write_scores(record.path, scores)
    played = {name: value for name, value in vars(result).items() if name != "scores"}
    return Finished(**played, scores=scores)


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
    result, record = _played(experiment, out, None, progress=progress)  # verified and scored in one reading
    reports: tuple[Path, ...] = ()
    if report:
        from arena.present.report import MARKDOWN, write_reports

        if not result.already_finished or not (result.run_dir / MARKDOWN).exists():
            reports = tuple(write_reports([result.run_dir], cues=surface_cues()))
    record.verify()  # a finished run that was not scored now: verified here, before it is handed out
    return Run(record, result.already_finished, result.resumed, reports, result.scores)


def cue_factories(names: Sequence[str] | None = None, strict: bool = True) -> dict[str, Callable[[], Any]]:
    """Builders of the surface-cue Claudes ``names`` (default: the catalog's ``SURFACE_CUES``:
    ``length``, ``edit-words``, ``target-lm``; see docs/cues.md).  A cue that cannot be built is an
    error, or (``strict=False``, for reports) left out with a warning.  A fitted cue is built anew
    for every cross-validation fold; one that is not fitted (``target-lm``) once."""
    from arena.errors import ArenaError, UsageError
    from arena.roles import Fittable
    from arena.specs.registry import build, validate
    from arena.specs.spec import PerformerSpec
    from performers.catalog import SURFACE_CUES

    result: dict[str, Callable[[], Any]] = {}
    for name in names or SURFACE_CUES:
        spec = PerformerSpec(name, {})
        validate("claude", spec, catalog(), where=f"--cue {name}")
        if name not in SURFACE_CUES:
            raise UsageError(f"--cue {name}: not a surface Claude; choose from {', '.join(SURFACE_CUES)}", key="--cue")
        try:
            built = build("claude", spec, catalog(), where=f"cue {name}")
        except ArenaError as error:
            if strict:
                raise
            logger.warning("surface cue %s left out: %s", name, error)
            continue
        result[name] = _builder(spec) if isinstance(built, Fittable) else _built(built)
    return result


def _built(claude: Any) -> Callable[[], Any]:
    return lambda: claude


def _builder(spec: Any) -> Callable[[], Any]:
    from arena.specs.registry import build

    return lambda: build("claude", spec, catalog())


def surface_cues(strict: bool = False) -> Any:
    """The catalog's surface Claudes for a report's *Surface cues* section (a cue that cannot be
    built, e.g. ``target-lm`` without its corpus, is left out with a warning)."""
    from arena.present.cues import SurfaceCues
    from performers.catalog import NOT_COMPARED_WITH_CUES

    return SurfaceCues(cue_factories(strict=strict), NOT_COMPARED_WITH_CUES)


def audit_cues(path: str | Path, format: str | None = None, cues: Sequence[str] | None = None,
               kinds: Sequence[str] | None = None, folds: int = 5, seed: int = 0) -> list[dict[str, Any]]:
    """The surface-cue audit of ``arena cues`` as data: one object per set (or Zellig) and
    phenomenon, with each cue's out-of-fold accuracy, the ``strong`` cues, their ``kinds``
    (``nuisance``, ``edit-identity``, ``target-only``; :mod:`arena.stats.cue_kinds`), ``enough``
    (n ≥ 30) and ``confounded`` (a strong nuisance cue and enough pairs).  ``path``: a
    DistilLingEval set (or directory of sets), a LingEval97 JSON file, or a run directory;
    ``format`` as ``arena cues --format`` (default: guessed); ``kinds`` keeps the cues of those kinds."""
    from arena.stats import cue_items, cue_kinds
    from arena.stats import cues as audit
    from performers.catalog import NOT_COMPARED_WITH_CUES

    path = Path(path)
    if format is None:
        format = "run" if (path / "manifest.json").is_file() else "lingeval97" if path.is_file() else "distil-lingeval"
    names = list(cues or cue_kinds.KINDS)
    for kind in kinds or ():
        cue_kinds.check_kind(kind, names, key="kinds")
    if kinds:
        names = [n for n in names if cue_kinds.kind_of(n) in kinds]
    data = cue_items.load(format, path, NOT_COMPARED_WITH_CUES)
    from arena.codec import dump

    return [dump(table.record()) for table in audit.audit(data, cue_factories(names), folds=folds, seed=seed)]


def performer(role: str, spec: str | Mapping[str, Any]):
    """Build a performer of the catalog (or a ``module:Class``) from a SPEC string
    (``"random:seed=3"``, ``"hf-seq2seq:model=Helsinki-NLP/opus-mt-en-de"``) or a
    ``{name, params}`` mapping; ``role`` is ``john``, ``zellig`` or ``claude``."""
    from arena.specs.registry import build
    from arena.specs.spec import spec_from_mapping

    parsed = spec_from_mapping(spec, where=f"{role} spec")
    return build(role, parsed, catalog(), where=f"{role} {parsed.label}")
