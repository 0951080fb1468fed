"""``arena serve`` in a real headless browser (Debian's chromium through selenium):
a person plays rounds with the keyboard, and two browsers under one name race on the
same rounds without losing or duplicating a judgement."""

from __future__ import annotations

import os
import shutil
import threading

import pytest

from arena.people.web import Arena, create_app
from arena.record import people_store as store
from tests.arena.people.helpers import planned, write_config


def chromium() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        if os.environ.get("CI"):
            pytest.fail("chromium and chromedriver are missing; .ci/run installs them")
        pytest.skip("chromium / chromedriver not installed (apt-get install chromium chromium-driver)")
    return browser, driver


@pytest.fixture()
def server(tmp_path, distil_dir):
    from werkzeug.serving import make_server

    experiment, run_dir, rounds = planned(write_config(tmp_path, distil_dir), tmp_path / "runs")
    arena = Arena(run_dir, rounds, experiment.time_budget.claude_seconds_per_pair, experiment.name)
    httpd = make_server("127.0.0.1", 0, None, threaded=True)
    port = httpd.server_port
    httpd.app = create_app(arena, None, [f"127.0.0.1:{port}"])
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield arena, f"http://127.0.0.1:{port}/"
    httpd.shutdown()
    httpd.server_close()


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = chromium()
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1000,700"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver), options=options)


def sign_in(driver, url: str, name: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    driver.find_element(By.ID, "name").send_keys(name)
    driver.find_element(By.ID, "start").click()
    WebDriverWait(driver, 20).until(ready.text_to_be_present_in_element((By.ID, "progress"), "/4"))


def play(driver, keys: str) -> None:
    """Press each key once a round is on screen and wait for the next one (or the end)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    for key in keys:
        wait = WebDriverWait(driver, 20)
        wait.until(lambda d: d.find_element(By.ID, "progress").text.split("/")[0].isdigit())
        before = driver.find_element(By.ID, "progress").text
        if not driver.find_element(By.ID, "finished").is_displayed():
            driver.find_element(By.TAG_NAME, "body").send_keys(key)
        wait.until(lambda d, before=before: d.find_element(By.ID, "progress").text != before
                   or d.find_element(By.ID, "finished").is_displayed())


def test_a_person_plays_with_the_keyboard_and_sees_the_summary(server):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    arena, url = server
    driver = browser()
    try:
        sign_in(driver, url, "ann")
        assert driver.find_element(By.ID, "progress").text == "0/4"
        WebDriverWait(driver, 5).until(lambda d: d.find_element(By.ID, "timer").text.endswith(" s"))
        shown = driver.find_element(By.ID, "source").text
        assert shown == arena.rounds[0].instance.source
        play(driver, "1212")
        WebDriverWait(driver, 20).until(ready.visibility_of_element_located((By.ID, "finished")))
        assert driver.find_element(By.ID, "progress").text == "4/4"
        driver.find_element(By.TAG_NAME, "body").send_keys("s")
        WebDriverWait(driver, 20).until(ready.presence_of_element_located((By.ID, "s-value")))
        records = store.judgement_file(arena.run_dir, "ann").read()
        assert list(records) == [r.id for r in arena.rounds]
        assert [r["claude_choice"] for r in records.values()] == [0, 1, 0, 1]
        s = sum(r["correct"] for r in records.values()) / 4
        assert driver.find_element(By.ID, "s-value").text == f"{s:.3f}"
        assert driver.find_element(By.ID, "s-rounds").text == "4"
        assert "placeholder_ding" in driver.find_element(By.ID, "phenomena").text
    finally:
        driver.quit()


def test_two_browsers_at_once_lose_and_duplicate_nothing(server):
    arena, url = server
    drivers = [browser(), browser()]
    errors: list[BaseException] = []

    def session(driver, name, keys):
        try:
            sign_in(driver, url, name)
            play(driver, keys)
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    try:
        threads = [
            threading.Thread(target=session, args=(drivers[0], "ann", "1111")),
            threading.Thread(target=session, args=(drivers[1], "bob", "2222")),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        for name, choice in (("ann", 0), ("bob", 1)):
            path = store.person_dir(arena.run_dir, name) / store.JUDGEMENTS
            lines = path.read_text(encoding="utf-8").splitlines()
            records = store.judgement_file(arena.run_dir, name).read()
            assert len(lines) == len(records) == 4
            assert set(records) == {r.id for r in arena.rounds}
            assert {r["claude_choice"] for r in records.values()} == {choice}
        # the same name in both browsers: they race on the same rounds, each written once
        for driver in drivers:
            driver.delete_all_cookies()
        threads = [threading.Thread(target=session, args=(d, "cat", "1111")) for d in drivers]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors, errors
        path = store.person_dir(arena.run_dir, "cat") / store.JUDGEMENTS
        lines = path.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 4 and set(store.judgement_file(arena.run_dir, "cat").read()) == {r.id for r in arena.rounds}
    finally:
        for driver in drivers:
            driver.quit()
