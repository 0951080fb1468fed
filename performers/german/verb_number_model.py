"""A learned verb-number check: a small BiLSTM that predicts, for a finite verb hidden from it, the grammatical
number (singular or plural) its sentence demands — the number-prediction task of Linzen, Dupoux & Goldberg
(2016, "Assessing the ability of LSTMs to learn syntax-sensitive dependencies") — and the verbs whose written
number it rejects.

    from performers.german.analysis import analyze
    from performers.german.verb_number_model import load_model, rejected_verbs

    model = load_model()                                        # the shipped model (data/verb_number/)
    rejected_verbs(analyze("Die Kinder spielt im Garten."), model, threshold=0.9)   # [(2, 0.99...)]

Examples.  Every finite verb of a sentence (:func:`performers.german.syntax.finite_verbs`: the tagger's
``VVFIN``/``VAFIN``/``VMFIN`` plus the clause verbs it mistagged) whose form has readings in one number only
in the third person (:func:`performers.german.verb_inflection.verb_readings`: *stürzt* SG, *stürzten* PL;
*stürzen* PL) is an example labelled with that number.  The label is the number of the form's third-person
readings, so *ihr stürzt* is labelled SG: the model learns which form a context takes, which is what the
detector compares with.

Input.  The tokens of the verb's sentence (at most :data:`WINDOW` either side of it), each as its lower-cased
form (one of the training corpus's most frequent forms, else an unknown-word symbol) plus its STTS tag (so
unknown nouns, adjectives and verbs still carry their class) and, where ``Config.suffix_dim`` is set, its last
three letters (one of the most frequent endings: *-ern*, *-ten* carry the number of words outside the vocabulary).  The verb itself is replaced by a mask whose tag
is a mask too (the tagger takes many corrupted plural forms for infinitives, so a tag would betray the
number) and whose lemma (one of the most frequent verb lemmas, else "other") has its own embedding:
the lemma is the same for both numbers, so it reveals nothing about the label, but constructions depend on it
(*es gibt* is singular whatever follows; *sein* agrees with a plural predicate noun: *Das sind Fakten*).

Detection.  :func:`rejected_verbs` gives the verbs whose form's number the model puts at probability
``<= 1 - threshold``, with the probability of the other number.  The model runs on CPU, one thread, one
batch per text.  Training: :mod:`performers.german.verb_number_training`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from performers.german.tokens import Analysis

logger = logging.getLogger(__name__)

MODEL_DIR = Path(__file__).resolve().parent / "data" / "verb_number"
WINDOW = 40  # tokens of context either side of the verb
PAD, UNK, MASK = 0, 1, 2  # word ids
MASK_TAG = 2  # the masked verb's tag id: its own tag is hidden too (HanTa tags some plural forms VVINF)
NUMBERS = ("SG", "PL")


@dataclass
class Vocabulary:
    """Word forms, STTS tags and verb lemmas known to the model (index = id; the first three words and
    tags are the padding, unknown and mask symbols, the first two lemmas the padding and unknown ones)."""

    words: list[str]
    tags: list[str]
    lemmas: list[str]
    suffixes: list[str] = field(default_factory=list)
    word_ids: dict[str, int] = field(init=False, repr=False)
    tag_ids: dict[str, int] = field(init=False, repr=False)
    lemma_ids: dict[str, int] = field(init=False, repr=False)
    suffix_ids: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.word_ids = {w: i for i, w in enumerate(self.words)}
        self.tag_ids = {t: i for i, t in enumerate(self.tags)}
        self.lemma_ids = {w: i for i, w in enumerate(self.lemmas)}
        self.suffix_ids = {w: i for i, w in enumerate(self.suffixes)}

    def to_json(self) -> dict[str, list[str]]:
        return {"words": self.words, "tags": self.tags, "lemmas": self.lemmas, "suffixes": self.suffixes}


@dataclass(frozen=True)
class Config:
    """Sizes of the network."""

    word_dim: int = 64
    tag_dim: int = 16
    lemma_dim: int = 16
    hidden: int = 96
    suffix_dim: int = 0  # 0: no suffix channel

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Example:
    """One masked verb: the ids of its window, the verb's position in it, its lemma id, its label (1 = PL)."""

    words: tuple[int, ...]
    tags: tuple[int, ...]
    position: int
    lemma: int
    label: int
    suffixes: tuple[int, ...] = ()


def build_network(vocabulary: Vocabulary, config: Config) -> Any:
    """The torch module: word + tag embeddings → one BiLSTM layer; the two directions' states at the masked
    verb and its lemma embedding → the logit of plural."""
    import torch
    from torch import nn

    class VerbNumberNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.word = nn.Embedding(len(vocabulary.words), config.word_dim, padding_idx=PAD)
            self.tag = nn.Embedding(len(vocabulary.tags), config.tag_dim, padding_idx=0)
            self.lemma = nn.Embedding(len(vocabulary.lemmas), config.lemma_dim)
            if config.suffix_dim:
                self.suffix = nn.Embedding(len(vocabulary.suffixes), config.suffix_dim, padding_idx=PAD)
            width = config.word_dim + config.tag_dim + config.suffix_dim
            self.lstm = nn.LSTM(width, config.hidden, batch_first=True, bidirectional=True)
            self.out = nn.Linear(2 * config.hidden + config.lemma_dim, 1)

        def forward(self, words, tags, suffixes, lengths, positions, lemmas):
            parts = [self.word(words), self.tag(tags)] + ([self.suffix(suffixes)] if config.suffix_dim else [])
            inputs = torch.cat(parts, dim=-1)
            packed = nn.utils.rnn.pack_padded_sequence(inputs, lengths, batch_first=True, enforce_sorted=False)
            states, _ = self.lstm(packed)
            states, _ = nn.utils.rnn.pad_packed_sequence(states, batch_first=True)
            at_verb = states[torch.arange(len(positions)), positions]
            return self.out(torch.cat([at_verb, self.lemma(lemmas)], dim=-1)).squeeze(-1)

    return VerbNumberNet()


@dataclass
class VerbNumberModel:
    """A trained network with its vocabulary."""

    vocabulary: Vocabulary
    config: Config
    network: Any

    def plural_probabilities(self, examples: list[Example]) -> list[float]:
        """P(plural) for each example (one batch, no gradients)."""
        import torch

        if not examples:
            return []
        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # a one-sentence batch: more threads only wait; restored for the process's models
        try:
            with torch.no_grad():
                return torch.sigmoid(self.network(*batch_tensors(examples))).tolist()
        finally:
            torch.set_num_threads(threads)

    def save(self, directory: Path, meta: dict[str, Any]) -> None:
        """Weights as float16 ``weights.npz``, vocabulary, sizes and ``meta`` (how it was trained) as JSON."""
        import numpy as np

        directory.mkdir(parents=True, exist_ok=True)
        state = {name: value.detach().numpy().astype(np.float16) for name, value in self.network.state_dict().items()}
        np.savez_compressed(directory / "weights.npz", **state)
        description = {"config": self.config.to_json(), "vocabulary": self.vocabulary.to_json(), "meta": meta}
        (directory / "model.json").write_text(json.dumps(description, ensure_ascii=False, indent=0) + "\n",
                                              encoding="utf-8")


def batch_tensors(examples: list[Example]) -> tuple[Any, ...]:
    """Padded (words, tags, suffixes), lengths, verb positions and lemma ids of ``examples`` as tensors."""
    import torch

    width = max(len(e.words) for e in examples)
    words = torch.zeros((len(examples), width), dtype=torch.long)
    tags = torch.zeros((len(examples), width), dtype=torch.long)
    suffixes = torch.zeros((len(examples), width), dtype=torch.long)
    for row, example in enumerate(examples):
        words[row, : len(example.words)] = torch.tensor(example.words)
        tags[row, : len(example.tags)] = torch.tensor(example.tags)
        if example.suffixes:
            suffixes[row, : len(example.suffixes)] = torch.tensor(example.suffixes)
    lengths = torch.tensor([len(e.words) for e in examples])
    positions = torch.tensor([e.position for e in examples])
    lemmas = torch.tensor([e.lemma for e in examples])
    return words, tags, suffixes, lengths, positions, lemmas


def suffix(word: str) -> str:
    """The last three letters of a lower-cased word of four or more letters, else ``""``: the inflectional
    ending that carries number (*-ern*, *-ten*, *-ung*) for the words outside the vocabulary."""
    return word[-3:].lower() if len(word) >= 4 and word.isalpha() else ""


def form_number(form: str, lemma: str) -> str | None:
    """The number of the third-person readings of the finite ``form``, where they have only one."""
    from performers.german.verb_inflection import verb_readings

    numbers = {r.number for r in verb_readings(form, lemma) if r.person == 3}
    return numbers.pop() if len(numbers) == 1 else None


def verb_examples(analysis: Analysis, vocabulary: Vocabulary,
                  verbs: dict[int, str] | None = None) -> list[tuple[int, str, Example]]:
    """(token index, the form's number, example) for each finite verb of ``analysis`` with a third-person
    number (``verbs``: its :func:`performers.german.syntax.finite_verbs`, found here when not given); the
    example's label is that number."""
    from performers.german.syntax import finite_verbs

    out = []
    tokens = analysis.tokens
    for index, lemma in sorted((finite_verbs(analysis) if verbs is None else verbs).items()):
        number = form_number(tokens[index].text, lemma)
        if number is None:
            continue
        sentence = analysis.sentences[tokens[index].sentence]
        first, last = max(sentence.first, index - WINDOW), min(sentence.last, index + WINDOW + 1)
        words = [vocabulary.word_ids.get(t.text.lower(), UNK) for t in tokens[first:last]]
        words[index - first] = MASK
        tags = [vocabulary.tag_ids.get(t.pos, 1) for t in tokens[first:last]]
        tags[index - first] = MASK_TAG
        lemma_id = vocabulary.lemma_ids.get(lemma.lower(), 1)
        suffixes = [vocabulary.suffix_ids.get(suffix(t.text), UNK) for t in tokens[first:last]]
        suffixes[index - first] = MASK
        example = Example(tuple(words), tuple(tags), index - first, lemma_id, NUMBERS.index(number), tuple(suffixes))
        out.append((index, number, example))
    return out


def rejected_verbs(analysis: Analysis, model: VerbNumberModel, threshold: float) -> list[tuple[int, float]]:
    """(token index, probability of the other number) of each finite verb whose written number the model
    gives at most ``1 - threshold``; not verbs the subject–verb rules take for non-finite forms the tagger
    called finite (:func:`performers.german.non_finite.looks_non_finite`: *Erstens: Das gelbe Käppchen
    aufsetzen.*)."""
    from performers.german.non_finite import looks_non_finite
    from performers.german.syntax import finite_verbs

    verbs = finite_verbs(analysis)
    found = [(index, number, example) for index, number, example in verb_examples(analysis, model.vocabulary, verbs)
             if not looks_non_finite(analysis, verbs, index, verbs[index])]
    probabilities = model.plural_probabilities([example for _, _, example in found])
    out = []
    for (index, number, _), plural in zip(found, probabilities):
        other = plural if number == "SG" else 1.0 - plural
        if other >= threshold:
            out.append((index, other))
    return out


_LOADED: dict[Path, VerbNumberModel] = {}


def load_model(directory: Path | None = None) -> VerbNumberModel:
    """The model saved in ``directory`` (default: the shipped one), loaded once per process."""
    directory = Path(directory or MODEL_DIR)
    if directory not in _LOADED:
        from performers.claude.threads import prepare

        prepare()  # idle OpenMP workers sleep: before the first import of torch
        import numpy as np
        import torch

        from arena.sdk import EnvError

        try:
            description = json.loads((directory / "model.json").read_text(encoding="utf-8"))
            arrays = np.load(directory / "weights.npz")
        except (OSError, ValueError) as error:
            raise EnvError(f"verb-number model: cannot read {directory} ({error})", file=directory,
                           hint="train one with python -m performers.german.verb_number_training") from error
        vocabulary = Vocabulary(**description["vocabulary"])
        config = Config(**description["config"])
        network = build_network(vocabulary, config)
        network.load_state_dict({name: torch.from_numpy(arrays[name].astype(np.float32)) for name in arrays.files})
        network.eval()
        _LOADED[directory] = VerbNumberModel(vocabulary, config, network)
    return _LOADED[directory]
