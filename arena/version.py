"""The package version (one place; ``arena.__version__`` re-exports it).

Modules inside arena import it from here, not from :mod:`arena`, whose ``__init__``
lazily re-exports :mod:`arena.api` (the top layer): importing the root package from
below would close an import cycle (``tests/test_layering.py``).
"""

from __future__ import annotations

__version__ = "0.1.0"
