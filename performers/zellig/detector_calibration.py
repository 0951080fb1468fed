"""Where the shipped calibration of the Zelligs' detectors lives: ``detector_calibration.json`` beside
this module, written by ``python experiments/bench/detectors.py --split heldback --calibration
performers/zellig/detector_calibration.json`` (hits on the held-back, odd-numbered lines of the
published DistilLingEval incorrect sides; false alarms on their correct sides; the insertion Zelligs on
their own variants of newstest references).  The agreement detectors, developed on lines 0–3599 of their
sets, are calibrated on the untouched block after it (``--lines 3600: --split all``; each entry's
``source`` gives its command).  ``arena false-positives`` reads it for the Rogan–Gladen
corrected generative rate (:mod:`arena.stats.rogan_gladen`).

Version 2 (issue 34) adds, per detector measured on published sets, the histogram of its correct
sentences (``clusters``: ``[pairs, hits, false alarms, sentences]``), so that the correction resamples
sentences, not pairs; recomputed with the entries' own commands plus ``--years --workers 1 --merge``
(hits and false alarms reproduced exactly).  The insertions, measured on one variant per newstest
reference, have one pair per sentence and no histogram."""

from __future__ import annotations

from pathlib import Path

PATH = Path(__file__).resolve().with_name("detector_calibration.json")
