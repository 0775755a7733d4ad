"""Stratified percentile-bootstrap CIs of AUROC and TPR@FPR on an unpaired human/machine set.

Each replicate resamples the human (negative) and the machine (positive) scores with
replacement *separately* (class sizes fixed, so every replicate has both classes), using
:func:`evaluators.metric_math.resampling.block_indices` (one ``numpy.random.default_rng(seed)``
stream, negatives first) and its multiplicity representation. As in ARB's vectorised
engine, every replicate is evaluated at once with exact integer counts: AUROC is the
tie-aware Mann-Whitney count (ties 1/2) from the sorted negatives' cumulative
multiplicities; TPR@FPR follows :func:`evaluators.metric_math.tpr_at_fpr`'s rule (the
``(c+1)``-th largest resampled negative stays unflagged). :func:`bootstrap_reference` is the
per-replicate loop with scikit-learn's ``roc_auc_score`` and ``metric_math.tpr_at_fpr``;
tests check both give the same numbers. CIs are ``numpy.percentile`` intervals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evaluators.metric_math import roc_auc, tpr_at_fpr
from evaluators.metric_math.binary import max_false_positives
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    block_indices,
    multiplicities,
    percentile_interval,
)

DEFAULT_RESAMPLES = 1000
CHUNK = 256  # replicates evaluated per step (bounds memory at CHUNK x n)


@dataclass(frozen=True)
class BinaryEstimate:
    """Point estimates and CIs of one score set."""

    n_neg: int
    n_pos: int
    auroc: float
    auroc_ci: tuple[float, float]
    tpr: dict[float, float]
    tpr_ci: dict[float, tuple[float, float]]
    threshold: dict[float, float]
    achieved_fpr: dict[float, float]


def _split(scores: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(labels).astype(bool)
    return np.asarray(scores, dtype=np.float64)[~y], np.asarray(scores, dtype=np.float64)[y]


def replicates(
    neg: np.ndarray,
    pos: np.ndarray,
    fprs: Sequence[float],
    idx_neg: np.ndarray,
    idx_pos: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """AUROC ``(B,)`` and TPR ``(B, len(fprs))`` of every resample (vectorised)."""
    order = np.argsort(neg, kind="stable")
    hs = neg[order]
    left = np.searchsorted(hs, pos, side="left")
    right = np.searchsorted(hs, pos, side="right")
    n_neg, n_pos = neg.size, pos.size
    aucs, tprs = [], []
    for start in range(0, idx_neg.shape[0], CHUNK):
        c_neg = multiplicities(idx_neg[start : start + CHUNK], n_neg)[:, order]
        c_pos = multiplicities(idx_pos[start : start + CHUNK], n_pos)
        cum = np.zeros((c_neg.shape[0], n_neg + 1), dtype=np.int64)
        np.cumsum(c_neg, axis=1, out=cum[:, 1:])
        twice_u = (c_pos * (cum[:, left] + cum[:, right])).sum(axis=1)
        aucs.append(twice_u / (2.0 * n_neg * n_pos))
        from_top = cum[:, -1:] - cum[:, :-1]  # resampled negatives >= hs[k]
        block = np.empty((c_neg.shape[0], len(fprs)))
        for j, fpr in enumerate(fprs):
            c = max_false_positives(fpr, n_neg)
            v = hs[(from_top >= c + 1).sum(axis=1) - 1]
            block[:, j] = (c_pos * (pos[None, :] > v[:, None])).sum(axis=1) / n_pos
        tprs.append(block)
    return np.concatenate(aucs), np.concatenate(tprs)


def stratified_indices(
    n_neg: int, n_pos: int, n_resamples: int, seed: int = DEFAULT_SEED
) -> tuple[np.ndarray, np.ndarray]:
    """``(idx_neg, idx_pos)``: each class resampled within itself (class sizes fixed),
    negatives drawn first from one generator stream."""
    drawn = block_indices({"0-human": n_neg, "1-machine": n_pos}, n_resamples, seed)
    return drawn["0-human"], drawn["1-machine"]


def estimate(
    scores: np.ndarray,
    labels: np.ndarray,
    fprs: Sequence[float] = (0.01,),
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    level: float = 0.95,
) -> BinaryEstimate:
    """AUROC and TPR at each FPR of ``fprs`` with stratified bootstrap CIs."""
    neg, pos = _split(scores, labels)
    auc = roc_auc(scores, labels)
    points = {f: tpr_at_fpr(scores, labels, f) for f in fprs}
    idx_neg, idx_pos = stratified_indices(neg.size, pos.size, n_resamples, seed)
    auc_reps, tpr_reps = replicates(neg, pos, fprs, idx_neg, idx_pos)
    auc_ci = percentile_interval(auc_reps, level, axis=0)
    tpr_ci = percentile_interval(tpr_reps, level, axis=0)
    return BinaryEstimate(
        int(neg.size),
        int(pos.size),
        float(auc),
        (float(auc_ci[0]), float(auc_ci[1])),
        {f: float(points[f]["tpr"]) for f in fprs},
        {f: (float(tpr_ci[0, j]), float(tpr_ci[1, j])) for j, f in enumerate(fprs)},
        {f: float(points[f]["threshold"]) for f in fprs},
        {f: float(points[f]["achieved_fpr"]) for f in fprs},
    )


def bootstrap_reference(
    scores: np.ndarray,
    labels: np.ndarray,
    fprs: Sequence[float] = (0.01,),
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[np.ndarray, np.ndarray]:
    """The same replicates as :func:`replicates`, one at a time (scikit-learn AUROC)."""
    from sklearn.metrics import roc_auc_score

    neg, pos = _split(scores, labels)
    idx_neg, idx_pos = stratified_indices(neg.size, pos.size, n_resamples, seed)
    y = np.r_[np.zeros(neg.size, int), np.ones(pos.size, int)]
    aucs = np.empty(n_resamples)
    tprs = np.empty((n_resamples, len(fprs)))
    for b in range(n_resamples):
        s = np.r_[neg[idx_neg[b]], pos[idx_pos[b]]]
        aucs[b] = roc_auc_score(y, s)
        for j, f in enumerate(fprs):
            tprs[b, j] = tpr_at_fpr(s, y, f)["tpr"]
    return aucs, tprs
