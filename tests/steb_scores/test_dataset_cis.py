"""Evaluation-time dataset CIs (``details["ci95"]``) of the non-average task metrics:
AUROC (predefined and all-to-all pairs), V-measure (clustering), probing accuracy; and
their use as the dataset CI by evaluators.steb_scores."""

from __future__ import annotations

import numpy as np
import pytest

from dataset_scripts.core.probing_columns import make_probing_columns
from evaluators.metric_math import roc_auc, v_measure
from evaluators.steb_scores.results import read_result
from evaluators.steb_scores.summary import dataset_score
from evaluators.tasks import get_evaluator
from evaluators.tasks.clustering import v_measure_ci
from evaluators.tasks.pairs import (
    all_pairs,
    all_pairs_ci,
    all_pairs_influence_ci,
    delong_ci,
    predefined_pairs_ci,
    weighted_pair_auc,
)
from evaluators.tasks.probing import probing_ci
from tests.core.helpers import lookup, random_lookup, table
from tests.steb_scores.helpers import write_result


def _labelled(n_per_class: int, n_classes: int) -> list[dict]:
    return [
        {"id": f"t{c}_{i}", "text": f"text {c} {i}", "label": f"c{c}"}
        for c in range(n_classes)
        for i in range(n_per_class)
    ]


def _pairs(n: int) -> list[dict]:
    return [{"id": f"p{i}", "text1": f"a{i}", "text2": f"b{i}", "label": i % 2} for i in range(n)]


def test_weighted_pair_auc_is_roc_auc_of_repeated_pairs() -> None:
    rng = np.random.default_rng(1)
    scores = rng.integers(0, 6, 300).astype(float)  # many ties
    positive = rng.integers(0, 2, 300).astype(bool)
    order = np.argsort(scores, kind="stable")
    weights = rng.integers(0, 4, size=(3, 300))
    got = weighted_pair_auc(scores[order], positive[order], weights[:, order].T)
    for row, value in zip(weights, got, strict=True):
        assert value == pytest.approx(roc_auc(np.repeat(scores, row), np.repeat(positive, row)))
    assert weighted_pair_auc(scores[order], positive[order], np.ones(300))[0] == pytest.approx(
        roc_auc(scores, positive)
    )


def test_text_weights_give_the_auc_of_pairs_among_resampled_texts() -> None:
    """Hand check of the all-to-all replicate: multiplicities w over texts = the pairs of
    distinct source texts among the resampled copies, copies of one text not paired."""
    rng = np.random.default_rng(2)
    labels = np.repeat(np.arange(3), 5)
    vectors = rng.normal(size=(15, 4)) + labels[:, None]
    scores, same = all_pairs(vectors, labels)
    w = rng.multinomial(15, np.full(15, 1 / 15))
    drawn = np.repeat(np.arange(15), w)
    first, second = np.triu_indices(len(drawn), k=1)
    distinct = drawn[first] != drawn[second]
    a, b = np.minimum(drawn[first], drawn[second]), np.maximum(drawn[first], drawn[second])
    pair_index = {pair: k for k, pair in enumerate(zip(*np.triu_indices(15, k=1), strict=True))}
    picks = [pair_index[(x, y)] for x, y in zip(a[distinct], b[distinct], strict=True)]
    expected = roc_auc(scores[picks], same[picks])
    i, j = np.triu_indices(15, k=1)
    order = np.argsort(scores, kind="stable")
    got = weighted_pair_auc(scores[order], same[order], (w[i] * w[j])[order])[0]
    assert got == pytest.approx(expected)


def test_separable_pairs_have_ci_one_one() -> None:
    scores = np.r_[np.linspace(0.6, 0.9, 20), np.linspace(0.0, 0.5, 20)]
    labels = np.r_[np.ones(20), np.zeros(20)]
    ci = predefined_pairs_ci(scores, labels)
    assert ci["auc"] == [1.0, 1.0]
    assert (ci["n_boot"], ci["unit"], ci["n_units"], ci["seed"]) == (1000, "pairs", 40, 42)

    labels_t = np.repeat(np.arange(4), 6)
    vectors = np.eye(4)[labels_t] * 5 + np.random.default_rng(0).normal(size=(24, 4)) * 0.01
    s, same = all_pairs(vectors, labels_t)
    assert roc_auc(s, same) == 1.0
    assert all_pairs_ci(s, same, 24)["auc"] == [1.0, 1.0]
    assert all_pairs_influence_ci(s, same, 24)["auc"] == [1.0, 1.0]
    assert delong_ci(scores, labels)["auc"] == [1.0, 1.0]

    assignment = labels_t.copy()
    assert v_measure_ci(assignment, labels_t)["v_measure"] == [1.0, 1.0]
    assert probing_ci({"f": np.ones(30, bool), "g": np.ones(10, bool)})["accuracy"] == [1.0, 1.0]


def test_evaluators_record_deterministic_cis_containing_the_score() -> None:
    rows = _labelled(8, 4)
    t = table("labelled_texts", rows)
    emb = random_lookup([r["text"] for r in rows], dim=6, seed=4)
    pair_rows = _pairs(60)
    tp = table("text_pairs", pair_rows)
    emb_p = random_lookup([x for r in pair_rows for x in (r["text1"], r["text2"])], seed=5)
    for task, tab, lk, unit in (
        ("all_to_all_pairs", t, emb, "texts"),
        ("clustering", t, emb, "texts"),
        ("predefined_pairs", tp, emb_p, "pairs"),
    ):
        first = get_evaluator(task).evaluate(tab, lk)
        again = get_evaluator(task).evaluate(tab, lk)
        record = first.details["ci95"]
        assert record == again.details["ci95"]
        low, high = record[first.main_score_name]
        assert low <= first.main_score <= high, task
        assert low < high, task
        assert record["unit"] == unit and record["method"]
        assert record.get("n_boot", 1000) == 1000  # the pair AUROC CIs are analytic (issue 19)
        other = get_evaluator(task)
        other.seed = 7
        # another seed: another interval (k-means would move too; analytic CIs have none)
        if task != "clustering" and "n_boot" in record:
            assert other.evaluate(tab, lk).details["ci95"] != record


def test_probing_ci_resamples_test_texts_per_feature() -> None:
    rng = np.random.default_rng(6)
    n = 200
    x = rng.normal(size=n)
    rows = [{"id": f"r{i}", "text": f"s{i}"} for i in range(n)]
    for name, values in (("alpha", x), ("beta", rng.normal(size=n))):
        labels, splits = make_probing_columns(values)
        for row, label, split in zip(rows, labels, splits, strict=True):
            row[f"label_{name}"], row[f"split_{name}"] = label, split
    vectors = {f"s{i}": np.r_[x[i], rng.normal(size=3)] for i in range(n)}
    result = get_evaluator("probing").evaluate(table("probing", rows), lookup(vectors))
    record = result.details["ci95"]
    low, high = record["accuracy"]
    assert low <= result.main_score <= high and low < high
    assert record["unit"] == "test texts"
    n_test = sum(r[f"split_{f}"] == "test" for r in rows for f in ("alpha", "beta"))
    assert record["n_units"] == n_test


def test_width_shrinks_with_more_units() -> None:
    def width(n: int) -> float:
        rng = np.random.default_rng(n)
        labels = np.arange(n) % 2
        scores = rng.normal(size=n) + labels
        low, high = predefined_pairs_ci(scores, labels)["auc"]
        return high - low

    assert width(2000) < width(200) / 2

    def vwidth(n_per_class: int) -> float:
        rng = np.random.default_rng(n_per_class)
        labels = np.repeat(np.arange(3), n_per_class)
        noisy = np.where(rng.random(labels.size) < 0.3, rng.integers(0, 3, labels.size), labels)
        low, high = v_measure_ci(noisy, labels)["v_measure"]
        assert low <= v_measure(noisy, labels)["v_measure"] <= high
        return high - low

    assert vwidth(400) < vwidth(40) / 2


def test_all_to_all_subsample_keeps_the_estimate_inside() -> None:
    rng = np.random.default_rng(8)
    labels = rng.integers(0, 5, 300)
    vectors = rng.normal(size=(300, 8)) + 0.3 * np.eye(8)[labels]
    scores, same = all_pairs(vectors, labels)
    full = all_pairs_ci(scores, same, 300, n_boot=200)
    sub = all_pairs_ci(scores, same, 300, n_boot=200, max_pairs=6000)
    assert "subsample of 6000 pairs" in sub["method"] and "subsample" not in full["method"]
    point = roc_auc(scores, same)
    for record in (full, sub):
        assert record["auc"][0] <= point <= record["auc"][1]
    assert sub["auc"] == pytest.approx(full["auc"], abs=0.02)


def test_steb_scores_use_the_recorded_ci(tmp_path) -> None:
    details = {"ci95": {"auc": [0.61, 0.7], "n_boot": 1000, "unit": "pairs", "n_units": 80}}
    path = write_result(tmp_path, "m", "steb/X", "predefined_pairs", 0.65, details=details)
    record = dataset_score(read_result(path))
    assert record.ci == (0.61, 0.7) and record.n_units == 80
    units = {"units": {"auc": {"values": [0.0, 1.0], "counts": [5, 5]}}}
    plain = dataset_score(read_result(write_result(tmp_path, "m", "steb/Y", "retrieval", 0.5)))
    assert plain.ci is None
    both = write_result(tmp_path, "m", "steb/Z", "predefined_pairs", 0.5, details=units | details)
    assert dataset_score(read_result(both)).ci == (0.61, 0.7)  # recorded CI wins
