"""Order alignment: Hungarian vs brute force, the tie-aware rule, batching and bad input."""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from evaluators.metric_math import (
    MAX_EXACT_ASSIGNMENTS,
    align,
    alignment_accuracy,
    alignment_cost,
    order_alignment_accuracy,
)


def brute_force(cost: np.ndarray, expected: np.ndarray) -> tuple[float, float]:
    """(minimum total cost, mean accuracy over the optimal injections), in plain Python."""
    k, m = cost.shape
    totals = {}
    for cols in itertools.permutations(range(m), k):
        totals[cols] = sum(cost[i, c] for i, c in enumerate(cols))
    best = min(totals.values())
    scale = max(abs(best), float(np.abs(cost).max()))
    optimal = [cols for cols, t in totals.items() if t <= best + 1e-9 * scale]
    acc = np.mean([np.mean(np.array(cols) == expected) for cols in optimal])
    return best, float(acc)


@pytest.mark.parametrize("seed", range(30))
def test_hungarian_cost_equals_brute_force_minimum(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 6))
    m = max(2, k + int(rng.integers(0, 2)))
    cost = rng.random((k, m))
    cols = align(cost)
    rows, sp_cols = linear_sum_assignment(cost)
    np.testing.assert_array_equal(cols[rows], sp_cols)
    assert len(set(cols.tolist())) == k
    best, _ = brute_force(cost, np.arange(k))
    assert cost[np.arange(k), cols].sum() == pytest.approx(best, abs=1e-12)


@pytest.mark.parametrize("seed", range(30))
def test_tie_aware_accuracy_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(1, 5))
    m = max(2, k + int(rng.integers(0, 2)))
    cost = rng.integers(0, 3, size=(k, m)).astype(float)  # many ties
    expected = rng.permutation(m)[:k]
    _, acc = brute_force(cost, expected)
    assert alignment_accuracy(cost, expected) == pytest.approx(acc, abs=1e-12)


@pytest.mark.parametrize("seed", range(10))
def test_without_ties_equals_steb_hungarian_fraction(seed):
    rng = np.random.default_rng(seed)
    k = int(rng.integers(2, 7))
    cost = rng.random((k, k))
    expected = rng.permutation(k)
    rows, cols = linear_sum_assignment(cost)
    steb = float(np.mean(cols[np.argsort(rows)] == expected))
    assert alignment_accuracy(cost, expected) == steb


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 7), st.floats(-1e3, 1e3, allow_nan=False), st.booleans())
def test_constant_cost_scores_chance(k, value, distractor):
    m = k + 1 if distractor else k
    cost = np.full((k, m), value)
    expected = np.arange(k)
    assert alignment_accuracy(cost, expected) == pytest.approx(1 / m, abs=1e-12)
    # scipy alone would pick the identity and score 100%
    assert np.mean(align(cost) == expected) == 1.0


def test_constant_embeddings_give_chance_through_steb_cost():
    vectors = np.ones((3, 8), dtype=np.float32)
    cost = alignment_cost(vectors, vectors)
    assert cost.dtype == np.float32
    assert alignment_accuracy(cost, [0, 1, 2]) == pytest.approx(1 / 3)


def test_alignment_cost_matches_steb_definition():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(3, 5)), rng.normal(size=(4, 5))
    a[1] = 0  # zero vector: similarity 0, cost 1
    na = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-30)
    nb = b / np.linalg.norm(b, axis=1, keepdims=True)
    expected = 1 - np.maximum(na @ nb.T, 0)
    np.testing.assert_allclose(alignment_cost(a, b), expected, atol=1e-6)
    assert np.all(alignment_cost(a, b)[1] == 1)


def test_hand_examples():
    assert alignment_accuracy([[0.1, 0.9], [0.8, 0.2]], [0, 1]) == 1.0
    assert alignment_accuracy([[0.9, 0.1], [0.2, 0.8]], [0, 1]) == 0.0
    # one reference row, two candidates (STEL-or-Content): tie between them
    assert alignment_accuracy([[0.4, 0.4]], [0]) == 0.5
    # 3x3 where rows 0 and 1 tie on swapping columns 0/1 but row 2 is sure: (1 + 1/3... )
    cost = [[0.0, 0.0, 1.0], [0.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
    # optimal: (0,1,2) and (1,0,2), accuracies 1 and 1/3 -> mean 2/3
    assert alignment_accuracy(cost, [0, 1, 2]) == pytest.approx(2 / 3)


def test_large_items_fall_back_to_hungarian():
    k = 9  # 9! = 362,880 > MAX_EXACT_ASSIGNMENTS
    assert np.prod(np.arange(1, k + 1)) > MAX_EXACT_ASSIGNMENTS
    rng = np.random.default_rng(1)
    cost = rng.random((k, k))
    rows, cols = linear_sum_assignment(cost)
    assert alignment_accuracy(cost, np.arange(k)) == np.mean(cols[np.argsort(rows)] == np.arange(k))
    # with ties the single solver solution is used (documented limitation)
    assert alignment_accuracy(np.zeros((k, k)), np.arange(k)) == 1.0


def test_order_alignment_batches_match_per_item_scores():
    rng = np.random.default_rng(5)
    costs, expected = [], []
    for _ in range(300):
        k = int(rng.integers(1, 5))
        m = max(2, k + int(rng.integers(0, 2)))
        costs.append(rng.integers(0, 3, size=(k, m)).astype(float).tolist())
        expected.append(rng.permutation(m)[:k].tolist())
    per_item = [alignment_accuracy(c, e) for c, e in zip(costs, expected, strict=True)]
    result = order_alignment_accuracy(costs, expected)
    assert result == {"accuracy": pytest.approx(np.mean(per_item), abs=1e-12), "n_items": 300}
    # a 3-D array and a 2-D expected array give the same
    same = [i for i, c in enumerate(costs) if np.shape(c) == (2, 2)]
    arr = np.array([costs[i] for i in same])
    exp = np.array([expected[i] for i in same])
    assert order_alignment_accuracy(arr, exp)["accuracy"] == pytest.approx(
        np.mean([per_item[i] for i in same]), abs=1e-12
    )


def test_distractor_and_given_alignments():
    out = order_alignment_accuracy(
        [[[0.1, 0.9], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]],
        [[0, 1], [0, 1]],
        distractor_costs=[[[0.1, 0.5, 0.9]], [[0.3, 0.3, 0.3]]],
        distractor_expected=[[0], [1]],
    )
    assert out == {
        "accuracy": 0.75,
        "n_items": 2,
        "distractor_accuracy": pytest.approx((1 + 1 / 3) / 2),
        "n_distractor_items": 2,
    }
    # STEB's "first" distractor variant: expected columns 1..P-1
    assert order_alignment_accuracy([[[0.9, 0.1, 0.8]]], [[1]])["accuracy"] == 1.0
    # alignments computed elsewhere: fraction of rows on their expected column
    given_cols = order_alignment_accuracy([[1, 0], [0, 1], [0, 2, 1]], [[0, 1], [0, 1], [0, 1, 2]])
    assert given_cols == {"accuracy": pytest.approx((0 + 1 + 1 / 3) / 3), "n_items": 3}


def test_many_small_items_are_fast():
    rng = np.random.default_rng(0)
    n = 100_000
    costs = rng.random((n, 2, 2))
    expected = np.tile([0, 1], (n, 1))
    d_costs = rng.random((n, 1, 2))
    d_expected = np.zeros((n, 1), dtype=int)
    started = time.perf_counter()
    out = order_alignment_accuracy(costs, expected, d_costs, d_expected)
    elapsed = time.perf_counter() - started
    assert out["n_items"] == n and out["n_distractor_items"] == n
    assert 0.45 < out["accuracy"] < 0.55  # random costs: chance
    assert elapsed < 2.0, f"{elapsed:.2f}s for 2 x 100k items"
    # ragged Python lists of mixed shapes go through the per-shape grouping
    mixed = [c.tolist() for c in costs[:20_000]] + [c.tolist() for c in rng.random((20_000, 2, 3))]
    mixed_expected = [[0, 1]] * 40_000
    started = time.perf_counter()
    order_alignment_accuracy(mixed, mixed_expected)
    assert time.perf_counter() - started < 3.0


@pytest.mark.parametrize(
    ("cost", "expected", "match"),
    [
        ([[0.1, 0.2]], [0, 1], r"expected must list one column per row \(1\)"),
        ([[0.1, 0.2], [0.3, 0.4]], [0, 0], "expected repeats a column"),
        ([[0.1, 0.2], [0.3, 0.4]], [0, 2], r"expected holds column indices outside \[0, 2\)"),
        ([[0.1, 0.2], [0.3, 0.4]], [0.5, 1], "expected must hold integer column indices"),
        ([[0.1], [0.2]], [0, 1], "cost needs at least 2 columns"),
        ([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], [0, 1, 2], "cost has more rows"),
        ([[0.1, np.nan], [0.3, 0.4]], [0, 1], "cost contains NaN or infinite values"),
        ([], [], "cost must be 2-D"),
        ([0.1, 0.2], [0], "cost must be 2-D"),
    ],
)
def test_bad_alignment_input(cost, expected, match):
    with pytest.raises(ValueError, match=match):
        alignment_accuracy(cost, expected)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"costs": [], "expected": []}, "costs is empty"),
        ({"costs": [[[0.1, 0.2]]], "expected": [[0], [1]]}, r"costs and expected differ in length"),
        (
            {"costs": [[[0.1, 0.2]], [[0.3, np.inf]]], "expected": [[0], [1]]},
            r"costs\[1\] contains NaN or infinite values",
        ),
        (
            {"costs": [[[0.1, 0.2]], [[0.3, 0.4]]], "expected": [[0], [2]]},
            r"expected\[1\] holds column indices outside \[0, 2\)",
        ),
        ({"costs": [[[0.1]]], "expected": [[0]]}, r"costs\[0\] needs at least 2 columns"),
        (
            {"costs": [[[0.1, 0.2]]], "expected": [[0]], "distractor_costs": [[[0.1, 0.2, 0.3]]]},
            "distractor_costs and distractor_expected must be given together",
        ),
        (
            {
                "costs": [[[0.1, 0.2]]],
                "expected": [[0]],
                "distractor_costs": [[[0.1, 0.2, 0.3]]],
                "distractor_expected": [[3]],
            },
            r"distractor_expected\[0\] holds column indices outside \[0, 3\)",
        ),
        ({"costs": [[1, -1]], "expected": [[0, 1]]}, r"costs\[0\] holds a negative column index"),
    ],
)
def test_bad_order_alignment_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        order_alignment_accuracy(**kwargs)
