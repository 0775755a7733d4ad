"""The Leaderboard and Submissions tabs against a running Space that reads a synthetic
results table: in headless Chromium (open the leaderboard, switch two views, filter, open
a drill-down, download the CSV: it equals the table), through ``gradio_client`` (the six
bad submissions refused with their reasons, a good one accepted), and ``/health``."""

from __future__ import annotations

import json
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from tests.space.conftest import ARTIFACTS
from tests.space.server import REPO_ROOT, STARTUP_SECONDS, running_space
from tests.space.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS

pytestmark = pytest.mark.slow
N_MODELS = 60


@pytest.fixture(scope="module")
def leaderboard_space(tmp_path_factory) -> Iterator[dict]:
    from tests.space.submissions import BAD, bad_repository, good_repository, zip_folder
    from tests.space.synthetic_table import write_table

    root = tmp_path_factory.mktemp("leaderboard-space")
    table = write_table(root / "table.parquet", n_models=N_MODELS, seed=5)
    good = good_repository(root / "repos")
    zips = {"good": zip_folder(good, root / "good.zip")}
    for kind in BAD:
        zips[kind] = zip_folder(bad_repository(good, kind, root / "bad"), root / f"{kind}.zip")
    with running_space(
        REPO_ROOT,
        root / "server.log",
        STARTUP_SECONDS,
        STYLEBENCH_SPACE_HOME=str(root / "home"),
        STYLEBENCH_LEADERBOARD_TABLE=str(table),
        STYLEBENCH_SPACE_RESULTS_BASE=str(good),
    ) as (url, process):
        yield {
            "url": url,
            "table": table,
            "zips": zips,
            "log": root / "server.log",
            "process": process,
        }


def expected(table: Path, benchmark: str, view: str, open_only: bool) -> pd.DataFrame:
    """The table the Space must show, computed here from the Parquet file."""
    from stylebench_space.leaderboard_data import Filters, Leaderboard, check_table
    from stylebench_space.leaderboard_tab import display_frame

    board = Leaderboard(check_table(pd.read_parquet(table), "t"), "t")
    frame, _ = board.table(benchmark, view, Filters(open_only=open_only))
    return display_frame(frame)


def _driver(profile: Path, downloads: Path):
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("Debian chromium/chromium-driver not installed")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs",
        {"download.default_directory": str(downloads), "download.prompt_for_download": False},
    )
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd(
        "Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    return driver


def test_health(leaderboard_space) -> None:
    with urllib.request.urlopen(leaderboard_space["url"] + "health", timeout=10) as response:
        state = json.loads(response.read())
        assert response.status == 200
    assert state["status"] == "ok" and state["models"] == N_MODELS
    assert state["benchmarks"][0] == "STEB(v1)" and state["views_checked"] >= 20
    assert "lb-table" not in state  # plain JSON, not the page


def test_leaderboard_in_the_browser(leaderboard_space, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    with tempfile.TemporaryDirectory(prefix="stylebench-chromium-") as profile:
        driver = _driver(Path(profile), downloads)
        try:
            driver.get(leaderboard_space["url"])
            wait = WebDriverWait(driver, 60)
            wait.until(ec.element_to_be_clickable((By.ID, "run-embedding")))
            driver.find_element(
                By.XPATH, "//button[@role='tab'][contains(., 'Leaderboard')]"
            ).click()

            def caption_has(text: str):
                return lambda drv: text in drv.find_element(By.ID, "lb-caption").text

            wait.until(caption_has("STEB(v1), operational"))
            # the page's load event (the benchmark's choices, the plots) has finished
            WebDriverWait(driver, 90).until(
                lambda drv: (
                    drv.find_elements(By.CSS_SELECTOR, "#lb-plot-size img")
                    and drv.find_elements(By.CSS_SELECTOR, "#lb-plot-columns img")
                )
            )
            first_table = driver.find_element(By.ID, "lb-table").text
            # two views
            _radio(driver, "lb-view", "definitional")
            wait.until(caption_has("STEB(v1), definitional"))
            _radio(driver, "lb-view", "by task type")
            wait.until(caption_has("STEB(v1), by task type"))
            # a filter
            _click(driver, driver.find_element(By.CSS_SELECTOR, "#lb-open input[type=checkbox]"))
            wait.until(caption_has("Filtered"))
            caption = driver.find_element(By.ID, "lb-caption").text
            shown = driver.find_element(By.ID, "lb-table").text
            # the drill-down
            wait.until(ec.element_to_be_clickable((By.ID, "lb-drill"))).click()
            WebDriverWait(driver, 60).until(
                lambda drv: "steb/" in drv.find_element(By.ID, "lb-detail").text
            )
            detail = driver.find_element(By.ID, "lb-detail").text
            ARTIFACTS.mkdir(exist_ok=True)
            driver.save_screenshot(str(ARTIFACTS / "space_leaderboard.png"))
            # the CSV, downloaded as a visitor does, once the filtered table's file is there
            want = expected(leaderboard_space["table"], "STEB(v1)", "by task type", True)
            text = want.to_csv(index=False)

            def current_link(drv):
                for a in drv.find_elements(By.CSS_SELECTOR, "#lb-csv a"):
                    href = a.get_attribute("href") or ""
                    if href.endswith(".csv"):
                        with urllib.request.urlopen(href, timeout=10) as response:
                            if response.read().decode() == text:
                                return a
                return False

            link = WebDriverWait(driver, 60).until(current_link)
            driver.execute_script("arguments[0].click();", link)
            deadline = time.monotonic() + 30
            files: list[Path] = []
            while time.monotonic() < deadline:
                files = list(downloads.glob("*.csv"))
                if files and not list(downloads.glob("*.crdownload")):
                    break
                time.sleep(0.3)
        finally:
            driver.quit()
    assert "operational" not in caption and "Filtered" in caption
    assert files, "the CSV download did not arrive"
    assert files[0].read_text() == text
    got = pd.read_csv(files[0])
    reread = pd.read_csv(pd.io.common.StringIO(want.to_csv(index=False)))
    pd.testing.assert_frame_equal(got, reread)
    assert len(got) == len(want) > 0 and set(got["open_weights"].dropna()) == {"yes"}
    best = want.iloc[0]
    assert best["model"] in shown and f"{best['score']:.2f}" in shown
    assert first_table != shown
    first_model = sorted(want["model"])[0]  # the drill-down's default: the first model
    assert "steb/" in detail and first_model not in ("",)


def _radio(driver, elem_id: str, label: str) -> None:
    from selenium.webdriver.common.by import By

    _click(
        driver,
        driver.find_element(By.XPATH, f"//*[@id='{elem_id}']//label[normalize-space(.)='{label}']"),
    )


def _click(driver, element, seconds: float = 30) -> None:
    """Click as a visitor does, waiting while a loading overlay covers the element."""
    from selenium.common.exceptions import ElementClickInterceptedException

    deadline = time.monotonic() + seconds
    while True:
        try:
            element.click()
            return
        except ElementClickInterceptedException:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def test_submissions_through_the_space(leaderboard_space) -> None:
    from gradio_client import Client, handle_file

    from tests.space.submissions import BAD

    client = Client(leaderboard_space["url"], verbose=False)
    zips = leaderboard_space["zips"]
    verdict, findings = client.predict(
        handle_file(str(zips["good"])), "", api_name="/validate_submission"
    )
    assert verdict.startswith("**Accepted**"), verdict
    assert {row[0] for row in findings["data"]} <= {"warning"}
    for kind, reason in BAD.items():
        verdict, findings = client.predict(
            handle_file(str(zips[kind])), "", api_name="/validate_submission"
        )
        assert verdict.startswith("**Refused**"), (kind, verdict)
        refusals = [row for row in findings["data"] if row[0] == "refusal"]
        assert any(reason in row[2] for row in refusals), (kind, refusals)
    log = leaderboard_space["log"].read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
