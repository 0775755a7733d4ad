"""PAN authorship-verification measures (issue #30 item 5) against an independent
implementation written here from the organisers' evaluator (pan-webis-de/pan-code,
``clef21``/``clef22`` ``*_verif_evaluator.py``): c@1 with non-answers at exactly 0.5,
F0.5u counting non-answers as false negatives (scores binarised three ways: > 0.5 same,
< 0.5 different, 0.5 none), F1 on the answered problems, Brier = 1 - mean squared error,
AUC over all scores, overall = the mean of the five. Fixtures include abstentions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss, f1_score, roc_auc_score

from evaluators.metric_math import pan_verification


def reference(truth: list[int], scores: list[float]) -> dict[str, float]:
    """One problem at a time, as the evaluator script counts."""
    n = len(scores)
    correct = unanswered = 0
    tp = fp = fn = 0
    for y, s in zip(truth, scores, strict=True):
        if s == 0.5:
            unanswered += 1
            continue
        said_same = s > 0.5
        correct += int(said_same == bool(y))
        if said_same and y == 1:
            tp += 1
        elif said_same and y == 0:
            fp += 1
        elif not said_same and y == 1:
            fn += 1
    c_at_1 = (correct + unanswered * correct / n) / n
    denominator = 1.25 * tp + 0.25 * (fn + unanswered) + fp
    answered = [(y, int(s > 0.5)) for y, s in zip(truth, scores, strict=True) if s != 0.5]
    if answered and (any(y for y, _ in answered) or any(p for _, p in answered)):
        f1 = f1_score([y for y, _ in answered], [p for _, p in answered])
    else:
        f1 = 0.0  # sklearn's zero_division default, without its warning
    out = {
        "auc": roc_auc_score(truth, scores),
        "c_at_1": c_at_1,
        "f_05_u": 1.25 * tp / denominator if denominator else 0.0,
        "f1": f1,
        "brier": 1 - brier_score_loss(truth, scores),
    }
    out["overall"] = float(np.mean(list(out.values())))
    return out


FIXTURES = [
    # (truth, scores): every answer kind, abstentions at exactly 0.5
    ([1, 0, 1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.5, 0.5, 0.3, 0.7, 0.51, 0.49]),
    ([1, 1, 0, 0], [0.5, 0.5, 0.5, 0.2]),  # mostly unanswered
    ([1, 0, 0, 1, 1], [1.0, 0.0, 0.5, 0.5000001, 0.4999999]),  # near 0.5 is an answer
    ([0, 1], [0.5, 0.5]),  # nothing answered
]


@pytest.mark.parametrize(("truth", "scores"), FIXTURES)
def test_fixtures_equal_the_reference(truth, scores) -> None:
    got = pan_verification(scores, truth)
    want = reference(truth, scores)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-12), key


def test_abstaining_beats_a_wrong_answer() -> None:
    truth = [1, 1, 0, 0, 1, 0]
    wrong = [0.9, 0.2, 0.1, 0.3, 0.8, 0.9]  # last answer wrong ("same" for different)
    abstain = [0.9, 0.2, 0.1, 0.3, 0.8, 0.5]
    a, b = pan_verification(wrong, truth), pan_verification(abstain, truth)
    assert b["c_at_1"] > a["c_at_1"] and b["f_05_u"] > a["f_05_u"]
    # c@1 by hand (0.2 for a same-author pair is the other wrong answer): wrong: 4 of 6
    # correct; abstain: 4 correct, 1 unanswered, (4 + 1 * 4/6) / 6
    assert a["c_at_1"] == pytest.approx(4 / 6)
    assert b["c_at_1"] == pytest.approx((4 + 4 / 6) / 6)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.5, 0.6, 0.9, 1.0])),
        min_size=2,
        max_size=60,
    )
)
def test_any_answers_equal_the_reference(pairs) -> None:
    truth = [y for y, _ in pairs]
    if len(set(truth)) < 2:
        return
    scores = [s for _, s in pairs]
    got = pan_verification(scores, truth)
    want = reference(truth, scores)
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-12), key
