"""``arena score-pairs``: DistilLingEval and LingEval97 scores files from a scoring Claude."""

from __future__ import annotations

import json

import pytest

from arena.cli import main

TRIPLES = [
    ("A man is riding a bicycle.", "Ein Mann fährt Fahrrad.", "Ein Mann fährt Ding."),
    ("She did not know the answer.", "Sie kannte die Antwort nicht.", "Sie kannte die Antwort."),
    ("Two children are playing.", "Zwei Kinder spielen.", "Zwei Kinder spielt."),
]


@pytest.fixture(scope="module")
def testset(tmp_path_factory):
    directory = tmp_path_factory.mktemp("distil") / "tiny.mt"
    directory.mkdir()
    for position, name in enumerate(("src.en", "tgt.correct.de", "tgt.incorrect.de")):
        (directory / name).write_text("".join(t[position] + "\n" for t in TRIPLES), encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def expected(toy):
    sources = [s for s, _, _ in TRIPLES]
    return toy.score(sources + sources, [c for _, c, _ in TRIPLES] + [i for _, _, i in TRIPLES])


def read_scores(path):
    return [float(line) for line in path.read_text().splitlines()]


def test_distil_lingeval_scores_file(testset, expected, tmp_path):
    out = tmp_path / "tiny.scores"
    status = main(["-q", "score-pairs", "--claude", "toy-en-de:cache=false", "--format", "distil-lingeval",
                   "--testset", str(testset), "--out", str(out), "--batch-tokens", "512"])
    assert status == 0
    scores = read_scores(out)
    assert len(scores) == 2 * len(TRIPLES)  # correct variants first, then incorrect ones
    assert scores == pytest.approx([s.mean for s in expected], abs=1e-6)


def test_lingeval97_scores_file_is_negated(tmp_path, expected):
    reference = tmp_path / "test.json"
    reference.write_text(json.dumps([
        {"source": TRIPLES[0][0], "reference": TRIPLES[0][1], "origin": "x.1",
         "errors": [{"type": "placeholder", "contrastive": TRIPLES[0][2]}]},
        {"source": TRIPLES[1][0], "reference": TRIPLES[1][1], "origin": "x.2",
         "errors": [{"type": "polarity_particle_nicht_del", "contrastive": TRIPLES[1][2]},
                    {"type": "other", "contrastive": TRIPLES[1][2] + " Ja."}]},
    ]), encoding="utf-8")
    out = tmp_path / "out.scores"
    assert main(["-q", "score-pairs", "--claude", "toy-en-de:cache=false", "--format", "lingeval97",
                 "-r", str(reference), "--out", str(out), "--score", "sum"]) == 0
    scores = read_scores(out)
    n = len(TRIPLES)
    assert len(scores) == 5
    # order of json_to_plaintext.py: reference, then each contrastive; lower is better
    assert scores[:4] == pytest.approx([-expected[0].logprob, -expected[n].logprob,
                                        -expected[1].logprob, -expected[n + 1].logprob], abs=1e-5)  # float32 sums: batches differ in rounding
    assert scores[0] < scores[1]


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--format", "distil-lingeval"], "needs --testset"),
        (["--format", "lingeval97", "--testset", "x"], "needs -r"),
        (["--format", "distil-lingeval", "--testset", "/nonexistent"], "not a directory"),
        (["--format", "distil-lingeval", "--testset", "{testset}", "--claude", "no-such-claude"], "unknown Claude"),
        (["--format", "distil-lingeval", "--testset", "{testset}", "--claude", "toy-en-de-ct2", "--dtype", "bf16"],
         "has no parameter 'dtype'"),
        (["--format", "distil-lingeval", "--testset", "{testset}", "--claude", "random"], "scoring Claude"),
    ],
)
def test_usage_errors(arguments, message, testset, tmp_path, capsys):
    arguments = [a.format(testset=testset) for a in arguments]
    if "--claude" not in arguments:
        arguments += ["--claude", "toy-en-de"]
    status = main(["-q", "score-pairs", "--out", str(tmp_path / "x.scores"), *arguments])
    assert status == 2
    assert message in capsys.readouterr().err
