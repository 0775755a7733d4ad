"""``stylebench run --ray <address>`` as a user runs it: a separate process joins a
cluster that is already running (here two nodes of one CPU each, started by
``tests/scaling/ray_head.py``: loopback, token authentication as ``ray start`` sets it
up, stopped at the end); jobs spread over both nodes with the results of a serial run,
and a driver without the cluster's token gets an error that says what to set."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.scaling.ray_head import RayHead
from tests.scaling.results import result_payloads
from tests.scaling.small_datasets import build_small

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def head() -> Iterator[RayHead]:
    pytest.importorskip("ray")
    with RayHead(num_cpus=1, nodes=2) as running:
        yield running


@pytest.fixture(scope="module")
def folders(corpora: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    built = build_small(tmp_path_factory.mktemp("built"), corpora, n=3)
    return built[::2]  # PASTEL age (clustering + pairs), ASSET (order alignment)


def _cli(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "evaluators.cli", "run", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
        timeout=300,
    )


@pytest.mark.slow
@pytest.mark.corpora
def test_a_separate_driver_joins_by_address(
    head: RayHead, folders: list[str], tmp_path: Path
) -> None:
    """Joined by address from a fresh process, with the cluster's token: the result
    JSONs equal a serial run's except timings; then, without the token, the run stops
    (exit 2) with a message naming what to set, and writes nothing."""
    from evaluators.cli import main

    common = ["--model", "function-words", "--dataset", folders[0], "--no-cache"]
    main(["run", "--no-progress", *common, "--out", str(tmp_path / "serial")])
    done = _cli([*common, "--out", str(tmp_path / "ray"), "--ray", head.address], head.env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"cluster {head.address}" in done.stdout
    assert "ray jobs (model x dataset): 100%" in done.stderr
    serial = result_payloads(tmp_path / "serial")
    assert len(serial) == 2 and result_payloads(tmp_path / "ray") == serial

    no_token = {**head.env, "RAY_AUTH_MODE": "", "RAY_AUTH_TOKEN": ""}
    refused = _cli([*common, "--out", str(tmp_path / "refused"), "--ray", head.address], no_token)
    assert refused.returncode == 2
    error = refused.stderr.strip().splitlines()[-1]
    assert error.startswith(f"error: cannot join the Ray cluster at '{head.address}'")
    assert "RAY_AUTH_MODE=token" in error and "RAY_AUTH_TOKEN" in error
    assert not (tmp_path / "refused").exists()


@pytest.mark.slow
@pytest.mark.corpora
def test_jobs_spread_over_two_nodes(head: RayHead, folders: list[str], tmp_path: Path) -> None:
    """2 models x 2 datasets on two one-CPU nodes: both nodes compute results (the run
    says how many each), all written to the one --out, equal to a serial run's."""
    from evaluators.cli import main

    common = ["--model", "function-words", "--model", "random", "--no-cache"]
    common += [arg for folder in folders for arg in ("--dataset", folder)]
    main(["run", "--no-progress", *common, "--out", str(tmp_path / "serial")])
    done = _cli([*common, "--out", str(tmp_path / "ray"), "--ray", head.address], head.env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "4 Ray jobs (2 models x 2 datasets)" in done.stdout
    (line,) = [line for line in done.stdout.splitlines() if "results from" in line]
    assert line.startswith("ray: 6 results from 2 nodes ("), line
    serial = result_payloads(tmp_path / "serial")
    assert len(serial) == 6 and result_payloads(tmp_path / "ray") == serial


def test_join_failure_messages() -> None:
    """Without an authentication cause: the explicit address gets the token hint unless
    RAY_AUTH_MODE=token is set already; ``auto`` gets the plain hint."""
    from evaluators.distributed.ray_runner import join_failure_message

    failed = ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379")
    saved = os.environ.pop("RAY_AUTH_MODE", None)
    try:
        by_address = join_failure_message("10.0.0.1:6379", failed)
        assert by_address.startswith("cannot join the Ray cluster at '10.0.0.1:6379': Failed")
        assert "is it running?" in by_address and "RAY_AUTH_MODE=token" in by_address
        assert "RAY_AUTH_MODE" not in join_failure_message("auto", failed)
        os.environ["RAY_AUTH_MODE"] = "token"
        assert "RAY_AUTH_MODE" not in join_failure_message("10.0.0.1:6379", failed)
    finally:
        os.environ.pop("RAY_AUTH_MODE", None)
        if saved is not None:
            os.environ["RAY_AUTH_MODE"] = saved
    try:
        raise ConnectionError("Failed to connect") from RuntimeError("InvalidAuthToken: bad")
    except ConnectionError as chained:
        message = join_failure_message("10.0.0.1:6379", chained)
    assert "refused this driver's authentication token" in message
