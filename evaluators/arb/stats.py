"""ARB statistics: block-level TPR@1%FPR / AUROC, paired deltas, operational gap and the
block-structured bootstrap (ARB Sec. 5.3-5.4). The draws, and the block-bootstrap interval
of a macro mean of per-row values (``block_mean_interval``), live in
:mod:`evaluators.metric_math.resampling`.

Data layout
-----------
A *block* is one ``dataset x generator`` cell. Its scores are an ``(n, 4)`` array whose row
``i`` is one matched quartet and whose columns follow :data:`REGIMES` (Human, Free-LLM, H2L,
LLM2L); higher = more machine-like. Human is the negative class of all three comparisons
(the same Human set in each, Sec. 5.3); the target regime is the positive class.

Estimates
---------
Per block and comparison ``r`` in (Free-LLM, H2L, LLM2L): ``tpr[r]`` = TPR at 1% FPR
(threshold set on that block's Human scores by :func:`evaluators.metric_math.tpr_at_fpr`:
flag iff ``score >= threshold``; tied scores are never split, so the achieved FPR may be
below 1% and never above it) and ``auc[r]`` = :func:`evaluators.metric_math.roc_auc`
(ties 1/2). Deltas ``H2L - Free-LLM`` and ``LLM2L - Free-LLM`` and the operational gap
``LLM2L - H2L`` are computed *within* each block, then every quantity is macro-averaged
over blocks (each block weight 1).

Bootstrap
---------
For each block (in sorted block order) one ``(B, n)`` matrix of row indices is drawn by
:func:`evaluators.metric_math.resampling.block_indices` (one ``numpy.random.default_rng(seed)``
stream); the same rows index all four regimes (aligned
rows are resampled jointly) and every detector (the resampled quartets are the same for
every detector). Each replicate recomputes the block metrics, the deltas/gap and the macro
averages; the CI is the percentile interval (``numpy.percentile``, linear interpolation).

The vectorised engine (:func:`bootstrap`) represents a resample by its multiplicity vector
``C[b, i]`` (how often row ``i`` was drawn) and evaluates every replicate at once with exact
integer counts: AUROC is the tie-aware Mann-Whitney count over the Human scores sorted once
(cumulative multiplicities looked up at each target's ``searchsorted`` positions), and
TPR@FPR applies metric_math's rule (the ``(c+1)``-th largest resampled Human score must stay
unflagged, ``c`` = allowed false positives from metric_math). The results equal
:func:`evaluators.metric_math.tpr_at_fpr` / :func:`~evaluators.metric_math.roc_auc` on every
replicate (checked in tests/arb/test_stats.py); :func:`bootstrap_reference` is the
straightforward per-replicate loop (scikit-learn ``roc_auc_score`` + metric_math's threshold
search) kept for the benchmark and the equality tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from evaluators.metric_math import roc_auc, tpr_at_fpr
from evaluators.metric_math.binary import max_false_positives
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    block_indices,
    multiplicities,
    percentile_interval,
)

__all__ = [
    "COMPARISONS",
    "QUANTITIES",
    "REGIMES",
    "BlockEstimate",
    "DetectorSummary",
    "block_estimate",
    "bootstrap",
    "bootstrap_reference",
    "evaluate_detector",
]

REGIMES: tuple[str, ...] = ("Human", "Free-LLM", "H2L", "LLM2L")
COMPARISONS: tuple[str, ...] = ("Free-LLM", "H2L", "LLM2L")  # each vs Human
FPR = 0.01

# Every macro-averaged quantity reported for a detector, in a fixed order.
QUANTITIES: tuple[str, ...] = (
    "tpr:Free-LLM",
    "tpr:H2L",
    "tpr:LLM2L",
    "auc:Free-LLM",
    "auc:H2L",
    "auc:LLM2L",
    "delta_tpr:H2L",
    "delta_tpr:LLM2L",
    "delta_auc:H2L",
    "delta_auc:LLM2L",
    "gap_tpr",
    "gap_auc",
)


def _check_block(name: str, scores: Any) -> np.ndarray:
    arr = np.asarray(scores, dtype=np.float64)
    if arr.ndim != 2 or arr.shape[1] != len(REGIMES):
        raise ValueError(
            f"block {name!r}: scores must have shape (n, {len(REGIMES)}) in regime order "
            f"{REGIMES}, got {arr.shape}"
        )
    if arr.shape[0] < 2:
        raise ValueError(f"block {name!r}: needs at least 2 quartets, got {arr.shape[0]}")
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"block {name!r}: non-finite score at row {bad[0]}, regime {REGIMES[bad[1]]}"
        )
    return arr


def _derived(tpr: np.ndarray, auc: np.ndarray) -> np.ndarray:
    """Stack the 12 :data:`QUANTITIES` from ``tpr``/``auc`` of shape ``(..., 3)``."""
    return np.stack(
        [
            tpr[..., 0],
            tpr[..., 1],
            tpr[..., 2],
            auc[..., 0],
            auc[..., 1],
            auc[..., 2],
            tpr[..., 1] - tpr[..., 0],
            tpr[..., 2] - tpr[..., 0],
            auc[..., 1] - auc[..., 0],
            auc[..., 2] - auc[..., 0],
            tpr[..., 2] - tpr[..., 1],
            auc[..., 2] - auc[..., 1],
        ],
        axis=-1,
    )


@dataclass(frozen=True)
class BlockEstimate:
    """Metrics of one block: per comparison TPR@1%FPR (+ threshold, achieved FPR) and AUROC."""

    block: str
    n: int
    tpr: dict[str, float]
    auc: dict[str, float]
    threshold: dict[str, float]
    achieved_fpr: dict[str, float]

    def quantities(self) -> dict[str, float]:
        """The 12 :data:`QUANTITIES` for this block (deltas and gap within the block)."""
        t = np.array([self.tpr[c] for c in COMPARISONS])
        a = np.array([self.auc[c] for c in COMPARISONS])
        return dict(zip(QUANTITIES, _derived(t, a).tolist(), strict=True))


def block_estimate(block: str, scores: Any, fpr: float = FPR) -> BlockEstimate:
    """Point estimates of one block with metric_math's ``tpr_at_fpr`` and ``roc_auc``."""
    arr = _check_block(block, scores)
    n = arr.shape[0]
    labels = np.r_[np.zeros(n, dtype=np.int8), np.ones(n, dtype=np.int8)]
    tpr, auc, thr, ach = {}, {}, {}, {}
    for j, comp in enumerate(COMPARISONS, start=1):
        s = np.r_[arr[:, 0], arr[:, j]]
        r = tpr_at_fpr(s, labels, fpr)
        tpr[comp], thr[comp], ach[comp] = r["tpr"], r["threshold"], r["achieved_fpr"]
        auc[comp] = roc_auc(s, labels)
    return BlockEstimate(block, n, tpr, auc, thr, ach)


def _batch_block(scores: np.ndarray, counts: np.ndarray, fpr: float) -> tuple[np.ndarray, ...]:
    """TPR@fpr and AUROC of every resample of one block: two ``(B, 3)`` arrays."""
    n = scores.shape[0]
    human = scores[:, 0]
    order = np.argsort(human, kind="stable")
    hs = human[order]
    c_neg = counts[:, order]
    cum = np.zeros((counts.shape[0], n + 1), dtype=np.int64)
    np.cumsum(c_neg, axis=1, out=cum[:, 1:])
    # (c+1)-th largest resampled Human score: first descending position where the
    # cumulative count from the top reaches c+1.
    c = max_false_positives(fpr, n)
    from_top = cum[:, -1:] - cum[:, :-1]  # from_top[b, k] = #resampled Human >= hs[k]
    kth = (from_top >= c + 1).sum(axis=1) - 1  # last sorted position with count >= c+1
    v = hs[kth]
    tpr = np.empty((counts.shape[0], 3))
    auc = np.empty((counts.shape[0], 3))
    denom = 2.0 * n * n
    for j in range(3):
        t = scores[:, j + 1]
        left = np.searchsorted(hs, t, side="left")
        right = np.searchsorted(hs, t, side="right")
        twice_u = (counts * (cum[:, left] + cum[:, right])).sum(axis=1)
        auc[:, j] = twice_u / denom
        n_tp = (counts * (t[None, :] > v[:, None])).sum(axis=1)
        tpr[:, j] = n_tp / n
    return tpr, auc


def _reference_block(
    scores: np.ndarray, idx: np.ndarray, fpr: float
) -> tuple[np.ndarray, np.ndarray]:
    """Straightforward version: loop over resamples, sklearn AUROC + threshold search."""
    from sklearn.metrics import roc_auc_score

    n = scores.shape[0]
    labels = np.r_[np.zeros(n, dtype=np.int8), np.ones(n, dtype=np.int8)]
    tpr = np.empty((idx.shape[0], 3))
    auc = np.empty((idx.shape[0], 3))
    for b in range(idx.shape[0]):
        rows = scores[idx[b]]
        for j in range(3):
            s = np.r_[rows[:, 0], rows[:, j + 1]]
            auc[b, j] = roc_auc_score(labels, s)
            tpr[b, j] = tpr_at_fpr(s, labels, fpr)["tpr"]
    return tpr, auc


@dataclass
class DetectorSummary:
    """Macro-averaged estimates and bootstrap CIs of one detector.

    ``estimate[q]`` is the macro average over blocks of quantity ``q`` (:data:`QUANTITIES`),
    ``ci[q]`` its percentile 95% interval, ``blocks`` the per-block point estimates and
    ``replicates`` the ``(B, 12)`` bootstrap distribution of the macro averages.
    """

    detector: str
    estimate: dict[str, float]
    ci: dict[str, tuple[float, float]]
    blocks: list[BlockEstimate]
    replicates: np.ndarray = field(repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "detector": self.detector,
            "estimate": self.estimate,
            "ci": {k: list(v) for k, v in self.ci.items()},
            "blocks": [
                {
                    "block": b.block,
                    "n": b.n,
                    "tpr": b.tpr,
                    "auc": b.auc,
                    "threshold": b.threshold,
                    "achieved_fpr": b.achieved_fpr,
                }
                for b in self.blocks
            ],
            "n_resamples": int(self.replicates.shape[0]),
        }


def bootstrap(
    detectors: Mapping[str, Mapping[str, Any]],
    n_resamples: int = 5000,
    seed: int = DEFAULT_SEED,
    *,
    fpr: float = FPR,
    level: float = 0.95,
    engine: str = "vectorised",
    indices: Mapping[str, np.ndarray] | None = None,
) -> dict[str, DetectorSummary]:
    """Block bootstrap of every detector.

    Parameters
    ----------
    detectors : mapping detector -> {block: (n, 4) scores}
        All detectors must score the same blocks with the same row order.
    n_resamples, seed : int
        ARB: 5,000 and 42.
    engine : "vectorised" or "reference"
        Same numbers; "reference" is the slow per-replicate loop.
    indices : optional precomputed
        :func:`~evaluators.metric_math.resampling.block_indices` (overrides n_resamples/seed).
    """
    if engine not in ("vectorised", "reference"):
        raise ValueError(f"engine must be 'vectorised' or 'reference', got {engine!r}")
    if not detectors:
        raise ValueError("no detectors given")
    checked = {
        d: {b: _check_block(f"{d}/{b}", s) for b, s in blocks.items()}
        for d, blocks in detectors.items()
    }
    first = next(iter(checked.values()))
    sizes = {b: a.shape[0] for b, a in first.items()}
    for d, blocks in checked.items():
        got = {b: a.shape[0] for b, a in blocks.items()}
        if got != sizes:
            raise ValueError(f"detector {d!r} has blocks {got}, expected {sizes}")
    idx = dict(indices) if indices is not None else block_indices(sizes, n_resamples, seed)
    counts = (
        {b: multiplicities(idx[b], sizes[b]) for b in sorted(sizes)}
        if engine == "vectorised"
        else {}
    )
    out: dict[str, DetectorSummary] = {}
    for d, blocks in checked.items():
        per_block = [block_estimate(b, blocks[b], fpr) for b in sorted(blocks)]
        point = np.array([list(be.quantities().values()) for be in per_block]).mean(axis=0)
        reps = []
        for b in sorted(blocks):
            if engine == "vectorised":
                tpr, auc = _batch_block(blocks[b], counts[b], fpr)
            else:
                tpr, auc = _reference_block(blocks[b], idx[b], fpr)
            reps.append(_derived(tpr, auc))
        macro = np.mean(reps, axis=0)  # (B, 12): macro average over blocks per replicate
        ci = percentile_interval(macro, level, axis=0)
        out[d] = DetectorSummary(
            d,
            dict(zip(QUANTITIES, point.tolist(), strict=True)),
            {q: (float(ci[0, k]), float(ci[1, k])) for k, q in enumerate(QUANTITIES)},
            per_block,
            macro,
        )
    return out


def bootstrap_reference(
    detectors: Mapping[str, Mapping[str, Any]],
    n_resamples: int = 5000,
    seed: int = DEFAULT_SEED,
    **kwargs: Any,
) -> dict[str, DetectorSummary]:
    """:func:`bootstrap` with the straightforward per-replicate loop (benchmark baseline)."""
    return bootstrap(detectors, n_resamples, seed, engine="reference", **kwargs)


def evaluate_detector(
    detector: str,
    blocks: Mapping[str, Any],
    n_resamples: int = 5000,
    seed: int = DEFAULT_SEED,
) -> DetectorSummary:
    """Convenience wrapper: bootstrap one detector."""
    return bootstrap({detector: blocks}, n_resamples, seed)[detector]
