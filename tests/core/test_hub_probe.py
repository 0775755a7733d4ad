"""One fast probe of the Hub before the first Hub lookup: with nothing answering and
``HF_HUB_OFFLINE`` unset, the process goes offline after one connection attempt and says
so in one line, instead of five retries with backoff per request (about 28 s before
``stylebench run --dataset steb/...`` could say the dataset is not built)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from dataset_scripts.core import hub_probe


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    import datasets.config
    import huggingface_hub.constants

    for name in hub_probe.OFFLINE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for module, name in ((huggingface_hub.constants, "HF_HUB_OFFLINE"),
                         (datasets.config, "HF_HUB_OFFLINE")):  # fmt: skip
        monkeypatch.setattr(module, name, getattr(module, name))  # restored afterwards
    hub_probe._forget()
    said: list[str] = []
    yield said
    hub_probe._forget()
    os.environ["HF_HUB_OFFLINE"] = "1"  # the suite's setting (monkeypatch restores it too)


def test_nothing_listening_means_offline_once(probe: list[str], monkeypatch) -> None:
    import huggingface_hub.constants

    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{_closed_port()}")
    assert hub_probe.offline_unless_reachable(probe.append) is False
    assert os.environ["HF_HUB_OFFLINE"] == "1" and huggingface_hub.constants.HF_HUB_OFFLINE
    assert hub_probe.offline_unless_reachable(probe.append) is False  # decided once
    assert len(probe) == 1 and "cannot be reached" in probe[0]
    assert "HF_HUB_OFFLINE=1" in probe[0]


def test_a_listening_hub_stays_online(probe: list[str], monkeypatch) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.getsockname()[1]}")
        assert hub_probe.offline_unless_reachable(probe.append) is True
    assert probe == [] and "HF_HUB_OFFLINE" not in os.environ


def test_a_silent_host_is_cut_at_the_deadline(probe: list[str], monkeypatch) -> None:
    seen = []

    def silent(address, timeout):  # what a black-holed host does after `timeout`
        seen.append(timeout)
        raise TimeoutError("timed out")

    monkeypatch.setattr(socket, "create_connection", silent)
    assert hub_probe.offline_unless_reachable(probe.append) is False
    assert seen == [hub_probe.PROBE_SECONDS]
    assert "(no answer)" in probe[0] and "huggingface.co:443" in probe[0]


@pytest.mark.parametrize("value, online", [("1", False), ("0", True), ("true", False)])
def test_a_user_setting_means_no_probe(probe: list[str], monkeypatch, value, online) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", value)
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("probed"))
    assert hub_probe.offline_unless_reachable(probe.append) is online and probe == []


@pytest.mark.slow
def test_run_on_an_unbuilt_hub_id_says_so_without_retries(tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in hub_probe.OFFLINE_VARIABLES}
    env["HF_ENDPOINT"] = f"http://127.0.0.1:{_closed_port()}"
    done = subprocess.run(
        [sys.executable, "-m", "evaluators.cli", "run", "--model", "function-words",
         "--dataset", "steb/pan23_style_change", "--out", str(tmp_path / "out")],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert sum("cannot be reached" in line for line in lines) == 1
    assert not any("Retrying" in line for line in lines), done.stderr[-2000:]
    assert "is not built on this machine" in done.stderr
