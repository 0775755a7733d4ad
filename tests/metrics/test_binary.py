"""AUROC, ROC curve, EER, partial AUROC and TPR@FPR against scikit-learn and brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from evaluators.metric_math import (
    eer,
    partial_auc,
    roc_auc,
    roc_curve,
    roc_summary,
    tpr_at_fpr,
)


def random_case(rng: np.random.Generator, n: int, ties: bool, dtype=np.float64):
    scores = rng.normal(size=n)
    if ties:  # few distinct values: many positive/negative ties
        scores = np.round(scores, 1)
    labels = rng.integers(0, 2, size=n)
    labels[:2] = [0, 1]  # both classes present
    return scores.astype(dtype), labels


def brute_force_tpr_at_fpr(scores, labels, fpr):
    """Every candidate threshold, in plain Python: max TPR with FPR <= target, then min FPR."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y == 1]
    neg = [s for s, y in zip(scores, labels, strict=True) if y == 0]
    best = None
    for t in [*sorted(set(scores)), math.inf]:
        tp = sum(s >= t for s in pos) / len(pos)
        fp = sum(s >= t for s in neg) / len(neg)
        if fp <= fpr and (best is None or (tp, -fp) > (best[0], -best[1])):
            best = (tp, fp, t)
    return best


def steb_eer(scores, labels):
    """STEB's EER: brentq on 1 - x - interp(x, fpr, tpr) over scikit-learn's ROC curve."""
    fpr, tpr, _ = sk_roc_curve(labels, scores)
    return brentq(lambda x: 1.0 - x - np.interp(x, fpr, tpr), 0.0, 1.0, xtol=1e-14)


# ---------------------------------------------------------------- cross-checks -------


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("ties", [False, True])
def test_roc_auc_matches_sklearn(seed, ties):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, int(rng.integers(2, 400)), ties)
    assert roc_auc(scores, labels) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


def test_roc_auc_float32_with_ties_matches_sklearn_without_upcast():
    rng = np.random.default_rng(7)
    scores, labels = random_case(rng, 20_000, ties=True, dtype=np.float32)
    assert scores.dtype == np.float32
    assert roc_auc(scores, labels) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)
    assert roc_auc(scores, labels.astype(bool)) == roc_auc(scores, labels)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", [False, True])
def test_roc_curve_matches_sklearn_without_dropping(seed, ties):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, int(rng.integers(2, 300)), ties)
    fpr, tpr, thr = roc_curve(scores, labels)
    sk_fpr, sk_tpr, sk_thr = sk_roc_curve(labels, scores, drop_intermediate=False)
    np.testing.assert_allclose(fpr, sk_fpr, rtol=0, atol=1e-15)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(thr, sk_thr)
    assert thr[0] == np.inf and (fpr[0], tpr[0]) == (0, 0) and (fpr[-1], tpr[-1]) == (1, 1)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("max_fpr", [0.01, 0.05, 0.1, 0.3, 0.5, 0.9])
def test_partial_auc_matches_sklearn_max_fpr(seed, max_fpr):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, int(rng.integers(20, 500)), ties=bool(seed % 2))
    expected = roc_auc_score(labels, scores, max_fpr=max_fpr)
    assert partial_auc(scores, labels, max_fpr) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_eer_matches_steb_brentq_definition(seed):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, int(rng.integers(10, 300)), ties=bool(seed % 2))
    assert eer(scores, labels) == pytest.approx(steb_eer(scores, labels), abs=1e-9)


def test_eer_hand_examples():
    assert eer([0.1, 0.2, 0.7, 0.8], [0, 0, 1, 1]) == 0.0
    assert eer([0.8, 0.7, 0.2, 0.1], [0, 0, 1, 1]) == 1.0
    assert eer([0.5] * 4, [0, 1, 0, 1]) == 0.5
    # ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1): FPR = FNR = 0.5 on the horizontal stretch
    assert eer([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]) == 0.5


@pytest.mark.parametrize("seed", range(6))
def test_roc_summary_equals_the_single_metrics(seed):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, 1000, ties=bool(seed % 2), dtype=np.float32)
    out = roc_summary(scores, labels, max_fpr=[0.01, 0.1])
    assert out["auroc"] == roc_auc(scores, labels)  # both exact integer counts
    assert out["eer"] == eer(scores, labels)
    assert out["partial_auc@0.01"] == partial_auc(scores, labels, 0.01)
    assert out["partial_auc@0.1"] == partial_auc(scores, labels, 0.1)
    assert roc_summary(scores, labels, max_fpr=0.2)["partial_auc"] == partial_auc(
        scores, labels, 0.2
    )
    assert set(roc_summary(scores, labels)) == {"auroc", "eer"}


@pytest.mark.parametrize("seed", range(25))
@pytest.mark.parametrize("fpr", [0.01, 0.1, 0.25, 0.5])
def test_tpr_at_fpr_matches_brute_force(seed, fpr):
    rng = np.random.default_rng(seed)
    scores, labels = random_case(rng, int(rng.integers(2, 120)), ties=bool(seed % 2))
    got = tpr_at_fpr(scores, labels, fpr=fpr)
    tp, fp, t = brute_force_tpr_at_fpr(scores.tolist(), labels.tolist(), fpr)
    assert (got["tpr"], got["achieved_fpr"], got["threshold"]) == (tp, fp, t)
    assert (got["n_pos"], got["n_neg"]) == (int(labels.sum()), int((labels == 0).sum()))


def test_tpr_at_fpr_hand_examples():
    # 4 negatives, fpr 0.25: one negative (0.4) may be flagged; all positives are above 0.3
    r = tpr_at_fpr([0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9], [0, 0, 0, 0, 1, 1, 1], fpr=0.25)
    assert r == {"tpr": 1.0, "threshold": 0.35, "achieved_fpr": 0.25, "n_pos": 3, "n_neg": 4}
    # the positive ties with the negative that would break the budget: flag nothing
    r = tpr_at_fpr([0.9, 0.9, 0.1], [1, 0, 0], fpr=0.4)
    assert r == {"tpr": 0.0, "threshold": math.inf, "achieved_fpr": 0.0, "n_pos": 1, "n_neg": 2}
    # 1 of 100 negatives (0.00 .. 0.99) may be flagged at 1%: the threshold must exceed the
    # second-highest negative 0.98, so 0.985 and 0.995 are caught and 0.99 is the one FP
    neg = np.arange(100) / 100
    r = tpr_at_fpr(np.r_[neg, [0.985, 0.995, 0.5]], np.r_[np.zeros(100), np.ones(3)], fpr=0.01)
    assert (r["tpr"], r["threshold"], r["achieved_fpr"]) == (2 / 3, 0.985, 0.01)
    # at 0.5%, no negative may be flagged: only 0.995 is above the highest negative
    r = tpr_at_fpr(np.r_[neg, [0.985, 0.995, 0.5]], np.r_[np.zeros(100), np.ones(3)], fpr=0.005)
    assert (r["tpr"], r["threshold"], r["achieved_fpr"]) == (1 / 3, 0.995, 0.0)


def test_tpr_at_fpr_float32_keeps_threshold_from_the_data():
    scores = np.array([0.1, 0.2, 0.3, 0.4, 0.35, 0.8, 0.9], dtype=np.float32)
    r = tpr_at_fpr(scores, [0, 0, 0, 0, 1, 1, 1], fpr=0.25)
    assert r["threshold"] == float(np.float32(0.35))


# ---------------------------------------------------------------- properties ---------

labels_st = st.lists(st.integers(0, 1), min_size=2, max_size=60).filter(
    lambda y: 0 < sum(y) < len(y)
)


@st.composite
def scored_labels(draw):
    labels = draw(labels_st)
    # a small value pool makes ties common
    pool = draw(st.sampled_from([3, 10, 1000]))
    scores = draw(
        st.lists(st.integers(0, pool), min_size=len(labels), max_size=len(labels)).map(
            lambda v: [x / pool for x in v]
        )
    )
    return np.array(scores), np.array(labels)


@settings(max_examples=200, deadline=None)
@given(scored_labels())
def test_auroc_of_reversed_scores_is_one_minus_auroc(case):
    scores, labels = case
    assert roc_auc(1 - scores, labels) == pytest.approx(1 - roc_auc(scores, labels), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(scored_labels())
def test_auroc_matches_sklearn_on_tie_heavy_data(case):
    scores, labels = case
    assert roc_auc(scores, labels) == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(scored_labels(), st.floats(0.001, 0.998), st.floats(0.001, 0.998))
def test_tpr_at_fpr_monotone_and_within_budget(case, a, b):
    scores, labels = case
    lo, hi = sorted((a, b))
    r_lo = tpr_at_fpr(scores, labels, fpr=lo)
    r_hi = tpr_at_fpr(scores, labels, fpr=hi)
    assert r_lo["achieved_fpr"] <= lo and r_hi["achieved_fpr"] <= hi
    assert r_lo["tpr"] <= r_hi["tpr"]


# ---------------------------------------------------------------- bad input ----------

GOOD = ([0.1, 0.9, 0.4], [0, 1, 0])
FUNCS = [
    roc_auc,
    lambda s, y: roc_curve(s, y),
    eer,
    lambda s, y: partial_auc(s, y, 0.5),
    lambda s, y: tpr_at_fpr(s, y, 0.1),
    lambda s, y: roc_summary(s, y, 0.5),
]


@pytest.mark.parametrize("func", FUNCS)
@pytest.mark.parametrize(
    ("scores", "labels", "match"),
    [
        ([0.1, 0.9], [0, 1, 0], r"scores and labels differ in length \(2 != 3\)"),
        (
            [0.1, np.nan, 0.4],
            [0, 1, 0],
            r"scores contains NaN or infinite values \(first at index 1\)",
        ),
        (
            [0.1, 0.9, np.inf],
            [0, 1, 0],
            r"scores contains NaN or infinite values \(first at index 2\)",
        ),
        ([], [], "scores is empty"),
        ([0.1, 0.9, 0.4], [1, 1, 1], r"labels contains a single class \(all 1\)"),
        ([0.1, 0.9, 0.4], [0, 0, 0], r"labels contains a single class \(all 0\)"),
        ([0.1, 0.9, 0.4], [0, 2, 1], r"labels must be 0 or 1 \(binary\); got \[2\]"),
        ([0.1, 0.9, 0.4], [0, 0.5, 1], r"labels must be 0 or 1 \(binary\); got \[0.5\]"),
        ([0.1, 0.9, 0.4], ["a", "b", "a"], "labels must be 0 or 1; got dtype <U1"),
        (["x", "y", "z"], [0, 1, 0], "scores must be real numbers"),
        ([[0.1], [0.2]], [0, 1], r"scores must be 1-D; got an array of shape \(2, 1\)"),
    ],
)
def test_bad_binary_input(func, scores, labels, match):
    with pytest.raises(ValueError, match=match):
        func(scores, labels)


@pytest.mark.parametrize("value", [0, 1, -0.1, 1.5, np.nan, "x", None])
def test_fpr_outside_open_unit_interval(value):
    with pytest.raises(ValueError, match="fpr must be"):
        tpr_at_fpr(*GOOD, fpr=value)
    if value == 1:  # max_fpr=1 is the full AUROC, as in scikit-learn (issue 15)
        assert partial_auc(*GOOD, max_fpr=value) == roc_auc(*GOOD)
        return
    with pytest.raises(ValueError, match="max_fpr must be"):
        partial_auc(*GOOD, max_fpr=value)
    with pytest.raises(ValueError, match="max_fpr must be"):
        roc_summary(*GOOD, max_fpr=[0.1, value])
