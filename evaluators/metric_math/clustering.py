"""Clustering quality: V-measure with its homogeneity and completeness.

References
----------
.. [1] Rosenberg, A. and Hirschberg, J. (2007). V-Measure: A conditional entropy-based
   external cluster evaluation measure. EMNLP-CoNLL 2007, 410-420.
.. [2] Pedregosa, F. et al. (2011). Scikit-learn: Machine Learning in Python. JMLR 12,
   2825-2830 (``homogeneity_completeness_v_measure``, whose edge-case rules we follow).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._checks import as_labels, check_same_length
from .grid import fixed_sum


def _log(values: np.ndarray) -> np.ndarray:
    """Natural log by the C library (``math.log``), element by element: numpy's
    vectorised log differs in the last bit with its SIMD level (AVX-512 or not), and the
    contingency tables are small."""
    return np.array([math.log(v) for v in np.asarray(values, dtype=np.float64).tolist()])


__all__ = ["contingency_counts", "v_measure"]


def contingency_counts(classes: ArrayLike, clusters: ArrayLike) -> np.ndarray:
    """Dense contingency table ``C[i, j]`` = #items of class ``i`` in cluster ``j``.

    Rows follow the sorted distinct classes and columns the sorted distinct clusters.
    Labels may be integers, strings or booleans.
    """
    c = as_labels(classes, "references")
    k = as_labels(clusters, "predictions")
    check_same_length("predictions", k, "references", c)
    return _contingency(c, k)


def _contingency(c: np.ndarray, k: np.ndarray) -> np.ndarray:
    _, ci = np.unique(c, return_inverse=True)
    _, kj = np.unique(k, return_inverse=True)
    n_c = int(ci.max()) + 1
    n_k = int(kj.max()) + 1
    flat = np.bincount(ci.astype(np.int64) * n_k + kj, minlength=n_c * n_k)
    return flat.reshape(n_c, n_k)


def _entropy(counts: np.ndarray, n: int) -> float:
    counts = counts[counts > 0].astype(np.float64)
    return -float(fixed_sum(counts / n * (_log(counts) - math.log(n))))


def v_measure(predictions: ArrayLike, references: ArrayLike, beta: float = 1.0) -> dict[str, float]:
    """V-measure, homogeneity and completeness of a clustering against gold classes.

    With classes C (``references``) and clusters K (``predictions``)::

        homogeneity  h = 1 - H(C|K) / H(C)   (= I(C; K) / H(C))
        completeness c = 1 - H(K|C) / H(K)   (= I(C; K) / H(K))
        V_beta = (1 + beta) * h * c / (beta * h + c)

    entropies with natural logarithms over the contingency counts [1]_. Edge rules as in
    scikit-learn [2]_: ``h = 1`` when ``H(C) = 0`` (a single class), ``c = 1`` when
    ``H(K) = 0`` (a single cluster), and ``V = 0`` when ``h + c = 0``. The measure only
    depends on the partition: renaming labels does not change it.

    Parameters
    ----------
    predictions : array-like of shape (n,)
        Cluster assignment per item (ints or strings; the ids are arbitrary).
    references : array-like of shape (n,)
        Gold class per item.
    beta : float, default 1.0
        Weight of completeness relative to homogeneity (``beta > 1`` favours
        completeness); must be positive and finite.

    Returns
    -------
    dict
        ``v_measure``, ``homogeneity``, ``completeness`` (floats in [0, 1]).

    Raises
    ------
    ValueError
        Empty input, length mismatch, None/NaN labels or a non-positive ``beta``.
        (scikit-learn returns 1.0 for empty input; we refuse it.)

    Examples
    --------
    >>> v_measure([0, 0, 1, 1], [5, 5, 7, 7])
    {'v_measure': 1.0, 'homogeneity': 1.0, 'completeness': 1.0}
    >>> r = v_measure(["a", "a", "a", "b"], [0, 0, 1, 1])
    >>> round(r["homogeneity"], 4), round(r["completeness"], 4), round(r["v_measure"], 4)
    (0.3113, 0.3837, 0.3437)
    """
    try:
        b = float(beta)
    except (TypeError, ValueError):
        raise ValueError(f"beta must be a positive number; got {beta!r}") from None
    if not (np.isfinite(b) and b > 0):
        raise ValueError(f"beta must be a positive finite number; got {beta!r}")
    k = as_labels(predictions, "predictions")
    c = as_labels(references, "references")
    check_same_length("predictions", k, "references", c)
    n = int(c.size)
    table = _contingency(c, k)
    h_c = _entropy(table.sum(axis=1), n)
    h_k = _entropy(table.sum(axis=0), n)
    nz = table > 0
    n_ij = table[nz].astype(np.float64)
    a_i = np.broadcast_to(table.sum(axis=1, keepdims=True), table.shape)[nz]
    b_j = np.broadcast_to(table.sum(axis=0, keepdims=True), table.shape)[nz]
    # conditional entropies; log(n_ij / b_j) is exactly 0 for a pure cluster, so a perfect
    # clustering scores exactly 1.0
    h_c_given_k = -float(fixed_sum(n_ij / n * _log(n_ij / b_j)))
    h_k_given_c = -float(fixed_sum(n_ij / n * _log(n_ij / a_i)))
    homogeneity = min(max(1.0 - h_c_given_k / h_c, 0.0), 1.0) if h_c > 0 else 1.0
    completeness = min(max(1.0 - h_k_given_c / h_k, 0.0), 1.0) if h_k > 0 else 1.0
    if homogeneity + completeness == 0.0:
        v = 0.0
    else:
        v = (1.0 + b) * homogeneity * completeness / (b * homogeneity + completeness)
    return {
        "v_measure": float(v),
        "homogeneity": float(homogeneity),
        "completeness": float(completeness),
    }
