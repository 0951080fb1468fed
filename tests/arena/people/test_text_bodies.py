"""The text policy (arena.text_policy.text_problem) on the HTTP bodies of all three served
apps: every text field holding NUL, ESC, a line break, a bidi override, half a surrogate pair
or only invisible characters gets a 400 naming the field, and the run directory or patch file
stays byte-identical (sessions included)."""

from __future__ import annotations

import json

import pytest

from tests.arena.people.test_sessions import ORIGIN, Server

HOSTILE = {
    "NUL": ("Der Zug\x00 kommt an.", "holds the control character U+0000"),
    "ESC": ("Der Zug \x1b]0;owned\x07 kommt an.", "holds the control character U+001B"),
    "line break": ("Der Zug\nkommt an.", "holds a line break"),
    "RTL override": ("Der Zug \u202ekommt an.", "holds the bidi control U+202E"),
    "zero-width only": ("\u200b\u200b", "is empty or holds only invisible characters"),
    "lone surrogate": ("Der Zug \ud800 kommt an.", "holds an unpaired surrogate U+D800"),
}


def everything(directory) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


def requests(server: Server, client) -> list[tuple[str, dict, str]]:
    """(path, a valid body, the text field to make hostile) of every text field the app takes."""
    if server.kind == "claude":
        current = client.get("/api/next", base_url=ORIGIN).get_json()["round"]
        return [("/api/judge", {"round": current, "choice": 0}, "round")]
    if server.kind == "zellig":
        shown = client.get("/zellig/api/next", base_url=ORIGIN).get_json()
        edit = {"instance": shown["instance"], "text": shown["reference"] + " Ding", "phenomenon": "placeholder_ding"}
        check = {"author": "bob", "instance": shown["instance"], "valid": True}
        return [(path, edit, field) for path in ("/zellig/api/live", "/zellig/api/submit")
                for field in ("instance", "text", "phenomenon")] + \
               [("/zellig/api/check", check, field) for field in ("author", "instance")]
    fix = {"id": "set.0", "action": "fix", "reference": "Es ist unklar 0."}
    return [("/repair/api/decide", fix, field) for field in ("id", "action", "reference")] + \
           [("/repair/api/decide", {**fix, "action": "keep", "reference": "Es ist klar 0."}, "reference"),
            ("/repair/api/skip", {"id": "set.0"}, "id")]


@pytest.mark.parametrize("kind", ["claude", "zellig", "repair"])
def test_hostile_text_fields_get_400_naming_the_field_and_change_nothing(kind, tmp_path, distil_dir):
    server = Server(kind, tmp_path, distil_dir)
    client, csrf = server.sign_in()
    cases = requests(server, client)
    before = everything(server.directory)
    for path, valid, field in cases:
        for label, (text, problem) in HOSTILE.items():
            response = client.post(path, data=json.dumps({**valid, field: text}), content_type="application/json",
                                   base_url=ORIGIN, headers={"X-CSRF-Token": csrf, "Origin": ORIGIN})
            assert response.status_code == 400, (path, field, label, response.get_data(as_text=True)[:200])
            assert response.get_json()["error"].startswith(f"{field} {problem}"), (path, field, label)
    assert everything(server.directory) == before
    path, valid, _ = cases[0]  # must not fire: the same request with clean texts is taken
    answer = client.post(path, json=valid, base_url=ORIGIN, headers={"X-CSRF-Token": csrf, "Origin": ORIGIN})
    assert answer.status_code == 200, answer.get_data(as_text=True)
