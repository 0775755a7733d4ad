"""Speed of `stylebench detect`'s stratified bootstrap (AUROC + TPR@1%FPR per replicate)
against the straightforward per-replicate loop (scikit-learn ``roc_auc_score`` +
``metric_math.tpr_at_fpr``), on the same resamples.

Run from the repository root::

    python tests/benchmarks/bench_detect_bootstrap.py [--n 2000] [--resamples 1000]

Target: the vectorised engine takes at most 0.25x the loop's time (both measured in this
run; the numbers must be equal, checked here too). Exits with status 1 if it is missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))

import numpy as np  # noqa: E402

from evaluators.detect.bootstrap import (  # noqa: E402
    bootstrap_reference,
    replicates,
    stratified_indices,
)

TARGET = 0.25


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000, help="texts (half human, half machine)")
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    half = args.n // 2
    s = np.r_[rng.normal(0, 1, half), rng.normal(1, 1, args.n - half)]
    y = np.r_[np.zeros(half, int), np.ones(args.n - half, int)]
    t0 = time.perf_counter()
    idx_neg, idx_pos = stratified_indices(half, args.n - half, args.resamples, 42)
    auc, tpr = replicates(s[y == 0], s[y == 1], (0.01,), idx_neg, idx_pos)
    fast = time.perf_counter() - t0
    t0 = time.perf_counter()
    ref_auc, ref_tpr = bootstrap_reference(s, y, (0.01,), args.resamples, 42)
    slow = time.perf_counter() - t0
    assert np.allclose(auc, ref_auc) and np.allclose(tpr, ref_tpr), "engines disagree"
    ratio = fast / slow
    print(
        f"{args.n:,} texts x {args.resamples:,} resamples: vectorised {fast:.3f} s, "
        f"loop {slow:.3f} s, ratio {ratio:.3f}x (target <= {TARGET}x)"
    )
    return 0 if ratio <= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
