"""Issue 26, item 7 (``--ray`` on an address where nothing listens returns an error within
its documented 20 s instead of Ray retrying forever) and item 5 (``v_measure`` refuses
text labels mixed with integers instead of casting them)."""

from __future__ import annotations

import socket
import threading
import time

import numpy as np
import pytest

from dataset_scripts.core.errors import StylebenchError


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends


def _join(ray_runner, address: str, outcome: list) -> None:
    try:
        ray_runner.connect(address)
        outcome.append(None)
    except BaseException as error:  # judged by the test
        outcome.append(error)


def test_ray_address_where_nothing_listens_fails_within_the_deadline(monkeypatch) -> None:
    pytest.importorskip("ray")
    from evaluators.distributed import ray_runner

    monkeypatch.setattr(ray_runner, "JOIN_SECONDS", 2.0, raising=False)
    for address in ("127.0.0.1:1", f"127.0.0.1:{_closed_port()}"):
        outcome: list[BaseException | None] = []
        # in a thread: Ray's own retry loop never ends
        thread = threading.Thread(target=_join, args=(ray_runner, address, outcome), daemon=True)
        thread.start()
        thread.join(8.0)
        assert outcome, f"connect({address!r}) still waiting after 8 s (2 s deadline)"
        error = outcome[0]
        assert isinstance(error, StylebenchError), repr(error)
        assert "nothing accepted a connection" in str(error)
        assert address in str(error) and "\n" not in str(error)


def test_the_join_deadline_is_the_documented_20_seconds() -> None:
    from evaluators.distributed.reachability import JOIN_SECONDS

    assert JOIN_SECONDS == 20.0  # README: "stops with an error ... after about 20 s"


def test_a_head_that_starts_late_is_waited_for() -> None:
    from evaluators.distributed.reachability import check_reachable
    from tests.faults.harness import tcp_server

    port = _closed_port()
    done = threading.Event()

    def start_late() -> None:  # a GCS-like port (answers HTTP/2) that opens after 1.5 s
        time.sleep(1.5)
        with tcp_server("h2", max_seconds=10, port=port):
            done.wait(10)

    thread = threading.Thread(target=start_late, daemon=True)
    thread.start()
    try:
        check_reachable(f"127.0.0.1:{port}", seconds=10)  # returns once the port opens
    finally:
        done.set()
        thread.join(5)


def test_malformed_ray_address_is_named() -> None:
    from evaluators.distributed.reachability import check_reachable

    with pytest.raises(StylebenchError, match="expected auto, local, <host>:<port>"):
        check_reachable("head-node")


@pytest.mark.parametrize(
    "labels",
    [[0, "a", 1, 0], ["a", 0, "b", "b"], np.array([0, "a", 1, 0], dtype=object)],
    ids=["list", "text-first", "object-array"],
)
def test_v_measure_refuses_mixed_label_types(labels) -> None:
    from evaluators.metric_math import v_measure

    with pytest.raises(ValueError, match="mixes text and non-text labels"):
        v_measure(labels, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="references mixes text"):
        v_measure([0, 0, 1, 1], labels)


def test_v_measure_still_takes_one_label_kind() -> None:
    from sklearn.metrics import v_measure_score

    from evaluators.metric_math import v_measure

    for pred in (["x", "y", "x", "x"], [3, 5, 3, 3], np.array(["x", "y", "x", "x"])):
        ref = [0, 0, 1, 1]
        assert v_measure(pred, ref)["v_measure"] == pytest.approx(v_measure_score(ref, pred))


def test_v_measure_module_refuses_mixed_labels() -> None:
    from evaluators.metric_loading import load_metric

    metric = load_metric("v_measure")
    with pytest.raises(ValueError, match="mixes text"):
        metric.compute(predictions=[0, "a", 1, 0], references=[0, 0, 1, 1])
