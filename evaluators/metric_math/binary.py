"""Binary scoring metrics: ROC curve, AUROC, partial AUROC, EER and TPR at a fixed FPR.

Conventions shared by every function here
-----------------------------------------
* ``scores``: real numbers, higher = more likely positive (same author, machine-written,
  ...). float32 input is kept as float32 (no upcast of the whole array).
* ``labels``: 0/1 (or booleans); ``1`` is the positive class. Both classes must be present.
* Decision rule: a case is flagged positive iff ``score >= threshold``. Thresholds are the
  distinct score values; ``+inf`` stands for "flag nothing".
* Ties: cases with equal scores cannot be separated by any threshold. In the AUROC a
  tied positive/negative pair counts 1/2 (the average-rank / trapezoid convention of
  scikit-learn's ``roc_auc_score``).

References
----------
.. [1] Fawcett, T. (2006). An introduction to ROC analysis. Pattern Recognition Letters
   27(8), 861-874.
.. [2] Hanley, J. A. and McNeil, B. J. (1982). The meaning and use of the area under a
   receiver operating characteristic (ROC) curve. Radiology 143(1), 29-36.
.. [3] McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical Decision
   Making 9(3), 190-195.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._checks import (
    as_binary_labels,
    as_scores,
    check_fpr_bound,
    check_open_unit_interval,
    check_same_length,
    check_two_classes,
)
from .grid import fixed_sum

__all__ = [
    "eer",
    "fpr_threshold",
    "max_false_positives",
    "partial_auc",
    "roc_auc",
    "roc_curve",
    "roc_summary",
    "tpr_at_fpr",
]


def _validate(scores: ArrayLike, labels: ArrayLike) -> tuple[np.ndarray, np.ndarray, int, int]:
    s = as_scores(scores, "scores")
    y = as_binary_labels(labels, "labels")
    check_same_length("scores", s, "labels", y)
    n_pos, n_neg = check_two_classes(y, "labels")
    return s, y, n_pos, n_neg


def roc_auc(scores: ArrayLike, labels: ArrayLike) -> float:
    """Area under the ROC curve (AUROC), ties counted 1/2.

    AUROC is the probability that a random positive scores higher than a random
    negative, ``P(s+ > s-) + 0.5 * P(s+ == s-)`` (the Mann-Whitney U statistic divided by
    ``n_pos * n_neg`` [2]_). This equals the trapezoidal area under the ROC curve and
    scikit-learn's ``roc_auc_score``.

    Parameters
    ----------
    scores : array-like of shape (n,)
        Real-valued scores, higher = more likely positive. float32 stays float32.
    labels : array-like of shape (n,)
        0/1 or boolean; both classes must occur.

    Returns
    -------
    float
        AUROC in [0, 1]; 0.5 for uninformative scores.

    Raises
    ------
    ValueError
        Empty input, length mismatch, NaN/inf scores, labels outside {0, 1} or a single class.

    Notes
    -----
    Cost: two ``np.sort`` calls (negatives and positives separately) and two
    ``np.searchsorted`` sweeps; counts are exact integers, so the result is exact up to
    the final division. For each positive, ``searchsorted(neg, s, "left")`` counts the
    negatives strictly below it and ``"right"`` those below or tied, so their sum is
    twice the Mann-Whitney count with ties worth 1/2.

    Examples
    --------
    >>> roc_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    0.75
    >>> roc_auc([0.5, 0.5], [0, 1])  # a tied pair counts 1/2
    0.5
    """
    s, y, n_pos, n_neg = _validate(scores, labels)
    neg = np.sort(s[~y])
    pos = np.sort(s[y])  # sorted queries keep searchsorted cache-friendly
    below = np.searchsorted(neg, pos, side="left").sum(dtype=np.int64)
    below_or_tied = np.searchsorted(neg, pos, side="right").sum(dtype=np.int64)
    return float((int(below) + int(below_or_tied)) / (2.0 * n_pos * n_neg))


def _roc_points(s: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cumulative (fps, tps) at each distinct score used as threshold, highest first.

    Positives and negatives are sorted separately (``np.sort`` is about 3x faster than an
    ``argsort`` of everything) and merged (a stable argsort of two sorted runs is a linear
    merge); each distinct score is a block of the merged run, and ``#{score >= t}`` is the
    count minus the cases before its block (one cumulative sum, no search per threshold).
    """
    pos = np.sort(s[y])
    neg = np.sort(s[~y])
    values = np.concatenate((neg, pos))
    order = np.argsort(values, kind="stable")
    merged = values[order]
    starts = np.flatnonzero(np.r_[True, merged[1:] != merged[:-1]])  # block of each score
    pos_before = np.concatenate(([0], np.cumsum(order >= neg.size, dtype=np.int64)))[starts]
    tps = pos.size - pos_before
    fps = neg.size - (starts - pos_before)
    return fps[::-1].astype(np.int64), tps[::-1].astype(np.int64), merged[starts][::-1]


def roc_curve(scores: ArrayLike, labels: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve at every distinct threshold.

    Parameters
    ----------
    scores, labels : array-like of shape (n,)
        As in :func:`roc_auc`.

    Returns
    -------
    fpr, tpr, thresholds : ndarray of shape (m + 1,)
        ``m`` = number of distinct scores. Point ``i`` flags every case with
        ``score >= thresholds[i]``; ``thresholds`` decrease, the first point is (0, 0)
        with threshold ``+inf`` and the last is (1, 1). All three are float64. Unlike
        scikit-learn's default, collinear points are kept (equal to scikit-learn's
        ``roc_curve(..., drop_intermediate=False)``).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.5, 0.5, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.8, 0.4, 0.35, 0.1])
    """
    s, y, n_pos, n_neg = _validate(scores, labels)
    return _curve(*_roc_points(s, y), n_pos, n_neg)


def _curve(
    fps: np.ndarray, tps: np.ndarray, thr: np.ndarray, n_pos: int, n_neg: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    fpr = np.concatenate(([0.0], fps / n_neg))
    tpr = np.concatenate(([0.0], tps / n_pos))
    thresholds = np.concatenate(([np.inf], thr.astype(np.float64)))
    return fpr, tpr, thresholds


def eer(scores: ArrayLike, labels: ArrayLike) -> float:
    """Equal error rate: the error rate where FPR equals FNR (= 1 - TPR).

    The ROC curve is treated as piecewise linear between its points (as in
    :func:`roc_curve`). Along it ``FPR - FNR`` rises strictly from -1 at (0, 0) to +1 at
    (1, 1); the EER is the FPR at the crossing, linearly interpolated between the two
    bracketing ROC points (if a point lies exactly on the crossing, its FPR). On a
    vertical segment (a tie group of positives only) the EER is that segment's FPR.
    This is the value STEB computes with ``brentq`` on ``1 - x - interp(x, fpr, tpr)``.

    Parameters
    ----------
    scores, labels : array-like of shape (n,)
        As in :func:`roc_auc`.

    Returns
    -------
    float
        EER in [0, 1]; 0 for perfectly separated scores, 0.5 for constant scores.

    Examples
    --------
    >>> eer([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
    0.5
    >>> eer([0.1, 0.2, 0.7, 0.8], [0, 0, 1, 1])
    0.0
    """
    fpr, tpr, _ = roc_curve(scores, labels)
    return _eer(fpr, tpr)


def _eer(fpr: np.ndarray, tpr: np.ndarray) -> float:
    d = fpr - (1.0 - tpr)  # strictly increasing from -1 to 1
    i = int(np.searchsorted(d, 0.0, side="left"))  # first point with d >= 0 (i >= 1)
    if d[i] == 0.0:
        return float(fpr[i])
    t = -d[i - 1] / (d[i] - d[i - 1])
    return float(fpr[i - 1] + t * (fpr[i] - fpr[i - 1]))


def partial_auc(scores: ArrayLike, labels: ArrayLike, max_fpr: float) -> float:
    """Standardized partial AUROC over ``FPR in [0, max_fpr]`` (McClish correction).

    The raw area ``A`` under the (piecewise linear) ROC curve up to ``max_fpr`` is
    rescaled so that a random classifier scores 0.5 and a perfect one 1 [3]_::

        0.5 * (1 + (A - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2))

    This is scikit-learn's ``roc_auc_score(labels, scores, max_fpr=max_fpr)`` and STEB's
    ``auc@<max_fpr>``. Values below 0.5 are possible for worse-than-random scores.

    Parameters
    ----------
    scores, labels : array-like of shape (n,)
        As in :func:`roc_auc`.
    max_fpr : float
        Upper FPR bound, in (0, 1]; 1 gives the full AUROC (as scikit-learn does).

    Returns
    -------
    float
        Standardized partial AUROC.

    Examples
    --------
    >>> round(partial_auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1], max_fpr=0.5), 6)
    0.666667
    """
    m = check_fpr_bound(max_fpr, "max_fpr")
    fpr, tpr, _ = roc_curve(scores, labels)
    return _partial_auc(fpr, tpr, m)


def _partial_auc(fpr: np.ndarray, tpr: np.ndarray, m: float) -> float:
    if m == 1.0:  # the whole curve: scikit-learn returns the plain AUROC
        return float(fixed_sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]))) / 2.0
    stop = int(np.searchsorted(fpr, m, side="right"))  # fpr[stop-1] <= m < fpr[stop]
    x0, x1 = fpr[stop - 1], fpr[stop]
    y0, y1 = tpr[stop - 1], tpr[stop]
    y_m = y0 + (y1 - y0) * (m - x0) / (x1 - x0)
    x = np.append(fpr[:stop], m)
    y = np.append(tpr[:stop], y_m)
    area = float(fixed_sum(np.diff(x) * (y[1:] + y[:-1]))) / 2.0
    min_area = 0.5 * m * m
    return float(0.5 * (1.0 + (area - min_area) / (m - min_area)))


def roc_summary(
    scores: ArrayLike,
    labels: ArrayLike,
    max_fpr: float | Sequence[float] | None = None,
) -> dict[str, float]:
    """AUROC, EER and standardized partial AUROCs from one sort.

    The same numbers as :func:`roc_auc`, :func:`eer` and :func:`partial_auc`, computed
    from a single ROC curve (one pass of sorting); this is what the ``auroc`` module returns.
    The AUROC comes from the exact integer trapezoid over the curve, which equals the
    tie-aware Mann-Whitney count of :func:`roc_auc` bit for bit.

    Parameters
    ----------
    scores, labels : array-like of shape (n,)
        As in :func:`roc_auc`.
    max_fpr : float or sequence of float, optional
        A single bound in (0, 1] adds ``partial_auc`` (1 = the full AUROC); a sequence adds
        ``partial_auc@<bound>`` for each (``f"{bound:g}"``, e.g. ``partial_auc@0.01``).

    Returns
    -------
    dict
        ``auroc``, ``eer`` and the requested partial AUROCs.

    Examples
    --------
    >>> roc_summary([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1], max_fpr=0.5)
    {'auroc': 0.75, 'eer': 0.5, 'partial_auc': 0.6666666666666666}
    >>> sorted(roc_summary([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1], max_fpr=[0.1, 0.5]))
    ['auroc', 'eer', 'partial_auc@0.1', 'partial_auc@0.5']
    """
    if max_fpr is None:
        bounds: dict[str, float] = {}
    elif isinstance(max_fpr, str) or not isinstance(max_fpr, Sequence | np.ndarray):
        bounds = {"partial_auc": check_fpr_bound(max_fpr, "max_fpr")}
    else:
        checked = [check_fpr_bound(m, "max_fpr") for m in max_fpr]
        bounds = {f"partial_auc@{m:g}": m for m in checked}
    s, y, n_pos, n_neg = _validate(scores, labels)
    fps, tps, thr = _roc_points(s, y)
    # twice the Mann-Whitney count: sum over steps of d(fp) * (tp_before + tp_after)
    d_fp = np.diff(fps, prepend=0)
    tp_before = np.concatenate(([0], tps[:-1]))
    twice_u = int(np.dot(d_fp, tp_before + tps))
    fpr, tpr, _ = _curve(fps, tps, thr, n_pos, n_neg)
    out = {"auroc": float(twice_u / (2.0 * n_pos * n_neg)), "eer": _eer(fpr, tpr)}
    for key, m in bounds.items():
        out[key] = out["auroc"] if m == 1.0 else _partial_auc(fpr, tpr, m)
    return out


def max_false_positives(fpr: float, n_neg: int) -> int:
    """Largest count ``c`` of flagged negatives with ``c / n_neg <= fpr`` (as floats): the
    false-positive budget of :func:`tpr_at_fpr`, which the vectorised bootstraps of ARB
    and ``detect`` apply to every resample."""
    c = math.floor(fpr * n_neg)
    while (c + 1) / n_neg <= fpr:
        c += 1
    while c > 0 and c / n_neg > fpr:
        c -= 1
    return c


def _unflagged_bound(neg: np.ndarray, target: float) -> Any:
    """The ``(c+1)``-th largest negative, ``c`` the most false positives within ``target``:
    a rule stays within the budget iff it leaves every score ``<=`` this unflagged."""
    c = max_false_positives(target, neg.size)  # 0 <= c < n_neg because target < 1
    kth = neg.size - 1 - c
    return np.partition(neg, kth)[kth]


def fpr_threshold(negative_scores: ArrayLike, fpr: float = 0.01) -> dict[str, Any]:
    """A threshold calibrated on negatives only (e.g. human texts), flagging as many of them
    as a false-positive budget allows.

    The rule is :func:`tpr_at_fpr`'s, without the positives: with ``v`` the
    ``(c+1)``-th largest negative (``c`` the most false positives with ``c / n <= fpr``),
    a case is flagged iff ``score > v``, which maximises the TPR of *any* positives within
    the budget. ``threshold`` is the smallest float64 above ``v``, so the usual
    ``score >= threshold`` flags exactly the same cases. Tied negatives cannot be split,
    so ``achieved_fpr`` may fall below ``fpr``; it is 0 when ``fpr * n < 1`` or the top
    ``c + 1`` negatives tie (``reachable`` is then False: no threshold flags any negative
    within the budget, the case RAID reports as null).

    Parameters
    ----------
    negative_scores : array-like of shape (n,)
        Scores of the negatives (higher = more likely positive); at least one.
    fpr : float, default 0.01
        Target FPR, in the open interval (0, 1).

    Returns
    -------
    dict
        ``threshold`` (float), ``bound`` (``v``), ``achieved_fpr`` (``#{neg > v} / n``),
        ``reachable`` (``achieved_fpr > 0``) and ``n_neg``.

    Examples
    --------
    >>> r = fpr_threshold([0.1, 0.2, 0.3, 0.4], fpr=0.25)
    >>> r["bound"], r["achieved_fpr"], r["reachable"], r["threshold"] > 0.3
    (0.3, 0.25, True, True)
    >>> fpr_threshold([0.1, 0.2, 0.3, 0.4], fpr=0.2)["reachable"]  # 1 of 4 is 25% > 20%
    False
    """
    target = check_open_unit_interval(fpr, "fpr")
    neg = as_scores(negative_scores, "negative_scores").astype(np.float64)
    v = float(_unflagged_bound(neg, target))
    achieved = int(np.count_nonzero(neg > v)) / neg.size
    return {
        "threshold": float(np.nextafter(v, np.inf)),
        "bound": v,
        "achieved_fpr": achieved,
        "reachable": achieved > 0,
        "n_neg": int(neg.size),
    }


def tpr_at_fpr(scores: ArrayLike, labels: ArrayLike, fpr: float = 0.01) -> dict[str, Any]:
    """True-positive rate at a false-positive-rate budget (e.g. ARB's TPR@1%FPR).

    Rule: a case is flagged iff ``score >= threshold``; candidate thresholds are the
    distinct scores plus ``+inf`` (flag nothing). Among candidates whose FPR on the
    negatives is ``<= fpr``, the one with the largest TPR is chosen; if several reach
    that TPR, the one with the smallest FPR (the highest threshold), which is always
    a positive's score or ``+inf``. Tied scores cannot be split, so ``achieved_fpr`` may
    fall below the target (it never exceeds it).

    Parameters
    ----------
    scores, labels : array-like of shape (n,)
        As in :func:`roc_auc`.
    fpr : float, default 0.01
        Target FPR, in the open interval (0, 1).

    Returns
    -------
    dict
        ``tpr`` (float), ``threshold`` (float; ``inf`` when nothing can be flagged),
        ``achieved_fpr`` (float, ``<= fpr``), ``n_pos`` and ``n_neg`` (int).

    Notes
    -----
    Let ``c`` be the largest number of negatives allowed (``c / n_neg <= fpr``) and ``v``
    the ``(c+1)``-th largest negative score. A threshold is feasible iff it exceeds ``v``,
    so ``TPR = #{positives > v} / n_pos`` and the threshold is the smallest positive
    score above ``v``. ``v`` comes from ``np.partition`` (linear time, no full sort).

    Examples
    --------
    >>> r = tpr_at_fpr([0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9], [0, 0, 0, 0, 1, 1, 1], fpr=0.25)
    >>> r["tpr"], r["threshold"], r["achieved_fpr"], r["n_pos"], r["n_neg"]
    (1.0, 0.35, 0.25, 3, 4)
    >>> tpr_at_fpr([0.9, 0.9, 0.1], [1, 0, 0], fpr=0.4)["tpr"]  # the tie cannot be split
    0.0
    """
    target = check_open_unit_interval(fpr, "fpr")
    s, y, n_pos, n_neg = _validate(scores, labels)
    neg = s[~y]
    pos = s[y]
    v = _unflagged_bound(neg, target)
    above = pos[pos > v]
    if above.size:
        threshold = above.min()
        n_tp = int(above.size)
        n_fp = int(np.count_nonzero(neg >= threshold))
        thr = float(threshold)
    else:
        n_tp, n_fp, thr = 0, 0, math.inf
    return {
        "tpr": n_tp / n_pos,
        "threshold": thr,
        "achieved_fpr": n_fp / n_neg,
        "n_pos": n_pos,
        "n_neg": n_neg,
    }
