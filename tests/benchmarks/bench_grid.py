"""Cost of the CPU-independent cosines (issue 25) against the float64 cosines they
replaced (not collected by pytest).

    python tests/benchmarks/bench_grid.py [--n 10000] [--dim 768]

Times, best of 3, on random float32 vectors: the all-to-all similarity matrix of ``n``
vectors (``all_pairs``' Gram) and a retrieval distance matrix of ``n/5`` queries by
``n`` targets, each computed the old way (``np.linalg.norm``, float64 matrix product)
and the gridded way (:func:`evaluators.metric_math.grid.grid_cosines`: ``fsum`` norms,
rounding to the 2^-26 grid, an exact float64 product), and prints the ratio and the
largest difference. Target: ratio <= 3 (measured on 2 loaded cores: 1.9x all-to-all at
n = 6,000, 2.1x at 10,000; 1.8-2.9x retrieval, where the per-vector fsum norms weigh
most beside a small product). Exits non-zero when
missed.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

TARGET_RATIO = 3.0


def best_of(repeats: int, run: Callable[[], object]) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=10_000)
    parser.add_argument("--dim", type=int, default=768)
    args = parser.parse_args()

    import numpy as np

    from evaluators.metric_math.grid import grid_cosines

    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(args.n, args.dim)).astype(np.float32)
    queries = vectors[: args.n // 5]

    def old(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        x, y = a.astype(np.float64), b.astype(np.float64)
        x /= np.linalg.norm(x, axis=1, keepdims=True)
        y /= np.linalg.norm(y, axis=1, keepdims=True)
        return x @ y.T

    worst = 0.0
    for what, a, b in (("all-to-all", vectors, vectors), ("retrieval", queries, vectors)):
        t_old = best_of(3, lambda a=a, b=b: old(a, b))
        t_new = best_of(3, lambda a=a, b=b: grid_cosines(a, b))
        diff = float(np.abs(old(a, b) - grid_cosines(a, b)).max())
        ratio = t_new / t_old
        worst = max(worst, ratio)
        print(
            f"{what:10s} {a.shape[0]:>6,} x {b.shape[0]:>6,} (d={args.dim}): "
            f"float64 {t_old:.2f} s, gridded {t_new:.2f} s, ratio {ratio:.2f}x, "
            f"max |difference| {diff:.1e}"
        )
    print(f"target: ratio <= {TARGET_RATIO}x -> {'met' if worst <= TARGET_RATIO else 'MISSED'}")
    return 0 if worst <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
