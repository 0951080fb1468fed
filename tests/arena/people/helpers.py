"""A small run for people's tests: four DistilLingEval placeholder_ding pairs, the
``replay`` Zellig, the random Claude (or the toy model) and a time budget."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from arena.engine import prepare
from arena.specs.config import load_experiment
from performers.catalog import CATALOG

REPO = Path(__file__).resolve().parents[3]


def write_config(tmp_path: Path, distil_dir: Path, claudes: str = "[random]", limit: int = 4, budget: float = 30) -> Path:
    path = tmp_path / "people.yaml"
    path.write_text(
        f"""name: people
johns: [{{name: distil-lingeval, alias: ding, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: {limit}}}}}]
zelligs: [replay]
claudes: {claudes}
seeds: [1]
discrepancy: false
bootstrap_samples: 100
time_budget: {{claude_seconds_per_pair: {budget}}}
""",
        encoding="utf-8",
    )
    return path


def planned(config: Path, out: Path):
    """The experiment, its run directory and its planned rounds (no Claude judged)."""
    experiment = load_experiment(config)
    run_dir, rounds = prepare(experiment, CATALOG, out, progress=False)
    return experiment, run_dir, rounds


def arena_command(*args: str) -> tuple[str, list[str]]:
    """``arena ARGS`` as a program and its arguments, importing this checkout."""
    return sys.executable, ["-c", "import sys; from arena.cli import main; sys.exit(main())", *args]


def arena_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "ARENA_PROGRESS": "0", "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1", "TERM": "xterm", "COLUMNS": "200", "LINES": "50"}


def default_sigint() -> None:
    """Run in a child before it starts: Ctrl-C reaches it even where the tests run with
    SIGINT ignored (a background job of a shell without job control)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def session_id(client, host: str = "127.0.0.1") -> str:
    """The session id that ``client`` (a Flask test client) holds for ``host``."""
    cookie = client.get_cookie(client.application.config["SESSION_COOKIE_NAME"], domain=host)
    assert cookie is not None, "the server set no session cookie"
    return cookie.value


def client_with(app, sid: str, host: str = "127.0.0.1"):
    """A new test client of ``app`` holding the session id ``sid`` (a copied cookie)."""
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], sid, domain=host)
    return client
