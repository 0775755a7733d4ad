"""The suite never reads or writes the user's home folder or caches (issue 25).

``tests/conftest.py`` points ``HOME``, the XDG folders, stylebench's cache and every
Hugging Face / torch / sentence-transformers / matplotlib / NLTK cache at a temp folder
before anything imports those libraries. Checked two ways: in this process, each
library's resolved cache folder lies inside that temp folder; and a representative run of
fast tests (CLI runs on the default embedding cache, builds registered in ``datasets``'
cache, the offline models, charts) in a fresh interpreter whose ``HOME`` is an empty
folder and whose XDG / HF variables are unset leaves that folder empty and the user's
real caches exactly as they were (every file's size and mtime).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import (
    IMPORTED_TOO_EARLY,
    ISOLATED_ENV,
    ISOLATION_ROOT,
    ORIGINAL_ENV,
    REPO_ROOT,
    UNSET_ENV,
)

# what the subprocess runs: each of these writes a cache of its own somewhere
SUBSET = [
    "tests/routes/test_encoder_routes.py",  # stylebench build (registered) + run, default cache
    "tests/core/test_first_hour.py",  # listings, leaderboard, progress bars, demo chart
    "-k",
    "not (tfidf or stylometric or minilm)",  # spaCy / MiniLM: the slow tests cover them
]


def _inside(path: str | Path) -> bool:
    return Path(os.path.expanduser(str(path))).resolve().is_relative_to(ISOLATION_ROOT.resolve())


def test_every_cache_resolves_inside_the_temp_folder() -> None:
    import datasets
    import evaluate
    import huggingface_hub.constants as hub
    import matplotlib

    from dataset_scripts import hub_cache
    from evaluators import paths

    assert IMPORTED_TOO_EARLY == [], "imported before tests/conftest.py set the environment"
    resolved = {
        "home": Path.home(),
        "~": os.path.expanduser("~"),
        "stylebench": paths.cache_root(),
        "embeddings": paths.embedding_cache_dir(),
        "hub": hub.HF_HUB_CACHE,
        "hf home": hub.HF_HOME,
        "datasets": datasets.config.HF_DATASETS_CACHE,
        "datasets registry": hub_cache.cache_root(),
        "evaluate modules": evaluate.config.HF_MODULES_CACHE,
        "evaluate cache": evaluate.config.HF_EVALUATE_CACHE,
        "matplotlib": matplotlib.get_configdir(),
        "matplotlib cache": matplotlib.get_cachedir(),
    }
    outside = {name: str(path) for name, path in resolved.items() if not _inside(path)}
    assert not outside, f"outside {ISOLATION_ROOT}: {outside}"
    assert hub.HF_HUB_OFFLINE and datasets.config.HF_HUB_OFFLINE


def _snapshot(roots: list[Path]) -> dict[str, tuple[int, int]]:
    """``{path: (size, mtime_ns)}`` of every entry under the existing ``roots``."""
    found: dict[str, tuple[int, int]] = {}
    for root in roots:
        if not root.exists():
            continue
        found[str(root)] = (0, root.stat().st_mtime_ns)
        for dirpath, dirnames, filenames in os.walk(root):
            for name in dirnames + filenames:
                path = Path(dirpath, name)
                stat = path.lstat()
                found[str(path)] = (stat.st_size, stat.st_mtime_ns)
    return found


def _user_caches() -> list[Path]:
    home = Path(ORIGINAL_ENV["HOME"] or os.path.expanduser("~"))
    cache = Path(ORIGINAL_ENV["XDG_CACHE_HOME"] or home / ".cache")
    roots = [
        Path(ORIGINAL_ENV["STYLEBENCH_CACHE"] or cache / "stylebench"),
        Path(ORIGINAL_ENV["HF_HOME"] or cache / "huggingface"),
        cache / "torch",
        cache / "matplotlib",
        home / ".config" / "matplotlib",
        home / "nltk_data",
        home / ".ray",
    ]
    roots += [  # whatever the user pointed a library at (not a whole XDG folder)
        Path(v)
        for k, v in ORIGINAL_ENV.items()
        if v and k.endswith(("_CACHE", "_HOME")) and not k.startswith("XDG_")
    ]
    return sorted(set(roots) - {home})


@pytest.mark.slow
def test_fast_tests_with_an_empty_home_leave_it_and_the_user_caches_untouched(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ISOLATED_ENV and k not in UNSET_ENV}
    env["HOME"] = str(home)
    env["TMPDIR"] = str(tmp_path / "tmp")  # the child's own temp folders, removed with it
    Path(env["TMPDIR"]).mkdir()
    roots = _user_caches()
    before = _snapshot(roots)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
         "-W", "ignore", *SUBSET],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " failed" not in done.stdout, done.stdout[-1500:]
    assert sorted(p.name for p in home.iterdir()) == [], "the tests wrote into $HOME"
    after = _snapshot(roots)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    assert not changed, f"the tests changed the user's caches: {changed[:20]}"
    leftovers = sorted(
        p.name for p in Path(env["TMPDIR"]).iterdir() if "stylebench-tests" in p.name
    )
    assert leftovers == [], "the isolation folder was not removed at exit"
