"""Fixtures of the Space tests: the package on sys.path and one Space server per session.

The server is the real ``spaces/stylebench/app.py`` in a subprocess on 127.0.0.1 (a free
port), with its own working folder and an allowed model folder holding a model that ships
its own code (which the Space must refuse).
"""

from __future__ import annotations

import json
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
ARTIFACTS = REPO_ROOT / "test-artifacts"
if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))

STARTUP_SECONDS = 120


@dataclass
class SpaceServer:
    url: str
    home: Path
    model_dir: Path
    log: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_remote_code_model(folder: Path) -> Path:
    """A model folder that maps its classes to its own code (needs trust_remote_code)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(
        json.dumps({"model_type": "custom", "auto_map": {"AutoModel": "modeling.Custom"}})
    )
    (folder / "modeling.py").write_text("raise SystemExit('remote code must never run')\n")
    return folder


@pytest.fixture(scope="session")
def space_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SpaceServer]:
    """The Space running in a subprocess; stopped at the end of the session."""
    root = tmp_path_factory.mktemp("space")
    home, models = root / "home", root / "models"
    write_remote_code_model(models / "remote-code-model")
    port = _free_port()
    env = dict(os.environ)
    env.update(
        GRADIO_SERVER_NAME="127.0.0.1",
        GRADIO_SERVER_PORT=str(port),
        GRADIO_ANALYTICS_ENABLED="False",
        STYLEBENCH_SPACE_HOME=str(home),
        STYLEBENCH_SPACE_MODEL_DIRS=str(models),
        HF_HUB_OFFLINE="1",
        PYTHONUNBUFFERED="1",
    )
    log = root / "server.log"
    with log.open("w") as handle:
        process = subprocess.Popen(
            [sys.executable, str(SPACE_DIR / "app.py")],
            cwd=REPO_ROOT,
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
        yield SpaceServer(url, home, models, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def client(space_server: SpaceServer):
    from gradio_client import Client

    return Client(space_server.url, verbose=False)
