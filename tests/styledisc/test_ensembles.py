"""MV and PWV ensembles against hand computations; composition search; bootstrap CI."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.styledisc.ensembles import (
    accuracy,
    ensemble_votes,
    majority_vote,
    pwv_weights,
    search_composition,
    weighted_vote,
)
from evaluators.styledisc.evaluation import bootstrap_ci, evaluate, fit_mask

M1 = np.array([1, 1, -1, 0])
M2 = np.array([-1, 1, 1, -1])
M3 = np.array([1, -1, 1, 1])


def test_pwv_equals_hand_computation() -> None:
    # weighted sums with w = (0.9, 0.6, 0.2):
    #   t0:  0.9 - 0.6 + 0.2 =  0.5 -> T+
    #   t1:  0.9 + 0.6 - 0.2 =  1.3 -> T+
    #   t2: -0.9 + 0.6 + 0.2 = -0.1 -> T-
    #   t3:  0.0 - 0.6 + 0.2 = -0.4 -> T-
    assert weighted_vote([M1, M2, M3], [0.9, 0.6, 0.2]).tolist() == [1, 1, -1, -1]
    assert accuracy(weighted_vote([M1, M2, M3], [0.9, 0.6, 0.2])) == 0.5


def test_mv_hand_computation_and_ties_are_wrong() -> None:
    # sums: 1, 1, 1, 0 (tie -> 0, counted wrong)
    votes = majority_vote([M1, M2, M3])
    assert votes.tolist() == [1, 1, 1, 0]
    assert accuracy(votes) == 0.75


def test_pwv_weights_are_fit_split_accuracies() -> None:
    weights = pwv_weights({"a": M1, "b": M2, "c": M3})
    assert weights == {"a": 0.5, "b": 0.5, "c": 0.75}
    assert ensemble_votes(
        "PWV", ["a", "b", "c"], {"a": M1, "b": M2, "c": M3}, weights
    ).tolist() == [
        1,
        1,
        1,
        1,
    ]
    with pytest.raises(ValueError, match="PWV needs weights"):
        ensemble_votes("PWV", ["a"], {"a": M1})
    with pytest.raises(ValueError, match="votes must be -1, 0 or \\+1"):
        majority_vote([np.array([2])])


def test_composition_search_picks_the_best_subset_on_the_fit_split() -> None:
    votes = {
        "good": np.array([1, 1, 1, -1, 1, 1]),
        "ok": np.array([1, -1, 1, 1, 1, -1]),
        "bad": np.array([-1, -1, -1, -1, 1, -1]),
    }
    groups = np.array(["DD"] * 3 + ["AA"] * 3)
    best = search_composition("MV", "toy", list(votes), votes, groups)
    # candidates: good+ok (1,0,1,0,1,0 -> DD 2/3, AA 1/3), good+bad (0,0,0,-1,1,0),
    # ok+bad, all three (1,-1,1,-1,1,-1 -> DD 2/3, AA 1/3); best mean 0.5, smaller first
    assert best is not None and best.members == ("good", "ok")
    assert best.fit_score == pytest.approx(0.5)


def test_bootstrap_ci_brackets_the_mean_and_is_seeded() -> None:
    correct = np.array([1] * 70 + [0] * 30)
    low, high = bootstrap_ci(correct, seed=1)
    assert low < 0.7 < high and (low, high) == bootstrap_ci(correct, seed=1)
    assert low > 0.55 and high < 0.85


def test_evaluate_adds_random_and_ensembles_on_the_fit_split() -> None:
    rng = np.random.default_rng(0)
    rows = [{"id": f"t{i}", "setting": "DD" if i % 2 else "AA", "domain": "d"} for i in range(200)]
    truth = rng.random((3, 200))
    votes = {f"m{k}": np.where(truth[k] < 0.6 + 0.1 * k, 1, -1) for k in range(3)}
    ev = evaluate(
        rows, votes, {f"m{k}": "ngram" for k in range(3)}, {f"m{k}": True for k in range(3)}
    )
    assert "Random" in ev.votes and abs(accuracy(ev.votes["Random"]) - 0.5) < 0.1
    assert {"MV:ngram", "PWV:ngram"} <= set(ev.votes)
    assert ev.fit.tolist() == fit_mask([r["id"] for r in rows]).tolist()
    assert 0.15 < ev.fit.mean() < 0.45
    table = ev.table(["m2"])
    assert set(table["m2"]) == {"AA", "DD", "Mean"}
