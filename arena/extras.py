"""Optional dependencies, installed with pip extras, and the error that names the extra.

The core install (``pip install -e .``) runs the quickstart: the toy model with
Transformers (scores) and CTranslate2 (1-best decoding, and the ``ctranslate2`` Claudes),
reports and exports.  The rest comes with extras:

==========  ======================  =========================================================
extra       packages                for
==========  ======================  =========================================================
``ray``     ray                     ``executor: ray``, ``arena tournament``, clusters
``people``  flask                   ``arena serve`` (people in the browser)
``train``   sacrebleu               ``arena train`` (BLEU, distillation)
``all``     all of the above
``test``    all, pytest, ruff, pexpect, selenium
==========  ======================  =========================================================
"""

from __future__ import annotations

import importlib
from typing import Any

from arena.errors import EnvError

PACKAGE = "arena-minimal-pairs"


def require(module: str, extra: str, what: str) -> Any:
    """``module`` imported, or an :class:`EnvError` saying which extra installs it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module and not module.startswith(f"{error.name}."):
            raise
        raise EnvError(f"{what} needs the Python package {module!r}, which is not installed",
                       hint=f"pip install '{PACKAGE}[{extra}]' (from a checkout: pip install -e '.[{extra}]')") from None
