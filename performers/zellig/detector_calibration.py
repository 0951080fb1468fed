"""Where the shipped calibration of the Zelligs' detectors lives: ``detector_calibration.json`` beside
this module, written by ``python experiments/bench/detectors.py --split heldback --calibration
performers/zellig/detector_calibration.json`` (hits on the held-back, odd-numbered lines of the
published DistilLingEval incorrect sides; false alarms on their correct sides; the insertion Zelligs on
their own variants of newstest references).  The agreement detectors, developed on lines 0–3599 of their
sets, are calibrated on the untouched block after it (``--lines 3600: --split all``; each entry's
``source`` gives its command).  ``arena false-positives`` reads it for the Rogan–Gladen
corrected generative rate (:mod:`arena.stats.rogan_gladen`)."""

from __future__ import annotations

from pathlib import Path

PATH = Path(__file__).resolve().with_name("detector_calibration.json")
