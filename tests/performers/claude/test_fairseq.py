"""``fairseq``: a tiny checkpoint written in fairseq's own layout (``model.pt`` with fairseq's parameter
names and an ``argparse.Namespace``, ``dict.*.txt``, fastBPE ``bpecodes``) maps onto FSMT exactly."""

from __future__ import annotations

import argparse
import math

import pytest

from arena.records import Pair
from arena.specs.conformance import assert_conforms, check_claude

D, FFN, LAYERS, HEADS = 16, 32, 2, 2
CODES = "e r</w> 10\nd e 5\n"
# fairseq dictionary entries after the 4 specials: word-final pieces plain, continuations with @@
PIECES = ["er", "d@@", "de@@", "de", "L@@", "e@@", "h@@", "r@@", "D@@", "a@@", "s", "i@@", "t", "d", "e", "r",
          "a", "L", "h", "D", "i", ".", "T@@", "T", "u@@", "n", "g", "u", "n@@", "g@@", "l@@", "l", "s@@", "t@@"]


def fairseq_weights(vocab: int, tie: bool):
    import torch

    torch.manual_seed(0)
    weights = {"encoder.embed_tokens.weight": torch.randn(vocab, D) * 0.3,
               "decoder.embed_tokens.weight": torch.randn(vocab, D) * 0.3,
               "encoder.version": torch.tensor([3.0]), "decoder.version": torch.tensor([3.0]),
               "encoder.embed_positions._float_tensor": torch.zeros(1),
               "decoder.embed_positions._float_tensor": torch.zeros(1)}

    def linear(prefix: str, out: int, inp: int) -> None:
        weights[f"{prefix}.weight"] = torch.randn(out, inp) / math.sqrt(inp)
        weights[f"{prefix}.bias"] = torch.randn(out) * 0.1

    def norm(prefix: str) -> None:
        weights[f"{prefix}.weight"] = 1 + torch.randn(D) * 0.1
        weights[f"{prefix}.bias"] = torch.randn(D) * 0.1

    for side, attentions in (("encoder", ("self_attn",)), ("decoder", ("self_attn", "encoder_attn"))):
        for layer in range(LAYERS):
            prefix = f"{side}.layers.{layer}"
            for attention in attentions:
                for projection in ("k_proj", "v_proj", "q_proj", "out_proj"):
                    linear(f"{prefix}.{attention}.{projection}", D, D)
                norm(f"{prefix}.{attention}_layer_norm")
            linear(f"{prefix}.fc1", FFN, D)
            linear(f"{prefix}.fc2", D, FFN)
            norm(f"{prefix}.final_layer_norm")
    if not tie:
        weights["decoder.output_projection.weight"] = torch.randn(vocab, D) * 0.3
    return weights


def write_checkpoint(directory, tie: bool = False, padding: int = 6, **overrides):
    import torch

    directory.mkdir(parents=True, exist_ok=True)
    vocab = 4 + len(PIECES) + padding  # fairseq pads dictionaries with madeupwordNNNN
    args = argparse.Namespace(
        arch="transformer", source_lang="en", target_lang="de", encoder_embed_dim=D, decoder_embed_dim=D,
        encoder_ffn_embed_dim=FFN, decoder_ffn_embed_dim=FFN, encoder_layers=LAYERS, decoder_layers=LAYERS,
        encoder_attention_heads=HEADS, decoder_attention_heads=HEADS, activation_fn="relu",
        max_source_positions=256, max_target_positions=256, share_decoder_input_output_embed=tie,
        share_all_embeddings=False, encoder_normalize_before=False, decoder_normalize_before=False,
        no_scale_embedding=False, dropout=0.1,
    )
    for key, value in overrides.items():
        setattr(args, key, value)
    weights = fairseq_weights(vocab, tie)
    torch.save({"args": args, "model": weights, "optimizer_history": []}, directory / "model.pt")
    for lang in ("en", "de"):
        (directory / f"dict.{lang}.txt").write_text("".join(f"{piece} {100 - i}\n" for i, piece in enumerate(PIECES)))
    (directory / "bpecodes").write_text(CODES)
    return weights


def fairseq_ids(words: list[str]) -> list[int]:
    """What fairseq's BPE + Dictionary.encode_line make of Moses-tokenised words (an independent
    reimplementation for this tiny code table: apply the merges in rank order, then look up)."""
    merges = [tuple(line.split()[:2]) for line in CODES.splitlines()]
    ids = []
    for word in words:
        symbols = [*word[:-1], word[-1] + "</w>"]
        for left, right in merges:
            i = 0
            while i < len(symbols) - 1:
                if (symbols[i], symbols[i + 1]) == (left, right):
                    symbols[i : i + 2] = [left + right]
                else:
                    i += 1
        pieces = [s[:-4] if s.endswith("</w>") else s + "@@" for s in symbols]
        ids += [4 + PIECES.index(piece) for piece in pieces]
    return ids + [2]


@pytest.fixture
def checkpoint(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    weights = write_checkpoint(tmp_path / "ckpt")
    return tmp_path / "ckpt", weights


def test_mapping_keeps_every_weight_and_fairseq_positions(checkpoint):
    import torch
    import transformers

    from performers.claude.fairseq_convert import cached_fsmt

    directory, weights = checkpoint
    mapped = cached_fsmt(directory)
    assert cached_fsmt(directory) == mapped  # cached
    model = transformers.FSMTForConditionalGeneration.from_pretrained(mapped).eval()
    state = model.state_dict()
    for name, tensor in weights.items():
        if name.endswith(("version", "_float_tensor")):
            continue
        assert torch.equal(state[f"model.{name}"], tensor), name
    # fairseq's sinusoidal table (positions start after the padding index 1, padding row zero)
    table = state["model.encoder.embed_positions.weight"]
    half = D // 2
    rates = torch.exp(torch.arange(half, dtype=torch.float) * -(math.log(10000) / (half - 1)))
    angles = torch.arange(table.shape[0], dtype=torch.float)[:, None] * rates[None, :]
    expected = torch.cat([torch.sin(angles), torch.cos(angles)], dim=1)
    expected[1] = 0
    assert torch.allclose(table, expected, atol=1e-5)
    assert model.config.scale_embedding and model.config.decoder_start_token_id == 2


def test_tokenizer_gives_fairseq_ids(checkpoint):
    import transformers

    from performers.claude.fairseq_convert import cached_fsmt

    tokenizer = transformers.AutoTokenizer.from_pretrained(cached_fsmt(checkpoint[0]))
    for text in ("der Lehrer", "Das ist gut .", "Tuer"):
        assert tokenizer(text)["input_ids"] == fairseq_ids(text.split()), text
        assert tokenizer(text_target=text)["input_ids"] == fairseq_ids(text.split())


def test_claude_scores_equal_the_mapped_model_on_fairseq_ids(checkpoint):
    import torch
    import transformers

    from performers.claude.fairseq import FairseqClaude
    from performers.claude.fairseq_convert import cached_fsmt

    claude = FairseqClaude(checkpoint=str(checkpoint[0]), cache=False, progress=False)
    model = transformers.FSMTForConditionalGeneration.from_pretrained(cached_fsmt(checkpoint[0])).eval()
    sources, targets = ["Das ist gut .", "der Lehrer"], ["der Lehrer .", "Das ist gut ."]
    for (source, target), score in zip(zip(sources, targets), claude.score(sources, targets)):
        # fairseq's scoring: the decoder starts from </s>, every target token and </s> is scored
        # (use_cache=False: FSMT drops its causal mask when it caches)
        source_ids, target_ids = fairseq_ids(source.split()), fairseq_ids(target.split())
        with torch.no_grad():
            logits = model(input_ids=torch.tensor([source_ids]), use_cache=False,
                           decoder_input_ids=torch.tensor([[2, *target_ids[:-1]]])).logits[0]
        expected = logits.log_softmax(-1).gather(1, torch.tensor(target_ids)[:, None]).sum().item()
        assert score.tokens == len(target_ids) and abs(score.logprob - expected) < 1e-4
    pairs = [Pair("p1", "the teacher .", ("der Lehrer .", "Lehrer der .")), Pair("p2", "good", ("gut", "Tuer"))]
    assert_conforms(check_claude(claude, pairs), "claude fairseq")


def test_tied_output_projection(tmp_path, monkeypatch):
    import torch
    import transformers

    from performers.claude.fairseq_convert import cached_fsmt

    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    weights = write_checkpoint(tmp_path / "tied", tie=True)
    model = transformers.FSMTForConditionalGeneration.from_pretrained(cached_fsmt(tmp_path / "tied"))
    assert torch.equal(model.get_output_embeddings().weight, weights["decoder.embed_tokens.weight"])


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"encoder_normalize_before": True}, "encoder_normalize_before=True has no counterpart in FSMT"),
        ({"decoder_learned_pos": True}, "decoder_learned_pos"),
        ({"layernorm_embedding": True}, "layernorm_embedding"),
    ],
)
def test_architectures_fsmt_cannot_represent_are_refused(tmp_path, monkeypatch, overrides, message):
    from performers.claude.fairseq_convert import cached_fsmt

    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    write_checkpoint(tmp_path / "ckpt", **overrides)
    with pytest.raises(ValueError, match=message):
        cached_fsmt(tmp_path / "ckpt")
    assert not any((tmp_path / "cache" / "fairseq").glob("*/config.json"))  # nothing half-written kept


def test_bad_directories_are_clear_errors(tmp_path, monkeypatch):
    from performers.claude.fairseq_convert import cached_fsmt

    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(ValueError, match="model.pt does not exist"):
        cached_fsmt(tmp_path)
    write_checkpoint(tmp_path / "spm")
    (tmp_path / "spm" / "bpecodes").unlink()
    (tmp_path / "spm" / "sentencepiece.bpe.model").write_bytes(b"")
    with pytest.raises(ValueError, match="SentencePiece"):
        cached_fsmt(tmp_path / "spm")
    write_checkpoint(tmp_path / "dict")
    (tmp_path / "dict" / "dict.de.txt").write_text("er 5\nbroken\n")
    with pytest.raises(ValueError, match=r"dict.de.txt, line 2: expected 'token count'"):
        cached_fsmt(tmp_path / "dict")


def test_catalog_entry_validates_without_building(checkpoint, monkeypatch):
    from arena.specs.registry import validate
    from arena.specs.spec import parse_spec
    from performers.catalog import CATALOG

    validate("claude", parse_spec(f"fairseq:checkpoint={checkpoint[0]},device=cpu"), CATALOG)
    with pytest.raises(ValueError, match="no parameter"):
        validate("claude", parse_spec(f"fairseq:checkpoint={checkpoint[0]},beam=4"), CATALOG)
    for spec, problem in (("checkpoint=/models/x", "not a directory"),
                          (f"checkpoint={checkpoint[0]},checkpoint_file=best.pt", "best.pt does not exist"),
                          (f"checkpoint={checkpoint[0]},bpe_codes=codes.txt", "codes.txt does not exist")):
        with pytest.raises(ValueError, match=problem):
            validate("claude", parse_spec(f"fairseq:{spec}"), CATALOG)
    monkeypatch.setenv("ARENA_SKIP_MODEL_CHECK", "1")  # models only on the cluster's nodes
    validate("claude", parse_spec("fairseq:checkpoint=/models/x,device=cpu"), CATALOG)


def test_an_engine_the_architecture_cannot_run_is_a_clear_error(checkpoint):
    from performers.claude.fairseq import FairseqClaude

    with pytest.raises(ValueError, match="engine=decoder cannot run this model.*engine=auto"):
        FairseqClaude(checkpoint=str(checkpoint[0]), cache=False, progress=False, engine="decoder")


def test_signature_digest_follows_the_checkpoint_files(tmp_path, monkeypatch):
    from performers.claude.fairseq import FairseqClaude

    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    write_checkpoint(tmp_path / "a")
    params = {"checkpoint": str(tmp_path / "a"), "cache": False}
    before = FairseqClaude.fingerprint(params)
    assert before == FairseqClaude.fingerprint(params)
    (tmp_path / "a" / "dict.de.txt").write_text("".join(f"{p} 1\n" for p in PIECES))
    assert FairseqClaude.fingerprint(params) != before


@pytest.mark.parametrize("trusted, error, message", [
    (True, "EnvError", "needs the Python package 'fairseq_stand_in'"),   # unavailable: exit 2, what to install
    (False, "DataError", "pass trusted=true"),                           # not unpickled at all
])
def test_a_checkpoint_that_needs_a_package_not_installed(tmp_path, monkeypatch, trusted, error, message):
    import sys
    import types

    import torch

    from arena import errors
    from performers.claude.fairseq_convert import cached_fsmt

    monkeypatch.setenv("ARENA_CACHE_DIR", str(tmp_path / "cache"))
    write_checkpoint(tmp_path / "ckpt")
    stand_in = types.ModuleType("fairseq_stand_in")  # fairseq's config classes, pickled into the checkpoint

    class Config:
        pass

    Config.__module__, Config.__qualname__ = "fairseq_stand_in", "Config"
    stand_in.Config = Config  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fairseq_stand_in", stand_in)
    state = torch.load(tmp_path / "ckpt" / "model.pt", weights_only=False)
    torch.save({**state, "cfg": Config()}, tmp_path / "ckpt" / "model.pt")
    monkeypatch.delitem(sys.modules, "fairseq_stand_in")
    with pytest.raises(getattr(errors, error), match=message):
        cached_fsmt(tmp_path / "ckpt", trusted=trusted)
