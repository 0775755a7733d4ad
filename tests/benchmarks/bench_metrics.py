"""Speed of the binary metrics on 1,000,000 scores, as ratios to scikit-learn.

Run from the repository root::

    python tests/benchmarks/bench_metrics.py [--n 1000000] [--arrow]

Targets (issue #3): the ``auroc`` and ``tpr_at_fpr`` evaluate modules (``module.compute`` on
numpy arrays) take at most 1.5x the time of scikit-learn's ``roc_auc_score`` alone, and the
pure kernels (``metric_math.roc_auc``, ``metric_math.tpr_at_fpr``) at most 1.0x. Timings are
the best of 3 runs. Exits with status 1 if a target is missed. ``--arrow`` also times one
run through evaluate's Arrow path (``add_batch`` then ``compute``), for information only.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
_HF_HOME = tempfile.mkdtemp(prefix="stylebench-bench-hf-")
os.environ["HF_HOME"] = _HF_HOME
os.environ["HF_MODULES_CACHE"] = str(Path(_HF_HOME) / "modules")
os.environ["HF_EVALUATE_CACHE"] = str(Path(_HF_HOME) / "evaluate")
os.environ["HF_DATASETS_CACHE"] = str(Path(_HF_HOME) / "datasets")
os.environ["HF_HUB_OFFLINE"] = "1"
sys.path.insert(0, str(REPO_ROOT))

import evaluate  # noqa: E402
import numpy as np  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

from evaluators import metric_math  # noqa: E402


def best_of(func: Callable[[], object], repeats: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="number of scores")
    parser.add_argument("--arrow", action="store_true", help="also time the Arrow path once")
    args = parser.parse_args()

    rng = np.random.default_rng(0)
    scores = np.round(rng.normal(size=args.n), 3)  # ~7,000 distinct values: many ties
    labels = rng.integers(0, 2, size=args.n)
    scores[labels == 1] += 0.5
    n_distinct = np.unique(scores).size
    print(f"{args.n:,} scores ({n_distinct:,} distinct, so many ties), float64; labels int64")

    auroc = evaluate.load(str(REPO_ROOT / "metrics" / "auroc"))
    tpr = evaluate.load(str(REPO_ROOT / "metrics" / "tpr_at_fpr"))

    base, sk_auc = best_of(lambda: roc_auc_score(labels, scores))
    rows = [
        (
            "auroc module: compute(numpy)",
            lambda: auroc.compute(predictions=scores, references=labels),
            1.5,
        ),
        (
            "tpr_at_fpr module: compute(numpy)",
            lambda: tpr.compute(predictions=scores, references=labels),
            1.5,
        ),
        ("kernel metric_math.roc_auc", lambda: metric_math.roc_auc(scores, labels), 1.0),
        ("kernel metric_math.tpr_at_fpr", lambda: metric_math.tpr_at_fpr(scores, labels), 1.0),
    ]
    print(f"\n{'what':<40} {'best of 3 (s)':>13} {'ratio':>7} {'target':>7}  ok")
    print(f"{'sklearn roc_auc_score (baseline)':<40} {base:>13.4f} {1.0:>7.2f} {'':>7}")
    failed = []
    for name, func, target in rows:
        seconds, result = best_of(func)
        ratio = seconds / base
        ok = ratio <= target
        if not ok:
            failed.append(name)
        print(f"{name:<40} {seconds:>13.4f} {ratio:>7.2f} {target:>7.1f}  {'yes' if ok else 'NO'}")
        if "roc_auc" in name or "auroc" in name:
            value = result["auroc"] if isinstance(result, dict) else result
            assert abs(value - sk_auc) < 1e-12, (value, sk_auc)

    if args.arrow:

        def arrow_path():
            tpr.add_batch(predictions=scores.tolist(), references=labels.tolist())
            return tpr.compute()

        seconds, _ = best_of(arrow_path, repeats=1)
        print(
            f"{'(info) tpr_at_fpr via add_batch (Arrow)':<40} {seconds:>13.4f} {seconds / base:>7.2f}"
        )

    if failed:
        print(f"\nmissed target: {', '.join(failed)}")
        return 1
    print("\nall targets met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
