"""Fixtures for the Claude tests: an isolated score cache, the shipped toy model,
tiny random models of every supported architecture, small DistilLingEval samples."""

from __future__ import annotations

import os

import pytest

from tests.conftest import DATA

# a few sentence pairs for when ../shared/data is absent
FALLBACK_PAIRS = [
    ("A man is riding a bicycle down the street.", "Ein Mann fährt mit dem Fahrrad die Straße hinunter.",
     "Ein Mann fährt mit dem Ding die Straße hinunter."),
    ("The committee approved the new budget.", "Der Ausschuss hat den neuen Haushalt genehmigt.",
     "Der Ausschuss hat den neuen Haushalt nicht genehmigt."),
    ("She did not know the answer.", "Sie kannte die Antwort nicht.", "Sie kannte die Antwort."),
    ("Two children are playing in the park.", "Zwei Kinder spielen im Park.", "Zwei Kinder spielt im Park."),
]


@pytest.fixture(scope="package", autouse=True)
def isolated_cache_dir(tmp_path_factory):
    """Score caches and CTranslate2 conversions go to a temporary directory."""
    path = tmp_path_factory.mktemp("arena-cache")
    previous = os.environ.get("ARENA_CACHE_DIR")
    os.environ["ARENA_CACHE_DIR"] = str(path)
    yield path
    if previous is None:
        os.environ.pop("ARENA_CACHE_DIR", None)
    else:
        os.environ["ARENA_CACHE_DIR"] = previous


@pytest.fixture(scope="package", autouse=True)
def one_torch_thread():
    """One intra-op thread: on a shared 2-core machine, two OpenMP threads that wait
    for each other make small-model tests an order of magnitude slower."""
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(previous)


def distil_sample(names=("placeholder_ding.human", "np_agreement.mt", "clause_omission.mt"), per_set=10):
    """(source, correct, incorrect) triples: the first ``per_set`` of some DistilLingEval
    sets, or a built-in handful when the shared data is absent."""
    root = DATA / "distil-lingeval"
    if not root.is_dir():
        return list(FALLBACK_PAIRS)
    triples = []
    for name in names:
        columns = [(root / name / f).read_text(encoding="utf-8").splitlines()[:per_set]
                   for f in ("src.en", "tgt.correct.de", "tgt.incorrect.de")]
        triples += [t for t in zip(*columns) if all(part.strip() for part in t)]
    return triples


@pytest.fixture(scope="package")
def triples():
    return distil_sample()


@pytest.fixture(scope="package")
def toy():
    from performers.claude.toy_en_de import ToyEnDeClaude

    return ToyEnDeClaude(cache=False, progress=False)


@pytest.fixture(scope="session")
def spm_model(tmp_path_factory):
    from tests.performers.claude.tiny_models import train_spm

    return train_spm(tmp_path_factory.mktemp("spm"))


@pytest.fixture(scope="session")
def tiny(tmp_path_factory, spm_model):
    """``tiny(name)``: the directory of a tiny random model (built once per session)."""
    from tests.performers.claude.tiny_models import SEQ2SEQ, build_gpt2

    root = tmp_path_factory.mktemp("tiny-models")
    built = {}

    def get(name: str):
        if name not in built:
            if name == "gpt2":
                built[name] = build_gpt2(root / name)
            else:
                built[name] = SEQ2SEQ[name][0](root / name, spm_model)
        return built[name]

    return get
