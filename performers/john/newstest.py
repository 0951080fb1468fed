"""``newstest`` John: the WMT English→German news test sets as line-aligned files.

A directory holds ``newstestYYYY.en`` and ``newstestYYYY.de`` per year (as
``../shared/data/wmt/newstest`` does for 2009–2020, and as sacrebleu or the
OPUS-MT-testsets collection ship them).  ``years`` picks the years; each line pair
becomes one :class:`~arena.records.Instance`:

- ``id``: ``newstest2009.17`` — test set and 1-based line, exactly LingEval97's
  ``origin`` field;
- ``meta``: ``origin`` (``newstest2009``, the test set: the unit of stratification),
  ``line`` (17), ``year`` (2009), ``reference_kind`` (``human``), ``length`` (words of
  the source, split at whitespace) and ``reference_length`` (words of the reference).

Files must be UTF-8, line-aligned and free of empty lines; anything else is a
``ValueError`` naming the file and line (:func:`performers.john.parallel_text.read_aligned`).
Instances come in year order, then line order; ``limit`` keeps the first ``limit``
lines of each year (for smoke runs).

``years`` accepts ``2009``, ``"2009-2016"``, ``"2009,2011,2013"`` or a list of those
(``[2009, "2011-2013"]``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

from arena.sdk import Check, ConfigError, DataError, ExistingDir, Instance, PositiveInt, take
from performers.john.parallel_text import read_aligned

_RANGE = re.compile(r"^\s*(\d{4})\s*-\s*(\d{4})\s*$")


def parse_years(years: Any, where: str = "years") -> tuple[int, ...]:
    """Years as a sorted tuple without duplicates, from an int, a ``"2009-2016"`` range,
    a comma-separated string or a list of those.  Bad values are ``ValueError``."""
    items: Iterable[Any]
    if isinstance(years, bool):
        raise ConfigError(f"{where}: expected a year, a range like '2009-2016' or a list, not {years!r}")
    if isinstance(years, int):
        items = [years]
    elif isinstance(years, str):
        items = [part for part in years.split(",") if part.strip()]
    elif isinstance(years, (list, tuple)):
        items = years
    else:
        raise ConfigError(f"{where}: expected a year, a range like '2009-2016' or a list, not {type(years).__name__}")
    result: set[int] = set()
    for item in items:
        if isinstance(item, bool):
            raise ConfigError(f"{where}: {item!r} is not a year")
        if isinstance(item, int):
            result.add(item)
            continue
        if not isinstance(item, str):
            raise ConfigError(f"{where}: {item!r} is not a year or a range")
        match = _RANGE.match(item)
        if match:
            first, last = int(match.group(1)), int(match.group(2))
            if first > last:
                raise ConfigError(f"{where}: range {item!r} runs backwards")
            result.update(range(first, last + 1))
        elif item.strip().isdigit():
            result.add(int(item))
        else:
            raise ConfigError(f"{where}: {item!r} is not a year (2009) or a range (2009-2016)")
    if not result:
        raise ConfigError(f"{where}: no year given")
    for year in result:
        if not 1900 <= year <= 2100:
            raise ConfigError(f"{where}: {year} is not a plausible year")
    return tuple(sorted(result))


def word_count(text: str) -> int:
    """Words of a text, split at whitespace."""
    return len(text.split())


def _years_problem(years: Any) -> str | None:
    parse_years(years)  # a ConfigError is the problem
    return None


Years = Annotated[Any, Check(_years_problem)]


def _file_name_part(text: str) -> str | None:
    return None if re.fullmatch(r"[\w.+-]+", text) else f"must be a plain part of a file name (letters, digits, '._+-'), not {text!r}"


FileNamePart = Annotated[str, Check(_file_name_part)]


def _missing(john: Any, year: int) -> list[str]:
    try:
        john.files(year)
    except DataError as error:
        return [str(error)]
    return []


class NewstestJohn:
    """Yields the line pairs of ``newstestYYYY.{en,de}`` for the chosen years.

    Params: ``dir`` (the directory of the newstest files), ``years``,
    ``source_language`` (suffix of the source files), ``target_language`` (suffix of
    the reference files), ``prefix`` (file name before the year), ``limit`` (at most
    this many instances)."""

    version = "1"

    def __init__(
        self,
        dir: ExistingDir,
        years: Years = "2009-2016",
        source_language: FileNamePart = "en",
        target_language: FileNamePart = "de",
        prefix: FileNamePart = "newstest",
        limit: PositiveInt | None = None,
    ):
        self.directory = Path(dir)
        self.years = parse_years(years)
        self.limit = limit
        self.source_language = source_language
        self.target_language = target_language
        self.prefix = prefix

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> str | None:
        """Every year's source and reference file exists (the directory is checked by its type)."""
        if not Path(str(params.get("dir", ""))).is_dir():
            return None
        john = cls(**params)
        missing = [f"{error}" for year in john.years for error in _missing(john, year)]
        return f"'years': {missing[0]}" if missing else None

    def files(self, year: int) -> tuple[Path, Path]:
        """The source and reference file of one year (checked to exist)."""
        stem = self.directory / f"{self.prefix}{year}"
        source = stem.with_name(f"{stem.name}.{self.source_language}")
        reference = stem.with_name(f"{stem.name}.{self.target_language}")
        for path in (source, reference):
            if not path.is_file():
                raise DataError(f"{path}: file not found (newstest John, year {year}, directory {self.directory})")
        return source, reference

    def instances(self) -> Iterator[Instance]:
        paths = [self.files(year) for year in self.years]  # all missing files reported before any work
        for year, (source_path, reference_path) in zip(self.years, paths):
            sources, references = read_aligned(source_path, reference_path)
            origin = f"{self.prefix}{year}"
            for number, (source, reference) in take(enumerate(zip(sources, references), start=1), self.limit):
                source, reference = source.strip(), reference.strip()
                meta = {
                    "origin": origin,
                    "line": number,
                    "year": year,
                    "reference_kind": "human",
                    "length": word_count(source),
                    "reference_length": word_count(reference),
                }
                yield Instance(f"{origin}.{number}", source, reference, meta)
