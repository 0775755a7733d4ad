"""Core speed/efficiency benchmark (not collected by pytest).

    python tests/benchmarks/bench_core.py

(a) embed-once: on the demo dataset (clustering, all-to-all pairs, order alignment and
    retrieval over shared texts), texts encoded / unique texts must be 1.00;
(c) all-to-all AUC over 2,850 texts (~4.06 M pairs): stylebench's path (one float32
    matrix product, boolean upper-triangle mask, one-sort AUC kernel) against the
    straightforward path (full similarity matrix, ``np.triu_indices``, scikit-learn
    ``roc_auc_score``), timed side by side, best of 3; target ratio <= 0.60.

Chunk-and-pool overhead (b) is measured by ``bench_chunking.py``.
Exits non-zero when a target is missed.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def best_of(fn, repeats: int = 3) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def bench_embed_once() -> bool:
    from dataset_scripts.build import build_dataset
    from dataset_scripts.demo.build import HUB_ID
    from dataset_scripts.registry import get_dataset
    from evaluators.encoders import get_encoder
    from evaluators.run.runner import Runner, plan_tasks

    class Counting:
        def __init__(self, inner) -> None:
            self.inner, self.calls = inner, []

        def identity(self) -> dict:
            return {"bench": "counting", **self.inner.identity()}

        def encode(self, texts: list[str]) -> np.ndarray:
            self.calls.extend(texts)
            return self.inner.encode(texts)

    with tempfile.TemporaryDirectory() as tmp:
        folder, _ = build_dataset(get_dataset(HUB_ID), None, Path(tmp) / "demo")
        specs = plan_tasks([str(folder)])
        encoder = Counting(get_encoder("function-words"))
        records = Runner(
            encoder, "function-words", cache_dir=Path(tmp) / "cache", progress=False
        ).run(specs)
    tasks = sorted({r.task for r in records})
    unique = records[0].embedding["unique_texts"]
    needed = records[0].embedding["texts"]
    ratio = len(encoder.calls) / unique
    print(f"(a) embed-once on {HUB_ID}: tasks={tasks}")
    print(
        f"    texts needed by the tasks={needed}, unique={unique}, encoded={len(encoder.calls)}, "
        f"encoded/unique = {ratio:.2f} (target 1.00)"
    )
    return ratio == 1.0 and len(tasks) >= 3


def bench_all_to_all_auc(n_texts: int = 2850, n_labels: int = 19, dim: int = 384) -> bool:
    from sklearn.metrics import roc_auc_score

    from evaluators.metric_math import roc_auc
    from evaluators.tasks.pairs import all_pairs

    rng = np.random.default_rng(0)
    labels = np.repeat(np.arange(n_labels), n_texts // n_labels)
    centres = rng.normal(size=(n_labels, dim))
    vectors = (centres[labels] * 0.3 + rng.normal(size=(len(labels), dim))).astype(np.float32)

    def ours() -> float:
        scores, same = all_pairs(vectors, labels)
        return roc_auc(scores, same)

    def straightforward() -> float:
        unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
        similarity = unit @ unit.T
        i, j = np.triu_indices(len(labels), k=1)
        return float(roc_auc_score(labels[i] == labels[j], similarity[i, j]))

    t_ref, auc_ref = best_of(straightforward)
    t_ours, auc_ours = best_of(ours)
    ratio = t_ours / t_ref
    n_pairs = len(labels) * (len(labels) - 1) // 2
    print(f"(c) all-to-all AUC, {len(labels)} texts, {n_pairs:,} pairs")
    print(
        f"    straightforward (triu_indices + sklearn roc_auc_score): {t_ref:.3f} s  auc={auc_ref:.6f}"
    )
    print(
        f"    stylebench (mask + one-sort kernel):                    {t_ours:.3f} s  auc={auc_ours:.6f}"
    )
    print(f"    ratio = {ratio:.2f} (target <= 0.60); |diff| = {abs(auc_ours - auc_ref):.2e}")
    return ratio <= 0.60 and abs(auc_ours - auc_ref) < 1e-6


def main() -> int:
    ok = [bench_embed_once(), bench_all_to_all_auc()]
    print("OK" if all(ok) else "TARGET MISSED")
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
