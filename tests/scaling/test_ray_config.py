"""``stylebench run --ray`` runs with the whole run config (issue 43): before, a Ray
worker rebuilt a partial config and dropped ``--backend``, ``--precision``, the token
budget and the strictness, so ``--ray --backend onnx`` encoded with torch. A tiny random
BERT on a local 2-CPU cluster (loopback, private temp dir): the Ray run's records say
ONNX Runtime encoded and equal a local ``--backend onnx`` run's, and the driver checks
the run's task names and episodes once."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.call_counts import counted

pytestmark = pytest.mark.slow

ray = pytest.importorskip("ray")
for _module in ("onnxruntime", "onnx", "torch", "transformers"):
    pytest.importorskip(_module)


@pytest.fixture(scope="module")
def cluster():
    temp = tempfile.mkdtemp(prefix="sbrc")  # short: Ray's socket paths must stay < 108 bytes
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp,
             _node_ip_address="127.0.0.1")  # fmt: skip
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A tiny random BERT and a 40-text labelled set in its vocabulary."""
    from evaluators.api import Dataset
    from tests.tiny_models import TINY_WORDS, write_tiny_bert

    root = tmp_path_factory.mktemp("tiny")
    model = write_tiny_bert(root / "bert", TINY_WORDS)
    n = len(TINY_WORDS)
    texts = [" ".join(TINY_WORDS[(i * k + i // 4) % n] for k in range(1, 9)) for i in range(40)]
    folder = Dataset.from_texts(texts, [f"a{i % 4}" for i in range(40)], name="tiny").save(
        root / "tiny"
    )
    return model, folder


def _run(argv: list[str]) -> None:
    from evaluators.cli import main

    try:
        main(["run", "--no-progress", *argv])
    except SystemExit as stop:  # main() exits only on errors
        raise AssertionError(f"stylebench run exited with {stop.code}") from None


def _stable(root: Path) -> dict[str, str]:
    """Each record of a run folder as the record compares runs (no timings, hardware)."""
    from evaluators.records.record import load_record

    return {str(p.relative_to(root)): load_record(p).stable_json() for p in root.rglob("*.json")}


def test_ray_backend_onnx_encodes_with_onnx(cluster, tiny, tmp_path: Path) -> None:
    from evaluators.run.runner import check_sampling
    from evaluators.tasks import check_tasks

    model, folder = tiny
    args = ["--model", f"hf:{model}", "--dataset", str(folder), "--backend", "onnx",
            "--batch-size", "8", "--tasks", "clustering", "--episode-size", "2"]  # fmt: skip
    _run([*args, "--out", str(tmp_path / "local"), "--cache-dir", str(tmp_path / "cache_local")])
    with counted(check_tasks, check_sampling) as calls:
        _run([*args, "--out", str(tmp_path / "ray"), "--cache-dir", str(tmp_path / "cache_ray"),
              "--ray", "auto"])  # fmt: skip
    assert calls == {"check_tasks": 1, "check_sampling": 1}  # in the driver; workers: none
    local, distributed = _stable(tmp_path / "local"), _stable(tmp_path / "ray")
    assert len(local) == 1 and distributed == local
    (path,) = (tmp_path / "ray").rglob("clustering.json")
    payload = json.loads(path.read_text())
    identity = payload["model"]["identity"]
    assert identity["backend"] == "onnx" and identity["precision"] == "fp32"
    assert identity["runtime"].startswith("onnxruntime ")
    assert payload["execution"]["batch_size"] == 8  # the encoder's, not the commit size
    assert payload["details"]["sampling"]["episode_size"] == 2
