"""arena.sdk, the one module performers import arena from: every name it lists is there
(those lent by the engine included, which load on first use), and nothing else is."""

from __future__ import annotations

import subprocess
import sys

import pytest

import arena.sdk as sdk


@pytest.mark.parametrize("name", sdk.__all__)
def test_every_listed_name_resolves(name):
    assert getattr(sdk, name) is not None


@pytest.mark.parametrize(("name", "module"), sorted(sdk.FROM_THE_ENGINE.items()))
def test_the_engine_names_are_the_engines_own(name, module):
    assert getattr(sdk, name) is getattr(__import__(module, fromlist=[name]), name)


@pytest.mark.parametrize("name", ["nothing", "plan_experiment", "Session"])
def test_an_unlisted_name_is_an_import_error(name):
    with pytest.raises(ImportError):
        exec(f"from arena.sdk import {name}", {})


def test_importing_the_sdk_does_not_import_the_engine():
    code = "import sys, arena.sdk; print('arena.engine' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "False", result.stderr
