"""arena: adversarial evaluation of language models (Smith 2012) with minimal pairs.

Three performers play: a *John* selects data, a *Zellig* corrupts it, a *Claude* tells
the corrupted candidate from the original.  This package holds the framework (records,
role protocols, configuration, the match loop, metrics, transcripts, tournaments, the
CLI); concrete performers live in the sibling package :mod:`performers`.

The public Python API (:mod:`arena.api`): :func:`run` plays an experiment (as the ``arena run`` command does),
:func:`load_run` loads a finished run (its tables as pandas data frames),
:func:`performer` builds a performer from a SPEC; :func:`score_pairs` scores one's own
minimal pairs into a DataFrame and :func:`run_pairs` plays them (:mod:`arena.pairs_api`).  ``import arena`` stays light: the
API is imported on first use.
"""

from __future__ import annotations

from typing import Any

from arena.version import __version__

__all__ = ["Run", "load_run", "performer", "run", "run_pairs", "score_pairs", "__version__"]


def __getattr__(name: str) -> Any:
    if name in ("Run", "load_run", "performer", "run", "score_pairs", "run_pairs"):
        from arena import api

        return getattr(api, name)
    raise AttributeError(f"module 'arena' has no attribute {name!r}")
