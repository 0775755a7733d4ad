"""A non-editable install carries metrics/ and spaces/ and resolves them."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.metrics.helpers import METRIC_NAMES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(stylebench_wheel: Path) -> Path:
    return stylebench_wheel


def test_wheel_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in METRIC_NAMES:
        for file in (f"{name}.py", "README.md", "app.py", "requirements.txt"):
            assert f"evaluators/_bundled/metrics/{name}/{file}" in names
    assert "evaluators/_bundled/spaces/README.md" in names
    assert "evaluators/cli/__init__.py" in names and "dataset_scripts/steb/stel.py" in names
    # the release-repo and publishing machinery (issue 13) ships in the wheel
    for module in (
        "dataset_scripts/hub_cache.py",
        "evaluators/metric_cache.py",
        "evaluators/publish.py",
    ):
        assert module in names, module
    assert "evaluators/encoders/resources/function_words.txt" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_loads_bundled_metric(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(site),
            str(wheel),
        ],
        check=True,
    )
    code = (
        "import evaluators, evaluators.paths as p;"
        "from evaluators.metric_loading import load_metric;"
        f"assert evaluators.__file__.startswith({str(site)!r}), evaluators.__file__;"
        f"assert str(p.metrics_dir()).startswith({str(site)!r});"
        "import evaluate;"
        "from evaluators.metric_loading import list_metrics;"
        "names = list_metrics(); assert len(names) == 7, names;"
        "[load_metric(n) for n in names];"
        "both = evaluate.combine([load_metric('tpr_at_fpr'), load_metric('auroc')]);"
        "r = both.compute(predictions=[0.9, 0.8, 0.3, 0.1], references=[1, 1, 0, 0]);"
        "print(r['tpr'], r['auroc'])"
    )
    env = {**os.environ, "PYTHONPATH": str(site), "HF_HOME": str(tmp_path / "hf")}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "1.0 1.0"
