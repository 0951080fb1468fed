"""``arena false-positives RUN --validate N`` end to end: a seeded, stratified, blind sample of the
run's 1-bests; a scripted labeller in the terminal; the corrected rate from the labels (wider with a
smaller sample); the browser API's refusals; and the inputs that exit 2 with every file unchanged."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from pathlib import Path

import pytest

from arena.cli import main
from arena.people import validation
from tests.arena.stats.test_false_positives import make_run


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, distil_dir) -> Path:
    """A finished run of a hash-scoring Claude whose 1-bests hold *Ding* in about 30% of translations."""
    return make_run(tmp_path_factory.mktemp("validate"), distil_dir, "run",
                    "[{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}]")


def fresh(run_dir: Path, tmp_path: Path) -> Path:
    copy = tmp_path / run_dir.name
    shutil.copytree(run_dir, copy)
    return copy


def scripted(item: dict) -> str:
    """The labeller's answer: agrees with the detector except on one item in four (by id)."""
    wrong = int(hashlib.sha256(item["id"].encode()).hexdigest(), 16) % 4 == 0
    return "y" if item["flagged"] != wrong else "n"


def label_in_terminal(run: Path, n: int, monkeypatch, capsys) -> str:
    assert main(["false-positives", str(run), "--validate", str(n)]) == 0  # draws, labels nothing
    items = json.loads(validation.sample_path(run).read_text(encoding="utf-8"))["items"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(scripted(item) + "\n" for item in items)))
    assert main(["false-positives", str(run), "--validate", str(n), "--name", "bot"]) == 0
    return capsys.readouterr().out


def ding_row(run: Path, capsys) -> dict:
    assert main(["false-positives", str(run), "--json", "--no-plot"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    return next(r for r in rows if r["zellig"] == "ding" and r["reference_kind"] == "human")


def test_sample_is_stratified_seeded_and_blind(run_dir, tmp_path):
    from arena.cli.fp_validate import one_bests

    run = fresh(run_dir, tmp_path)
    records = one_bests(run)
    sample, written = validation.prepare(run, records, 5, 7)
    assert written and validation.prepare(run, records, 5, 7) == (sample, False)  # read back, not drawn again
    assert validation.draw(records, 5, 7) == sample and validation.draw(records, 5, 8) != sample
    (stratum,) = sample["strata"]  # the blind Zellig has no detector
    assert (stratum["claude"], stratum["zellig"]) == ("nmt", "ding")
    assert stratum["flagged"] + stratum["unflagged"] == len(records) and 0 < stratum["flagged"] < len(records)
    flags = [item["flagged"] for item in sample["items"]]
    assert flags.count(True) == 5 and flags.count(False) == 5
    assert flags != sorted(flags) and flags != sorted(flags, reverse=True)  # shuffled
    assert all(("Ding" in item["translation"]) == item["flagged"] for item in sample["items"])
    assert "flagged" not in validation.shown(sample["items"][0])


def test_scripted_labels_correct_the_rate_and_a_small_sample_is_wider(run_dir, tmp_path, monkeypatch, capsys):
    rows = {}
    for n in (3, 10):
        run = fresh(run_dir, tmp_path / str(n))
        out = label_in_terminal(run, n, monkeypatch, capsys)
        sample = json.loads(validation.sample_path(run).read_text(encoding="utf-8"))
        items = {i["id"]: i for i in sample["items"]}
        (stratum,) = sample["strata"]
        sizes = (min(n, stratum["flagged"]), min(n, stratum["unflagged"]))
        assert len(items) == sum(sizes) and f"{len(items)}/{len(items)} labelled" in out
        rows[n] = row = ding_row(run, capsys)
        labels = [json.loads(line) for line in validation.labels_path(run).read_text(encoding="utf-8").splitlines()]
        assert {label["labeller"] for label in labels} == {"bot"} and len(labels) == len(items)
        assert all(label["label"] == ("present" if scripted(items[label["item"]]) == "y" else "absent")
                   for label in labels)
        ppv = sum(lab["label"] == "present" for lab in labels if items[lab["item"]]["flagged"]) / sizes[0]
        omission = sum(lab["label"] == "present" for lab in labels if not items[lab["item"]]["flagged"]) / sizes[1]
        share = row["generative"]["rate"]
        corrected = row["generative_corrected"]
        assert corrected["method"] == "validation sample (double sampling)"
        assert corrected["rate"] == pytest.approx(share * ppv + (1 - share) * omission)
        assert corrected["labelled"] == {"flagged": sizes[0], "unflagged": sizes[1]}
        assert "sensitivity_band" not in row and "flips_in_band" not in row
    width = {n: r["generative_corrected"]["ci95"][1] - r["generative_corrected"]["ci95"][0] for n, r in rows.items()}
    assert width[3] > width[10]


def test_without_labels_the_report_names_the_assumption_and_the_band(run_dir, tmp_path, capsys):
    from arena.stats import fp_band

    run = fresh(run_dir, tmp_path)
    calibration = tmp_path / "calibration.json"
    calibration.write_text(json.dumps({"version": 2, "detectors": {"tests.arena.engine.helpers:DetectingReplay": {
        "hits": 80, "positives": 100, "false_alarms": 2, "negatives": 100, "source": "test"}}}), encoding="utf-8")
    assert main(["false-positives", str(run), "--calibration", str(calibration), "--no-plot", "--no-cues"]) == 0
    out = capsys.readouterr().out
    assert fp_band.ASSUMPTION in out and "flips in band" in out
    report = json.loads((run / "report" / "false_positives.json").read_text(encoding="utf-8"))
    ding = [r for r in report["rows"] if r["zellig"] == "ding"]
    assert ding and all(isinstance(r["flips_in_band"], bool) and r["sensitivity_band"]["verdicts"] for r in ding)


def snapshot(run: Path) -> dict[str, bytes]:
    return {str(p.relative_to(run)): p.read_bytes() for p in sorted(run.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("arguments, damage, message", [
    (["--validate", "0"], None, "--validate must be at least 1"),
    (["--validate", "-2"], None, "--validate must be at least 1"),
    (["--validate", "2", "--serve", "--name", "ann"], None, "not both"),
    (["--validate", "2", "--validate-seed", "-1"], None, "--validate-seed must be 0 or more"),
    (["--validate", "2", "--name", "bad name!"], None, "person name 'bad name!' is not allowed"),
    (["--name", "ann"], None, "give --validate N"),
    (["--validate", "2"], "no-one-bests", "onebest.jsonl"),
    (["--validate", "3"], "drawn", "a sample of 2 per stratum (seed 1) was drawn before"),
    ([], "bad-label", "labels.jsonl:2: label 'maybe' of v-"),
    ([], "second-label", "a second label for"),
    ([], "unknown-item", "is not in sample.json"),
    ([], "list-item", "is not in sample.json"),
    ([], "not-an-object", "is not in sample.json"),
    (["--validate", "2", "--name", "ann"], "second-label", "a second label for"),
])
def test_refusals_exit_2_and_change_nothing(run_dir, tmp_path, capsys, arguments, damage, message):
    run = fresh(run_dir, tmp_path)
    if damage == "no-one-bests":
        (run / "onebest.jsonl").write_text("", encoding="utf-8")
    elif damage is not None:
        assert main(["false-positives", str(run), "--validate", "2", "--no-plot"]) == 0
        review = validation.ValidationReview(run)
        first, second = review.items[:2]
        review.label("ann", first["id"], "present")
        path = validation.labels_path(run)
        extra = {"bad-label": {"item": second["id"], "label": "maybe"},
                 "second-label": {"item": first["id"], "label": "absent"},
                 "unknown-item": {"item": "v-000000000000", "label": "absent"},
                 "list-item": {"item": [first["id"]], "label": "absent"}, "not-an-object": [1]}.get(damage)
        if extra is not None:
            with path.open("a", encoding="utf-8") as file:
                file.write(json.dumps(extra) + "\n")
    before = snapshot(run)
    capsys.readouterr()
    assert main(["false-positives", str(run), "--no-plot", *arguments]) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert snapshot(run) == before


def test_browser_api_refuses_a_second_label_and_bad_ones(run_dir, tmp_path):
    from arena.people.validation_web import validation_app

    run = fresh(run_dir, tmp_path)
    assert main(["false-positives", str(run), "--validate", "2", "--no-plot"]) == 0
    review = validation.ValidationReview(run)
    app = validation_app(review, "t", None, ["localhost"])
    client = app.test_client()
    page = client.get("/validate/", headers={"Host": "localhost"})
    csrf = page.get_data(as_text=True).split('name="csrf-token" content="')[1].split('"')[0]
    headers = {"Host": "localhost", "X-CSRF-Token": csrf}
    assert client.get("/validate/api/next", headers=headers).status_code == 401  # not signed in
    client.post("/validate/login", data={"name": "ann", "csrf": csrf}, headers=headers)
    item = client.get("/validate/api/next", headers=headers).get_json()
    assert set(item) >= {"id", "source", "translation", "phenomenon"} and "flagged" not in item

    def post(data, token=csrf):
        return client.post("/validate/api/label", json=data, headers={**headers, "X-CSRF-Token": token})

    before = snapshot(run)
    assert post({"id": item["id"], "label": "maybe"}).status_code == 400
    assert post({"id": "v-nothing", "label": "present"}).status_code == 404
    assert post({"id": item["id"], "label": "present", "extra": 1}).status_code == 400
    assert post({"id": item["id"], "label": "present"}, token="forged").status_code == 403
    assert snapshot(run) == before
    assert post({"id": item["id"], "label": "present"}).get_json()["progress"]["labelled"] == 1
    after = validation.labels_path(run).read_bytes()
    assert post({"id": item["id"], "label": "absent"}).status_code == 409
    assert validation.labels_path(run).read_bytes() == after


def test_serve_prints_the_validation_page_and_stops_cleanly(run_dir, tmp_path):
    import re
    import signal
    import subprocess

    from tests.arena.cli.test_serve import status
    from tests.arena.people.helpers import arena_command, arena_env, default_sigint

    run = fresh(run_dir, tmp_path)
    program, argv = arena_command("false-positives", str(run), "--validate", "2", "--serve", "--port", "0")
    server = subprocess.Popen([program, *argv], env=arena_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, preexec_fn=default_sigint)
    try:
        for line in server.stdout:
            found = re.search(r"serving 4 translations to label \(0 labelled before\) at http://[^:]+:(\d+)/validate/",
                              line)
            if found:
                break
        else:
            pytest.fail(f"no address printed: {server.stderr.read()}")
        base = f"http://127.0.0.1:{found.group(1)}/"
        assert status(base + "validate/") == 200 and status(base + "static/validate.js") == 200
        assert status(base + "validate/api/next") == 401  # sign in first
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=60)
    assert server.returncode == 0 and "Traceback" not in err, err
    assert "stopped; 0 labelled, 4 left" in out


def test_a_signed_out_labeller_gets_401_and_sessions_live_in_the_run(run_dir, tmp_path):
    """The labelling page shares the served pages' server-side sessions: signing out revokes the
    session, so a replayed copy of the old cookie with its CSRF token labels nothing."""
    from arena.people.validation_web import validation_app

    run = fresh(run_dir, tmp_path)
    assert main(["false-positives", str(run), "--validate", "2", "--no-plot"]) == 0
    app = validation_app(validation.ValidationReview(run), "t", None, ["localhost"])
    client = app.test_client()
    page = client.get("/validate/", headers={"Host": "localhost"})
    csrf = page.get_data(as_text=True).split('name="csrf-token" content="')[1].split('"')[0]
    headers = {"Host": "localhost", "X-CSRF-Token": csrf}
    client.post("/validate/login", data={"name": "ann", "csrf": csrf}, headers=headers)
    item = client.get("/validate/api/next", headers=headers).get_json()
    assert validation.sessions_path(run).is_file()
    cookies = {cookie.key: cookie.value for cookie in client._cookies.values()}
    assert client.post("/logout", data={"csrf": csrf}, headers=headers).status_code in (200, 302, 303)
    replay = app.test_client()
    for key, value in cookies.items():
        replay.set_cookie(key, value, domain="localhost")
    before = snapshot(run)
    answer = replay.post("/validate/api/label", json={"id": item["id"], "label": "present"}, headers=headers)
    assert answer.status_code == 401
    assert snapshot(run) == before
