"""``arena serve``'s app through Flask's test client: a session played end to end,
and bad requests, each answered with a 4xx and a message that changes nothing."""

from __future__ import annotations

import re
import threading

import pytest

from arena.people.web import Arena, create_app, is_loopback
from arena.record import people_store as store
from tests.arena.people.helpers import client_with, planned, session_id, write_config

HOST = "127.0.0.1:8765"
ORIGIN = f"http://{HOST}"


@pytest.fixture()
def served(tmp_path, distil_dir):
    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    arena = Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name)
    return arena, create_app(arena, None, [HOST])


def signed_in(app, name: str = "ann"):
    client = app.test_client()
    page = client.get("/", base_url=ORIGIN)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    response = client.post("/login", data={"name": name, "csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert response.status_code == 302
    return client, csrf


def judge(client, csrf, payload, **headers):
    headers = {"X-CSRF-Token": csrf, "Origin": ORIGIN, **headers}
    return client.post("/api/judge", json=payload, base_url=ORIGIN, headers={k: v for k, v in headers.items() if v})


def transcript(arena, name="ann") -> bytes:
    path = store.person_dir(arena.run_dir, name) / store.JUDGEMENTS
    return path.read_bytes() if path.exists() else b""


def test_a_session_judges_every_round_once_and_summarises(served):
    arena, app = served
    client, csrf = signed_in(app)
    seen = []
    while True:
        data = client.get("/api/next", base_url=ORIGIN).get_json()
        if data["finished"]:
            break
        assert data["done"] == len(seen) and data["total"] == 4 and 0 < data["remaining"] <= 30
        response = judge(client, csrf, {"round": data["round"], "choice": len(seen) % 2})
        assert response.status_code == 200, response.get_json()
        seen.append(data["round"])
    assert seen == [r.id for r in arena.rounds]
    records = store.judgement_file(arena.run_dir, "ann").read()
    assert list(records) == seen
    assert [r["claude_choice"] for r in records.values()] == [0, 1, 0, 1]
    summary = client.get("/api/summary", base_url=ORIGIN).get_json()
    assert summary["rounds"] == 4
    assert summary["S"] == sum(r["correct"] for r in records.values()) / 4
    page = client.get("/summary", base_url=ORIGIN).get_data(as_text=True)
    assert "placeholder_ding" in page and "Summary for ann" in page


def test_bad_requests_get_4xx_and_change_nothing(served):
    arena, app = served
    client, csrf = signed_in(app)
    current = client.get("/api/next", base_url=ORIGIN).get_json()["round"]
    good = {"round": current, "choice": 1}
    assert judge(client, csrf, good).status_code == 200
    before = transcript(arena)
    nxt = client.get("/api/next", base_url=ORIGIN).get_json()["round"]
    cases = [
        ("replayed submission", lambda: judge(client, csrf, good), 409, "already judged"),
        ("missing CSRF token", lambda: judge(client, "", {"round": nxt, "choice": 0}), 403, "CSRF"),
        ("invalid CSRF token", lambda: judge(client, "forged", {"round": nxt, "choice": 0}), 403, "CSRF"),
        ("foreign Origin", lambda: judge(client, csrf, {"round": nxt, "choice": 0}, Origin="http://evil.example"),
         403, "cross-site"),
        ("foreign Referer", lambda: judge(client, csrf, {"round": nxt, "choice": 0}, Origin=None,
                                          Referer="http://evil.example/page"), 403, "cross-site"),
        ("unknown round", lambda: judge(client, csrf, {"round": "1|x|y|../../etc|0", "choice": 0}), 404, "unknown round"),
        ("round not shown", lambda: judge(client, csrf, {"round": arena.rounds[-1].id, "choice": 0}), 409, "not shown"),
        ("choice out of range", lambda: judge(client, csrf, {"round": nxt, "choice": 2}), 400, "choice"),
        ("choice a boolean", lambda: judge(client, csrf, {"round": nxt, "choice": True}), 400, "choice"),
        ("extra key", lambda: judge(client, csrf, {"round": nxt, "choice": 0, "claude": "toy"}), 400, "JSON object"),
        ("malformed JSON", lambda: client.post("/api/judge", data="{", content_type="application/json", base_url=ORIGIN,
                                               headers={"X-CSRF-Token": csrf, "Origin": ORIGIN}), 400, "JSON object"),
        ("JSON list", lambda: judge(client, csrf, [nxt, 0]), 400, "JSON object"),
        ("too large", lambda: judge(client, csrf, {"round": "x" * 100_000, "choice": 0}), 413, ""),
        ("GET on a POST route", lambda: client.get("/api/judge", base_url=ORIGIN), 405, ""),
        ("signed out", lambda: judge(app.test_client(), csrf, {"round": nxt, "choice": 0}), 403, "CSRF"),
    ]
    for label, call, status, message in cases:
        response = call()
        assert response.status_code == status, (label, response.status_code, response.get_data(as_text=True))
        assert message in response.get_data(as_text=True), label
        assert transcript(arena) == before, label


@pytest.mark.parametrize("name", ["../../x", "..", ".", "a/b", "a\\b", "", "x" * 33, "ann\n", "%2e%2e", "-ann", "Ä"])
def test_unsafe_names_are_refused_and_reach_no_path(served, name):
    arena, app = served
    client = app.test_client()
    page = client.get("/", base_url=ORIGIN).get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    response = client.post("/login", data={"name": name, "csrf": csrf}, base_url=ORIGIN, headers={"Origin": ORIGIN})
    assert response.status_code == 400
    assert "is not allowed" in response.get_data(as_text=True)
    assert not (arena.run_dir / "people").exists()
    assert not (arena.run_dir.parent / "x").exists()
    with pytest.raises(ValueError, match="is not allowed"):
        store.person_dir(arena.run_dir, name)


def test_an_unknown_host_is_refused_without_a_token(served):
    _, app = served
    response = app.test_client().get("/", base_url="http://rebound.example:8765")
    assert response.status_code == 400 and "unknown host" in response.get_data(as_text=True)


def test_off_loopback_every_page_needs_the_token(served):
    arena, _ = served
    app = create_app(arena, "s3cret", [])
    client = app.test_client()
    base = "http://10.0.0.5:8765"
    assert client.get("/", base_url=base).status_code == 403
    assert client.get("/api/next", base_url=base).status_code == 403
    assert client.get("/?token=wrong", base_url=base).status_code == 403
    assert client.get("/?token=s3cret", base_url=base).status_code == 200
    assert client.get("/", base_url=base).status_code == 200  # the session remembers it
    assert app.test_client().get("/", base_url=base).status_code == 403  # another browser does not


@pytest.mark.parametrize(
    "host, loopback",
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("127.0.0.2", True),
     ("0.0.0.0", False), ("192.168.1.4", False), ("example.org", False), ("::", False)],
)
def test_which_hosts_are_loopback(host, loopback):
    assert is_loopback(host) is loopback


def test_concurrent_submissions_of_one_person_write_each_round_once(served):
    arena, app = served
    client, csrf = signed_in(app)
    current = client.get("/api/next", base_url=ORIGIN).get_json()["round"]
    statuses = []

    def submit(choice):
        c = client_with(app, session_id(client))  # the same session
        statuses.append(judge(c, csrf, {"round": current, "choice": choice}).status_code)

    threads = [threading.Thread(target=submit, args=(i % 2,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200] + [409] * 11
    assert list(store.judgement_file(arena.run_dir, "ann").read()) == [current]
    assert transcript(arena).count(b"\n") == 1
