"""``arena repair --serve``'s app through Flask's test client: a person fixes, rejects and
skips; a second person cannot overwrite a decision; bad requests get a 4xx with a message
and change nothing (never a 500)."""

from __future__ import annotations

import re

import pytest

from arena.formats.repairs import read_repairs
from arena.people.repair_web import repair_app
from arena.people.repairs import RepairReview
from tests.arena.people.test_repairs import flagged

HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"


@pytest.fixture()
def served(tmp_path):
    review = RepairReview(tmp_path / "repairs.jsonl", flagged(3))
    return review, repair_app(review, "repairs", None, [HOST])


def signed_in(app, name: str = "ann"):
    client = app.test_client()
    assert client.get("/", base_url=ORIGIN).headers["Location"].endswith("/repair/")
    page = client.get("/repair/", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    response = client.post("/repair/login", data={"name": name, "csrf": csrf}, base_url=ORIGIN,
                           headers={"Origin": ORIGIN})
    assert response.status_code == 302
    return client, csrf


def post(client, csrf, path, payload=None, **options):
    headers = {"X-CSRF-Token": csrf, "Origin": ORIGIN}
    return client.post("/repair/api/" + path, base_url=ORIGIN, headers=headers,
                       **({"json": payload} if payload is not None or "data" not in options else {}), **options)


def test_fix_reject_skip_with_progress(served):
    review, app = served
    client, csrf = signed_in(app)
    page = client.get("/repair/", base_url=ORIGIN).get_data(as_text=True)
    assert "reviewing references as <b>ann</b>" in page and 'name="home" value="/repair/"' in page
    first = client.get("/repair/api/next", base_url=ORIGIN).get_json()
    assert first["id"] == "set.0" and first["human"] == "Es ist unklar 0." and first["machine"] == "Es ist klar 0."
    assert first["flags"] == [{"phenomenon": "polarity_affix_del", "evidence": "unklar → klar"}]
    assert first["progress"] == {"total": 3, "fixed": 0, "kept": 0, "rejected": 0, "left": 3, "skipped": 0}
    answer = post(client, csrf, "decide", {"id": "set.0", "action": "fix", "reference": "Es ist unklar 0."}).get_json()
    assert answer["written"] and answer["progress"]["fixed"] == 1
    assert post(client, csrf, "skip", {"id": "set.1"}).get_json()["progress"]["skipped"] == 1
    assert client.get("/repair/api/next", base_url=ORIGIN).get_json()["id"] == "set.2"
    assert post(client, csrf, "decide", {"id": "set.2", "action": "reject", "reference": None}).status_code == 200
    assert client.get("/repair/api/next", base_url=ORIGIN).get_json()["finished"]
    post(client, csrf, "unskip", {})
    assert client.get("/repair/api/next", base_url=ORIGIN).get_json()["id"] == "set.1"
    decisions = read_repairs(review.patch)
    assert {key: r["action"] for key, r in decisions.items()} == {"set.0": "fix", "set.2": "reject"}
    assert decisions["set.0"]["reviewer"] == "ann"
    out = client.post("/logout", data={"csrf": csrf, "home": "/repair/"}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert out.headers["Location"] == "/repair/"
    page = client.get("/repair/", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)  # signing out ended the session and its token
    out = client.post("/logout", data={"csrf": csrf, "home": "https://evil.example/"}, base_url=ORIGIN,
                      headers={"Origin": ORIGIN})
    assert out.headers["Location"] == "/"  # must not fire: no redirect off the server


def test_bad_requests_get_4xx_and_change_nothing(served):
    review, app = served
    client, csrf = signed_in(app)
    assert post(client, csrf, "decide", {"id": "set.0", "action": "reject", "reference": None}).status_code == 200
    bob, bob_csrf = signed_in(app, "bob")
    before = review.patch.read_bytes()
    fix = {"id": "set.1", "action": "fix", "reference": "Es ist unklar 1."}
    cases = [
        ("decided by someone else", lambda: post(bob, bob_csrf, "decide", {**fix, "id": "set.0"}), 409, "ann decided"),
        ("not signed in", lambda: post(app.test_client(), "", "decide", fix), 403, "CSRF"),
        ("missing CSRF token", lambda: post(client, "", "decide", fix), 403, "CSRF"),
        ("unknown reference", lambda: post(client, csrf, "decide", {**fix, "id": "set.9"}), 404, "unknown reference"),
        ("id not a string", lambda: post(client, csrf, "decide", {**fix, "id": ["set.1"]}), 404, "unknown reference"),
        ("unknown action", lambda: post(client, csrf, "decide", {**fix, "action": "burn"}), 400, "fix, keep or reject"),
        ("fix without text", lambda: post(client, csrf, "decide", {**fix, "reference": None}), 400, "as a string"),
        ("reject with text", lambda: post(client, csrf, "decide", {**fix, "action": "reject"}), 400, "no reference"),
        ("unchanged fix", lambda: post(client, csrf, "decide", {**fix, "reference": "Es ist klar 1."}), 400, "unchanged"),
        ("two-line fix", lambda: post(client, csrf, "decide", {**fix, "reference": "a\nb"}), 400, "one line"),
        ("fix with NUL", lambda: post(client, csrf, "decide", {**fix, "reference": "Es ist\x00 unklar."}), 400,
         "reference holds the control character U+0000"),
        ("fix with ESC", lambda: post(client, csrf, "decide", {**fix, "reference": "Es \x1b[2J unklar."}), 400,
         "reference holds the control character U+001B"),
        ("zero-width fix", lambda: post(client, csrf, "decide", {**fix, "reference": "\u200b"}), 400,
         "reference is empty or holds only invisible characters"),
        ("RTL override fix", lambda: post(client, csrf, "decide", {**fix, "reference": "\u202eEs ist unklar."}), 400,
         "reference holds the bidi control U+202E"),
        ("keep with a changed text", lambda: post(client, csrf, "decide", {**fix, "action": "keep"}), 400,
         "a keep leaves the reference as it is"),
        ("keep with a number", lambda: post(client, csrf, "decide", {**fix, "action": "keep", "reference": 3}), 400,
         "a keep takes"),
        ("id with ESC", lambda: post(client, csrf, "decide", {**fix, "id": "set.1\x1b"}), 400, "id holds"),
        ("extra key", lambda: post(client, csrf, "decide", {**fix, "more": 1}), 400, "expected a JSON object"),
        ("not JSON", lambda: post(client, csrf, "decide", data=b"{id", content_type="application/json"), 400,
         "expected a JSON object"),
        ("not UTF-8", lambda: post(client, csrf, "decide", data=b"\xff\xfe", content_type="application/json"), 400,
         "expected a JSON object"),
        ("deeply nested", lambda: post(client, csrf, "decide", data=b"[" * 50_000 + b"]" * 50_000,
                                       content_type="application/json"), 413, ""),
        ("nested within the size", lambda: post(client, csrf, "decide", data=b"[" * 30_000 + b"]" * 30_000,
                                                content_type="application/json"), 400, "expected a JSON object"),
        ("too large", lambda: post(client, csrf, "decide", data=b" " * 70_000, content_type="application/json"),
         413, ""),
        ("skip of an unknown id", lambda: post(client, csrf, "skip", {"id": "nope"}), 404, "unknown reference"),
        ("unskip with a body", lambda: post(client, csrf, "unskip", {"id": "set.1"}), 400, "no keys"),
        ("GET on a POST route", lambda: client.get("/repair/api/decide", base_url=ORIGIN), 405, ""),
    ]
    for label, call, status, message in cases:
        response = call()
        assert response.status_code == status, (label, response.status_code, response.get_data(as_text=True)[:200])
        if message:
            assert message in response.get_json()["error"], label
    assert app.test_client().get("/repair/api/next", base_url=ORIGIN).status_code == 401
    assert review.patch.read_bytes() == before  # nothing changed
