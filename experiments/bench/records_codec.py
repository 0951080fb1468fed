"""The records' serialiser against the hand-written one it replaced: encode and decode of N records.

arena's transcripts are written and read through :mod:`arena.codec` (pydantic ``TypeAdapter``s
over the frozen dataclasses).  Before, each record had its own ``to_json``/``from_json``; a copy
of them is kept here (``naive_*``) as the baseline.  For ``n`` rounds of a DistilLingEval-like
run (a 200-character sentence pair, the John's metadata with its pre-made variant, one edit) and
one judgement each, it times in one process, best of ``--repeat``, CPU seconds (``process_time``)
per record, the work of the transcripts' writer and readers:

- encode: record → dict → line (``arena.record.transcripts.dumps_line``); the lines are checked
  byte-equal;
- decode: line → dict (``json.loads``) → record; the records are checked equal, and that a
  round's candidates share the reference's and the variant's strings;
- decode loads: line → record by :func:`arena.codec.loads` (pydantic's JSON parser, no dict),
  which a reader that needs the line only as the record uses (a static run's stored rounds);
- both: encode + decode.

``dict`` rows leave the line's ``json.dumps``/``json.loads`` (the same for both) out.  Ratios
are codec / naive (< 1: the codec is faster).

    python experiments/bench/records_codec.py --n 20000
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from arena.codec import dump, load, loads  # noqa: E402
from arena.record.rounds import STATUS_OK, JudgementRecord, Round  # noqa: E402
from arena.record.transcripts import dumps_line  # noqa: E402
from arena.records import Edit, Instance, Variant  # noqa: E402


# -- the hand-written serialisers as they were (arena/records.py, arena/record/rounds.py) --------------
def naive_instance_to(self: Instance) -> dict[str, Any]:
    return {"id": self.id, "source": self.source, "reference": self.reference, "meta": dict(self.meta)}


def naive_instance_from(data: Mapping[str, Any]) -> Instance:
    return Instance(data["id"], data["source"], data["reference"], dict(data.get("meta", {})))


def naive_edit_to(self: Edit) -> dict[str, Any]:
    return {"start": self.start, "end": self.end, "before": self.before, "after": self.after}


def naive_edit_from(data: Mapping[str, Any]) -> Edit:
    return Edit(int(data["start"]), int(data["end"]), data["before"], data["after"])


def naive_variant_to(self: Variant) -> dict[str, Any]:
    return {"instance_id": self.instance_id, "text": self.text, "phenomenon": self.phenomenon,
            "edits": [naive_edit_to(edit) for edit in self.edits], "meta": dict(self.meta)}


def naive_variant_from(data: Mapping[str, Any]) -> Variant:
    return Variant(data["instance_id"], data["text"], data["phenomenon"],
                   tuple(naive_edit_from(edit) for edit in data.get("edits", ())), dict(data.get("meta", {})))


def naive_round_to(self: Round) -> dict[str, Any]:
    return {
        "round": self.id, "seed": self.seed, "john": self.john, "zellig": self.zellig, "status": self.status,
        "instance": naive_instance_to(self.instance),
        "variant": naive_variant_to(self.variant) if self.variant is not None else None,
        "candidates": list(self.candidates) if self.candidates is not None else None,
        "corrupted": self.corrupted, "n_candidates": self.n_candidates, "sample_index": self.sample_index,
        **({"phase": self.phase, "block": self.block, "counts": self.counts} if self.phase is not None else {}),
    }


def naive_round_from(data: Mapping[str, Any]) -> Round:
    instance = naive_instance_from(data["instance"])
    variant = naive_variant_from(data["variant"]) if data.get("variant") else None
    known = {instance.reference: instance.reference, **({variant.text: variant.text} if variant else {})}
    candidates = data.get("candidates")
    return Round(
        id=data["round"], seed=data["seed"], john=sys.intern(data["john"]), zellig=sys.intern(data["zellig"]),
        instance=instance, variant=variant,
        candidates=tuple(known.get(t, t) for t in candidates) if candidates is not None else None,
        corrupted=data.get("corrupted"), status=data.get("status", STATUS_OK),
        n_candidates=data.get("n_candidates", 0), sample_index=data.get("sample_index", 0),
        phase=data.get("phase"), block=data.get("block"), counts=bool(data.get("counts", True)),
    )


def naive_judgement_to(self: JudgementRecord) -> dict[str, Any]:
    return {"round": self.round, "claude": self.claude, "choice": self.choice, "claude_choice": self.claude_choice,
            "resolved_by": self.resolved_by, "correct": self.correct,
            "scores": list(self.scores) if self.scores is not None else None}


def naive_judgement_from(data: Mapping[str, Any]) -> JudgementRecord:
    scores = data.get("scores")
    return JudgementRecord(data["round"], data["claude"], data.get("choice"), data.get("claude_choice"),
                           data["resolved_by"], bool(data["correct"]), tuple(scores) if scores is not None else None)


# -- the workload -------------------------------------------------------------------------------------
def records(n: int) -> tuple[list[Round], list[JudgementRecord]]:
    rounds, judgements = [], []
    for i in range(n):
        source = f"Wednesday, October 1, 2008 will be written into the history of the Prague Transport Company [{i}]"
        reference = f"Der Mittwoch, der 1. Oktober 2008, wird in die Geschichte der Prager Verkehrsbetriebe eingehen [{i}]"
        text = reference.replace("Geschichte", "Ding")
        meta = {"origin": "placeholder_ding.human", "line": i, "lines": [i], "reference_kind": "human",
                "error_type": "placeholder_ding",
                "variants": [{"text": text, "phenomenon": "placeholder_ding", "meta": {"line": i}}]}
        instance = Instance(f"placeholder_ding.human.{i}", source, reference, meta)
        variant = Variant(instance.id, text, "placeholder_ding", (Edit(42, 52, "Geschichte", "Ding"),), {"line": i})
        corrupted = i % 2
        candidates = (text, reference) if corrupted == 0 else (reference, text)
        round_id = f"1|distil-lingeval|replay|{instance.id}|0"
        rounds.append(Round(round_id, 1, "distil-lingeval", "replay", instance, variant, candidates, corrupted,
                            STATUS_OK, 1, 0, *((i % 3, i // 50, i % 3 > 0) if i % 4 == 0 else ())))
        judgements.append(JudgementRecord(round_id, "toy-en-de", corrupted, corrupted, "claude", True,
                                          (-1.25 - i / n, -2.5) if i % 2 else None))
    return rounds, judgements


def best(repeat: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times)


def compare(name: str, items: list[Any], naive_to: Callable[[Any], dict[str, Any]],
            naive_from: Callable[[Mapping[str, Any]], Any], n: int, repeat: int) -> None:
    """Check that both ways give the same lines and records, then time them; prints one row per step."""
    cls = type(items[0])
    lines = [dumps_line(naive_to(r)) for r in items]
    assert lines == [dumps_line(dump(r)) for r in items], f"{name}: the codec writes other bytes"
    dicts = [json.loads(line) for line in lines]
    before, after = [naive_from(d) for d in dicts], [load(cls, d) for d in dicts]
    assert before == after, f"{name}: the codec reads other records"
    if name == "Round":
        assert all(c is r.instance.reference or c is r.variant.text for r in after for c in r.candidates)
    steps = {
        "encode dict": (lambda: [naive_to(r) for r in items], lambda: [dump(r) for r in items]),
        "decode dict": (lambda: [naive_from(d) for d in dicts], lambda: [load(cls, d) for d in dicts]),
        "encode line": (lambda: [dumps_line(naive_to(r)) for r in items], lambda: [dumps_line(dump(r)) for r in items]),
        "decode line": (lambda: [naive_from(json.loads(x)) for x in lines], lambda: [load(cls, json.loads(x)) for x in lines]),
        "decode loads": (lambda: [naive_from(json.loads(x)) for x in lines], lambda: [loads(cls, x) for x in lines]),
    }
    assert [loads(cls, x) for x in lines] == before
    times = {}
    for step, (naive_work, codec_work) in steps.items():
        naive, codec = [], []
        for _ in range(repeat):  # interleaved, so that a change of the machine's load hits both
            naive.append(best(1, naive_work))
            codec.append(best(1, codec_work))
        times[step] = (min(naive), min(codec))
        print(f"{name:<16} {step:<12} {min(naive) / n * 1e6:8.2f} {min(codec) / n * 1e6:8.2f} "
              f"{min(codec) / min(naive):6.2f}")
    for label, decode in (("both lines", "decode line"), ("both, loads", "decode loads")):
        naive, codec = (times["encode line"][i] + times[decode][i] for i in (0, 1))
        print(f"{name:<16} {label:<12} {naive / n * 1e6:8.2f} {codec / n * 1e6:8.2f} {codec / naive:6.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    rounds, judgements = records(args.n)
    load(Round, dump(rounds[0]))  # build the adapters before timing
    load(JudgementRecord, dump(judgements[0]))
    print(f"records_codec: n={args.n}, best of {args.repeat}, CPU µs per record; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'record':<16} {'step':<12} {'naive':>8} {'codec':>8} {'ratio':>6}")
    compare("Round", rounds, naive_round_to, naive_round_from, args.n, args.repeat)
    compare("JudgementRecord", judgements, naive_judgement_to, naive_judgement_from, args.n, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
