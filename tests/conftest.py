"""Shared test setup: offline Hugging Face caches in a temp dir, corpora location."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

_HF_HOME = Path(tempfile.mkdtemp(prefix="stylebench-hf-"))
os.environ.setdefault("HF_HOME", str(_HF_HOME))
os.environ.setdefault("HF_DATASETS_CACHE", str(_HF_HOME / "datasets"))
os.environ.setdefault("HF_EVALUATE_CACHE", str(_HF_HOME / "evaluate"))
os.environ.setdefault("HF_MODULES_CACHE", str(_HF_HOME / "modules"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("MPLBACKEND", "Agg")

REPO_ROOT = Path(__file__).resolve().parent.parent


def _corpora() -> Path | None:
    from evaluators.paths import corpora_dir

    return corpora_dir()


@pytest.fixture(scope="session")
def corpora() -> Path:
    """``../shared/corpora``; tests that need it skip with a reason where it is absent."""
    path = _corpora()
    if path is None:
        pytest.skip("../shared/corpora is not present on this machine")
    return path


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def stylebench_wheel(repo_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project built once per session as a wheel (``pip wheel --no-deps``)."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(repo_root)],
        check=True,
        timeout=300,
    )
    return next(out.glob("stylebench-*.whl"))


# Markers (declared in pyproject.toml): ``pytest -m "not slow"`` is the fast loop, a plain
# ``pytest`` (what CI runs) runs everything. A test that uses one of these fixtures must
# carry the marker, so that ``-m "not corpora"`` / ``-m "not models"`` really leave it out.
MARKED_FIXTURES: dict[str, frozenset[str]] = {
    "corpora": frozenset({"corpora"}),  # reads ../shared/corpora
    "models": frozenset({"minilm", "minilm_dir", "minilm_local"}),  # a real offline model
}


def missing_markers(items: list[pytest.Item]) -> list[str]:
    """``"<test id>: uses <fixtures>, not marked <marker>"`` for every item that uses a
    fixture of :data:`MARKED_FIXTURES` (directly or through another fixture) without
    carrying its marker."""
    return [
        f"{item.nodeid}: uses {', '.join(sorted(used))}, not marked {marker!r}"
        for item in items
        for marker, fixtures in MARKED_FIXTURES.items()
        if (used := fixtures & set(getattr(item, "fixturenames", ())))
        and item.get_closest_marker(marker) is None
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = missing_markers(items)
    if missing:
        raise pytest.UsageError(
            "add `pytestmark = pytest.mark.<marker>` or `@pytest.mark.<marker>`:\n  "
            + "\n  ".join(missing)
        )
