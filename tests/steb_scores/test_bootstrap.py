"""Bootstrap CIs: determinism with the seed, coverage of the point estimate, width."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.steb_scores.bootstrap import dataset_ci, view_ci, view_replicates
from evaluators.steb_scores.results import Score
from evaluators.steb_scores.scores import build_spec, definitional_spec, unit_values
from evaluators.steb_scores.summary import summarize
from tests.steb_scores.helpers import score

SCORES = [
    score("M", "steb/d1", "clustering", 0.2),
    score("M", "steb/d2", "clustering", 0.4),
    score("M", "steb/d3", "clustering", 0.9),
    score("M", "steb/d5", "retrieval", 0.5),
]


def test_dataset_ci_is_seeded_and_matches_numpy() -> None:
    units = np.random.default_rng(1).integers(0, 2, 400).astype(float)
    a = dataset_ci(units, n_boot=500, seed=7)
    assert a == dataset_ci(units, n_boot=500, seed=7)
    assert a != dataset_ci(units, n_boot=500, seed=8)
    # the multinomial shortcut is the ordinary index bootstrap of the mean
    rng = np.random.default_rng(7)
    means = units[rng.integers(0, 400, size=(4000, 400))].mean(axis=1)
    assert a == pytest.approx((np.quantile(means, 0.025), np.quantile(means, 0.975)), abs=0.01)
    hist = (list(np.unique(units)), list(np.unique(units, return_counts=True)[1]))
    assert dataset_ci(hist, n_boot=500, seed=7) == a
    # Bernoulli(~0.5), n=400: the 95% interval is about 2 * 1.96 * 0.025 wide
    assert a[0] < units.mean() < a[1]
    assert 0.08 < a[1] - a[0] < 0.12


def test_view_ci_deterministic_and_contains_point() -> None:
    values = unit_values(SCORES)
    spec = build_spec("operational", SCORES, {"clustering": [["steb/d1", "steb/d2", "steb/d3"]]})
    ci1 = view_ci(spec, values, n_boot=300, seed=42)
    assert ci1 == view_ci(spec, values, n_boot=300, seed=42)
    reps = view_replicates(spec, values, n_boot=50, seed=42)
    assert reps == view_replicates(spec, values, n_boot=50, seed=42)
    assert reps != view_replicates(spec, values, n_boot=50, seed=43)
    # P(all three draws = d1) = 1/27 > 2.5%: the interval reaches the extremes
    assert ci1["clustering"] == pytest.approx((0.2, 0.9))
    assert ci1["steb_score"] == pytest.approx((0.35, 0.7))
    # three singleton clusters: the clusters are resampled instead, same distribution
    singletons = view_ci(build_spec("operational", SCORES), values, n_boot=300, seed=42)
    assert singletons["clustering"] == pytest.approx((0.2, 0.9))
    # one dataset without per-unit scores: nothing can move
    assert singletons["retrieval"] == pytest.approx((0.5, 0.5))


def test_definitional_task_groups_are_fixed_strata() -> None:
    scores = [
        score("M", "steb/d1", "clustering", 0.2),
        score("M", "steb/d1", "all_to_all_pairs", 0.8),
    ]
    spec = definitional_spec(
        {"steb/d1": {"clustering", "all_to_all_pairs"}}, {"steb/d1": ("genre",)}
    )
    ci = view_ci(spec, unit_values(scores), n_boot=200, seed=1)
    # genre = mean of the two task-type means, whatever is resampled: 0.5
    assert ci["genre"] == pytest.approx((0.5, 0.5))


def test_datasets_resampled_within_a_cluster() -> None:
    spec = build_spec("operational", SCORES, {"clustering": [["steb/d1", "steb/d2", "steb/d3"]]})
    reps = view_replicates(spec, unit_values(SCORES), n_boot=400, seed=0)
    seen = {round(r["clustering"], 6) for r in reps}
    # every replicate is a mean of three draws from {0.2, 0.4, 0.9}
    assert min(seen) >= 0.2 - 1e-9 and max(seen) <= 0.9 + 1e-9 and len(seen) > 3


def test_unit_scores_widen_the_interval() -> None:
    # 100 queries: 30 with reciprocal rank 1, 70 with 0 (MRR 0.3), as a histogram
    with_units = [
        Score(
            "M", "steb/d1", "retrieval", "mrr", {"mrr": 0.3}, units={"mrr": ([0.0, 1.0], [70, 30])}
        )
    ]
    summary = summarize(with_units, {}, n_boot=300, seed=3)
    ms = summary.models["M"]
    lo, hi = ms.views["operational"].ci["steb_score"]
    assert lo < 0.3 < hi
    assert ms.datasets[0].ci is not None and ms.datasets[0].n_units == 100
    assert summarize(with_units, {}, n_boot=300, seed=3).to_dict() == summary.to_dict()
