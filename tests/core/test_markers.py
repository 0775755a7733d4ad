"""The test markers: a fixture that reads the corpora or loads a real model forces its
marker (tests/conftest.py), the markers are declared, and CI runs the whole suite."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import MARKED_FIXTURES, missing_markers


def _item(nodeid: str, fixtures: set[str], marks: set[str]) -> SimpleNamespace:
    return SimpleNamespace(
        nodeid=nodeid,
        fixturenames=sorted(fixtures),
        get_closest_marker=lambda name: object() if name in marks else None,
    )


def test_a_fixture_without_its_marker_is_reported() -> None:
    items = [
        _item("t.py::reads", {"corpora", "tmp_path"}, set()),
        _item("t.py::marked", {"corpora"}, {"corpora"}),
        _item("t.py::model", {"minilm_dir", "corpora"}, {"corpora"}),
        _item("t.py::plain", {"tmp_path"}, set()),
        SimpleNamespace(nodeid="README.md::doctest", get_closest_marker=lambda name: None),
    ]
    assert missing_markers(items) == [
        "t.py::reads: uses corpora, not marked 'corpora'",
        "t.py::model: uses minilm_dir, not marked 'models'",
    ]


def test_markers_are_declared_and_ci_runs_everything(repo_root: Path) -> None:
    pytest_options = tomllib.loads((repo_root / "pyproject.toml").read_text())["tool"]["pytest"]
    options = pytest_options["ini_options"]
    declared = {line.split(":")[0] for line in options["markers"]}
    assert declared == {"slow", "models", "corpora"} >= set(MARKED_FIXTURES)
    assert " -m " not in f" {options['addopts']} "  # the default run deselects nothing
    ci = (repo_root / ".ci" / "run").read_text()
    assert "bash tests/setup_and_run.sh\n" in ci
    script = (repo_root / "tests" / "setup_and_run.sh").read_text()
    assert script.rstrip().endswith('exec "$VENV/bin/python" -m pytest "$@"')
