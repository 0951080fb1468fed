"""Tiny randomly initialised seq2seq and causal models, built offline for tests.

Each builder writes a model directory (config, random weights, tokenizer) that
``from_pretrained`` loads like a hub checkpoint: Marian, FSMT, mBART-50, M2M100, NLLB,
T5, mT5 and GPT-2.  Vocabularies are trained on the fly with SentencePiece on a few
hundred lines of ``../shared/data/parallel-toy`` (or a built-in sample when the
shared data is absent); FSMT gets a character-level BPE vocabulary.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import DATA

SAMPLE = [
    "A man is riding a bicycle down the street.", "Ein Mann fährt mit dem Fahrrad die Straße hinunter.",
    "Two children are playing in the park.", "Zwei Kinder spielen im Park.",
    "The committee approved the new budget.", "Der Ausschuss hat den neuen Haushalt genehmigt.",
    "She did not know the answer.", "Sie kannte die Antwort nicht.",
    "The weather is nice today.", "Das Wetter ist heute schön.",
] * 20

TINY = dict(d_model=32, encoder_layers=2, decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
            encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=128, dropout=0.0)


def training_lines(limit: int = 300) -> list[str]:
    english, german = DATA / "parallel-toy" / "train.en", DATA / "parallel-toy" / "train.de"
    if english.is_file() and german.is_file():
        with open(english, encoding="utf-8") as en, open(german, encoding="utf-8") as de:
            lines = []
            for _, a, b in zip(range(limit), en, de):
                lines += [a.strip(), b.strip()]
            return lines
    return list(SAMPLE)


def train_spm(directory: Path, vocab_size: int = 300, **special) -> Path:
    import sentencepiece as spm

    directory.mkdir(parents=True, exist_ok=True)
    prefix = directory / "sp"
    options = dict(pad_id=-1, bos_id=-1, eos_id=1, unk_id=0)
    options.update(special)
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(training_lines()), model_prefix=str(prefix), vocab_size=vocab_size,
        model_type="unigram", character_coverage=1.0, hard_vocab_limit=False, minloglevel=2, **options,
    )
    return prefix.with_suffix(".model")


def _save(model, tokenizer, directory: Path) -> Path:
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def _seed():
    import torch

    torch.manual_seed(0)


def build_marian(directory: Path, spm_model: Path) -> Path:
    import sentencepiece as spm
    import transformers as T

    _seed()
    processor = spm.SentencePieceProcessor(model_file=str(spm_model))
    vocab = {processor.id_to_piece(i): i for i in range(processor.get_piece_size())}
    vocab["<pad>"] = len(vocab)  # <pad> last, as CTranslate2 expects
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    shutil.copy(spm_model, directory / "source.spm")
    shutil.copy(spm_model, directory / "target.spm")
    tokenizer = T.MarianTokenizer(source_spm=str(directory / "source.spm"), target_spm=str(directory / "target.spm"),
                                  vocab=str(directory / "vocab.json"), source_lang="en", target_lang="de")
    pad, eos = vocab["<pad>"], vocab["</s>"]
    config = T.MarianConfig(vocab_size=len(vocab), decoder_vocab_size=len(vocab), pad_token_id=pad, eos_token_id=eos,
                            decoder_start_token_id=pad, forced_eos_token_id=eos, share_encoder_decoder_embeddings=True,
                            scale_embedding=True, **TINY)
    return _save(T.MarianMTModel(config).eval(), tokenizer, directory)


def build_fsmt(directory: Path) -> Path:
    import transformers as T

    _seed()
    directory.mkdir(parents=True, exist_ok=True)
    characters = sorted({c for line in training_lines() for c in line if not c.isspace()})
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for c in characters:
        vocab.setdefault(c, len(vocab))
        vocab.setdefault(c + "</w>", len(vocab))
    for name in ("vocab-src.json", "vocab-tgt.json"):
        (directory / name).write_text(json.dumps(vocab, ensure_ascii=False))
    (directory / "merges.txt").write_text("#version: 0.2\n")
    tokenizer = T.FSMTTokenizer(langs=["en", "de"], src_vocab_file=str(directory / "vocab-src.json"),
                                tgt_vocab_file=str(directory / "vocab-tgt.json"), merges_file=str(directory / "merges.txt"))
    config = T.FSMTConfig(langs=["en", "de"], src_vocab_size=len(vocab), tgt_vocab_size=len(vocab), d_model=32,
                          encoder_layers=2, decoder_layers=2, encoder_attention_heads=2, decoder_attention_heads=2,
                          encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=512, dropout=0.0,
                          pad_token_id=1, bos_token_id=0, eos_token_id=2, decoder_start_token_id=2,
                          tie_word_embeddings=False)
    return _save(T.FSMTForConditionalGeneration(config).eval(), tokenizer, directory)


def _converted_tokenizer(directory: Path, spm_model: Path, file_name: str, config: dict):
    import transformers as T

    source = directory.with_name(directory.name + "-spm")
    source.mkdir(parents=True, exist_ok=True)
    shutil.copy(spm_model, source / file_name)
    (source / "tokenizer_config.json").write_text(json.dumps(config))
    return T.AutoTokenizer.from_pretrained(source)


def build_mbart50(directory: Path, spm_model: Path) -> Path:
    import transformers as T

    _seed()
    tokenizer = _converted_tokenizer(directory, spm_model, "sentencepiece.bpe.model",
                                     {"tokenizer_class": "MBart50Tokenizer", "src_lang": "en_XX", "tgt_lang": "de_DE"})
    config = T.MBartConfig(vocab_size=len(tokenizer), pad_token_id=tokenizer.pad_token_id, eos_token_id=2, bos_token_id=0,
                           decoder_start_token_id=2, scale_embedding=True, **TINY)
    return _save(T.MBartForConditionalGeneration(config).eval(), tokenizer, directory)


def build_m2m100(directory: Path, spm_model: Path) -> Path:
    import sentencepiece as spm
    import transformers as T

    _seed()
    directory.mkdir(parents=True, exist_ok=True)
    processor = spm.SentencePieceProcessor(model_file=str(spm_model))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for i in range(processor.get_piece_size()):
        vocab.setdefault(processor.id_to_piece(i), len(vocab))
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    shutil.copy(spm_model, directory / "sentencepiece.bpe.model")
    tokenizer = T.M2M100Tokenizer(vocab_file=str(directory / "vocab.json"),
                                  spm_file=str(directory / "sentencepiece.bpe.model"), src_lang="en", tgt_lang="de")
    # the tokenizer numbers its 100 language codes (and 8 "madeup words") after the vocabulary
    size = max(max(tokenizer.get_vocab().values()), *tokenizer.lang_code_to_id.values()) + 9
    config = T.M2M100Config(vocab_size=size, pad_token_id=1, eos_token_id=2, bos_token_id=0,
                            decoder_start_token_id=2, scale_embedding=True, **TINY)
    return _save(T.M2M100ForConditionalGeneration(config).eval(), tokenizer, directory)


def build_nllb(directory: Path, spm_model: Path) -> Path:
    import transformers as T

    _seed()
    tokenizer = _converted_tokenizer(
        directory, spm_model, "sentencepiece.bpe.model",
        {"tokenizer_class": "NllbTokenizer", "src_lang": "eng_Latn", "tgt_lang": "deu_Latn",
         "additional_special_tokens": ["eng_Latn", "deu_Latn"]},
    )
    config = T.M2M100Config(vocab_size=len(tokenizer), pad_token_id=tokenizer.pad_token_id, eos_token_id=2,
                            bos_token_id=0, decoder_start_token_id=2, scale_embedding=True, **TINY)
    return _save(T.M2M100ForConditionalGeneration(config).eval(), tokenizer, directory)


def build_t5(directory: Path, spm_model: Path, multilingual: bool = False) -> Path:
    import transformers as T

    _seed()
    tokenizer = _converted_tokenizer(directory, spm_model, "spiece.model",
                                     {"tokenizer_class": "T5Tokenizer", "extra_ids": 0})
    kwargs = dict(vocab_size=len(tokenizer), d_model=32, d_kv=16, d_ff=64, num_layers=2, num_decoder_layers=2,
                  num_heads=2, dropout_rate=0.0, pad_token_id=tokenizer.pad_token_id,
                  eos_token_id=tokenizer.eos_token_id, decoder_start_token_id=tokenizer.pad_token_id)
    if multilingual:
        config = T.MT5Config(feed_forward_proj="gated-gelu", tie_word_embeddings=False, **kwargs)
        model = T.MT5ForConditionalGeneration(config)
    else:
        config = T.T5Config(**kwargs)
        model = T.T5ForConditionalGeneration(config)
    return _save(model.eval(), tokenizer, directory)


def build_gpt2(directory: Path) -> Path:
    import transformers as T
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    _seed()
    directory.mkdir(parents=True, exist_ok=True)
    bpe = Tokenizer(models.BPE(unk_token=None))
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["<|endoftext|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    bpe.train_from_iterator(training_lines(), trainer)
    from tokenizers import decoders

    bpe.decoder = decoders.ByteLevel()
    tokenizer = T.PreTrainedTokenizerFast(tokenizer_object=bpe, bos_token="<|endoftext|>", eos_token="<|endoftext|>",
                                          unk_token="<|endoftext|>")
    config = T.GPT2Config(vocab_size=bpe.get_vocab_size(), n_positions=128, n_embd=32, n_layer=2, n_head=2,
                          bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    return _save(T.GPT2LMHeadModel(config).eval(), tokenizer, directory)


# name -> (builder taking (directory, spm_model), Claude params)
SEQ2SEQ = {
    "marian": (build_marian, {}),
    "fsmt": (lambda d, s: build_fsmt(d), {}),
    "mbart50": (build_mbart50, {"source_lang": "en_XX", "target_lang": "de_DE"}),
    "m2m100": (build_m2m100, {"source_lang": "en", "target_lang": "de"}),
    "nllb": (build_nllb, {"source_lang": "eng_Latn", "target_lang": "deu_Latn"}),
    "t5": (build_t5, {"source_prefix": "translate English to German: "}),
    "mt5": (lambda d, s: build_t5(d, s, multilingual=True), {"source_prefix": "translate English to German: "}),
}
