"""One way to run the real Space (``spaces/stylebench/app.py``) for a test: a subprocess on
127.0.0.1 at a free port, waited for until it answers, always stopped afterwards."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SPACE_DIR = REPO_ROOT / "spaces" / "stylebench"
STARTUP_SECONDS = 150


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def running_space(
    cwd: Path, log: Path, startup_seconds: int = STARTUP_SECONDS, **env: str
) -> Iterator[tuple[str, subprocess.Popen]]:
    """``(url, process)`` of a Space started in ``cwd`` with ``env`` on top of ours
    (offline, no analytics), its output in ``log``; fails the test if it exits or does
    not answer within ``startup_seconds``."""
    port = free_port()
    full_env = {
        **os.environ,
        "GRADIO_SERVER_NAME": "127.0.0.1",
        "GRADIO_SERVER_PORT": str(port),
        "GRADIO_ANALYTICS_ENABLED": "False",
        "HF_HUB_OFFLINE": "1",
        "PYTHONUNBUFFERED": "1",
        **env,
    }
    with log.open("w") as handle:
        process = subprocess.Popen(
            [sys.executable, str(SPACE_DIR / "app.py")],
            cwd=cwd,
            env=full_env,
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + startup_seconds
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
                    f"the Space did not start in {startup_seconds} s:\n{log.read_text()[-3000:]}"
                )
            time.sleep(0.3)
        yield url, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
