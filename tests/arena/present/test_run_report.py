"""report.md and report.html (arena/present/report.py, arena report): sections, embedded
plots, the edit highlighted, a game's timeline, several runs side by side; the HTML
parsed strictly and rendered in a headless browser."""

from __future__ import annotations

import json
import os
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from arena.cli import main
from arena.stats.results import read_scores
from tests.arena.engine.helpers import HERE


def _config(tmp_path: Path, distil_dir: Path, name: str = "rep", seeds: str = "[1, 2]") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"name: {name}\n"
        f"john: {{name: distil-lingeval, alias: ding, params: {{dir: {distil_dir / 'placeholder_ding.human'}, limit: 40}}}}\n"
        "zellig: {name: replay, alias: replay, params: {detector: placeholder-ding}}\n"
        f"claudes: [{{name: '{HERE}:HashScorer', alias: hash}}, random, oracle]\n"
        f"seeds: {seeds}\nbootstrap_samples: 50\n",
        encoding="utf-8",
    )
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir) -> Path:
    tmp_path = tmp_path_factory.mktemp("report")
    assert main(["run", str(_config(tmp_path, distil_dir)), "--out", str(tmp_path / "runs"), "--no-progress"]) == 0
    (found,) = (tmp_path / "runs").iterdir()
    return found


class _Strict(HTMLParser):
    """Collects tags and checks that every non-void element is closed in order."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()


def parse(html: str) -> _Strict:
    parser = _Strict()
    parser.feed(html)
    parser.close()
    assert parser.stack == []
    return parser


def test_run_writes_both_reports(run_dir):
    markdown = (run_dir / "report.md").read_text(encoding="utf-8")
    scores = read_scores(run_dir)
    assert scores.signature in markdown
    for section in ("### Signature", "### Scores", "### Leaderboards", "### Paired tests", "### Breakdowns",
                    "### Discrepancy and generative rate", "### Plots", "### Misjudged pairs",
                    "**S over seeds", "**Claudes by S", "**Johns by S", "**Per phenomenon**"):
        assert section in markdown, section
    assert "![S per Zellig × Claude](report/s_zellig_claude.png)" in markdown
    assert (run_dir / "report" / "s_zellig_claude.png").exists()
    # the misjudged pairs show the edit: ~~before~~ **after** (Ding)
    assert re.search(r"~~[^~]+~~\*\*Ding\*\*", markdown)
    assert "S over time" not in markdown  # no game, no timeline
    # the numbers are those of scores.json
    hash_cell = next(c.summary for c in scores.cells if c.claude == "hash" and c.seed == 1)
    # the Zellig may carry a surface-cue note ("replay (confounded by …)")
    assert re.search(rf"\| ding \| replay( \([^)|]*\))? \| hash \| 1 \| 40 \| {hash_cell.S:.3f} \|", markdown)


def test_html_is_self_contained_and_well_formed(run_dir):
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    parsed = parse(html)
    images = [attrs for tag, attrs in parsed.tags if tag == "img"]
    assert len(images) >= 2 and all(attrs["src"].startswith("data:image/png;base64,") for attrs in images)
    assert sum(1 for tag, _ in parsed.tags if tag == "table") >= 8
    # nothing is fetched: no external references at all
    assert not [attrs for _, attrs in parsed.tags if any(str(v).startswith(("http:", "https:", "//"))
                                                         for k, v in attrs.items() if k in ("src", "href"))]
    assert "<del>" in html and "<ins>Ding</ins>" in html


def _browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are needed in CI (.ci/run installs them)")
        pytest.skip("no chromium/chromedriver on this machine")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    options.binary_location = chromium
    return webdriver.Chrome(options=options, service=Service(driver))


def test_html_renders_in_a_headless_browser(run_dir):
    browser = _browser()
    try:
        browser.get((run_dir / "report.html").resolve().as_uri())
        assert browser.title == "arena report: rep"
        images = browser.execute_script(
            "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight])")
        assert images and all(done and width > 100 and height > 100 for done, width, height in images)
        tables = browser.execute_script("return Array.from(document.querySelectorAll('table')).map(t => t.rows.length)")
        assert len(tables) >= 8 and all(rows >= 2 for rows in tables)
        assert browser.execute_script("return performance.getEntriesByType('resource').length") == 0  # offline
        signature = browser.execute_script("return document.querySelector('pre.signature').textContent")
        assert signature.startswith("john:ding=distil-lingeval@1+data.")
    finally:
        browser.quit()


def test_a_timeline_is_rendered_when_present(run_dir, tmp_path):
    """A synthetic game timeline (the layout of scores.json's ``timeline``) becomes a table."""
    copy = tmp_path / "game"
    shutil.copytree(run_dir, copy)
    scores = json.loads((copy / "scores.json").read_text(encoding="utf-8"))
    scores["cells"][0]["timeline"] = {
        "window": 20,
        "windows": [
            {"first": 1, "last": 20, "rounds": 20, "phases": [0], "counts": False, "S": 0.55, "S_ci95": [0.35, 0.75]},
            {"first": 21, "last": 40, "rounds": 20, "phases": [1], "counts": True, "S": 0.8, "S_ci95": [0.6, 0.95]},
        ],
        "convergence": {"epsilon": 0.05, "final_S": 0.8, "rounds": 20, "window": 1},
    }
    (copy / "scores.json").write_text(json.dumps(scores), encoding="utf-8")
    assert main(["report", str(copy), "--no-plots"]) == 0
    markdown = (copy / "report.md").read_text(encoding="utf-8")
    assert "### S over time" in markdown
    assert "| 1 | 20 | 20 (few) | 0.550 | [0.350, 0.750] | no (observation) |" in markdown
    assert "S stays within ε=0.05 of its final value 0.800 after 20 rounds" in markdown
    parse((copy / "report.html").read_text(encoding="utf-8"))


def test_several_runs_side_by_side(run_dir, tmp_path, distil_dir, capsys):
    assert main(["run", str(_config(tmp_path, distil_dir, "other", "[3]")), "--out", str(tmp_path / "runs"),
                 "--no-progress", "--no-report"]) == 0
    (other,) = (tmp_path / "runs").iterdir()
    assert not (other / "report.md").exists()  # --no-report
    assert main(["report", str(run_dir), str(other)]) == 2  # several runs need --out
    assert "--out" in capsys.readouterr().err
    assert main(["report", str(run_dir), str(other), "--out", str(tmp_path / "both")]) == 0
    markdown = (tmp_path / "both" / "report.md").read_text(encoding="utf-8")
    assert "2 runs side by side" in markdown and "## Run 1: rep" in markdown and "## Run 2: other" in markdown
    assert "| John | Zellig | Claude | run 1: S | run 2: S |" in markdown
    parse((tmp_path / "both" / "report.html").read_text(encoding="utf-8"))
    assert main(["report", str(tmp_path / "missing")]) == 2


def test_quickstart_writes_report(tmp_path, data_dir, monkeypatch, capsys):
    """The quickstart (on 10 instances) writes report.md and report.html with every section."""
    quickstart = Path(__file__).resolve().parents[3] / "experiments" / "quickstart.yaml"
    (tmp_path / "checkout").mkdir()
    (tmp_path / "shared").symlink_to(data_dir.parent)  # the quickstart names ../shared/data
    monkeypatch.chdir(tmp_path / "checkout")
    code = main(["run", str(quickstart), "--limit", "10", "--out", "runs", "--no-progress"])
    assert code == 0
    printed = capsys.readouterr().out
    (run,) = Path("runs").iterdir()
    assert f"report: {run / 'report.md'}, {run / 'report.html'}" in printed
    markdown = (run / "report.md").read_text(encoding="utf-8")
    assert "claude:toy=toy-en-de@1+model." in markdown
    assert "**Discrepancy and generative rate**" in markdown
    parse((run / "report.html").read_text(encoding="utf-8"))
