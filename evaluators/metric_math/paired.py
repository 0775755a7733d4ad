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
* :func:`dyadic_covariance` / :func:`cluster_covariance`: the variance of a sum of
  per-unit terms when units share an independent source of randomness: a unit that is a
  pair of sequences or texts depends on both (each sequence of an order-alignment group
  sits in n - 1 pairs; PAN15's 500 test pairs reuse 82 texts), a retrieval query and
  the target of its author depend on the author. ``sum_{p, q sharing a node} c_p c_q``
  (Fafchamps and Gubert 2007; Aronow, Samii and Assenova 2015, "Cluster-robust variance
  estimation for dyadic data", Political Analysis 23), the cluster-robust sandwich of
  one-way clusters (Liang and Zeger 1986) as its special case.
* :func:`node_jackknife_means` / :func:`node_jackknife_aucs` /
  :func:`dyadic_jackknife_covariance`: the same dyadic variance by exact recomputation:
  the delete-one-node jackknife (the score without every pair through a sequence or
  text) less the delete-one-edge jackknife (without the pairs on two given nodes), which
  the node deletions count twice, once per endpoint.
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
    "cluster_covariance",
    "clustered_difference",
    "delong_covariance",
    "dyadic_covariance",
    "dyadic_jackknife_covariance",
    "edge_codes",
    "edge_jackknife_means",
    "holm",
    "influence_difference",
    "jackknife_covariance",
    "midranks",
    "node_jackknife_aucs",
    "node_jackknife_means",
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


def cluster_covariance(terms: Any, clusters: Any) -> np.ndarray:
    """``(K, K)`` cluster-robust covariance of the K sums ``sum_u terms[k, u]`` when the
    units are independent between the clusters (``clusters[u]``, non-negative ints) and
    arbitrarily dependent within one: ``sum_g s_g s_g^T`` with ``s_g`` the per-cluster
    sums of the (centred) terms, times ``G / (G - 1)`` for G clusters."""
    c = np.atleast_2d(np.asarray(terms, dtype=np.float64))
    g = np.asarray(clusters)
    if g.shape != (c.shape[1],):
        raise ValueError(f"{g.size} cluster ids for {c.shape[1]} units")
    _, codes = np.unique(g, return_inverse=True)
    n_groups = int(codes.max()) + 1 if codes.size else 0
    if n_groups < 2:
        raise ValueError("cluster-robust variance needs at least 2 clusters")
    sums = np.stack([np.bincount(codes, row, n_groups) for row in c])
    return sums @ sums.T * (n_groups / (n_groups - 1.0))


def dyadic_covariance(terms: Any, first: Any, second: Any) -> tuple[np.ndarray, int]:
    """``(K, K)`` dyadic-robust covariance of the K sums ``sum_p terms[k, p]`` over units
    ``p`` that are pairs of nodes (``first[p]``, ``second[p]``: sequence or text ids),
    two units being independent unless they share a node (Aronow, Samii and Assenova
    2015): ``sum_{p, q sharing a node} c_p c_q^T = sum_t psi_t psi_t^T - sum_e phi_e
    phi_e^T`` with ``psi_t`` the sum of the terms of the units touching node ``t`` and
    ``phi_e`` that of the units on the same two nodes (counted twice in the first sum),
    times ``G / (G - 1)`` for G nodes. The terms should be centred (sum 0 per row).
    Also returns G. With every node in one pair only it is the independent-units sum
    ``sum_p c_p c_p^T`` (times the factor)."""
    c = np.atleast_2d(np.asarray(terms, dtype=np.float64))
    a, b = np.asarray(first), np.asarray(second)
    if a.shape != (c.shape[1],) or b.shape != a.shape:
        raise ValueError(f"node ids of shape {a.shape}, {b.shape} for {c.shape[1]} units")
    nodes, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    ca, cb = codes[: a.size], codes[a.size :]
    g = nodes.size
    if g < 2:
        raise ValueError("dyadic variance needs at least 2 nodes")
    other = ca != cb  # a unit on one node counts once at it
    psi = np.stack([np.bincount(ca, row, g) + np.bincount(cb[other], row[other], g) for row in c])
    low, high = np.minimum(ca, cb), np.maximum(ca, cb)
    _, edge = np.unique(low[other].astype(np.int64) * g + high[other], return_inverse=True)
    n_edges = int(edge.max()) + 1 if edge.size else 0
    phi = np.stack([np.bincount(edge, row[other], n_edges) for row in c])
    return (psi @ psi.T - phi @ phi.T) * (g / (g - 1.0)), g


def node_jackknife_means(values: Any, first: Any, second: Any) -> tuple[np.ndarray, np.ndarray]:
    """Delete-one-node jackknife of means over pairs: ``(K, G)`` means of the K rows of
    ``values`` over the pairs that do not touch node g (a sequence), for each of the G
    nodes, and the node ids. Closed form: ``(S - s_g) / (N - n_g)``."""
    v = np.atleast_2d(np.asarray(values, dtype=np.float64))
    nodes, codes = np.unique(np.concatenate([first, second]), return_inverse=True)
    ca, cb = codes[: v.shape[1]], codes[v.shape[1] :]
    other = ca != cb
    g = nodes.size
    count = np.bincount(ca, minlength=g) + np.bincount(cb[other], minlength=g)
    if (count >= v.shape[1]).any():
        raise ValueError("a node touches every pair: its deletion leaves none")
    sums = np.stack([np.bincount(ca, r, g) + np.bincount(cb[other], r[other], g) for r in v])
    return (v.sum(axis=1, keepdims=True) - sums) / (v.shape[1] - count)[None, :], nodes


def node_jackknife_aucs(scores: Any, labels: Any, first: Any, second: Any) -> np.ndarray:
    """Delete-one-node jackknife of AUROCs over pairs: ``(K, G)`` AUROCs of the K rows of
    ``scores`` over the pairs that touch neither side of node g (a text), exactly (ties
    1/2): the full Mann-Whitney count less the deleted positives' and negatives' counts,
    plus their count against each other (subtracted twice)."""
    s, y = _check_scores_labels(scores, labels)
    a, b = np.asarray(first), np.asarray(second)
    nodes, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    ca, cb = codes[: a.size], codes[a.size :]
    m, n = int(y.sum()), int((~y).sum())
    aucs, _ = delong_covariance(s, y)
    tz = np.stack([midranks(row) for row in s])
    pos_rank = np.stack([midranks(row[y]) for row in s])
    neg_rank = np.stack([midranks(row[~y]) for row in s])
    count = np.zeros_like(s)  # per pair: its Mann-Whitney count against the other class
    count[:, y] = tz[:, y] - pos_rank  # negatives below a positive (ties 1/2)
    count[:, ~y] = m - (tz[:, ~y] - neg_rank)  # positives above a negative
    total = aucs * m * n
    # incidences (node, pair): a pair touches its two nodes (once when they are equal)
    other = ca != cb
    inc_node = np.concatenate([ca, cb[other]])
    inc_pair = np.concatenate([np.arange(a.size), np.flatnonzero(other)])
    g = nodes.size
    is_pos = y[inc_pair]
    removed_pos = np.bincount(inc_node[is_pos], minlength=g)
    removed_neg = np.bincount(inc_node[~is_pos], minlength=g)
    m_g, n_g = m - removed_pos, n - removed_neg
    if (m_g == 0).any() or (n_g == 0).any():
        raise ValueError("deleting one node leaves no positive or no negative pair")
    lost = np.stack([np.bincount(inc_node, row[inc_pair], g) for row in count])
    # every (positive, negative) pair of pairs both through node g was subtracted twice
    by_pos = np.argsort(inc_node[is_pos], kind="stable")
    by_neg = np.argsort(inc_node[~is_pos], kind="stable")
    pos_pairs, neg_pairs = inc_pair[is_pos][by_pos], inc_pair[~is_pos][by_neg]
    start_pos = np.cumsum(removed_pos) - removed_pos
    start_neg = np.cumsum(removed_neg) - removed_neg
    per_node = removed_pos * removed_neg
    node_of = np.repeat(np.arange(g), per_node)
    k = np.arange(node_of.size) - np.repeat(np.cumsum(per_node) - per_node, per_node)
    width = removed_neg[node_of]
    p_idx = pos_pairs[start_pos[node_of] + k // np.maximum(width, 1)]
    q_idx = neg_pairs[start_neg[node_of] + k % np.maximum(width, 1)]
    sp, sq = s[:, p_idx], s[:, q_idx]
    kernel = (sp > sq) + 0.5 * (sp == sq)
    back = np.stack([np.bincount(node_of, row, g) for row in kernel])
    return (total[:, None] - lost + back) / (m_g * n_g)[None, :]


def edge_codes(first: Any, second: Any) -> tuple[np.ndarray, np.ndarray]:
    """Per pair the code of its *edge*, the unordered pair of its two nodes (pairs on the
    same two nodes share it), and per edge whether its two nodes are one (a loop)."""
    a, b = np.asarray(first), np.asarray(second)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"node ids of shape {a.shape}, {b.shape}")
    _, codes = np.unique(np.concatenate([a, b]), return_inverse=True)
    ca, cb = codes[: a.size].astype(np.int64), codes[a.size :].astype(np.int64)
    g = int(codes.max()) + 1 if codes.size else 0
    key = np.minimum(ca, cb) * g + np.maximum(ca, cb)
    edges, edge = np.unique(key, return_inverse=True)
    return edge, (edges // max(g, 1)) == (edges % max(g, 1))


def dyadic_jackknife_covariance(
    node_replicates: Any, edge_replicates: Any, edge_is_loop: Any
) -> np.ndarray:
    """``(K, K)`` covariance of K paired scores over pairs of nodes (sequences, texts)
    from the delete-one-node jackknife less the delete-one-edge jackknife.

    Pairs are dependent when they share a node. The delete-one-node jackknife
    (:func:`jackknife_covariance` of :func:`node_jackknife_means` /
    :func:`node_jackknife_aucs`) is, to first order, ``sum_g psi_g psi_g^T`` with ``psi_g``
    the summed influence of the pairs through node g: it counts every pair's own
    (pair-level) variance once per endpoint, twice, where the dyadic-robust variance
    ``sum_{p, q sharing a node} c_p c_q^T`` (Fafchamps and Gubert 2007; Cameron and
    Miller 2014; Aronow, Samii and Assenova 2015; :func:`dyadic_covariance`) counts it
    once. The delete-one-edge jackknife (``edge_replicates``, ``(K, E)``: the score
    without the pairs of edge e, :func:`edge_codes`) is ``sum_e phi_e phi_e^T`` to first
    order, so it is subtracted once over the edges whose two nodes differ (a loop's
    pairs touch one node and are counted once already). With every node in one pair
    only, the result is the independent-pairs jackknife (times ``N / (N - 1)`` for a
    mean); on a dense design (each sequence in n - 1 pairs) the node part dominates."""
    nodes = jackknife_covariance(node_replicates)
    x = np.atleast_2d(np.asarray(edge_replicates, dtype=np.float64))
    loop = np.asarray(edge_is_loop, dtype=bool)
    if loop.shape != (x.shape[1],):
        raise ValueError(f"{loop.size} loop flags for {x.shape[1]} edges")
    e = x.shape[1]
    centred = (x - x.mean(axis=1, keepdims=True))[:, ~loop]
    return nodes - centred @ centred.T * ((e - 1.0) / e)


def edge_jackknife_means(values: Any, edge: Any) -> np.ndarray:
    """``(K, E)`` means of the K rows of ``values`` over the pairs not on edge e, for each
    of the E edges (:func:`edge_codes`): ``(S - s_e) / (N - n_e)``."""
    v = np.atleast_2d(np.asarray(values, dtype=np.float64))
    code = np.asarray(edge)
    e = int(code.max()) + 1
    count = np.bincount(code, minlength=e)
    if (count >= v.shape[1]).any():
        raise ValueError("an edge holds every pair: its deletion leaves none")
    sums = np.stack([np.bincount(code, row, e) for row in v])
    return (v.sum(axis=1, keepdims=True) - sums) / (v.shape[1] - count)[None, :]


def jackknife_covariance(replicates: Any) -> np.ndarray:
    """``(K, K)`` delete-one jackknife covariance from ``(K, G)`` leave-one-out values:
    ``(G - 1) / G sum_g (x_g - mean)(x_g - mean)^T``."""
    x = np.atleast_2d(np.asarray(replicates, dtype=np.float64))
    g = x.shape[1]
    centred = x - x.mean(axis=1, keepdims=True)
    return centred @ centred.T * ((g - 1.0) / g)


def clustered_difference(
    difference: float,
    variance: float,
    independent_variance: float,
    df: float | None = None,
) -> dict[str, Any]:
    """:func:`wald` with the standard error of a clustered (or dyadic) variance, never
    below the one that treats the units as independent (a negative within-cluster
    correlation estimate is not trusted to shrink the interval)."""
    return wald(difference, math.sqrt(max(variance, independent_variance, 0.0)), df=df)


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
