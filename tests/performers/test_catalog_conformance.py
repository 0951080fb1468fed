"""Every performer in the catalog passes the conformance checks of :mod:`arena.specs.conformance`.

Performers that need constructor params get them from ``PARAMS``; a new catalog entry
that cannot be built without params fails here until it is added to that table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.records import Pair
from arena.specs.conformance import assert_conforms, check_claude, check_john, check_zellig
from arena.specs.registry import build
from arena.specs.spec import PerformerSpec
from performers.catalog import CATALOG, CLAUDES, JOHNS, ZELLIGS
from performers.john.distil_lingeval import DistilLingEvalJohn
from tests.conftest import DATA, SHARED

TOY = SHARED / "models" / "toy-marian-en-de"
NEWSTEST = DATA / "wmt" / "newstest"
M2C_EXAMPLE = Path(__file__).resolve().parents[2] / "experiments" / "m2c"

PARAMS = {
    ("john", "parallel-text"): {"source": str(NEWSTEST / "newstest2009.en"), "reference": str(NEWSTEST / "newstest2009.de"),
                                "limit": 30},
    ("john", "distil-lingeval"): {"dir": str(DATA / "distil-lingeval" / "placeholder_ding.human"), "limit": 30},
    ("john", "pairs"): {"path": str(Path(__file__).resolve().parents[2] / "experiments" / "own-pairs" / "pairs.tsv")},
    ("john", "newstest"): {"dir": str(NEWSTEST), "years": [2009], "limit": 30},
    ("claude", "hf-seq2seq"): {"model": str(TOY / "hf")},
    ("claude", "ctranslate2"): {"model": str(TOY / "ct2-int8"), "tokenizer": str(TOY / "hf")},
    ("john", "adaptive"): {"john": {"name": "newstest", "params": {"dir": str(NEWSTEST), "years": [2009, 2010], "limit": 15}}},
    ("zellig", "adaptive"): {"zelligs": ["placeholder-ding", "clause-omission", "polarity-affix-del"]},
    ("zellig", "model-guided"): {"base": "placeholder-ding", "model": "toy-en-de"},
    ("zellig", "mt-system"): {"outputs": str(DATA / "wmt" / "mt-outputs"), "system": "google"},
    ("claude", "learned"): {"claude": "toy-en-de"},
    ("zellig", "search"): {"base": "placeholder-ding", "model": "toy-en-de"},
    ("claude", "edit-aware"): {"claude": "toy-en-de"},
}
# performers whose conformance is covered by their own tests, because building them
# needs more than a path (a JSON test set, several models, a spec file)
OWN_TESTS = {
    ("john", "lingeval97"), ("john", "mt-reference"), ("john", "template"), ("john", "select"),
    ("claude", "causal-lm"), ("claude", "ensemble"), ("claude", "fairseq"), ("zellig", "feature-flip"),
}


def german_instances():
    """German references with a wide mix of phenomena: DistilLingEval's correct sides."""
    instances = []
    for name in ("placeholder_ding.human", "hypercorrect_genitive.human", "polarity_affix_del.human",
                 "polarity_particle_nicht_del.human", "polarity_particle_kein_del.human", "clause_omission.human",
                 "np_agreement.mt", "subj_verb_agreement.mt"):
        instances += list(DistilLingEvalJohn(str(DATA / "distil-lingeval" / name), limit=8, skip_empty=True).instances())
    return instances


def entries(role, table):
    return [pytest.param(role, name, id=f"{role}-{name}") for name in sorted(table) if (role, name) not in OWN_TESTS]


@pytest.fixture(scope="module")
def instances(data_dir):
    return german_instances()


@pytest.mark.parametrize("role, name", entries("john", JOHNS))
def test_johns_conform(role, name, data_dir):
    john = build(role, PerformerSpec(name, PARAMS.get((role, name), {})), CATALOG)
    assert_conforms(check_john(john, limit=30), f"john {name}")


@pytest.mark.parametrize("role, name", entries("zellig", ZELLIGS))
def test_zelligs_conform(role, name, instances):
    zellig = build(role, PerformerSpec(name, PARAMS.get((role, name), {})), CATALOG)
    assert_conforms(check_zellig(zellig, instances), f"zellig {name}")


@pytest.mark.parametrize("role, name", entries("claude", CLAUDES))
def test_claudes_conform(role, name, instances):
    claude = build(role, PerformerSpec(name, PARAMS.get((role, name), {})), CATALOG)
    pairs = [Pair(f"p{i}", x.source, (x.reference, x.meta["variants"][0]["text"])) for i, x in enumerate(instances[:12])]
    assert_conforms(check_claude(claude, pairs), f"claude {name}")
