"""Task facts in one place (issue 43 item 3): every task type has a frozen TaskFacts on
its evaluator, and the tables that held the same facts before agree with it."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.schemas import TASK_TYPES, schema_for_task
from evaluators.data import Table
from evaluators.tasks import EVALUATORS, EmbeddingLookup, get_evaluator
from evaluators.tasks.facts import TASK_FACTS, TaskFacts, hub_type, task_facts


def test_every_task_type_has_its_facts_on_its_evaluator():
    assert tuple(TASK_FACTS) == TASK_TYPES == tuple(EVALUATORS)
    for name, cls in EVALUATORS.items():
        facts = cls.facts
        assert isinstance(facts, TaskFacts) and facts is task_facts(name)
        assert (cls.task_type, cls.schema, cls.main_score_name) == (
            facts.name,
            facts.schema,
            facts.main_score,
        )
        assert facts.schema == schema_for_task(name).name
        assert all(getattr(facts, f.name) for f in dataclasses.fields(facts))


def test_facts_are_frozen_and_unknown_names_are_refused():
    with pytest.raises(dataclasses.FrozenInstanceError):
        task_facts("retrieval").label = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        TASK_FACTS["x"] = task_facts("retrieval")  # type: ignore[index]
    with pytest.raises(UnknownNameError, match="unknown task 'detection'; known tasks: clust"):
        task_facts("detection")
    assert hub_type("detection") == "detection"  # ARB's task passes through as it is


def test_the_main_score_is_what_an_evaluator_reports():
    rng = np.random.default_rng(7)
    rows = [{"id": str(i), "text": f"t{i}", "label": f"c{i % 3}"} for i in range(18)]
    vectors = rng.normal(size=(18, 5)) + 2.0 * np.eye(5)[[i % 3 for i in range(18)]]
    table = Table("facts", "facts", "labelled_texts", "test", rows, "test")
    lookup = EmbeddingLookup([r["text"] for r in rows], vectors)
    results = {
        t: get_evaluator(t).evaluate(table, lookup) for t in ("clustering", "all_to_all_pairs")
    }
    for task, result in results.items():
        assert result.main_score_name == task_facts(task).main_score
        assert result.main_score == result.metrics[task_facts(task).main_score]
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    i, j = np.triu_indices(18, 1)
    same = [rows[a]["label"] == rows[b]["label"] for a, b in zip(i, j, strict=True)]
    auc = roc_auc_score(same, (unit[i] * unit[j]).sum(1))
    assert results["all_to_all_pairs"].main_score == pytest.approx(auc, abs=1e-12)
    assert 0.5 < auc < 1.0


# The tables that held these facts before (issue 43): values as they were printed.
FORMER = {
    # benchmarks.STEB_TASKS
    "names": (
        "clustering",
        "all_to_all_pairs",
        "predefined_pairs",
        "order_alignment",
        "retrieval",
        "probing",
    ),
    # steb_scores.scores.TASK_METRIC
    "main_score": {
        "clustering": "v_measure",
        "all_to_all_pairs": "auc",
        "predefined_pairs": "auc",
        "order_alignment": "distractor_accuracy",
        "retrieval": "mrr",
        "probing": "accuracy",
    },
    # report.READABLE (task entries)
    "label": {
        "clustering": "clustering",
        "all_to_all_pairs": "all-to-all pairs",
        "predefined_pairs": "predefined pairs",
        "order_alignment": "order alignment",
        "retrieval": "retrieval",
        "probing": "probing",
    },
    # steb_scores.leaderboard.LABELS (task entries)
    "column": {
        "clustering": "Clustering",
        "all_to_all_pairs": "All-to-All",
        "predefined_pairs": "Predefined",
        "order_alignment": "Order Align.",
        "retrieval": "Retrieval",
        "probing": "Probing",
    },
    # steb_scores.model_card.TASK_LABELS
    "hub_type": {
        "clustering": "Clustering",
        "all_to_all_pairs": "PairClassification",
        "predefined_pairs": "PairClassification",
        "order_alignment": "OrderAlignment",
        "retrieval": "Retrieval",
        "probing": "Probing",
    },
}


def test_the_former_tables_values_are_the_facts():
    assert tuple(TASK_FACTS) == FORMER["names"]
    for field in ("main_score", "label", "column", "hub_type"):
        assert {n: getattr(f, field) for n, f in TASK_FACTS.items()} == FORMER[field], field


def test_the_readers_print_the_former_values():
    from evaluators.leaderboard import column_label
    from evaluators.report import readable

    assert [readable(t) for t in TASK_TYPES] == list(FORMER["label"].values())
    assert [column_label(t) for t in TASK_TYPES] == list(FORMER["column"].values())
    assert [hub_type(t) for t in TASK_TYPES] == list(FORMER["hub_type"].values())
    # the metric and view names keep their own labels
    assert [readable(m) for m in ("v_measure", "auc", "mrr", "mean_accuracy")] == [
        "V-measure",
        "AUROC",
        "MRR",
        "mean accuracy",
    ]
    assert [column_label(c) for c in ("steb_score", "atd_adversarial", "x_y")] == [
        "STEB score",
        "ATD (Adv.)",
        "x_y",
    ]
    assert readable("x_y") == "x y"


def test_the_model_card_names_the_hub_task_type():
    from evaluators.steb_scores.model_card import model_index
    from evaluators.steb_scores.results import Score

    scores = [
        Score("m", "steb/a", task, f.main_score, {f.main_score: 0.5})
        for task, f in TASK_FACTS.items()
    ]
    results = model_index("m", scores)["model-index"][0]["results"]
    assert {r["dataset"]["config"]: r["task"]["type"] for r in results} == FORMER["hub_type"]


def test_the_side_tables_are_gone():
    import evaluators.benchmarks
    import evaluators.leaderboard
    import evaluators.report
    import evaluators.steb_scores.model_card
    import evaluators.steb_scores.scores

    for module, name in (
        (evaluators.benchmarks, "STEB_TASKS"),
        (evaluators.steb_scores.scores, "TASK_METRIC"),
        (evaluators.report, "READABLE"),
        (evaluators.leaderboard, "LABELS"),
        (evaluators.steb_scores.model_card, "TASK_LABELS"),
    ):
        assert not hasattr(module, name), f"{module.__name__}.{name} is back"


# how each task's result items are stored (evaluators.records.items: kind, unit)
ITEMS = {
    "clustering": ("assignment", "texts"),
    "all_to_all_pairs": ("text_auc", "texts"),
    "predefined_pairs": ("auc", "pairs"),
    "order_alignment": ("mean", "pairs"),
    "retrieval": ("mean", "queries"),
}


def test_the_unit_of_independence_is_the_one_compare_names():
    # evaluators.compare.units names the independent unit per items kind from the facts
    from evaluators.compare.units import _INDEPENDENT

    for task, key in ITEMS.items():
        assert task_facts(task).unit == _INDEPENDENT[key], task
    assert task_facts("probing").unit.startswith("test texts")
