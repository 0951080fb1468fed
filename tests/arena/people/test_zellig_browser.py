"""``arena serve --zellig`` in real headless Chromium: a person edits a reference and sees the
toy model's scores appear live, submits, a second person checks the pair, and the submission
replays as a round of a run."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from arena.people import checks
from arena.people.web import Arena, create_app
from arena.record import people_store as store
from tests.arena.people.helpers import planned, write_config
from tests.arena.people.test_web_browser import browser


@pytest.fixture()
def server(tmp_path, distil_dir):
    from werkzeug.serving import make_server

    from arena.cli.serve import zellig_pages

    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir, claudes="[toy-en-de, random]"),
                                          tmp_path / "runs")
    arena = Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name)
    httpd = make_server("127.0.0.1", 0, None, threaded=True)
    port = httpd.server_port
    httpd.app = create_app(arena, None, [f"127.0.0.1:{port}"])
    httpd.app.register_blueprint(zellig_pages(experiment, run_dir, rounds))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield arena, f"http://127.0.0.1:{port}/zellig/", tmp_path
    httpd.shutdown()
    httpd.server_close()


def sign_in(driver, url: str, name: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 30).until(ready.visibility_of_element_located((By.ID, "task")))


def test_live_scores_submit_check_and_replay(server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    arena, url, tmp_path = server
    driver = browser()
    try:
        sign_in(driver, url, "ann")
        reference = driver.find_element(By.ID, "reference").text
        target = next(r.instance for r in arena.rounds if r.instance.reference == reference)
        words = reference.split(" ")
        edit = " ".join([*words[:-1], "Ding."])
        driver.find_element(By.ID, "phenomenon").send_keys("placeholder_ding")
        box = driver.find_element(By.ID, "edit")
        box.clear()
        box.send_keys(edit)
        started = time.monotonic()
        WebDriverWait(driver, 60).until(
            lambda d: "toy-en-de" in d.find_element(By.ID, "live").text
            and d.find_element(By.ID, "detector").text.startswith("detector"))
        seen_after = time.monotonic() - started
        row = driver.find_element(By.CSS_SELECTOR, "#live tbody tr").text
        assert row.split()[-1] in ("FOOLED", "no")  # the decision for this edit, live
        assert "shows the phenomenon" in driver.find_element(By.ID, "detector").text
        driver.find_element(By.ID, "submit").click()
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "progress").text == "1")
        WebDriverWait(driver, 30).until(lambda d: d.find_element(By.ID, "reference").text != reference)
        # the next sentence is loaded: the confirmation stays until the next action, the label starts empty
        assert driver.find_element(By.ID, "message").text == "recorded"
        assert driver.find_element(By.ID, "phenomenon").get_attribute("value") == ""
        record = store.corruption_file(arena.run_dir, "ann").read()[target.id]
        assert record["variant"]["text"] == edit and record["author"] == "ann" and record["time"]
        driver.find_element(By.ID, "export").click()
        WebDriverWait(driver, 30).until(ready.text_to_be_present_in_element((By.ID, "exported"), "replay.yaml"))
        config = driver.find_element(By.ID, "exported").text.removeprefix("arena run ")

        driver.delete_all_cookies()  # a second person checks ann's pair
        sign_in(driver, url, "bob")
        WebDriverWait(driver, 30).until(ready.visibility_of_element_located((By.ID, "check")))
        assert driver.find_element(By.ID, "c-edit").text == edit
        driver.find_element(By.ID, "valid").click()
        WebDriverWait(driver, 30).until(ready.visibility_of_element_located((By.ID, "check-empty")))
        assert checks.agreement(arena.run_dir)["accepted"] == 1.0
    finally:
        driver.quit()
    print(f"live scores on screen {seen_after:.2f} s after the last key (browser debounce 0.2 s included)")

    from arena.specs.config import load_experiment
    from performers.catalog import CATALOG
    from tests.arena.engine.helpers import run as run_engine

    data = yaml.safe_load(open(config, encoding="utf-8"))
    data["claudes"] = ["random"]
    copy = Path(config).with_name("replay-random.yaml")  # beside the test set it names (relative_paths: config)
    copy.write_text(yaml.safe_dump(data), encoding="utf-8")
    result = run_engine(load_experiment(copy), CATALOG, tmp_path / "replayed", progress=False)
    rounds = [json.loads(line) for line in (result.run_dir / "rounds.jsonl").read_text(encoding="utf-8").splitlines()]
    assert any(r["variant"] and r["variant"]["text"] == edit for r in rounds)  # the submission is a round


def test_api_refuses_what_it_must(server):
    arena, url, _ = server
    request = urllib.request.Request(url + "api/next")
    with pytest.raises(urllib.error.HTTPError) as caught:  # not signed in
        urllib.request.urlopen(request)
    assert caught.value.code == 401
