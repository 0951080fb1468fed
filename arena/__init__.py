"""arena: adversarial evaluation of language models (Smith 2012) with minimal pairs.

Three performers play: a *John* selects data, a *Zellig* corrupts it, a *Claude* tells
the corrupted candidate from the original.  This package holds the framework (records,
role protocols, configuration, the match loop, metrics, transcripts, tournaments, the
CLI); concrete performers live in the sibling package :mod:`performers`.
"""

from __future__ import annotations

__version__ = "0.1.0"
