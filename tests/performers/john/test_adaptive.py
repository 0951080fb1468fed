"""The adaptive John draws from the metadata bucket with the best observed S."""

from __future__ import annotations

from itertools import islice

from arena.records import RoundOutcome
from performers.john.adaptive import AdaptiveJohn


def john(data_dir):
    base = {"name": "newstest", "params": {"dir": str(data_dir / "wmt" / "newstest"), "years": [2009, 2010], "limit": 40}}
    return AdaptiveJohn(base, key="origin", seed=3)


def test_without_observation_it_interleaves_buckets_reproducibly(data_dir):
    first = [i.id for i in john(data_dir).instances()]
    assert first == [i.id for i in john(data_dir).instances()]
    assert len(first) == 80 and len(set(first)) == 80
    assert {i.split(".")[0] for i in first[:20]} == {"newstest2009", "newstest2010"}


def test_it_moves_to_the_bucket_where_claudes_score_best(data_dir):
    performer = john(data_dir)
    stream = performer.instances()
    shown = list(islice(stream, 10))
    outcomes = [
        RoundOutcome(f"r{n}", 1, 0, True, True, instance=instance, corrupted=1,
                     choices={"c": 1 if instance.meta["origin"] == "newstest2010" else 0})
        for n, instance in enumerate(shown * 3)
    ]
    performer.observe(outcomes)
    later = [i.meta["origin"] for i in islice(stream, 20)]
    assert later.count("newstest2010") >= 18
    blind = john(data_dir)
    blind.observe([RoundOutcome("r", 1, 0, False, True, instance=shown[0])])
    assert blind.found == {} and blind.missed == {}
