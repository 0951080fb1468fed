"""DistilLingEval test sets (Vamvas & Sennrich 2021): a directory of three line-aligned
UTF-8 files

    src.en             the English sources
    tgt.correct.de     the correct German translations (a human reference or an MT output)
    tgt.incorrect.de   the same translations with one error inserted

and score files with 2N lines: the N scores of ``tgt.correct.de`` first, then the N
scores of ``tgt.incorrect.de``.

Empty lines are errors by default (:func:`read_distil_lingeval`).  The published sets
are not entirely clean — the ``hypercorrect_genitive.human`` sample has one empty
source line — so evaluation reads with ``allow_empty=True`` and reports where the
empty lines are (:attr:`TestSet.empty_lines`); DistilLingEval's own script keeps
such a line as an item, and so do we.

Lines end at ``\n`` only.  DistilLingEval's script splits with ``str.splitlines``,
which also breaks at a few rare control and Unicode separators; the published sets
contain none, so both count the same lines there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import DataError
from arena.formats import scores as score_files
from arena.formats.textlines import check_line_text, empty_lines, read_lines, write_lines

SOURCE_FILE = "src.en"
CORRECT_FILE = "tgt.correct.de"
INCORRECT_FILE = "tgt.incorrect.de"
FILES = (SOURCE_FILE, CORRECT_FILE, INCORRECT_FILE)

SCORES_LAYOUT = "2N lines: the N scores of tgt.correct.de first, then the N scores of tgt.incorrect.de"


@dataclass(frozen=True)
class ContrastivePair:
    """One line of a DistilLingEval set."""

    source: str
    correct: str
    incorrect: str


@dataclass(frozen=True)
class TestSet:
    """A DistilLingEval directory: its pairs and, when read with ``allow_empty``, the
    ``file:line`` of every empty line it has."""

    __test__ = False  # not a pytest test class

    path: Path
    pairs: tuple[ContrastivePair, ...]
    empty_lines: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.path.name

    def __len__(self) -> int:
        return len(self.pairs)


def find_sets(root: str | Path, names: Sequence[str] | None = None) -> list[Path]:
    """The DistilLingEval set directories under ``root`` (those holding the three files), sorted; with
    ``names``, only the sets named there by directory (``placeholder_ding.human``) or error type
    (``placeholder_ding``)."""
    directories = sorted(path for path in Path(root).iterdir() if all((path / name).is_file() for name in FILES))
    if names:
        directories = [d for d in directories if d.name in names or d.name.split(".")[0] in names]
    return directories


def read_distil_lingeval(directory: str | Path, allow_empty: bool = False) -> TestSet:
    """Read a DistilLingEval directory.

    Missing files, wrong encodings, line counts that differ between the three files
    and (unless ``allow_empty``) empty lines are ``ValueError`` naming file and line.
    """
    directory = Path(directory)
    if not directory.is_dir():
        raise DataError(f"{directory}: not a directory (expected {', '.join(FILES)} in it)")
    columns = {}
    for name in FILES:
        path = directory / name
        if not path.exists():
            raise DataError(f"{path}: file not found (a DistilLingEval directory has {', '.join(FILES)})")
        columns[name] = read_lines(path, allow_empty=allow_empty)
    counts = {name: len(lines) for name, lines in columns.items()}
    if len(set(counts.values())) > 1:
        shortest = min(counts, key=counts.__getitem__)
        longest = max(counts, key=counts.__getitem__)
        raise DataError(
            f"{directory / shortest}: ends after line {counts[shortest]}, but {longest} has line "
            f"{counts[shortest] + 1} (line counts: "
            + ", ".join(f"{name} {count}" for name, count in counts.items())
            + ")"
        )
    pairs = tuple(
        ContrastivePair(*lines) for lines in zip(columns[SOURCE_FILE], columns[CORRECT_FILE], columns[INCORRECT_FILE])
    )
    empty = tuple(f"{name}:{number}" for name in FILES for number in empty_lines(columns[name]))
    return TestSet(directory, pairs, empty)


def write_distil_lingeval(directory: str | Path, pairs: Sequence[ContrastivePair]) -> None:
    """Write a DistilLingEval directory (created if needed).  A text with a line break
    or an empty text is a ``ValueError`` naming the pair's index."""
    directory = Path(directory)
    for index, pair in enumerate(pairs):
        check_line_text(pair.source, f"pair {index}: source")
        check_line_text(pair.correct, f"pair {index}: correct")
        check_line_text(pair.incorrect, f"pair {index}: incorrect")
    write_lines(directory / SOURCE_FILE, (pair.source for pair in pairs))
    write_lines(directory / CORRECT_FILE, (pair.correct for pair in pairs))
    write_lines(directory / INCORRECT_FILE, (pair.incorrect for pair in pairs))


def parse_scores(text: str, name: str, size: int) -> tuple[list[float], list[float]]:
    """Split a 2N-line scores file into (correct scores, incorrect scores)."""
    values = score_files.parse_scores(text, name, 2 * size, SCORES_LAYOUT)
    return values[:size], values[size:]


def read_scores(source: str | Path, size: int) -> tuple[list[float], list[float]]:
    """Read a scores file (``"-"``: stdin) for a set of ``size`` pairs; too few or too
    many lines, an empty line or a non-number is a ``ValueError`` naming file and line."""
    text, name = score_files.read_score_text(source)
    return parse_scores(text, name, size)
