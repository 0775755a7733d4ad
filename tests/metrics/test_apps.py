"""Each metric's Space app starts on 127.0.0.1 and answers one request via gradio_client."""

from __future__ import annotations

import importlib.util
import socket
import sys

import pytest

from tests.metrics.helpers import REPO_ROOT

pytestmark = pytest.mark.slow

gradio = pytest.importorskip("gradio")
gradio_client = pytest.importorskip("gradio_client")

# name -> (inputs for /compute, expected subset of the JSON result)
REQUESTS = {
    "tpr_at_fpr": (
        ["0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9", "0 0 0 0 1 1 1", 0.25],
        {"tpr": 1.0, "threshold": 0.35, "achieved_fpr": 0.25, "n_pos": 3, "n_neg": 4},
    ),
    "auroc": (["0.1, 0.4, 0.35, 0.8", "0, 0, 1, 1", 0.5], {"auroc": 0.75, "eer": 0.5}),
    "pan_verification": (["0.9 0.2 0.5 0.7", "1 0 1 0"], {"c_at_1": 0.625, "f_05_u": 0.5}),
    "v_measure": (["1 1 0 0", "x x y y", 1.0], {"v_measure": 1.0}),
    "macro_accuracy": (
        ["a a a a", "a a a b"],
        {"macro_accuracy": 0.5, "accuracy": 0.75, "per_class_recall": {"a": 1.0, "b": 0.0}},
    ),
    "retrieval": (
        ["0.9 0.1 0.5\n0.2 0.3 0.4", "1 0 0\n1 0 0", "1, 2"],
        {"mean_rank": 2.0, "recall@1": 0.5, "recall@2": 0.5, "n_queries": 2},
    ),
    "order_alignment_accuracy": (
        ["0.1 0.9\n0.8 0.2\n\n0.5 0.5\n0.5 0.5", "0 1\n0 1", "0.1 0.5 0.9", "0"],
        {"accuracy": 0.75, "n_items": 2, "distractor_accuracy": 1.0, "n_distractor_items": 1},
    ),
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def import_app(name: str):
    path = REPO_ROOT / "metrics" / name / "app.py"
    spec = importlib.util.spec_from_file_location(f"stylebench_app_{name}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_every_app_has_a_request():
    assert sorted(REQUESTS) == sorted(
        p.parent.name for p in (REPO_ROOT / "metrics").glob("*/app.py")
    )


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_app_answers_compute_request(name):
    app = import_app(name)
    assert isinstance(app.demo, gradio.Blocks)
    port = free_port()
    app.demo.launch(prevent_thread_lock=True, server_name="127.0.0.1", server_port=port, quiet=True)
    try:
        client = gradio_client.Client(f"http://127.0.0.1:{port}/", verbose=False)
        inputs, expected = REQUESTS[name]
        result = client.predict(*inputs, api_name="/compute")
        assert {k: result[k] for k in expected} == expected
    finally:
        app.demo.close()


def test_app_reports_bad_input_as_an_error():
    app = import_app("tpr_at_fpr")
    with pytest.raises(gradio.Error, match="labels contains a single class"):
        app.compute("0.1 0.2", "1 1", 0.1)
    with pytest.raises(gradio.Error, match="predictions: 'x' is not a number"):
        app.compute("0.1 x", "0 1", 0.1)
    # +inf threshold is sent as text (JSON has no infinity)
    assert app.compute("0.9 0.9 0.1", "1 0 0", 0.4)["threshold"] == "inf"
