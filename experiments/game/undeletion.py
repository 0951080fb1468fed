"""The un-deletion detector on a model's 1-best translations, with and without the
garbage filter.

    python experiments/game/undeletion.py --years 2011-2013 --sources 150

Takes the first ``--sources`` newstest sources that negate a word with *un-*/*non-*,
translates them with the toy model (beam 5, cached), and counts the translations in
which ``polarity-affix-del``'s detector finds a dropped negation: version 1's rule
(no negation in the translation) and version 2's (the same, unless the translation
is garbled: :mod:`performers.german.garbled`).  Every translation the filter removes
is printed with its reason, to be read: each should be garbage.
"""

from __future__ import annotations

import argparse
import itertools
from collections import Counter

from performers.german.analysis import analyze
from performers.german.garbled import garbled
from performers.german.negation import english_un_words, negation_count
from performers.nested import build_nested
from performers.zellig.polarity_affix_del import PolarityAffixDelZellig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--years", default="2011-2013")
    parser.add_argument("--sources", type=int, default=150)
    parser.add_argument("--scan", type=int, default=9000, help="newstest sentences to scan for un-words")
    args = parser.parse_args()
    john_spec = {"name": "newstest", "params": {"dir": "../shared/data/wmt/newstest", "years": args.years}}
    _, john = build_nested("john", john_spec, where="undeletion")
    sources = [i.source for i in itertools.islice(john.instances(), args.scan) if english_un_words(i.source)]
    sources = sources[: args.sources]
    _, model = build_nested("claude", "toy-en-de", where="undeletion")
    translations = model.translate(sources)
    zellig = PolarityAffixDelZellig()
    old = [negation_count(analyze(t, zellig.backend)) == 0 for t in translations]
    new = [zellig.detect(t, s) for s, t in zip(sources, translations)]
    reasons = Counter()
    print(f"{len(sources)} sources with an un-/non- word; detector hits: version 1 {sum(old)}, version 2 {sum(new)}")
    for source, text, before, after in zip(sources, translations, old, new):
        if before and not after:
            reason = garbled(text, source)
            reasons[reason] += 1
            print(f"[{reason}] {source}\n    → {text}")
    removed = sum(reasons.values())
    share = removed / sum(old) if sum(old) else 0.0
    print(f"removed as garbage: {removed} of {sum(old)} hits ({share:.0%}); by reason: {dict(reasons)}")


if __name__ == "__main__":
    main()
