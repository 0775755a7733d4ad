"""Every task stores a 95 % CI with its method stated, and the CI contains the score.

Checked on the demo suite (every task type it serves, deterministic encoders whose
scores sit at the awkward ends: V-measure ~0, distractor accuracy 0), on the real
datasets of the parity tests (test_steb_parity checks them through :func:`assert_ci`),
and as a property over random inputs (every CI function, probing's included).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dataset_scripts.demo.build import build as build_demo
from evaluators.data import Table
from evaluators.encoders.function_words import FunctionWordEncoder
from evaluators.tasks import EmbeddingLookup, TaskResult, get_evaluator
from evaluators.tasks.base import mean_ci
from evaluators.tasks.clustering import v_measure_ci, weighted_v_measures
from evaluators.tasks.pairs import all_pairs, all_pairs_ci, all_pairs_influence_ci, delong_ci
from evaluators.tasks.probing import probing_ci

TASKS = {
    "labelled_texts": ("clustering", "all_to_all_pairs"),
    "style_sequences": ("order_alignment",),
    "retrieval": ("retrieval",),
}


def assert_ci(result: TaskResult) -> None:
    """``details["ci95"]`` names its method and contains the main score."""
    ci = result.details["ci95"]
    assert ci["method"], result.task_type
    low, high = ci[result.main_score_name]
    assert low <= result.main_score <= high, (result.task_type, result.main_score, low, high)
    assert 0.0 <= low <= high <= 1.0


@pytest.mark.slow
def test_demo_every_task_ci_contains_its_score() -> None:
    encoder = FunctionWordEncoder()
    tables, _ = build_demo()
    for config, splits in tables.items():
        table = Table("demo", "demo", config, "test", splits["test"], "demo")
        for task in TASKS[config]:
            evaluator = get_evaluator(task)
            lookup = EmbeddingLookup.from_encoder(encoder, evaluator.texts(table))
            for protocol in ("steb", "steb-strict"):
                assert_ci(get_evaluator(task, protocol=protocol).evaluate(table, lookup))


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(8, 60),
    k=st.integers(2, 5),
    shift=st.floats(0.0, 2.0),
    seed=st.integers(0, 10_000),
)
def test_ci_functions_contain_the_estimate(n: int, k: int, shift: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = np.arange(n) % k
    vectors = rng.normal(size=(n, 4)) + shift * np.eye(4)[labels % 4]
    scores, same = all_pairs(vectors, labels)
    ci = all_pairs_influence_ci(scores, same, n)
    from sklearn.metrics import roc_auc_score, v_measure_score

    auc = roc_auc_score(same, scores)
    assert ci["auc"][0] <= auc <= ci["auc"][1]
    pair_scores, pair_labels = rng.normal(size=n) + shift * (labels % 2), labels % 2
    d = delong_ci(pair_scores, pair_labels)
    assert d["auc"][0] <= roc_auc_score(pair_labels, pair_scores) <= d["auc"][1]
    clusters = rng.integers(0, k, size=n)
    weights = rng.multinomial(n, np.full(n, 1 / n), size=3)
    expected = [v_measure_score(np.repeat(labels, w), np.repeat(clusters, w)) for w in weights]
    np.testing.assert_allclose(weighted_v_measures(clusters, labels, weights), expected, atol=1e-12)
    v = v_measure_ci(clusters, labels, seed=seed)
    assert v["v_measure"][0] <= v_measure_score(labels, clusters) + 1e-12
    assert v_measure_score(labels, clusters) <= v["v_measure"][1] + 1e-12
    values = rng.integers(0, 3, size=n) / 2
    m = mean_ci("accuracy", values, "pairs", seed)
    assert m["accuracy"][0] <= values.mean() <= m["accuracy"][1]
    hits = {f"f{i}": rng.random(n) < rng.random() for i in range(k)}
    p = probing_ci(hits, seed)
    assert p["accuracy"][0] <= np.mean([h.mean() for h in hits.values()]) <= p["accuracy"][1]


def test_all_pairs_analytic_interval_matches_the_text_bootstrap() -> None:
    """The analytic all-to-all interval has the width of the resampling one (1,000 text
    bootstrap replicates over every pair) within 20 % on data with and without signal."""
    for seed, n, signal in ((0, 150, 0.6), (1, 120, 0.0), (2, 90, 1.5)):
        rng = np.random.default_rng(seed)
        labels = np.arange(n) % 6
        vectors = rng.normal(size=(n, 8)) + signal * np.eye(8)[labels]
        scores, same = all_pairs(vectors, labels)
        analytic = all_pairs_influence_ci(scores, same, n)["auc"]
        resampled = all_pairs_ci(scores, same, n)["auc"]
        ratio = (analytic[1] - analytic[0]) / (resampled[1] - resampled[0])
        assert 0.8 <= ratio <= 1.2, (seed, ratio)
