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
