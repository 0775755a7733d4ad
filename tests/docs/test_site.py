"""The documentation site: ``mkdocs build --strict`` passes (broken links and anchors,
missing API objects and pages left out of the nav fail it), and the built site, served
over HTTP, renders in the browser test's Chromium (tests/space/test_browser.py) with no
console errors: the landing page, the API reference of ``evaluators.api.evaluate`` and
the datasets catalogue."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.space.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once with ``--strict`` (the committed pictures as they are: their
    currency is tests/docs/test_generators.py's check, not a reason to run the demo here)."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "STYLEBENCH_DOCS_FIGURES": "skip", "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    assert "WARNING" not in done.stderr
    return out


def test_strict_build_writes_every_nav_page(site: Path) -> None:
    for page in (
        "index.html",
        "getting-started/index.html",
        "guides/score-steb/index.html",
        "concepts/datasets/index.html",
        "concepts/metrics/index.html",
        "concepts/metrics/tpr_at_fpr/index.html",
        "reference/cli/index.html",
        "reference/api/index.html",
        "changelog/index.html",
    ):
        assert (site / page).is_file(), page
    assert not (site / "hooks").exists(), "the generators are not published"
    api = (site / "reference/api/index.html").read_text(encoding="utf-8")
    for anchor in ("evaluators.api.evaluate", "evaluators.api.Dataset", "evaluators.api.compare"):
        assert f'id="{anchor}"' in api, anchor
    cli = (site / "reference/cli/index.html").read_text(encoding="utf-8")
    assert "stylebench run" in cli and "--dataset" in cli and "stylebench detect run" in cli


def test_strict_build_fails_on_a_broken_link(tmp_path: Path) -> None:
    """The check can fail: a page linking to a missing page aborts the strict build."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\nSee [the missing page](missing.md).\n")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nnav:\n  - index.md\nvalidation:\n  links:\n    not_found: warn\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0 and "missing.md" in done.stderr


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("Debian chromium/chromium-driver not installed")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium not installed")
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory(prefix="stylebench-docs-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--user-data-dir={profile}"):
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        try:
            yield driver
        finally:
            driver.quit()


def _open(driver, url: str) -> list[dict]:
    """Load ``url``, wait for the theme's scripts, return the console's errors."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get_log("browser")  # drop what earlier pages logged
    driver.get(url)
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script("return document.readyState") == "complete"
    )
    # the search worker loads its index after the page: give it the time to fail, if it does
    WebDriverWait(driver, 30).until(
        lambda d: d.execute_script(
            "return !!document.querySelector('.md-search__form') && "
            "!!window.document$ && !!window.location$"
        )
    )
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def test_landing_page_renders(browser, served: str) -> None:
    from selenium.webdriver.common.by import By

    errors = _open(browser, f"{served}/")
    assert errors == []
    assert "stylebench" in browser.title
    assert browser.find_element(By.CSS_SELECTOR, "article h1").text
    tabs = browser.find_element(By.CSS_SELECTOR, "nav.md-nav--primary").text
    for section in ("Guides", "Concepts", "Reference"):
        assert section in tabs
    broken = browser.execute_script(
        "return [...document.querySelectorAll('article img')]"
        ".filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"
    )
    assert broken == []


def test_api_reference_of_evaluate_renders(browser, served: str) -> None:
    from selenium.webdriver.common.by import By

    errors = _open(browser, f"{served}/reference/api/#evaluators.api.evaluate")
    assert errors == []
    heading = browser.find_element(By.ID, "evaluators.api.evaluate")
    assert "evaluate" in heading.text
    signature = browser.execute_script(
        "return document.getElementById('evaluators.api.evaluate')"
        ".closest('.doc-object').querySelector('.doc-signature').innerText"
    )
    assert "encoder" in signature and "dataset" in signature and "seed" in signature


def test_datasets_catalogue_renders(browser, served: str) -> None:
    from selenium.webdriver.common.by import By

    from dataset_scripts.registry import all_datasets

    errors = _open(browser, f"{served}/concepts/datasets/")
    assert errors == []
    rows = browser.find_elements(By.CSS_SELECTOR, "article table tbody tr")
    assert len(rows) == len(all_datasets())
    text = browser.find_element(By.CSS_SELECTOR, "article").text
    assert "steb/ASSET" in text and "order_alignment" in text
