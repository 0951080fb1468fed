"""Scoring speed of the NMT Claudes against the naive way, on the same model and pairs.

On one DistilLingEval sample and the shipped toy model (or ``--model``), in one run:

- ``naive``: one forward pass per (source, target) with ``labels=``, batches of 8 in
  input order, log-softmax over the full logits, as common scoring scripts do;
- ``hf-seq2seq``: the Claude's planned scoring (each source encoded once, shared
  decoder prefixes computed once, length-sorted batches under a token budget, no
  ``labels=``, gathered log-probabilities), with ``--engines`` to compare its engines;
- ``ctranslate2`` float32 and int8 (exact conversion of the same model).

Caches are off; every method scores every pair in every repeat.  The timed repeats
follow ``--warmup`` untimed full passes of every method (default 1): a process's first
passes pay for growing its heap (on the 2-core development machine, 100k page faults
and 0.2 s of system time in hf-seq2seq's first pass over the default sample, none from
its fourth on), which long runs pay once and the steady state the benchmark measures
does not.  Repeats are
interleaved (naive, hf, ct2, naive, hf, …) and the per-repeat ratios to naive are
reported with their median, so that a machine whose load changes during the run
still gives fair ratios.  Ratios are given for wall-clock time and for the process's
CPU time; on a shared machine with ``--threads 1`` the CPU-time ratio is the
steadier one (it does not count time spent waiting for a core).  A contrastive pair is two scored sequences (correct and
incorrect).  Decision agreement compares each method's pair decisions (mean
log-probability of the correct variant ≥ that of the incorrect one) with naive's;
``max |Δ|`` is the largest difference of a sequence's summed log-probability.

It also counts the model FLOPs of the sample (2 per multiply-add: encoder over the
distinct source tokens, decoder layers and output layer over every target token;
attention score/value products included) and prints the achieved GFLOP per second
of each method, in wall time and in CPU time.  The **GEMM bound** is measured by a
probe in the same run: every weight matrix of the model (each linear layer once,
the output layer included) multiplied by a ``[1024, d_in]`` float32 input, as one
batch of the scorer's token budget would; its GFLOP per CPU-second is what the
model's matrix products reach on this CPU with these threads, and ``% GEMM`` is a
method's GFLOP per CPU-second over it (above 100% is possible for the planned
scorer, which skips the shared prefixes' FLOPs that the count includes).  The probe
runs once in every repeat, beside the methods, and ``% GEMM`` is the median of the
per-repeat shares: a shared machine's speed drifts by ±10% from minute to minute,
and a probe taken once would carry that drift into the share.  With
``--peak-tflops`` (e.g. 989 for an H100's dense bf16) it also prints the share of
that bound on a GPU.

``--arch opus-mt-en-de`` / ``--arch wmt19-en-de`` score with randomly initialised
models of those exact architectures (``experiments/bench/real_size.py``; built once
under ``--models-dir``).

    python experiments/bench/scoring.py                      # ~300 pairs, 3 repeats
    python experiments/bench/scoring.py --pairs 1000 --repeats 5 --threads 1
    python experiments/bench/scoring.py --threads 1 --arch opus-mt-en-de --pairs 100
    python experiments/bench/scoring.py --device cuda --dtype bf16 --pairs 5000 --peak-tflops 989
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DISTIL = ROOT / ".." / "shared" / "data" / "distil-lingeval"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEFAULT_SETS = ("placeholder_ding.human", "np_agreement.mt", "clause_omission.human", "polarity_affix_del.mt",
                "hypercorrect_genitive.mt", "subj_verb_agreement.mt")


def read_sample(sets: list[str], pairs: int) -> list[tuple[str, str, str]]:
    """The first pairs of each set, ``pairs`` in all (non-empty lines only)."""
    per_set = -(-pairs // len(sets))
    triples = []
    for name in sets:
        directory = DISTIL / name
        columns = [(directory / f).read_text(encoding="utf-8").split("\n") for f in
                   ("src.en", "tgt.correct.de", "tgt.incorrect.de")]
        chosen = [t for t in zip(*columns) if all(part.strip() for part in t)][:per_set]
        triples += chosen
    return triples[:pairs]


def naive_scores(model, tokenizer, sources, targets, batch=8):
    """Per sequence (sum of log-probabilities, tokens): batches of 8 in input order, labels=
    (FSMT gets its decoder inputs made from the labels by hand: it does not make them itself)."""
    import torch

    results = []
    with torch.no_grad():
        for start in range(0, len(sources), batch):
            encoded = tokenizer(sources[start:start + batch], text_target=targets[start:start + batch],
                                padding=True, return_tensors="pt").to(model.device)
            labels = encoded["labels"].masked_fill(encoded["labels"] == tokenizer.pad_token_id, -100)
            extra = {}
            if model.config.model_type == "fsmt":  # without decoder inputs FSMT shifts the *source*
                start = torch.full_like(encoded["labels"][:, :1], model.config.decoder_start_token_id)
                extra["decoder_input_ids"] = torch.cat([start, encoded["labels"][:, :-1]], dim=1)
            output = model(input_ids=encoded["input_ids"], attention_mask=encoded["attention_mask"], labels=labels,
                           **extra)
            logprobs = torch.log_softmax(output.logits.float(), dim=-1)
            mask = labels != -100
            gathered = logprobs.gather(-1, labels.clamp(min=0)[..., None])[..., 0] * mask
            results += list(zip(gathered.sum(-1).tolist(), mask.sum(-1).tolist()))
    return results


def model_flops(model, tokenizer, sources, targets) -> float:
    """Multiply-adds × 2 of scoring the sample once (see module docstring)."""
    config = model.config
    d = config.d_model
    ffn_e, ffn_d = config.encoder_ffn_dim, config.decoder_ffn_dim
    vocabulary = model.get_output_embeddings().weight.shape[0]
    distinct = sorted(set(sources))
    source_lengths = {s: len(ids) for s, ids in zip(distinct, tokenizer(distinct)["input_ids"])}
    flops = 0.0
    for length in source_lengths.values():  # per layer: 4 d² projections, 2 d ffn, attention 2·L·d
        flops += config.encoder_layers * length * (4 * d * d + 2 * d * ffn_e + 2 * length * d)
    target_ids = tokenizer(text_target=list(targets))["input_ids"]
    for source, ids in zip(sources, target_ids):
        n, m = len(ids), source_lengths[source]
        self_attention = 4 * d * d + 2 * (n + 1) / 2 * d  # causal: on average half the prefix
        cross = 2 * d * d + 2 * m * d  # query/output projections and scores/values; K/V once per source below
        flops += config.decoder_layers * n * (self_attention + cross + 2 * d * ffn_d) + n * d * vocabulary
        flops += config.decoder_layers * 2 * m * d * d  # cross-attention keys and values
    return 2 * flops


def gemm_probe(model, rows: int = 1024, seconds: float = 2.0) -> dict[str, float]:
    """GFLOP per wall- and CPU-second of ``[rows, d_in] @ W.T`` over every distinct
    weight matrix of the model (see the module docstring), repeated for ``seconds``."""
    import torch

    shapes = sorted({tuple(m.weight.shape) for m in model.modules()
                     if isinstance(m, torch.nn.Linear) and m.weight.dim() == 2}
                    | {tuple(model.get_output_embeddings().weight.shape)})
    weights = [torch.randn(shape, dtype=torch.float32, device=model.device) for shape in shapes]
    inputs = {shape[1]: torch.randn(rows, shape[1], dtype=torch.float32, device=model.device) for shape in shapes}
    flops_per_pass = sum(2 * rows * n * k for n, k in shapes)

    def one_pass():
        for weight in weights:
            torch.nn.functional.linear(inputs[weight.shape[1]], weight)

    one_pass()  # warm-up
    passes, started, cpu_started = 0, time.perf_counter(), time.process_time()
    while passes < 3 or time.perf_counter() - started < seconds:
        one_pass()
        passes += 1
    if model.device.type == "cuda":
        torch.cuda.synchronize()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {"shapes": len(shapes), "gflop_per_wall_second": flops_per_pass * passes / wall / 1e9,
            "gflop_per_cpu_second": flops_per_pass * passes / cpu / 1e9}


def decisions(scores):
    half = len(scores) // 2
    return [scores[i][0] / scores[i][1] >= scores[half + i][0] / scores[half + i][1] for i in range(half)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=300, help="contrastive pairs in the sample (default 300)")
    parser.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS), help="DistilLingEval sets to sample from")
    parser.add_argument("--model", default=None, help="Hugging Face model (default: the shipped toy-en-de)")
    parser.add_argument("--arch", choices=("opus-mt-en-de", "wmt19-en-de"), default=None,
                        help="a randomly initialised model of this real architecture instead of --model")
    parser.add_argument("--models-dir", type=Path, default=Path("/tmp/arena-bench-models"),
                        help="where --arch models are built (once)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--warmup", type=int, default=1,
                        help="untimed full passes of every method before the timed repeats (default 1)")
    parser.add_argument("--threads", type=int, default=None, help="PyTorch and CTranslate2 threads (default: theirs)")
    parser.add_argument("--batch-tokens", type=int, default=None, help="token budget per batch (default: each Claude's)")
    parser.add_argument("--engines", default="auto", help="hf-seq2seq engines to time, comma-separated "
                        "(auto: the one the Claude chooses; prefix, decoder, forward)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", default="fp32")
    parser.add_argument("--no-ct2", action="store_true", help="skip CTranslate2")
    parser.add_argument("--peak-tflops", type=float, default=None, help="the device's peak, for the FLOP bound")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    args = parser.parse_args()

    import torch

    from performers.claude.hf_seq2seq import HFSeq2SeqClaude
    from performers.claude.toy_en_de import MODEL_DIR

    if args.threads:
        torch.set_num_threads(args.threads)
    if args.arch:
        from real_size import model_dir

        model_name = str(model_dir(args.arch, args.models_dir))
    else:
        model_name = args.model or str(MODEL_DIR)
    triples = read_sample(args.sets, args.pairs)
    sources = [s for s, _, _ in triples] * 2
    targets = [c for _, c, _ in triples] + [i for _, _, i in triples]
    print(f"sample: {len(triples)} contrastive pairs ({len(sources)} sequences, {len(set(sources))} sources) "
          f"from {', '.join(args.sets)}; model {model_name}; device {args.device} {args.dtype}; "
          f"torch threads {torch.get_num_threads()}; load average {os.getloadavg()[0]:.1f}")

    methods = {}
    claudes = {}
    for engine in args.engines.split(","):
        claude = HFSeq2SeqClaude(model_name, device=args.device, dtype=args.dtype, batch_tokens=args.batch_tokens,
                                 cache=False, engine=engine, progress=False, threads=args.threads)
        claudes[f"hf-seq2seq/{claude.backend.engine}"] = claude
    reference = next(iter(claudes.values())).backend
    model, tokenizer = reference.model, reference.tokenizer
    methods["naive"] = lambda: naive_scores(model, tokenizer, sources, targets)
    for label, claude in claudes.items():
        methods[label] = (lambda c: lambda: [(s.logprob, s.tokens) for s in c.score(sources, targets)])(claude)
    if not args.no_ct2 and args.device == "cpu" or not args.no_ct2 and args.device.startswith("cuda"):
        methods.update(ct2_methods(args, model_name, sources, targets))

    for _ in range(args.warmup):  # untimed full passes: first-pass heap growth, page faults, kernels
        for run in methods.values():
            run()

    times: dict[str, list[float]] = {label: [] for label in methods}
    cpu_times: dict[str, list[float]] = {label: [] for label in methods}
    results = {}
    probes = []
    for _ in range(args.repeats):
        probes.append(gemm_probe(model, seconds=1.0))
        for label, run in methods.items():
            if args.device.startswith("cuda"):
                torch.cuda.synchronize()
            started, cpu_started = time.perf_counter(), time.process_time()
            results[label] = run()
            if args.device.startswith("cuda"):
                torch.cuda.synchronize()
            times[label].append(time.perf_counter() - started)
            cpu_times[label].append(time.process_time() - cpu_started)

    probe = {key: statistics.median(p[key] for p in probes) for key in probes[0]}
    flops = model_flops(model, tokenizer, sources, targets)
    base = decisions(results["naive"])
    ties = sum(1 for i in range(len(base)) if results["naive"][i][0] / results["naive"][i][1]
               == results["naive"][len(base) + i][0] / results["naive"][len(base) + i][1])
    print(f"model FLOPs for the sample: {flops / 1e9:.1f} GFLOP; exact ties under naive: {ties}")
    spread = [p["gflop_per_cpu_second"] for p in probes]
    print(f"GEMM probe ({probe['shapes']} weight shapes × 1024 rows, fp32, once per repeat): "
          f"{probe['gflop_per_cpu_second']:.1f} GFLOP per CPU-second (median; {min(spread):.1f}–{max(spread):.1f}), "
          f"{probe['gflop_per_wall_second']:.1f} per wall-second; "
          f"load average {os.getloadavg()[0]:.1f}\n")
    header = (f"{'method':24} {'pairs/s':>9} {'× naive (wall)':>16} {'× naive (cpu)':>14} {'GFLOP/s':>8} "
              f"{'GFLOP/cpu-s':>11} {'% GEMM':>7} {'agree':>11} {'max |Δ|':>9}")
    print(header)
    print("-" * len(header))
    report = {"pairs": len(triples), "sequences": len(sources), "warmup": args.warmup, "model": model_name,
              "arch": args.arch,
              "device": args.device, "dtype": args.dtype, "threads": torch.get_num_threads(), "gflop": flops / 1e9,
              "gemm_probe": probe, "gemm_probes": probes, "load_average": os.getloadavg()[0], "methods": {}}
    for label in methods:
        median = statistics.median(times[label])
        ratios = [n / t for n, t in zip(times["naive"], times[label])]
        agree = sum(a == b for a, b in zip(decisions(results[label]), base))
        delta = max(abs(a[0] - b[0]) for a, b in zip(results[label], results["naive"]))
        ratio = statistics.median(ratios)
        cpu_ratio = statistics.median(n / t for n, t in zip(cpu_times["naive"], cpu_times[label]))
        spread = f"{min(ratios):.1f}–{max(ratios):.1f}" if len(ratios) > 1 else ""
        per_cpu_second = flops / statistics.median(cpu_times[label]) / 1e9
        share = statistics.median(flops / cpu / 1e9 / p["gflop_per_cpu_second"]
                                  for cpu, p in zip(cpu_times[label], probes))
        print(f"{label:24} {len(triples) / median:9.1f} {ratio:6.2f} {spread:>9} {cpu_ratio:14.2f} "
              f"{flops / median / 1e9:8.1f} {per_cpu_second:11.1f} {100 * share:6.0f}% {agree:5}/{len(base):<5} "
              f"{delta:9.2g}")
        entry = {"seconds": times[label], "cpu_seconds": cpu_times[label], "pairs_per_second": len(triples) / median,
                 "ratio_to_naive": ratio, "ratios": ratios, "cpu_ratio_to_naive": cpu_ratio, "agree": agree,
                 "max_abs_delta": delta, "gflops_per_second": flops / median / 1e9,
                 "gflop_per_cpu_second": per_cpu_second, "share_of_gemm_probe": share}
        if args.peak_tflops:
            entry["share_of_peak"] = flops / median / (args.peak_tflops * 1e12)
            print(f"{'':24} {100 * entry['share_of_peak']:.2f}% of {args.peak_tflops} TFLOP/s")
        report["methods"][label] = entry
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    return 0


def ct2_methods(args, model_name: str, sources: list[str], targets: list[str]) -> dict:
    """CTranslate2 at each compute type of the device, as timed methods (one that cannot
    convert the architecture is reported and left out)."""
    from performers.claude.ct2 import CTranslate2Claude

    methods = {}
    for compute_type in (("float32", "int8") if args.device == "cpu" else ("float32", "int8_float16", "bfloat16")):
        try:
            ct2 = CTranslate2Claude(model_name, compute_type=compute_type, device=args.device.split(":")[0],
                                    threads=args.threads, batch_tokens=args.batch_tokens or 4096, cache=False,
                                    progress=False)
        except ValueError as error:  # an architecture CTranslate2 cannot convert (FSMT)
            print(f"ctranslate2/{compute_type}: not measured ({str(error).splitlines()[0][:120]})")
            continue
        methods[f"ctranslate2/{compute_type}"] = (
            lambda c: lambda: [(s.logprob, s.tokens) for s in c.score(sources, targets)])(ct2)
    return methods


if __name__ == "__main__":
    sys.exit(main())
