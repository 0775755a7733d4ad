"""Speed of ARB's block bootstrap at full ARB size, vectorised vs straightforward.

Run from the repository root::

    python tests/benchmarks/bench_arb_bootstrap.py [--resamples 5000] [--reference-resamples 10]

Setting (issue #7): 1,800 sources x 4 generators (12 dataset x generator blocks of 600
quartets), 5 detectors, 5,000 resamples, seed 42, synthetic scores. The vectorised engine
(:func:`evaluators.arb.stats.bootstrap`) runs all 5,000 resamples. The straightforward
engine (a Python loop over resamples calling scikit-learn's ``roc_auc_score`` and
metric_math's threshold search per block) would take over an hour, so it is timed on the
first ``--reference-resamples`` resamples of the *same* index matrices and extrapolated
linearly to 5,000 (printed as such). Equality: the vectorised engine is also run on those
same first resamples and its per-replicate macro statistics are compared with the
reference (TPR exactly; AUROC to 1e-12, the only difference being scikit-learn's floating
point trapezoid vs exact integer counts), and so are the resulting percentile CIs. Exits
with status 1 if the speed-up is below 20x or the numbers differ.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT))

import numpy as np  # noqa: E402

from evaluators.arb.stats import bootstrap  # noqa: E402
from evaluators.metric_math.resampling import block_indices  # noqa: E402

DATASETS = ("xsum", "writingprompts", "openwebtext")
GENERATORS = ("llama32_3b", "qwen25_7b", "mistral7b", "gemma2_9b")
DETECTORS = ("bert_defense", "roberta_defense", "fastdetectgpt", "binoculars", "radar")


def synthetic_scores(n_per_block: int = 600, seed: int = 0) -> dict[str, dict[str, np.ndarray]]:
    """Scores shaped like ARB's: Free-LLM/LLM2L well separated from Human, H2L less."""
    rng = np.random.default_rng(seed)
    shifts = {"Free-LLM": 2.5, "H2L": 1.0, "LLM2L": 2.0}
    out: dict[str, dict[str, np.ndarray]] = {}
    for k, det in enumerate(DETECTORS):
        scale = 0.4 + 0.3 * k
        out[det] = {}
        for ds in DATASETS:
            for gen in GENERATORS:
                human = rng.normal(0.0, 1.0, n_per_block)
                cols = [human] + [rng.normal(scale * shifts[r], 1.0, n_per_block) for r in shifts]
                block = np.column_stack(cols)
                if det == "bert_defense":  # coarse scores with many ties
                    block = np.round(block, 1)
                out[det][f"{ds}|{gen}"] = block
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resamples", type=int, default=5000)
    parser.add_argument("--reference-resamples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()

    scores = synthetic_scores()
    sizes = {b: a.shape[0] for b, a in scores[DETECTORS[0]].items()}
    n_texts = sum(sizes.values()) * 4
    print(
        f"ARB size: {len(sizes)} blocks x {next(iter(sizes.values()))} quartets "
        f"({n_texts:,} scored texts per detector), {len(DETECTORS)} detectors, "
        f"{args.resamples:,} resamples, seed {args.seed}"
    )
    t0 = time.perf_counter()
    idx = block_indices(sizes, args.resamples, args.seed)
    fast = bootstrap(scores, indices=idx)
    t_fast = time.perf_counter() - t0
    print(f"vectorised: {t_fast:.2f} s for all {args.resamples:,} resamples (incl. index draw)")

    k = args.reference_resamples
    sub = {b: m[:k] for b, m in idx.items()}
    t0 = time.perf_counter()
    ref = bootstrap(scores, indices=sub, engine="reference")
    t_ref_sub = time.perf_counter() - t0
    t_ref = t_ref_sub * args.resamples / k
    print(
        f"straightforward: {t_ref_sub:.2f} s for the first {k} resamples -> "
        f"{t_ref:.0f} s extrapolated linearly to {args.resamples:,} (NOT run in full)"
    )
    fast_sub = bootstrap(scores, indices=sub)
    worst_tpr = max(
        float(
            np.abs(
                fast_sub[d].replicates[:, [0, 1, 2, 6, 7, 10]]
                - ref[d].replicates[:, [0, 1, 2, 6, 7, 10]]
            ).max()
        )
        for d in DETECTORS
    )
    worst_all = max(
        float(np.abs(fast_sub[d].replicates - ref[d].replicates).max()) for d in DETECTORS
    )
    worst_ci = max(
        abs(fast_sub[d].ci[q][i] - ref[d].ci[q][i])
        for d in DETECTORS
        for q in fast_sub[d].ci
        for i in (0, 1)
    )
    # the first k replicates of the full run are the same replicates
    worst_prefix = max(
        float(np.abs(fast[d].replicates[:k] - fast_sub[d].replicates).max()) for d in DETECTORS
    )
    print(
        f"same {k} resamples: max |diff| TPR-based quantities {worst_tpr:.1e}, all quantities "
        f"{worst_all:.1e}, CIs {worst_ci:.1e}; full-run prefix vs subset run {worst_prefix:.1e}"
    )
    ratio = t_ref / t_fast
    print(f"speed-up: {ratio:.0f}x (target >= 20x)")
    d = "fastdetectgpt"
    lo, hi = fast[d].ci["gap_tpr"]
    print(f"example: {d} TPR gap {fast[d].estimate['gap_tpr']:.3f} [{lo:.3f}, {hi:.3f}]")
    ok = ratio >= 20 and worst_tpr == 0.0 and worst_all < 1e-12 and worst_prefix == 0.0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
