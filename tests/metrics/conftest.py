"""Fixtures for the metric tests: offline HF caches in a temp dir, cached module loads."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

# tests/conftest.py sets the same; repeated so `pytest tests/metrics/...` alone is isolated
_HF_HOME = Path(tempfile.mkdtemp(prefix="stylebench-hf-metrics-"))
os.environ.setdefault("HF_HOME", str(_HF_HOME))
os.environ.setdefault("HF_DATASETS_CACHE", str(_HF_HOME / "datasets"))
os.environ.setdefault("HF_EVALUATE_CACHE", str(_HF_HOME / "evaluate"))
os.environ.setdefault("HF_MODULES_CACHE", str(_HF_HOME / "modules"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from tests.metrics.helpers import REPO_ROOT  # noqa: E402


@pytest.fixture(scope="session")
def load_module():
    """``load_module(name)``: the bundled module loaded from the repo folder, once."""
    import evaluate

    cache: dict[str, object] = {}

    def load(name: str):
        if name not in cache:
            cache[name] = evaluate.load(str(REPO_ROOT / "metrics" / name))
        return cache[name]

    return load
