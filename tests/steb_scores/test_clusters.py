"""Redundancy-cluster discovery (Spearman of model rankings, Ward, distance 0.5)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import spearmanr

from dataset_scripts.core.errors import DataError
from evaluators.steb_scores.clusters import (
    discover_clusters,
    discover_task_clusters,
    load_clusters,
    save_clusters,
    spearman_matrix,
)
from tests.steb_scores.helpers import score

# five models; B ranks them exactly like A (monotone transform), C in reverse
TABLE = {
    "m1": {"A": 0.10, "B": 0.50, "C": 0.90},
    "m2": {"A": 0.20, "B": 0.55, "C": 0.70},
    "m3": {"A": 0.30, "B": 0.70, "C": 0.60},
    "m4": {"A": 0.40, "B": 0.80, "C": 0.40},
    "m5": {"A": 0.50, "B": 0.99, "C": 0.10},
}


def test_rank_correlated_merge_anti_correlated_stays() -> None:
    found = discover_task_clusters(TABLE, "clustering")
    assert found.clusters == [["A", "B"], ["C"]]
    assert found.models == ["m1", "m2", "m3", "m4", "m5"]
    corr = np.array(found.correlation)
    assert corr[0, 1] == 1.0 and corr[0, 2] == -1.0


def test_input_order_does_not_matter() -> None:
    shuffled = {m: dict(reversed(list(row.items()))) for m, row in reversed(list(TABLE.items()))}
    assert discover_task_clusters(shuffled).clusters == [["A", "B"], ["C"]]


def test_weakly_correlated_datasets_stay_apart() -> None:
    # rho(A, D) = rho(B, D) = 0.5: distance 0.5 to each, but Ward's distance from D to the
    # merged {A, B} is sqrt((2 * 0.25 + 2 * 0.25) / 3) = 0.577 > 0.5
    table = {m: {**row} for m, row in TABLE.items()}
    for m, v in zip(table, [0.1, 0.4, 0.2, 0.5, 0.3], strict=True):
        table[m]["D"] = v
    rho = spearmanr([table[m]["A"] for m in table], [table[m]["D"] for m in table]).statistic
    assert rho == pytest.approx(0.5)
    found = discover_task_clusters(table)
    assert ["D"] in found.clusters and ["A", "B"] in found.clusters


def test_spearman_matrix_matches_scipy_and_constant_column_is_zero() -> None:
    rng = np.random.default_rng(0)
    m = rng.random((7, 4))
    m[:, 3] = 0.5
    corr = spearman_matrix(m)
    assert corr[0, 1] == spearmanr(m[:, 0], m[:, 1]).statistic
    assert corr[0, 3] == 0.0 and corr[3, 3] == 1.0


def test_too_few_models_keep_singletons_and_incomplete_models_drop() -> None:
    two = {m: TABLE[m] for m in ("m1", "m2")}
    found = discover_task_clusters(two)
    assert found.clusters == [["A"], ["B"], ["C"]]
    assert "singletons" in found.method
    partial = {**TABLE, "m6": {"A": 0.9}}  # lacks B and C: left out, as in STEB
    assert discover_task_clusters(partial).models == ["m1", "m2", "m3", "m4", "m5"]


def test_discover_from_scores_and_file_round_trip(tmp_path) -> None:
    scores = [
        score(m, f"steb/{d}", "clustering", v) for m, row in TABLE.items() for d, v in row.items()
    ]
    scores.append(score("m1", "steb/X", "retrieval", 0.3))
    found = discover_clusters(scores)
    assert found["clustering"].clusters == [["steb/A", "steb/B"], ["steb/C"]]
    assert found["retrieval"].clusters == [["steb/X"]]
    path = save_clusters(found, tmp_path / "clusters.json")
    assert load_clusters(path) == {
        "clustering": [["steb/A", "steb/B"], ["steb/C"]],
        "retrieval": [["steb/X"]],
    }
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"clustering": "steb/A"}))
    try:
        load_clusters(bad)
    except DataError as error:
        assert "bad.json" in str(error) and "clustering" in str(error)
    else:  # pragma: no cover
        raise AssertionError("a malformed cluster file must raise DataError")
