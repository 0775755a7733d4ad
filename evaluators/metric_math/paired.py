"""Paired comparisons of two (or more) models scored on the same units: the formulas.

Every test here is a Wald test of a score difference ``d = score_A - score_B`` with a
standard error from the paired units, a normal (or Student t) 95 % interval
``d +- q se`` and the two-sided p-value of ``d / se``; a paired interval excludes 0
exactly when ``p < 0.05``.

* :func:`delong_covariance` / :func:`paired_delong`: AUROCs of K models on the same
  scored pairs (predefined pairs, or a detector's held-out texts). DeLong, DeLong and
  Clarke-Pearson (1988), "Comparing the areas under two or more correlated receiver
  operating characteristic curves: a nonparametric approach", Biometrics 44: the
  structural components ``V10`` (per positive: share of negatives scored below, ties
  1/2) and ``V01`` (per negative: share of positives scored above) give
  ``S = cov(V10) / m + cov(V01) / n`` (``ddof = 1``), the covariance matrix of the K
  AUROCs; ``var(A - B) = S_AA + S_BB - 2 S_AB``. Computed with the midrank algorithm of
  Sun and Xu (2014), "Fast implementation of DeLong's algorithm for comparing the areas
  under correlated receiver operating characteristic curves", IEEE SPL 21(11), in
  O(K N log N).
* :func:`influence_difference`: an all-to-all AUROC, whose pairs share texts: the texts
  are the units, and each model's per-text influence ``psi_t`` (the derivative of its
  AUROC with respect to text ``t``'s multiplicity, :mod:`evaluators.tasks.pairs`) is its
  first-order (infinitesimal-jackknife) expansion, so
  ``var(A - B) = sum_t (psi_A,t - psi_B,t)^2`` less the pair-level noise that sum
  carries once too often (see the function).
* :func:`paired_t`: a score that is a mean of per-unit values (order alignment pairs,
  retrieval queries): the paired t-test on the per-unit differences.
* :func:`stratified_mean_difference`: probing (mean over features of each feature's
  test accuracy, test texts independent per feature): ``var = sum_f var(d_f) / n_f / F^2``.
* :func:`holm`: Holm (1979) step-down adjusted p-values (family-wise error control).
* :func:`rank_intervals`: 95 % intervals of models' ranks from joint bootstrap replicates.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "Z_95",
    "delong_covariance",
    "holm",
    "influence_difference",
    "midranks",
    "normal_p_value",
    "paired_delong",
    "paired_t",
    "percentile_p_value",
    "rank_intervals",
    "stratified_mean_difference",
    "wald",
]

Z_95 = 1.959963984540054  # standard normal 97.5 % quantile


def normal_p_value(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return float(math.erfc(abs(z) / math.sqrt(2.0)))


def wald(
    difference: float, se: float, level: float = 0.95, df: float | None = None
) -> dict[str, Any]:
    """``{"difference", "se", "ci", "p_value", "statistic"}`` of a Wald test of 0; with
    ``df`` the Student t distribution replaces the normal. A zero standard error gives
    p = 1 for a zero difference (identical scores) and p = 0 otherwise."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level}")
    difference, se = float(difference), float(se)
    if not (math.isfinite(difference) and math.isfinite(se)) or se < 0:
        raise ValueError(f"difference {difference!r} and se {se!r} must be finite, se >= 0")
    from scipy import special  # scipy.stats costs seconds of import; special does not

    tail = (1.0 + level) / 2.0
    if df is None:
        q = Z_95 if level == 0.95 else float(special.ndtri(tail))
    else:
        q = float(special.stdtrit(df, tail))
    if se == 0.0:
        p, statistic = (1.0 if difference == 0.0 else 0.0), 0.0
    else:
        statistic = difference / se
        if df is None:
            p = normal_p_value(statistic)
        else:
            p = float(2.0 * special.stdtr(df, -abs(statistic)))
    return {
        "difference": difference,
        "se": se,
        "ci": [difference - q * se, difference + q * se],
        "p_value": p,
        "statistic": float(statistic),
    }


def midranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n of ``values`` along the last axis, tied values sharing their mean rank
    (Sun and Xu's ``compute_midrank``; equals ``scipy.stats.rankdata(..., "average")``)."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim == 1:
        return _midranks_1d(values)
    return np.stack([_midranks_1d(row) for row in values])


def _midranks_1d(x: np.ndarray) -> np.ndarray:
    order = np.argsort(x, kind="mergesort")
    sorted_x = x[order]
    n = x.size
    starts = np.flatnonzero(np.r_[True, sorted_x[1:] != sorted_x[:-1]])
    ends = np.r_[starts[1:], n]  # exclusive
    block_rank = (starts + ends + 1) / 2.0  # mean of ranks start+1 .. end
    ranks_sorted = np.repeat(block_rank, ends - starts)
    out = np.empty(n)
    out[order] = ranks_sorted
    return out


def _check_scores_labels(scores: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    s = np.atleast_2d(np.asarray(scores, dtype=np.float64))
    y = np.asarray(labels)
    if y.ndim != 1 or s.shape[1] != y.size:
        raise ValueError(f"scores of shape {s.shape} do not match {y.size} labels")
    if not np.isfinite(s).all():
        raise ValueError("scores contain NaN or infinite values")
    if not np.isin(y, (0, 1, True, False)).all():
        raise ValueError("labels must be 0/1")
    y = y.astype(bool)
    if y.all() or not y.any():
        raise ValueError("the AUROC needs positive and negative units")
    return s, y


def delong_covariance(scores: Any, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """AUROCs ``(K,)`` of the rows of ``scores`` (K models x N units, higher = positive)
    against shared 0/1 ``labels``, and DeLong's covariance matrix ``(K, K)`` of them
    (Sun and Xu's midrank algorithm; ties count 1/2, as :func:`metric_math.roc_auc`)."""
    s, y = _check_scores_labels(scores, labels)
    pos, neg = s[:, y], s[:, ~y]
    m, n = pos.shape[1], neg.shape[1]
    tx, ty, tz = midranks(pos), midranks(neg), midranks(np.concatenate([pos, neg], axis=1))
    aucs = (tz[:, :m].sum(axis=1) / m - (m + 1) / 2.0) / n
    v10 = (tz[:, :m] - tx) / n  # per positive: share of negatives below (ties 1/2)
    v01 = 1.0 - (tz[:, m:] - ty) / m  # per negative: share of positives above
    s10 = np.atleast_2d(np.cov(v10)) if m > 1 else np.zeros((s.shape[0],) * 2)
    s01 = np.atleast_2d(np.cov(v01)) if n > 1 else np.zeros((s.shape[0],) * 2)
    return aucs, s10 / m + s01 / n


def paired_delong(scores_a: Any, scores_b: Any, labels: Any) -> dict[str, Any]:
    """Paired DeLong test of ``AUROC_A - AUROC_B`` on the same units (:func:`wald`'s
    fields plus ``score_a``, ``score_b``)."""
    a = np.asarray(scores_a, dtype=np.float64)
    b = np.asarray(scores_b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"scores_a and scores_b differ in shape ({a.shape} != {b.shape})")
    aucs, cov = delong_covariance(np.stack([a, b]), labels)
    var = max(float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1]), 0.0)
    out = wald(float(aucs[0] - aucs[1]), math.sqrt(var))
    return {"score_a": float(aucs[0]), "score_b": float(aucs[1]), **out}


def influence_difference(
    psi_a: Any, psi_b: Any, difference: float, pair_variance: float = 0.0
) -> dict[str, Any]:
    """Wald test of an all-to-all AUROC difference from per-text influences.

    ``se^2 = max(sum_t (psi_A,t - psi_B,t)^2 - pair_variance, sum_t (...)^2 / 2)``: the
    plug-in influences of a U-statistic carry its pair-level (second-order) noise twice
    (each pair enters the influence of both its texts; the jackknife's known upward bias),
    the true variance once, so the pair-level variance of the difference is subtracted
    once; the floor keeps a poor estimate of it from removing more than half."""
    a = np.asarray(psi_a, dtype=np.float64)
    b = np.asarray(psi_b, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"psi_a and psi_b differ in shape ({a.shape} != {b.shape})")
    if pair_variance < 0:
        raise ValueError(f"pair_variance must be >= 0, got {pair_variance}")
    first = float(np.sum((a - b) ** 2))
    return wald(difference, math.sqrt(max(first - float(pair_variance), first / 2.0)))


def paired_t(values_a: Any, values_b: Any) -> dict[str, Any]:
    """Paired t-test of ``mean(A) - mean(B)`` over per-unit values (Student t with
    ``n - 1`` degrees of freedom)."""
    a = np.asarray(values_a, dtype=np.float64)
    b = np.asarray(values_b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"values_a and values_b must be 1-d of one length ({a.shape}, {b.shape})")
    if a.size < 2:
        raise ValueError("a paired t-test needs at least 2 units")
    d = a - b
    se = float(np.std(d, ddof=1) / math.sqrt(d.size))
    out = wald(float(d.mean()), se, df=d.size - 1)
    return {"score_a": float(a.mean()), "score_b": float(b.mean()), **out}


def stratified_mean_difference(differences: Sequence[Any]) -> dict[str, Any]:
    """Wald test of ``mean_f mean(d_f)`` for independent strata ``f`` (probing features,
    each with its own paired test texts): ``se^2 = sum_f var(d_f) / n_f / F^2``."""
    parts = [np.asarray(d, dtype=np.float64) for d in differences]
    if not parts or any(p.size < 2 for p in parts):
        raise ValueError("every stratum needs at least 2 paired units")
    means = np.array([p.mean() for p in parts])
    var = sum(float(np.var(p, ddof=1)) / p.size for p in parts) / len(parts) ** 2
    return wald(float(means.mean()), math.sqrt(var))


def percentile_p_value(replicates: Any) -> float:
    """Two-sided bootstrap p-value of "the difference is 0": twice the smaller share of
    replicates on either side of 0 (ties at 0 counted half on each side), capped at 1;
    the percentile interval at level ``1 - alpha`` excludes 0 when this is below alpha."""
    r = np.asarray(replicates, dtype=np.float64)
    r = r[np.isfinite(r)]
    if r.size == 0:
        raise ValueError("no finite replicates")
    zero = np.count_nonzero(r == 0.0) / 2.0
    below = (np.count_nonzero(r < 0.0) + zero) / r.size
    above = (np.count_nonzero(r > 0.0) + zero) / r.size
    return float(min(1.0, 2.0 * min(below, above)))


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values: sorted ascending, ``p_(i) * (m - i + 1)``,
    made monotone by a running maximum and capped at 1 (reject where adjusted < alpha)."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1:
        raise ValueError("p_values must be 1-d")
    if p.size == 0:
        return p.copy()
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p_values must lie in [0, 1]")
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted = np.minimum(1.0, np.maximum.accumulate(p[order] * (m - np.arange(m))))
    out = np.empty(m)
    out[order] = adjusted
    return out


def rank_intervals(
    replicates: Any, points: Any, level: float = 0.95
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ranks of K models (1 = highest score) at the point estimates ``points`` ``(K,)``
    and their ``level`` intervals from joint replicates ``(B, K)`` (all models scored on
    the same resample in each row). A model's rank in a replicate is one plus the number
    of models scoring strictly higher; the interval runs from the ``(1-level)/2`` to the
    ``(1+level)/2`` quantile of its ranks (order statistics, ``inverted_cdf``).
    Returns (point ranks, low, high), integer arrays."""
    r = np.asarray(replicates, dtype=np.float64)
    x = np.asarray(points, dtype=np.float64)
    if r.ndim != 2 or r.shape[1] != x.size:
        raise ValueError(f"replicates of shape {r.shape} do not match {x.size} models")

    def ranks(values: np.ndarray) -> np.ndarray:  # (..., K)
        return 1 + (values[..., None, :] > values[..., :, None]).sum(axis=-1)

    tail = (1.0 - level) / 2.0
    drawn = ranks(r)
    low = np.quantile(drawn, tail, axis=0, method="inverted_cdf").astype(int)
    high = np.quantile(drawn, 1.0 - tail, axis=0, method="inverted_cdf").astype(int)
    return ranks(x).astype(int), low, high
