"""The reference tools' evaluations, re-implemented as pure functions with their
report formats: :mod:`arena.evaluate.lingeval97` (LingEval97's ``evaluate.py``) and
:mod:`arena.evaluate.distil_lingeval` (DistilLingEval's accuracy)."""
