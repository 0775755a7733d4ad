"""PAN verification scores: hand-computed examples of the organisers' formulas, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, f1_score, roc_auc_score

from evaluators.metric_math import pan_verification


def test_hand_computed_example():
    scores = [0.9, 0.2, 0.5, 0.7, 0.5, 0.1, 0.6, 0.3]
    truth = [1, 0, 1, 0, 0, 1, 1, 0]
    r = pan_verification(scores, truth)
    # answered: 0.9->same (truth 1, right), 0.2->diff (0, right), 0.7->same (0, wrong),
    # 0.1->diff (1, wrong), 0.6->same (1, right), 0.3->diff (0, right); two 0.5 = no answer
    # n = 8, n_c = 4, n_u = 2
    # c@1 = (n_c + n_u * n_c / n) / n = (4 + 2 * 4 / 8) / 8 = 5 / 8 = 0.625
    assert r["c_at_1"] == pytest.approx(0.625)
    # tp = 2 (0.9, 0.6), fp = 1 (0.7), fn = 1 (0.1 said "different" but truth is same)
    # F0.5u = 1.25 tp / (1.25 tp + 0.25 (fn + n_u) + fp) = 2.5 / (2.5 + 0.25 * 3 + 1)
    #       = 2.5 / 4.25 = 0.588235...
    assert r["f_05_u"] == pytest.approx(2.5 / 4.25)
    # F1 on the answered six: 2 tp / (2 tp + fp + fn) = 4 / 6
    assert r["f1"] == pytest.approx(4 / 6)
    # brier = 1 - mean squared error over all eight (non-answers included)
    se = [0.01, 0.04, 0.25, 0.49, 0.25, 0.81, 0.16, 0.09]
    assert r["brier"] == pytest.approx(1 - sum(se) / 8)
    # AUC over all scores (0.5 included), ties 1/2: positives 0.9, 0.5, 0.1, 0.6 vs
    # negatives 0.2, 0.7, 0.5, 0.3 -> wins: 0.9:4, 0.5:2 + tie 0.5, 0.1:0, 0.6:3 -> 9.5 / 16
    assert r["auc"] == pytest.approx(9.5 / 16)
    assert r["overall"] == pytest.approx(
        np.mean([9.5 / 16, 0.625, 2.5 / 4.25, 4 / 6, 1 - sum(se) / 8])
    )


def test_second_hand_example_all_answered_equals_accuracy():
    # with no non-answer, c@1 is plain accuracy and F0.5u is F0.5
    r = pan_verification([0.8, 0.3, 0.6, 0.4], [1, 0, 0, 1])
    # correct: 0.8 (1), 0.3 (0) -> n_c = 2 of 4, n_u = 0 -> c@1 = 2/4
    assert r["c_at_1"] == 0.5
    # tp = 1, fp = 1 (0.6), fn = 1 (0.4): F0.5u = 1.25 / (1.25 + 0.25 + 1) = 0.5
    assert r["f_05_u"] == pytest.approx(0.5)


def test_all_abstained_and_sklearn_parts():
    r = pan_verification([0.5, 0.5, 0.5], [1, 0, 1])
    # n_c = 0 -> c@1 = 0; tp = 0 -> F0.5u = 0; nothing answered -> F1 = 0; AUC of ties = 0.5
    assert (r["c_at_1"], r["f_05_u"], r["f1"], r["auc"]) == (0.0, 0.0, 0.0, 0.5)
    rng = np.random.default_rng(0)
    scores = np.round(rng.random(300), 1)
    truth = rng.integers(0, 2, 300)
    r = pan_verification(scores, truth)
    assert r["auc"] == pytest.approx(roc_auc_score(truth, scores))
    assert r["brier"] == pytest.approx(1 - brier_score_loss(truth, scores))
    answered = scores != 0.5
    assert r["f1"] == pytest.approx(f1_score(truth[answered], scores[answered] > 0.5))


@pytest.mark.parametrize(
    ("scores", "refs", "match"),
    [
        ([0.2, 1.2], [0, 1], r"scores must lie in \[0, 1\]; got \[1.2\]"),
        ([-0.1, 0.7], [0, 1], r"scores must lie in \[0, 1\]"),
        ([0.2, np.nan], [0, 1], "scores contains NaN or infinite values"),
        ([0.2, 0.7], [1, 1], r"references contains a single class \(all 1\)"),
        ([0.2, 0.7], [0, 2], r"references must be 0 or 1 \(binary\)"),
        ([0.2, 0.7], [0, 1, 1], "scores and references differ in length"),
        ([], [], "scores is empty"),
    ],
)
def test_bad_input(scores, refs, match):
    with pytest.raises(ValueError, match=match):
        pan_verification(scores, refs)
