"""V-measure against scikit-learn, label-permutation invariance and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import homogeneity_completeness_v_measure, v_measure_score

from evaluators.metric_math import contingency_counts, v_measure


def check_against_sklearn(pred, ref, beta=1.0):
    h, c, v = homogeneity_completeness_v_measure(ref, pred, beta=beta)
    got = v_measure(pred, ref, beta=beta)
    assert got["homogeneity"] == pytest.approx(h, abs=1e-10)
    assert got["completeness"] == pytest.approx(c, abs=1e-10)
    assert got["v_measure"] == pytest.approx(v, abs=1e-10)
    assert got["v_measure"] == pytest.approx(v_measure_score(ref, pred, beta=beta), abs=1e-10)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_matches_sklearn_on_random_labelings(seed, beta):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    ref = rng.integers(0, int(rng.integers(1, 8)), size=n)
    pred = rng.integers(0, int(rng.integers(1, 8)), size=n)
    check_against_sklearn(pred, ref, beta)


def test_matches_sklearn_with_string_and_mixed_label_types():
    rng = np.random.default_rng(3)
    ref = rng.choice(["alice", "bob", "carol"], size=200)
    pred = rng.integers(0, 4, size=200)
    check_against_sklearn(pred, ref)
    check_against_sklearn(ref, pred)


@pytest.mark.parametrize(
    ("pred", "ref"),
    [
        ([0, 0, 0, 0], [0, 0, 0, 0]),  # one class, one cluster
        ([0, 1, 2, 3], [0, 0, 0, 0]),  # one class, many clusters: h = 1
        ([0, 0, 0, 0], [0, 1, 2, 3]),  # many classes, one cluster: c = 1
        ([0, 1, 0, 1], [0, 0, 1, 1]),  # independent: h = c = 0, v = 0
        ([5], [7]),
    ],
)
def test_edge_cases_follow_sklearn(pred, ref):
    check_against_sklearn(pred, ref)


def test_perfect_clustering_is_exactly_one():
    assert v_measure([3, 3, 1, 1, 2], ["a", "a", "b", "b", "c"]) == {
        "v_measure": 1.0,
        "homogeneity": 1.0,
        "completeness": 1.0,
    }


def test_contingency_counts():
    table = contingency_counts(["x", "x", "y", "y", "y"], [0, 1, 1, 1, 2])
    np.testing.assert_array_equal(table, [[1, 1, 0], [0, 2, 1]])


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=80),
    st.permutations(range(6)),
    st.permutations(range(6)),
    st.sampled_from([0.5, 1.0, 3.0]),
)
def test_invariant_to_label_permutation(pairs, perm_pred, perm_ref, beta):
    pred = [p for p, _ in pairs]
    ref = [r for _, r in pairs]
    base = v_measure(pred, ref, beta=beta)
    renamed = v_measure(
        [perm_pred[p] for p in pred], [f"class-{perm_ref[r]}" for r in ref], beta=beta
    )
    for key, value in base.items():
        assert renamed[key] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize(
    ("pred", "ref", "kwargs", "match"),
    [
        ([0, 1], [0, 1, 1], {}, r"predictions and references differ in length \(2 != 3\)"),
        ([], [], {}, "predictions is empty"),
        ([0, None], [0, 1], {}, "predictions contains None"),
        ([0.0, np.nan], [0, 1], {}, "predictions contains NaN or infinite values"),
        ([0, 1], [0, 1], {"beta": 0}, "beta must be a positive finite number"),
        ([0, 1], [0, 1], {"beta": "x"}, "beta must be a positive number"),
    ],
)
def test_bad_input(pred, ref, kwargs, match):
    with pytest.raises(ValueError, match=match):
        v_measure(pred, ref, **kwargs)
