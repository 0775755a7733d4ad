"""Macro-accuracy against scikit-learn's balanced accuracy, properties and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, balanced_accuracy_score, recall_score

from evaluators.metric_math import macro_accuracy


@pytest.mark.parametrize("seed", range(25))
def test_matches_sklearn_balanced_accuracy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 400))
    n_classes = int(rng.integers(1, 12))
    ref = rng.integers(0, n_classes, size=n)
    noise = rng.random(n) < rng.random()
    pred = np.where(noise, rng.integers(0, n_classes + 2, size=n), ref)  # some unseen labels
    got = macro_accuracy(pred, ref)
    with warnings.catch_warnings():  # "y_pred contains classes not in y_true": intended
        warnings.simplefilter("ignore", UserWarning)
        expected = balanced_accuracy_score(ref, pred)
    assert got["macro_accuracy"] == pytest.approx(expected, abs=1e-12)
    assert got["accuracy"] == pytest.approx(accuracy_score(ref, pred), abs=1e-12)
    classes = sorted(set(ref.tolist()))
    recalls = recall_score(ref, pred, labels=classes, average=None, zero_division=0)
    assert got["per_class_recall"] == pytest.approx(dict(zip(classes, recalls, strict=True)))


def test_string_labels_and_output_types():
    r = macro_accuracy(["a", "a", "a", "a"], ["a", "a", "a", "b"])
    assert r == {"macro_accuracy": 0.5, "accuracy": 0.75, "per_class_recall": {"a": 1.0, "b": 0.0}}
    r = macro_accuracy(np.array([0, 1, 1, 2]), np.array([0, 1, 2, 2]))
    assert list(r["per_class_recall"]) == [0, 1, 2]
    assert all(type(k) is int for k in r["per_class_recall"])
    assert r["macro_accuracy"] == pytest.approx((1 + 1 + 0.5) / 3)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n_classes: st.tuples(
            st.just(n_classes),
            st.integers(1, 8),
            st.lists(st.integers(0, n_classes + 1), min_size=n_classes, max_size=n_classes * 8),
        )
    )
)
def test_equals_accuracy_on_balanced_data(case):
    n_classes, per_class, raw_pred = case
    ref = [c for c in range(n_classes) for _ in range(per_class)]
    pred = (raw_pred * (len(ref) // len(raw_pred) + 1))[: len(ref)]
    r = macro_accuracy(pred, ref)
    assert r["macro_accuracy"] == pytest.approx(r["accuracy"], abs=1e-12)


@pytest.mark.parametrize(
    ("pred", "ref", "match"),
    [
        ([0, 1], [0, 1, 1], r"predictions and references differ in length \(2 != 3\)"),
        ([], [], "predictions is empty"),
        (["a", "b"], [0, 1], "must both be numbers or both be strings"),
        ([0, 1], [None, 1], "references contains None"),
        ([[0, 1]], [[0, 1]], "predictions must be 1-D"),
    ],
)
def test_bad_input(pred, ref, match):
    with pytest.raises(ValueError, match=match):
        macro_accuracy(pred, ref)
