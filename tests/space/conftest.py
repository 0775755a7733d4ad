"""Fixtures of the Space tests: the package on sys.path and one Space server per session.

The server is the real ``spaces/stylebench/app.py`` in a subprocess on 127.0.0.1 (a free
port), with its own working folder and an allowed model folder holding a model that ships
its own code (which the Space must refuse).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.space.server import REPO_ROOT, SPACE_DIR, STARTUP_SECONDS, running_space

ARTIFACTS = REPO_ROOT / "test-artifacts"
if str(SPACE_DIR) not in sys.path:
    sys.path.insert(0, str(SPACE_DIR))


@dataclass
class SpaceServer:
    url: str
    home: Path
    model_dir: Path
    log: Path


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
    with running_space(
        REPO_ROOT,
        root / "server.log",
        STARTUP_SECONDS,
        STYLEBENCH_SPACE_HOME=str(home),
        STYLEBENCH_SPACE_MODEL_DIRS=str(models),
    ) as (url, _process):
        yield SpaceServer(url, home, models, root / "server.log")


@pytest.fixture(scope="session")
def client(space_server: SpaceServer):
    from gradio_client import Client

    return Client(space_server.url, verbose=False)
