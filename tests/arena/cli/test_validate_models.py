"""``arena validate`` checks that the Claudes' models can be had offline (arena.roles.Available)."""

from __future__ import annotations

import pytest

from arena.cli import main

CONFIG = """name: hubcheck
johns: [{{name: pairs, params: {{path: {pairs}}}}}]
zelligs: [replay]
claudes: [{claude}]
"""


@pytest.mark.parametrize("claude,status,words", [
    ("{name: hf-seq2seq, params: {model: no-such-org/no-such-model-h7}}", 2, "cannot load"),
    ("{name: hf-seq2seq, params: {model: ./no/such/dir}}", 2, "no such directory"),
    ("toy-en-de", 0, "OK"),                    # must not fire: the bundled model
    ("random", 0, "OK"),                       # must not fire: no model at all
])
def test_validate_checks_models_offline(tmp_path, monkeypatch, capsys, claude, status, words):
    from pathlib import Path

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    pairs = Path(__file__).resolve().parents[3] / "experiments" / "own-pairs" / "pairs.tsv"
    config = tmp_path / "x.yaml"
    config.write_text(CONFIG.format(pairs=pairs, claude=claude), encoding="utf-8")
    assert main(["validate", str(config)]) == status
    captured = capsys.readouterr()
    assert words in (captured.out + captured.err)
    if status:
        assert "HF_HUB_OFFLINE" in captured.err or "directory" in captured.err
