"""``arena repair --serve`` in real headless Chromium: a person keeps one flagged machine
reference (the flag is wrong; a keep with a changed text is refused first), fixes one and
rejects one; the patch file holds all three, the ``mt-reference`` John applies them, and the
counts appear in its report and in the test-set build's report."""

from __future__ import annotations

import argparse
import threading

import pytest
import yaml

from arena.formats.repairs import read_repairs
from arena.people.repair_web import repair_app
from tests.arena.people.test_web_browser import browser

FIXED = "Eine von Hand reparierte Referenz."


def mt_params(data_dir) -> dict:
    return {"john": {"name": "newstest", "params": {"dir": str(data_dir / "wmt" / "newstest"), "years": [2009],
                                                    "limit": 40}},
            "outputs": str(data_dir / "wmt" / "mt-outputs"), "progress": False}


@pytest.fixture()
def server(tmp_path, data_dir):
    from werkzeug.serving import make_server

    from arena.cli.repair import build_review

    john_file = tmp_path / "mt.yaml"
    john_file.write_text(yaml.safe_dump({"name": "mt-reference", "params": mt_params(data_dir)}), encoding="utf-8")
    args = argparse.Namespace(john=str(john_file), zellig="np-agreement", patch=str(tmp_path / "set" / "repairs.jsonl"))
    review = build_review(args)
    assert len(review.items) >= 3, "the fixture needs three flagged references"
    httpd = make_server("127.0.0.1", 0, None, threaded=True)
    port = httpd.server_port
    httpd.app = repair_app(review, "repairs", None, [f"127.0.0.1:{port}"])
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield review, f"http://127.0.0.1:{port}/"
    httpd.shutdown()
    httpd.server_close()


def test_keep_one_fix_one_reject_one_then_the_john_applies_them(server, data_dir):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    review, url = server
    total = len(review.items)
    driver = browser()
    try:
        driver.get(url)  # "/" leads to /repair/
        driver.find_element(By.ID, "name").send_keys("ann")
        driver.find_element(By.ID, "start").click()
        wait = WebDriverWait(driver, 30)
        wait.until(ready.visibility_of_element_located((By.ID, "task")))
        assert driver.find_element(By.ID, "progress").text.startswith(f"0/{total} decided")

        kept_id = driver.find_element(By.ID, "item-id").text  # the flag is wrong: keep the reference
        item = review.by_id[kept_id]
        assert driver.find_element(By.ID, "machine").text == item.instance.reference
        assert driver.find_element(By.ID, "human").text == item.instance.meta["human_reference"]
        assert item.flags[0].phenomenon in driver.find_element(By.ID, "flags").text
        box = driver.find_element(By.ID, "fixed")
        assert box.get_attribute("value") == item.instance.reference  # prefilled with the machine reference
        box.send_keys(" geändert")  # a keep with a changed text is refused, and nothing is written
        driver.find_element(By.ID, "keep").click()
        wait.until(ready.text_to_be_present_in_element((By.ID, "message"), "a keep leaves the reference as it is"))
        assert driver.find_element(By.ID, "item-id").text == kept_id and not review.patch.exists()
        box.clear()
        box.send_keys(item.instance.reference)
        driver.find_element(By.ID, "keep").click()
        wait.until(lambda d: d.find_element(By.ID, "item-id").text not in ("", kept_id))
        assert "fixed 0, kept 1, rejected 0" in driver.find_element(By.ID, "progress").text
        assert driver.find_element(By.ID, "message").text == f"kept {kept_id}"

        fixed_id = driver.find_element(By.ID, "item-id").text
        box = driver.find_element(By.ID, "fixed")
        box.clear()
        box.send_keys(FIXED)
        driver.find_element(By.ID, "fix").click()
        wait.until(lambda d: d.find_element(By.ID, "item-id").text not in ("", fixed_id))
        assert "fixed 1, kept 1, rejected 0" in driver.find_element(By.ID, "progress").text

        rejected_id = driver.find_element(By.ID, "item-id").text
        driver.find_element(By.ID, "reject").click()
        wait.until(ready.text_to_be_present_in_element((By.ID, "progress"), "fixed 1, kept 1, rejected 1"))
        assert driver.find_element(By.ID, "progress").text.startswith(f"3/{total} decided")
        assert f"left {total - 3}" in driver.find_element(By.ID, "progress").text
    finally:
        driver.quit()

    decisions = read_repairs(review.patch)
    assert set(decisions) == {kept_id, fixed_id, rejected_id}
    assert {key: d["action"] for key, d in decisions.items()} == {kept_id: "keep", fixed_id: "fix",
                                                                  rejected_id: "reject"}
    assert decisions[fixed_id]["reference"] == FIXED and "reference" not in decisions[kept_id]
    assert all(d["reviewer"] == "ann" for d in decisions.values())
    assert {k: v for k, v in review.progress().items() if k in ("kept", "fixed", "rejected")} == \
        {"kept": 1, "fixed": 1, "rejected": 1}

    from arena.present.testset import format_report
    from arena.specs.registry import build
    from arena.specs.spec import spec_from_mapping
    from performers.catalog import CATALOG

    spec = spec_from_mapping({"name": "mt-reference", "params": {**mt_params(data_dir), "repairs": str(review.patch)}},
                             "john")
    john = build("john", spec, CATALOG)
    instances = {i.id: i for i in john.instances()}
    assert instances[kept_id].reference == review.by_id[kept_id].instance.reference
    assert instances[kept_id].meta["reviewed"] == "kept" and "repaired" not in instances[kept_id].meta
    assert instances[fixed_id].reference == FIXED and instances[fixed_id].meta["repaired"]
    assert rejected_id not in instances
    assert john.report["repairs"] == {"kept": 1, "fixed": 1, "rejected": 1}
    report = {"john": "mt", "zellig": "np-agreement", "options": {"seed": 1}, "pool": 40, "instances": {},
              "scanned": 0, "phenomena": {}, "john_report": john.report}
    assert "repairs of flagged references: fixed 1, kept 1, rejected 1" in format_report(report)
