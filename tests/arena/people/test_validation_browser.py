"""``arena false-positives RUN --validate N --serve`` in real headless Chromium: a person signs in,
labels three translations of the validation sample (buttons and the ``y``/``n`` keys), and the labels
file holds exactly those three, once each; ``arena false-positives RUN`` then corrects with them."""

from __future__ import annotations

import json
import threading

import pytest

from arena.cli import main
from arena.people import validation
from tests.arena.people.test_web_browser import browser
from tests.arena.stats.test_false_positives import make_run


@pytest.fixture()
def server(tmp_path, distil_dir):
    from werkzeug.serving import make_server

    from arena.people.validation_web import validation_app

    run_dir = make_run(tmp_path, distil_dir, "run", "[{name: 'tests.arena.engine.helpers:HashScorer', alias: nmt}]")
    assert main(["false-positives", str(run_dir), "--validate", "2", "--no-plot"]) == 0
    review = validation.ValidationReview(run_dir)
    httpd = make_server("127.0.0.1", 0, None, threaded=True)
    port = httpd.server_port
    httpd.app = validation_app(review, "validation", None, [f"127.0.0.1:{port}"])
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield run_dir, review, f"http://127.0.0.1:{port}/"
    httpd.shutdown()
    httpd.server_close()


def test_label_three_translations_in_the_browser(server, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    run_dir, review, url = server
    total = len(review.items)
    driver = browser()
    shown = []
    try:
        driver.get(url)  # "/" leads to /validate/
        driver.find_element(By.ID, "name").send_keys("ann")
        driver.find_element(By.ID, "start").click()
        wait = WebDriverWait(driver, 30)
        wait.until(ready.visibility_of_element_located((By.ID, "task")))
        assert driver.find_element(By.ID, "progress").text.startswith(f"0/{total} labelled")
        for number, action in enumerate(("present", "absent", "y"), 1):
            item_id = driver.find_element(By.ID, "item-id").text
            item = review.by_id[item_id]
            assert driver.find_element(By.ID, "translation").text == item["translation"]
            assert driver.find_element(By.ID, "source").text == item["source"]
            assert driver.find_element(By.ID, "phenomenon").text == item["detector"]
            shown.append(item_id)
            if action == "y":
                driver.find_element(By.TAG_NAME, "body").send_keys("y")
            else:
                driver.find_element(By.ID, action).click()
            wait.until(ready.text_to_be_present_in_element((By.ID, "progress"), f"{number}/{total} labelled"))
        assert "present 2, absent 1" in driver.find_element(By.ID, "progress").text
    finally:
        driver.quit()

    lines = validation.labels_path(run_dir).read_text(encoding="utf-8").splitlines()
    labels = [json.loads(line) for line in lines]
    assert [label["item"] for label in labels] == shown  # each once, in the order labelled
    assert [label["label"] for label in labels] == ["present", "absent", "present"]
    assert {label["labeller"] for label in labels} == {"ann"}
    capsys.readouterr()
    assert main(["false-positives", str(run_dir), "--json", "--no-plot"]) == 0  # the labels are read, checked
