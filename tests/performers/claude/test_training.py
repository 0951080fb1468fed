"""The training recipe at tiny size: batching, schedule, a few updates, resume from a
checkpoint (bit-identical to an uninterrupted run), export to Hugging Face and
CTranslate2 (both loadable as Claudes, same scores), distillation and BLEU."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from performers.claude import distillation, training

PAIRS = [
    ("A man is riding a bicycle down the street.", "Ein Mann fährt mit dem Fahrrad die Straße hinunter."),
    ("Two children are playing in the park.", "Zwei Kinder spielen im Park."),
    ("The committee approved the new budget.", "Der Ausschuss hat den neuen Haushalt genehmigt."),
    ("She did not know the answer.", "Sie kannte die Antwort nicht."),
    ("The weather is nice today.", "Das Wetter ist heute schön."),
    ("A dog runs through the snow.", "Ein Hund läuft durch den Schnee."),
    ("I am hungry.", "Ich habe Hunger."),
    ("The house is very old.", "Das Haus ist sehr alt."),
]


def write_corpus(directory: Path, name: str = "train", pairs=PAIRS) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{name}.en").write_text("".join(s + "\n" for s, _ in pairs), encoding="utf-8")
    (directory / f"{name}.de").write_text("".join(t + "\n" for _, t in pairs), encoding="utf-8")
    return str(directory / name)


def settings(prefix: str, **changes) -> training.TrainSettings:
    base = dict(preset="tiny", seed=1, train_source=f"{prefix}.en", train_target=f"{prefix}.de",
                tokenizer=str(training.DEFAULT_TOKENIZER), minutes=5.0, max_steps=4, batch_tokens=64,
                warmup_steps=2, threads=1)
    base.update(changes)
    return training.TrainSettings(**base)


@pytest.mark.parametrize("lengths, budget", [
    ([(3, 4), (10, 2), (5, 5), (1, 1), (7, 9), (2, 3)], 16),
    ([(4, 4)] * 10, 8),
    ([(20, 30)], 8),  # one pair longer than the budget still gets a batch of its own
])
def test_batches_cover_every_pair_once_within_the_budget(lengths, budget):
    batches = training.make_batches(lengths, budget, seed=1, epoch=0)
    assert sorted(i for batch in batches for i in batch) == list(range(len(lengths)))
    for batch in batches:
        assert len(batch) == 1 or max(max(lengths[i]) for i in batch) * len(batch) <= budget
    assert batches == training.make_batches(lengths, budget, seed=1, epoch=0)


def test_batch_order_depends_on_seed_and_epoch():
    lengths = [(i % 7 + 1, i % 5 + 1) for i in range(60)]
    runs = {(s, e): training.make_batches(lengths, 12, s, e) for s in (1, 2) for e in (0, 1)}
    assert runs[1, 0] != runs[2, 0] and runs[1, 0] != runs[1, 1]


@pytest.mark.parametrize("step, factor", [(0, 0.25), (3, 1.0), (15, 0.5)])
def test_inverse_sqrt_schedule(step, factor):
    assert math.isclose(training.inverse_sqrt(4)(step), factor)


@pytest.mark.parametrize("preset", ["nope", "Tiny"])
def test_unknown_preset_is_an_error(preset):
    import transformers

    tokenizer = transformers.MarianTokenizer.from_pretrained(str(training.DEFAULT_TOKENIZER))
    with pytest.raises(ValueError, match="unknown preset"):
        training.marian_config(preset, tokenizer, 128)


def test_misaligned_corpus_names_both_files(tmp_path):
    (tmp_path / "a.en").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "a.de").write_text("eins\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"a\.en has 2 lines but .*a\.de has 1"):
        training.read_parallel(tmp_path / "a.en", tmp_path / "a.de")


def test_resume_continues_exactly_where_training_stopped(tmp_path):
    import torch
    from safetensors.torch import load_file

    prefix = write_corpus(tmp_path / "data")
    straight = training.train(settings(prefix, max_steps=6), tmp_path / "straight", progress=False)
    first = training.train(settings(prefix, max_steps=3), tmp_path / "resumed", progress=False)
    assert first["updates"] == 3
    second = training.train(settings(prefix, max_steps=6), tmp_path / "resumed", progress=False)
    assert second["updates"] == straight["updates"] == 6
    assert second["epochs"] == straight["epochs"] > 1  # 8 pairs in 64-token batches: several epochs
    a = load_file(tmp_path / "straight" / "hf" / "model.safetensors")
    b = load_file(tmp_path / "resumed" / "hf" / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    record = json.loads((tmp_path / "resumed" / "train.json").read_text())
    assert record["settings"]["preset"] == "tiny" and record["pairs"] == len(PAIRS)


def test_resume_with_other_settings_is_refused(tmp_path):
    prefix = write_corpus(tmp_path / "data")
    training.train(settings(prefix, max_steps=1), tmp_path / "m", progress=False)
    with pytest.raises(ValueError, match="other settings .*seed"):
        training.train(settings(prefix, max_steps=2, seed=2), tmp_path / "m", progress=False)


def test_teacher_distill_student_export_and_bleu(tmp_path):
    from performers.claude.ct2 import CTranslate2Claude
    from performers.claude.hf_seq2seq import HFSeq2SeqClaude

    prefix = write_corpus(tmp_path / "data")
    held_out = tmp_path / "held-out"
    for name in distillation.HELD_OUT:
        write_corpus(held_out, name, PAIRS[:3])
    teacher = tmp_path / "teacher"
    training.train(settings(prefix), teacher, progress=False)
    distillation.export_ct2(teacher)

    hf = HFSeq2SeqClaude(model=str(teacher / "hf"), cache=False, threads=1, progress=False)
    ct2 = CTranslate2Claude(model=str(teacher / "ct2"), compute_type="float32", threads=1, cache=False, progress=False)
    sources, targets = [s for s, _ in PAIRS[:4]], [t for _, t in PAIRS[:4]]
    for a, b in zip(hf.score(sources, targets), ct2.score(sources, targets)):
        assert a.tokens == b.tokens and math.isclose(a.mean, b.mean, abs_tol=1e-3)

    record = distillation.evaluate_bleu(teacher, held_out, limit=2, compute_type="float32", threads=1, progress=False)
    assert set(record["sets"]) == set(distillation.HELD_OUT)
    for result in record["sets"].values():
        assert result["sentences"] == 2 and 0.0 <= result["bleu"] <= 100.0 and "nrefs:1" in result["signature"]
    assert json.loads((teacher / "bleu.json").read_text()) == record

    distilled = tmp_path / "distilled"
    made = distillation.distill(teacher, f"{prefix}.en", distilled, max_pairs=5, compute_type="float32", threads=1,
                            progress=False)
    assert made["pairs"] == 5
    lines = (distilled / "train.de").read_text(encoding="utf-8").splitlines()
    assert lines == ct2.translate(sources + [PAIRS[4][0]], beam=5)  # the teacher's beam-5 1-best, in order
    again = distillation.distill(teacher, f"{prefix}.en", distilled, max_pairs=5, compute_type="float32", threads=1,
                             progress=False)  # served from the distillation's cache
    assert (distilled / "train.de").read_text(encoding="utf-8").splitlines() == lines and again["pairs"] == 5

    short = distillation.distill(teacher, f"{prefix}.en", tmp_path / "short", max_source_tokens=9, compute_type="float32",
                             threads=1, progress=False)
    kept = [s for s, ids in zip([s for s, _ in PAIRS], ct2.tokenizer([s for s, _ in PAIRS])["input_ids"]) if len(ids) <= 9]
    assert 0 < len(kept) < len(PAIRS) and short["left_out_long"] == len(PAIRS) - len(kept)
    assert (tmp_path / "short" / "train.en").read_text(encoding="utf-8").splitlines() == kept

    student = training.train(settings(str(distilled / "train"), max_steps=2, seed=3), tmp_path / "student",
                             progress=False)
    assert student["updates"] == 2 and student["pairs"] == 5 - sum(1 for line in lines if not line.strip())


def test_a_second_process_on_the_same_directory_is_refused(tmp_path):
    with training.exclusive(tmp_path / "m", "training"):
        with pytest.raises(ValueError, match="another process is already training"):
            with training.exclusive(tmp_path / "m", "training"):
                pass
    with training.exclusive(tmp_path / "m", "training"):  # released again
        pass
