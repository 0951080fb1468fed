"""Token ids of many texts from a Hugging Face tokenizer, as it gives them, faster.

A Python ("slow") tokenizer such as Marian's first splits every text on its added tokens
(``</s>``, ``<unk>``, ``<pad>``, language codes), scanning it character by character in
Python: half of the toy Marian tokenizer's time.  A text that contains none of them
comes out of that split whole, so ``split_special_tokens=True``, which skips the split,
gives it the same ids; texts that do contain one are tokenized as usual.
"""

from __future__ import annotations

from collections.abc import Sequence


def token_ids(tokenizer, texts: Sequence[str], target: bool = False) -> list[list[int]]:
    """Per text, ``tokenizer(texts)["input_ids"]`` (of ``text_target=texts`` when ``target``)."""
    added = () if tokenizer.is_fast else tuple(tokenizer.added_tokens_encoder)
    plain = [not any(token in text for token in added) for text in texts]
    ids: list[list[int]] = [[] for _ in texts]
    for split in (True, False):
        rows = [i for i, flag in enumerate(plain) if flag == split]
        if not rows:
            continue
        chosen = [texts[i] for i in rows]
        options = {"split_special_tokens": True} if split and added else {}
        encoded = tokenizer(text_target=chosen, **options) if target else tokenizer(chosen, **options)
        for i, row in zip(rows, encoded["input_ids"]):
            ids[i] = list(row)
    return ids
