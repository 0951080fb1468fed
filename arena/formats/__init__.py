"""Readers and writers for the file formats of the reference tools.

- :mod:`arena.formats.lingeval97` — LingEval97 JSON test sets, their plaintext
  extraction (``json_to_plaintext.py`` order) and its one-score-per-line files.
- :mod:`arena.formats.distil_lingeval` — DistilLingEval directories
  (``src.en``, ``tgt.correct.de``, ``tgt.incorrect.de``) and their 2N-line score files.
- :mod:`arena.formats.textlines` / :mod:`arena.formats.scores` — line-aligned text and
  score files with errors that name file and line.
- :mod:`arena.formats.export` — an arena run's pairs in both formats.
"""
