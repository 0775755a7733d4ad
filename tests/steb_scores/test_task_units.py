"""The additive per-unit outputs of the task evaluators (details["units"]): their means
reproduce the metrics, so bootstrapping them bootstraps the dataset score."""

from __future__ import annotations

import numpy as np
import pytest

from evaluators.steb_scores.bootstrap import dataset_ci
from evaluators.tasks import get_evaluator
from tests.core.helpers import random_lookup, table


def _mean(hist: dict) -> float:
    values, counts = np.asarray(hist["values"]), np.asarray(hist["counts"])
    return float((values * counts).sum() / counts.sum())


def test_retrieval_units_are_per_query() -> None:
    rows = []
    for a in range(6):
        rows.append(
            {"id": f"q{a}", "author": f"a{a}", "role": "query", "texts": [f"q{a}x", f"q{a}y"]}
        )
        rows.append({"id": f"t{a}", "author": f"a{a}", "role": "target", "texts": [f"t{a}x"]})
    t = table("retrieval", rows)
    lookup = random_lookup([x for r in rows for x in r["texts"]], dim=4, seed=3)
    result = get_evaluator("retrieval").evaluate(t, lookup)
    units = result.details["units"]
    assert sum(units["mrr"]["counts"]) == result.counts["n_queries"] == 6
    for metric, hist in units.items():
        assert _mean(hist) == pytest.approx(result.metrics[metric])
    lo, hi = dataset_ci((units["mrr"]["values"], units["mrr"]["counts"]), n_boot=200)
    assert lo <= result.metrics["mrr"] <= hi


def test_order_alignment_units_are_per_pair() -> None:
    rows = [
        {
            "id": f"s{g}{i}",
            "group": f"g{g}",
            "texts": [f"a{g}{i}", f"b{g}{i}"],
            "styles": ["x", "y"],
        }
        for g in range(2)
        for i in range(4)
    ]
    t = table("style_sequences", rows)
    lookup = random_lookup([x for r in rows for x in r["texts"]], dim=4, seed=5)
    result = get_evaluator("order_alignment").evaluate(t, lookup)
    units = result.details["units"]
    assert sum(units["accuracy"]["counts"]) == result.counts["n_pairs"] == 12
    for metric in ("accuracy", "distractor_accuracy"):
        assert _mean(units[metric]) == pytest.approx(result.metrics[metric])
