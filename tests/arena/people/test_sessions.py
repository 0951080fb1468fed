"""Server-side sessions (arena/people/sessions.py) on all three served apps — ``arena serve``,
``serve --zellig``, ``arena repair --serve``: the cookie holds an id only; signing out revokes
it, so a replayed copy of the old cookie gets 401 on every write endpoint and every API call;
a forged or unknown id gets 401; a CSRF token works only with its own session; signed-in
sessions survive a restart (a second app on the same directory) and never store the id."""

from __future__ import annotations

import re
import secrets
import time
from pathlib import Path

import pytest

from arena.codec import dump
from arena.errors import DataError
from arena.people.live import LiveScorer
from arena.people.repair_web import repair_app
from arena.people.repairs import RepairReview
from arena.people.sessions import SessionStore, csrf_token
from arena.people.web import Arena, create_app
from arena.people.zellig_web import ZelligArena, blueprint
from arena.record import people_store as store
from performers.catalog import CATALOG
from tests.arena.people.helpers import client_with, planned, session_id, write_config
from tests.arena.people.test_repairs import flagged

HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"
SERVERS = ("claude", "zellig", "repair")


class Server:
    """One of the served apps, buildable again on the same directory (a restart)."""

    def __init__(self, kind: str, tmp_path: Path, distil_dir: Path):
        self.kind = kind
        self.home = {"claude": "/", "zellig": "/zellig/", "repair": "/repair/"}[kind]
        if kind == "repair":
            self.directory = tmp_path / "set"
            self.review = RepairReview(self.directory / "repairs.jsonl", flagged(3))
        else:
            self.experiment, self.directory, self.rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
        self.app = self.build()

    def build(self, token: str | None = None):
        if self.kind == "repair":
            return repair_app(self.review, "repairs", token, [HOST])
        arena = Arena(self.directory, self.rounds, 30, "people")
        app = create_app(arena, token, [HOST])
        if self.kind == "zellig":
            scorer = LiveScorer([], CATALOG)  # no scoring Claude: nothing heavy to build
            app.register_blueprint(blueprint(ZelligArena(self.directory, self.rounds, dump(self.experiment),
                                                         scorer, "people")))
        return app

    def login_path(self) -> str:
        return self.home.rstrip("/") + "/login" if self.home != "/" else "/login"

    def sign_in(self, name: str = "ann", app=None):
        client = (app or self.app).test_client()
        csrf = csrf_of(client, self.home)
        response = client.post(self.login_path(), data={"name": name, "csrf": csrf}, base_url=ORIGIN,
                               headers={"Origin": ORIGIN})
        assert response.status_code == 302, response.get_data(as_text=True)
        return client, csrf

    def snapshot(self) -> dict[str, bytes]:
        """Every file under the run or patch directory, sessions aside (signing in and out writes them)."""
        return {str(p.relative_to(self.directory)): p.read_bytes() for p in sorted(self.directory.rglob("*"))
                if p.is_file() and ".sessions.json" not in p.name}


def csrf_of(client, page: str) -> str:
    html = client.get(page, base_url=ORIGIN).get_data(as_text=True)
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def endpoints(app, method: str) -> list[str]:
    """Every route of ``app`` taking ``method`` (APIs only for GET: pages start a new session)."""
    paths = sorted(rule.rule for rule in app.url_map.iter_rules() if method in rule.methods and "<" not in rule.rule)
    return [path for path in paths if method == "POST" or "/api/" in path]


def post(client, path: str, csrf: str):
    return client.post(path, json={}, base_url=ORIGIN, headers={"X-CSRF-Token": csrf, "Origin": ORIGIN})


@pytest.fixture(params=SERVERS)
def server(request, tmp_path, distil_dir):
    return Server(request.param, tmp_path, distil_dir)


def test_a_signed_out_cookie_gets_401_on_every_write_endpoint(server):
    client, csrf = server.sign_in()
    sid = session_id(client)
    assert client_with(server.app, sid).get(endpoints(server.app, "GET")[0], base_url=ORIGIN).status_code == 200
    out = client.post("/logout", data={"csrf": csrf, "home": server.home}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert out.status_code == 302 and session_id(client) != sid
    before = server.snapshot()
    writes = endpoints(server.app, "POST")
    assert "/logout" in writes and len(writes) >= 2
    for path in writes:
        replayed = post(client_with(server.app, sid), path, csrf)
        assert replayed.status_code == 401, (path, replayed.get_data(as_text=True))
        assert "sign in again" in replayed.get_data(as_text=True)
    for path in endpoints(server.app, "GET"):
        assert client_with(server.app, sid).get(path, base_url=ORIGIN).status_code == 401, path
    assert server.snapshot() == before
    # the browser that signed out got a new session: it signs in again, under a new token
    assert csrf_of(client, server.home) != csrf


@pytest.mark.parametrize("forged", ["", "x", secrets.token_urlsafe(32), "A" * 500, "ü€\u202e"])
def test_a_forged_or_unknown_session_id_gets_401(server, forged):
    server.sign_in()
    before = server.snapshot()
    for path in endpoints(server.app, "POST"):
        client = client_with(server.app, forged)
        assert post(client, path, csrf_token(forged)).status_code == 401, path
    assert server.snapshot() == before


def test_the_csrf_token_of_another_session_is_refused(server):
    _, ann_csrf = server.sign_in("ann")
    bob, bob_csrf = server.sign_in("bob")
    assert ann_csrf != bob_csrf
    before = server.snapshot()
    for path in endpoints(server.app, "POST"):
        assert post(bob, path, ann_csrf).status_code == 403, path
    assert server.snapshot() == before
    assert bob.get(endpoints(server.app, "GET")[0], base_url=ORIGIN).status_code == 200  # must not fire: bob is in


def test_sessions_survive_a_restart_and_sign_out_reaches_every_server(server):
    client, csrf = server.sign_in()
    sid = session_id(client)
    restarted = server.build()
    api = endpoints(restarted, "GET")[0]
    assert client_with(restarted, sid).get(api, base_url=ORIGIN).status_code == 200
    again = client_with(restarted, sid)
    assert again.post("/logout", data={"csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN}).status_code == 302
    assert client_with(server.app, sid).get(api, base_url=ORIGIN).status_code == 401  # the other server knows
    files = list(server.directory.rglob("*.sessions.json"))
    assert len(files) == 1 and sid not in files[0].read_text(encoding="utf-8")
    assert restarted.config["SESSION_COOKIE_NAME"] == server.app.config["SESSION_COOKIE_NAME"]  # the same cookie


def test_two_servers_in_one_browser_keep_their_sessions_apart(tmp_path, distil_dir):
    """Browsers share cookies between the ports of a host: each store has its own cookie name,
    so signing in to the repair page leaves the play page's session (and cookie) alone."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    play, repair = Server("claude", tmp_path / "a", distil_dir), Server("repair", tmp_path / "b", distil_dir)
    name = play.app.config["SESSION_COOKIE_NAME"]
    assert name != repair.app.config["SESSION_COOKIE_NAME"]
    client, _ = play.sign_in("ann")
    sid = session_id(client)
    browser = repair.app.test_client()  # the same browser on the other port: it sends the play cookie too
    browser.set_cookie(name, sid, domain="127.0.0.1")
    csrf = csrf_of(browser, repair.home)
    assert browser.post(repair.login_path(), data={"name": "bob", "csrf": csrf}, base_url=ORIGIN,
                        headers={"Origin": ORIGIN}).status_code == 302
    assert browser.get_cookie(name, domain="127.0.0.1").value == sid  # not replaced
    assert client_with(play.app, sid).get("/api/next", base_url=ORIGIN).status_code == 200


def test_signing_out_keeps_the_access_token_grant(tmp_path, distil_dir):
    server = Server("claude", tmp_path, distil_dir)
    app = server.build(token="secret-token")
    client = app.test_client()
    page = client.get("/?token=secret-token", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    client.post("/login", data={"name": "ann", "csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    client.post("/logout", data={"csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert client.get("/", base_url=ORIGIN).status_code == 200  # signed out, still allowed in
    assert app.test_client().get("/", base_url=ORIGIN).status_code == 403  # must not fire without the token


def test_store_expires_old_sessions_and_keeps_anonymous_ones_in_memory(tmp_path):
    path = tmp_path / ".sessions.json"
    sessions = SessionStore(path)
    sessions.save("anon", {"access": True})
    assert sessions.load("anon") == {"access": True} and not path.exists()
    sessions.save("anon", {"access": True, "name": "ann"})
    assert SessionStore(path).load("anon") == {"access": True, "name": "ann"}
    short = SessionStore(path, days=1 / 86400 / 1000)  # a millisecond
    time.sleep(0.01)
    assert short.load("anon") is None
    sessions.revoke("anon")
    assert SessionStore(path).load("anon") is None and SessionStore(path).load("never") is None


@pytest.mark.parametrize("content", ["{", "[]", '{"sessions": 3}', "\xff"])
def test_a_corrupt_sessions_file_fails_before_serving(tmp_path, content):
    path = tmp_path / store.SESSIONS
    path.write_bytes(content.encode("latin-1"))
    with pytest.raises(DataError, match="sessions"):
        SessionStore(path)
