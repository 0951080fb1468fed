"""Every page of ``arena serve`` extends base.html: one head (the package's stylesheet, the
CSRF meta tag), the header saying who plays what, and a sign-out form that returns to the
page's own start."""

from __future__ import annotations

import re

import pytest

from arena.codec import dump
from arena.people.repair_web import blueprint as repair_pages
from arena.people.repairs import RepairReview
from arena.people.web import Arena, create_app
from arena.people.zellig_web import ZelligArena
from arena.people.zellig_web import blueprint as zellig_pages
from tests.arena.people.helpers import planned, write_config
from tests.arena.people.test_repairs import flagged

HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"


@pytest.fixture()
def client(tmp_path, distil_dir):
    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    app = create_app(Arena(run_dir, rounds, None, "people"), None, [HOST])
    app.register_blueprint(zellig_pages(ZelligArena(run_dir, rounds, dump(experiment), None, "people")))
    app.register_blueprint(repair_pages(RepairReview(tmp_path / "repairs.jsonl", flagged(2)), "people"))
    client = app.test_client()
    page = client.get("/", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    client.post("/login", data={"name": "ann", "csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    return client, csrf


@pytest.mark.parametrize("page, home, role, title", [
    ("/play", "/", "playing Claude", "people · arena</title>"),
    ("/summary", "/", "playing Claude", "people · arena</title>"),
    ("/zellig/", "/zellig/", "playing Zellig", "people · arena Zellig</title>"),
    ("/repair/", "/repair/", "reviewing references", "people · arena repair</title>"),
])
def test_pages_extend_base(client, page, home, role, title):
    client, csrf = client
    html = client.get(page, base_url=ORIGIN).get_data(as_text=True)
    assert html.count("<head>") == 1 and html.count("/static/style.css") == 1 and html.count("<header>") == 1
    assert f'<meta name="csrf-token" content="{csrf}">' in html and title in html
    assert f"{role} as <b>ann</b>" in html and f'name="home" value="{home}"' in html
    out = client.post("/logout", data={"csrf": csrf, "home": home}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert out.status_code == 302 and out.headers["Location"] == home
