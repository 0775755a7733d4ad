"""metric_math.paired against independent implementations: an O(m n) DeLong written
here, scipy's rankdata and ttest_rel, a plain-loop Holm, and the single-model DeLong
variance of the pair-classification task."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from evaluators.metric_math.paired import (
    delong_covariance,
    holm,
    midranks,
    paired_delong,
    paired_t,
    percentile_p_value,
    rank_intervals,
    wald,
)
from evaluators.tasks.pairs import delong_ci


def plain_delong(scores: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong et al. (1988) as written: psi(x, y) over every positive-negative pair."""
    y = labels.astype(bool)
    aucs, v10s, v01s = [], [], []
    for s in scores:
        x, z = s[y], s[~y]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        aucs.append(psi.mean())
        v10s.append(psi.mean(axis=1))
        v01s.append(psi.mean(axis=0))
    v10, v01 = np.array(v10s), np.array(v01s)
    m, n = y.sum(), (~y).sum()
    s10 = (
        (v10 - v10.mean(axis=1, keepdims=True))
        @ (v10 - v10.mean(axis=1, keepdims=True)).T
        / (m - 1)
    )
    s01 = (
        (v01 - v01.mean(axis=1, keepdims=True))
        @ (v01 - v01.mean(axis=1, keepdims=True)).T
        / (n - 1)
    )
    return np.array(aucs), s10 / m + s01 / n


@pytest.mark.parametrize("rounding", [None, 1])  # continuous scores, and heavy ties
def test_delong_equals_the_plain_definition(rounding: int | None) -> None:
    rng = np.random.default_rng(7)
    labels = rng.integers(0, 2, 300)
    latent = rng.normal(size=300) + labels
    scores = np.stack([latent + rng.normal(scale=s, size=300) for s in (0.5, 1.0, 2.0)])
    if rounding is not None:
        scores = np.round(scores, rounding)
    aucs, cov = delong_covariance(scores, labels)
    ref_aucs, ref_cov = plain_delong(scores, labels)
    np.testing.assert_allclose(aucs, ref_aucs, rtol=0, atol=1e-12)
    np.testing.assert_allclose(cov, ref_cov, rtol=0, atol=1e-12)
    test = paired_delong(scores[0], scores[1], labels)
    var = ref_cov[0, 0] + ref_cov[1, 1] - 2 * ref_cov[0, 1]
    assert abs(test["difference"] - (ref_aucs[0] - ref_aucs[1])) < 1e-9
    assert abs(test["se"] - np.sqrt(var)) < 1e-9
    z = (ref_aucs[0] - ref_aucs[1]) / np.sqrt(var)
    assert abs(test["p_value"] - 2 * stats.norm.sf(abs(z))) < 1e-9


def test_single_model_variance_is_the_pair_task_delong() -> None:
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 2, 500)
    scores = np.round(rng.normal(size=500) + 0.7 * labels, 2).astype(np.float32)
    _, cov = delong_covariance(scores, labels)
    assert abs(np.sqrt(cov[0, 0]) - delong_ci(scores, labels)["se"]) < 1e-12


def test_midranks_are_scipys_average_ranks() -> None:
    x = np.random.default_rng(1).integers(0, 20, 200).astype(float)
    np.testing.assert_array_equal(midranks(x), stats.rankdata(x, method="average"))


def test_paired_t_is_scipys_ttest_rel() -> None:
    rng = np.random.default_rng(2)
    a, b = rng.random(80), rng.random(80)
    ours = paired_t(a, b)
    ref = stats.ttest_rel(a, b)
    assert abs(ours["p_value"] - ref.pvalue) < 1e-12
    assert abs(ours["statistic"] - ref.statistic) < 1e-10


def test_holm_equals_the_step_down_loop() -> None:
    p = np.random.default_rng(4).random(25) ** 3
    m = len(p)
    order = np.argsort(p)
    expected, running = np.empty(m), 0.0
    for i, k in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[k]))
        expected[k] = running
    np.testing.assert_allclose(holm(p), expected, rtol=0, atol=1e-15)
    assert holm([0.01, 0.04, 0.03]).tolist() == pytest.approx([0.03, 0.06, 0.06])


def test_wald_zero_se_and_percentile_p() -> None:
    assert wald(0.0, 0.0)["p_value"] == 1.0 and wald(0.1, 0.0)["p_value"] == 0.0
    assert percentile_p_value([-1, 1, 2, 3]) == 0.5
    assert percentile_p_value([1, 2, 3, 4]) == 0.0


def test_rank_intervals() -> None:
    rng = np.random.default_rng(5)
    # models 0 and 1 indistinguishable, model 2 clearly last
    reps = np.stack(
        [rng.normal(1.0, 0.1, 2000), rng.normal(1.0, 0.1, 2000), rng.normal(0, 0.1, 2000)], 1
    )
    rank, low, high = rank_intervals(reps, [1.01, 1.0, 0.0])
    assert rank.tolist() == [1, 2, 3]
    assert low.tolist() == [1, 1, 3] and high.tolist() == [2, 2, 3]
