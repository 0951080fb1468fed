"""``mt-reference`` John: a base John's instances with machine translations as references.

Vamvas & Sennrich (2021) show that minimal pairs built on human references sit far
from what a model generates, and pairs built on machine translations sit close.  This
John replaces each human reference of a base John (``newstest`` or any other) by a
machine translation of the same source and keeps the human one in
``meta["human_reference"]``, so that the paper's validation step
(:mod:`performers.john.validation`) can compare the two.

Two sources of machine translations:

(a) ``outputs``: a directory of line-aligned MT output files per WMT year, in the
    layout of ``../shared/data/wmt/mt-outputs``: ``wmtYY.en`` (sources), ``wmtYY.de``
    (human references) and ``wmtYY.<system>.de`` per system (``google``,
    ``microsoft``, ``bergamot-base``, ``bergamot-tiny``).  A base instance is matched
    by its source text (whitespace-normalised) in the files of its ``meta["year"]``
    (or of every year in the directory when the base gives none), since a WMT year's
    files need not have the base's line order (``wmt09`` holds newstest2009 and
    newssyscomb2009, interleaved).  Where a source occurs on several lines, the line
    whose human reference equals the base reference wins.  Each instance gets the
    output of one system, picked per sentence by a hash of ``seed`` and the instance
    id — a deterministic mix with equal shares in expectation, as the paper mixed
    four commercial systems 25% each; ``systems: [google]`` uses one system.
(b) ``claude``: a scoring Claude's own ``translate`` (the evaluated model, or a
    teacher), beam ``beam``; translations are cached in the JSON-lines file ``cache``
    (keyed by the Claude's signature, beam and source), so a second build costs
    nothing (the Claude is not even built) and an interrupted one resumes.  The whole
    base pool is translated.

Metadata: ``reference_kind: machine``, ``system`` (the MT system or the Claude's
label), ``human_reference``, ``reference_length`` (words of the MT reference),
``mt_origin`` (``wmt09.17``: file and line of the output, for (a)).  Ids and every
other metadata key are the base instance's, so human- and MT-reference test sets of
the same sentences can be paired.

Base instances for which no machine translation exists (a year without output files,
such as 2014; a source missing from its year's files; an empty translation) are
skipped, logged and counted in :attr:`MTReferenceJohn.report`, or, with
``missing="error"``, rejected.  Bad or misaligned output files are ``ValueError``
naming the file and line.

Example: ``mt-reference:john="newstest:dir=../shared/data/wmt/newstest,years=2009-2016",outputs=../shared/data/wmt/mt-outputs``
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from annotated_types import MinLen

from arena.sdk import (
    Check,
    ConfigError,
    DataError,
    ExistingDir,
    Instance,
    Name,
    NestedTranslatingClaude,
    Performer,
    PositiveInt,
    dump,
    read_lines,
)
from performers.john.newstest import word_count
from performers.john.translation_cache import TranslationCache
from performers.nested import build_nested

logger = logging.getLogger(__name__)

MISSING_POLICIES = ("skip", "error")
_SYSTEM_FILE = re.compile(r"^wmt(\d\d)\.(.+)\.de$")


def normalise(text: str) -> str:
    """Whitespace-normalised text (every run of Unicode whitespace → one space), the
    key for finding a base instance's source in the MT output files."""
    return " ".join(text.split())


def pick_system(systems: Sequence[str], seed: int, instance_id: str) -> str:
    """The system whose output becomes the reference of ``instance_id``: a hash of seed
    and id, so the choice of one sentence never depends on any other."""
    digest = hashlib.sha256(f"{seed}/{instance_id}".encode()).digest()
    return systems[int.from_bytes(digest[:8], "big") % len(systems)]


@dataclass
class OutputYear:
    """The line-aligned files of one WMT year and an index of its sources."""

    year: int
    sources: list[str]
    humans: list[str]
    outputs: dict[str, list[str]]
    files: dict[str, Path]
    index: dict[str, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for number, source in enumerate(self.sources):
            self.index.setdefault(normalise(source), []).append(number)

    @property
    def name(self) -> str:
        return f"wmt{self.year % 100:02d}"

    def find(self, source: str, human: str | None = None) -> int | None:
        """The 0-based line of ``source`` (preferring the line whose human reference is
        ``human``), or ``None``."""
        lines = self.index.get(normalise(source))
        if not lines:
            return None
        if human is not None and len(lines) > 1:
            wanted = normalise(human)
            for line in lines:
                if normalise(self.humans[line]) == wanted:
                    return line
        return lines[0]


class MTOutputs:
    """A directory of MT outputs in the ``wmtYY.{en,de,<system>.de}`` layout, read
    lazily per year."""

    def __init__(self, directory: str | Path, systems: Sequence[str] | None = None):
        self.directory = Path(directory)
        if not self.directory.is_dir():
            raise DataError(f"{self.directory}: not a directory (expected wmtYY.en, wmtYY.de, wmtYY.SYSTEM.de)")
        self.systems = tuple(systems) if systems else None
        self._years: dict[int, OutputYear | None] = {}

    def available_years(self) -> list[int]:
        years = []
        for path in sorted(self.directory.glob("wmt??.en")):
            digits = path.name[3:5]
            if digits.isdigit():
                years.append(2000 + int(digits))
        return years

    def locate(self, instance: Instance) -> tuple[OutputYear, int] | str:
        """The year's files and 0-based line of an instance's source (its
        ``meta["year"]``, else every year), or why there is none:
        ``source_not_in_outputs`` or ``no_output_files_for_year``."""
        year = instance.meta.get("year")
        had_files = False
        for candidate in [year] if isinstance(year, int) else self.available_years():
            files = self.year(candidate)
            if files is None:
                continue
            had_files = True
            line = files.find(instance.source, instance.reference)
            if line is not None:
                return files, line
        return "source_not_in_outputs" if had_files else "no_output_files_for_year"

    def systems_of(self, year: int) -> list[str]:
        """The systems with an output file for ``year`` (sorted)."""
        names = []
        for path in self.directory.glob(f"wmt{year % 100:02d}.*.de"):
            match = _SYSTEM_FILE.match(path.name)
            if match:
                names.append(match.group(2))
        return sorted(names)

    def year(self, year: int) -> OutputYear | None:
        """The files of ``year``, checked; ``None`` when the directory has no
        ``wmtYY.en`` for it."""
        if year not in self._years:
            self._years[year] = self._load(year)
        return self._years[year]

    def _load(self, year: int) -> OutputYear | None:
        stem = f"wmt{year % 100:02d}"
        source_path = self.directory / f"{stem}.en"
        if not source_path.exists():
            return None
        systems = list(self.systems) if self.systems else self.systems_of(year)
        if not systems:
            raise DataError(f"{self.directory}: no MT output file {stem}.SYSTEM.de for year {year}")
        files = {"source": source_path, "human": self.directory / f"{stem}.de"}
        files.update({system: self.directory / f"{stem}.{system}.de" for system in systems})
        for name, path in files.items():
            if not path.is_file():
                known = ", ".join(self.systems_of(year)) or "none"
                hint = f" (systems with outputs for {year}: {known})" if name not in ("source", "human") else ""
                raise DataError(f"{path}: file not found{hint}")
        columns = {name: read_lines(path) for name, path in files.items()}
        count = len(columns["source"])
        for name, lines in columns.items():
            if len(lines) != count:
                shorter, longer = (files[name], source_path) if len(lines) < count else (source_path, files[name])
                raise DataError(
                    f"{shorter}: ends after line {min(len(lines), count)}, but {longer.name} has line "
                    f"{min(len(lines), count) + 1}; the files of {stem} must be line-aligned "
                    f"({source_path.name}: {count} lines, {files[name].name}: {len(lines)} lines)"
                )
        outputs = {system: columns[system] for system in systems}
        return OutputYear(year, columns["source"], columns["human"], outputs, files)


def repairs_problem(path: str) -> str | None:
    """Why a ``repairs`` patch file cannot be applied (``None`` when it can, or does not exist
    yet): it is read as the John reads it, so ``validate`` refuses what ``run`` would."""
    from arena.sdk import read_repairs

    if Path(path).exists():
        read_repairs(path)  # a bad line is an ArenaError naming file, line and key
    return None


class MTReferenceJohn:
    """A base John's instances with machine-translated references (see module docstring).

    Params: ``john`` (the base John, a SPEC), ``outputs``, ``systems`` (the MT systems
    to draw references from; default: all with outputs), ``seed`` (which system
    translates which instance), ``claude``, ``beam`` (beam size of the Claude's
    translations), ``cache``, ``batch_size`` (sources per translate call), ``missing``,
    ``progress`` (show progress bars), ``repairs`` (a patch file of manual repairs of
    flagged references, written by ``arena repair``: fixed references replace the machine
    translation, rejected instances are left out; counts in ``report["repairs"]``)."""

    version = "1"

    def __init__(
        self,
        john: Annotated[Any, Performer("john")],
        outputs: ExistingDir | None = None,
        systems: Annotated[list[Name], MinLen(1)] | Name | None = None,
        seed: int = 1,
        claude: NestedTranslatingClaude = None,
        beam: PositiveInt = 5,
        cache: str | None = None,
        batch_size: PositiveInt = 64,
        missing: Literal["skip", "error"] = "skip",
        progress: bool = True,
        repairs: Annotated[str, Check(repairs_problem)] | None = None,
    ):
        # the params' types and ranges (their annotations) and the rules over several of them
        # (check_params) are checked by the registry before the John is built
        if isinstance(systems, str):
            systems = [systems]
        self.john_spec = john
        self.outputs = MTOutputs(outputs, systems) if outputs is not None else None
        self.systems = systems
        self.seed = seed
        self.claude_spec = claude
        self.beam = beam
        self.cache_path = cache
        self.batch_size = batch_size
        self.missing = missing
        self.progress = progress
        self.repairs = repairs  # a patch file of manual repairs (performers/john/repairs.py); may not exist yet
        self.report: dict[str, Any] = {}
        # the base John is built now, so that a bad nested spec fails at construction
        self._base_spec, self._base = build_nested("john", john, where="mt-reference: john")

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """The rules over several params (:class:`arena.roles.ParamsChecked`): one source of
        translations, and ``systems`` only with output files."""
        outputs, claude = params.get("outputs"), params.get("claude")
        if (outputs is None) == (claude is None):
            return "mt-reference needs exactly one source of translations: 'outputs' (a directory) or 'claude'"
        if params.get("systems") is not None and claude is not None:
            return "'systems' chooses among output files; it does not go with 'claude'"
        return None

    def instances(self) -> Iterator[Instance]:
        base = list(self._base.instances())
        skipped: Counter[str] = Counter()
        systems: Counter[str] = Counter()
        examples: dict[str, list[str]] = {}
        if self.outputs is not None:
            references = self._from_outputs(base)
        else:
            references = self._from_claude(base)
        result = []
        for instance, (reference, system, extra, reason) in zip(base, references):
            if reason is not None:
                if self.missing == "error":
                    raise ConfigError(f"mt-reference: no machine translation for {instance.id}: {reason}")
                skipped[reason] += 1
                examples.setdefault(reason, []).append(instance.id)
                continue
            if instance.meta.get("reference_kind") == "machine":
                raise ConfigError(f"mt-reference: base instance {instance.id} already has a machine reference")
            meta = dict(instance.meta)
            meta.update(
                {
                    "reference_kind": "machine",
                    "system": system,
                    "human_reference": instance.reference,
                    "reference_length": word_count(reference),
                    **extra,
                }
            )
            systems[system] += 1
            result.append(Instance(instance.id, instance.source, reference, meta))
        for reason, count in sorted(skipped.items()):
            logger.warning(
                "mt-reference: skipped %d of %d base instances (%s), e.g. %s",
                count, len(base), reason, ", ".join(examples[reason][:3]),
            )
        repaired: Counter[str] = Counter()
        if self.repairs is not None:
            from arena.sdk import read_repairs
            from performers.john.repairs import apply_repairs

            result = list(apply_repairs(result, read_repairs(self.repairs), repaired))
        self.report = {
            "base": len(base),
            "yielded": len(result),
            "skipped": dict(sorted(skipped.items())),
            "systems": dict(sorted(systems.items())),
            "repairs": dict(sorted(repaired.items())),
        }
        yield from result

    def _from_outputs(self, base: Sequence[Instance]) -> list[tuple[str, str, dict, str | None]]:
        assert self.outputs is not None
        result: list[tuple[str, str, dict, str | None]] = []
        for instance in base:
            found = self.outputs.locate(instance)
            if isinstance(found, str):
                result.append(("", "", {}, found))
                continue
            files, line = found
            systems = sorted(files.outputs)
            system = pick_system(systems, self.seed, instance.id)
            reference = files.outputs[system][line].strip()
            result.append((reference, system, {"mt_origin": f"{files.name}.{line + 1}"}, None))
        return result

    def _from_claude(self, base: Sequence[Instance]) -> list[tuple[str, str, dict, str | None]]:
        from arena.sdk import progress_bar, signature, spec_from_mapping
        from performers.catalog import CATALOG

        spec = spec_from_mapping(self.claude_spec, where="mt-reference: claude")
        cache = TranslationCache(self.cache_path, signature("claude", spec, CATALOG), self.beam)
        todo = list(dict.fromkeys(i.source for i in base if cache.get(i.source) is None))
        logger.info("mt-reference: %d sources to translate with %s (%d cached)", len(todo), spec.label, len(base) - len(todo))
        if todo:  # the Claude (a model) is only built when something is not cached
            _, claude = build_nested("claude", dump(spec), where="mt-reference: claude")
            if not callable(getattr(claude, "translate", None)):
                raise ConfigError(f"mt-reference: Claude {spec.label} cannot translate (it has no translate method)")
            with progress_bar(total=len(todo), desc=f"translate {spec.label}", enabled=self.progress) as bar:
                for start in range(0, len(todo), self.batch_size):
                    chunk = todo[start : start + self.batch_size]
                    translations = claude.translate(chunk, beam=self.beam)
                    if not isinstance(translations, list) or len(translations) != len(chunk):
                        got = len(translations) if isinstance(translations, list) else type(translations).__name__
                        raise ConfigError(
                            f"mt-reference: Claude {spec.label} returned {got} translations for {len(chunk)} sources"
                        )
                    cache.add([(source, normalise(str(text))) for source, text in zip(chunk, translations)])
                    bar.update(len(chunk))
        result: list[tuple[str, str, dict, str | None]] = []
        for instance in base:
            translation = cache.get(instance.source) or ""
            if not translation:
                result.append(("", "", {}, "empty_translation"))
            else:
                result.append((translation, spec.label, {"beam": self.beam}, None))
        return result
