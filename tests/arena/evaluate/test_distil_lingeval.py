"""DistilLingEval's accuracy: score(correct) >= score(incorrect), printed as ``Accuracy: 97.3``.

On the real sets (when ../shared/data is present) the accuracy for a synthetic scores
file is checked against a count made independently in the test, the way
DistilLingEval's script reads the files (``splitlines``, ``float`` per line).
"""

from __future__ import annotations

import random

import pytest

from arena.evaluate.distil_lingeval import DistilLingEvalResult, evaluate, format_report
from arena.formats.distil_lingeval import read_distil_lingeval, read_scores
from tests.conftest import DATA, require_shared, shared_params

SHARED = DATA / "distil-lingeval"


@pytest.mark.parametrize(
    ("correct", "incorrect", "expected"),
    [
        ([-1.0, -2.0, -3.0], [-2.0, -1.0, -3.0], DistilLingEvalResult(2, 3, 1)),  # a tie counts as correct
        ([-1.0], [-1.5], DistilLingEvalResult(1, 1, 0)),
        ([-1.0], [-0.5], DistilLingEvalResult(0, 1, 0)),
        ([float("nan")], [-1.0], DistilLingEvalResult(0, 1, 0)),  # nan >= x is false
        ([], [], DistilLingEvalResult(0, 0, 0)),
    ],
)
def test_evaluate(correct, incorrect, expected):
    assert evaluate(correct, incorrect) == expected


@pytest.mark.parametrize(
    ("correct", "total", "printed"),
    [(973, 1000, "Accuracy: 97.3\n"), (1, 3, "Accuracy: 33.3\n"), (2, 3, "Accuracy: 66.7\n"), (5, 5, "Accuracy: 100.0\n"),
     (0, 7, "Accuracy: 0.0\n"), (1, 8, "Accuracy: 12.5\n")],
)
def test_report(correct, total, printed):
    assert format_report(DistilLingEvalResult(correct, total, 0)) == printed


def test_empty_set_has_no_accuracy():
    with pytest.raises(ValueError, match="empty"):
        format_report(DistilLingEvalResult(0, 0, 0))


def test_mismatched_lengths():
    with pytest.raises(ValueError, match="2 correct scores but 1 incorrect"):
        evaluate([1.0, 2.0], [1.0])


def shared_sets():
    names = sorted(path.name for path in SHARED.iterdir() if (path / "src.en").exists()) if SHARED.is_dir() else []
    return shared_params(names)


@pytest.mark.parametrize("name", shared_sets())
def test_real_set_with_synthetic_scores(tmp_path, name):
    require_shared(SHARED)
    directory = SHARED / name
    with open(directory / "src.en", encoding="utf-8") as file:
        size = len(file.read().splitlines())
    rng = random.Random(name)
    # length-normalised log-probabilities on a coarse grid, so that ties occur
    scores = [-rng.randrange(1, 40) / 8 for _ in range(2 * size)]
    path = tmp_path / "scores"
    path.write_text("".join(f"{score!r}\n" for score in scores), encoding="utf-8")

    with open(path, encoding="utf-8") as file:
        values = [float(line) for line in file]
    independent = sum(values[i] >= values[size + i] for i in range(size)) / size

    testset = read_distil_lingeval(directory, allow_empty=True)
    result = evaluate(*read_scores(path, len(testset)))
    assert result.total == size
    assert result.accuracy == independent
    assert format_report(result) == f"Accuracy: {100 * independent:.1f}\n"
