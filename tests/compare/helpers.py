"""Result records built from simulated per-unit data with the tasks' own item writers
(evaluators.tasks.pairs, evaluators.records.items), for the comparison tests."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluators.compare.units import Units, units_of
from evaluators.metric_math import roc_auc, v_measure
from evaluators.records.items import make_items
from evaluators.records.record import DatasetInfo, ModelInfo, ResultRecord, write_record
from evaluators.tasks.facts import TASK_FACTS
from evaluators.tasks.pairs import all_pairs, all_pairs_influence_ci, delong_ci, text_auc_items

MAIN = {name: f.main_score for name, f in TASK_FACTS.items()}  # each task's main score


def record(
    model: str,
    dataset: str,
    task: str,
    main_score: float,
    items: dict,
    *,
    fingerprint: str = "rows-1",
    ci95: dict | None = None,
    metrics: dict | None = None,
) -> ResultRecord:
    main = MAIN[task]
    return ResultRecord(
        task=task,
        dataset=DatasetInfo(name=dataset, ref=dataset, id=dataset, fingerprint=fingerprint),
        model=ModelInfo(name=model),
        main_score_name=main,
        main_score=float(main_score),
        metrics={main: float(main_score), **(metrics or {})},
        seed=42,
        run={"protocol": "steb", "seed": 42, "sampling": None, "submetrics": {}},
        details={"ci95": ci95 or {}},
        items=items,
    )


def predefined(
    model: str,
    dataset: str,
    scores: np.ndarray,
    labels: np.ndarray,
    texts: tuple[np.ndarray, np.ndarray] | None = None,
    **kw,
) -> ResultRecord:
    """``texts``: each pair's two text ids (default: every pair two texts of its own)."""
    n = len(labels)
    first, second = texts if texts is not None else (2 * np.arange(n), 2 * np.arange(n) + 1)
    items = make_items(
        "auc",
        "pairs",
        {
            "scores": (scores, "f8"),
            "labels": (labels, "i4"),
            "text_1": (first, "i4"),
            "text_2": (second, "i4"),
        },
    )
    return record(
        model,
        dataset,
        "predefined_pairs",
        roc_auc(scores, labels),
        items,
        ci95=delong_ci(scores, labels),
        **kw,
    )


def all_to_all(
    model: str, dataset: str, vectors: np.ndarray, labels: np.ndarray, **kw
) -> ResultRecord:
    scores, same = all_pairs(vectors, labels)
    ci = all_pairs_influence_ci(scores, same, len(labels))
    items = text_auc_items(scores, same, len(labels))
    return record(model, dataset, "all_to_all_pairs", roc_auc(scores, same), items, ci95=ci, **kw)


def mean_units(
    model: str,
    dataset: str,
    task: str,
    values: np.ndarray,
    nodes: tuple[np.ndarray, np.ndarray] | None = None,
    **kw,
) -> ResultRecord:
    """``nodes``: order alignment, each pair's two sequence ids; retrieval, each query's
    and each target's author (default: every unit independent of the others)."""
    main = MAIN[task]
    unit = "pairs" if task == "order_alignment" else "queries"
    arrays = {main: (values, "f8")}
    n = len(values)
    if task == "order_alignment":
        arrays["accuracy"] = (values, "f8")
        first, second = nodes if nodes is not None else (2 * np.arange(n), 2 * np.arange(n) + 1)
        arrays["sequence_i"] = (first, "i4")
        arrays["sequence_j"] = (second, "i4")
        kw.setdefault("metrics", {"accuracy": float(np.mean(values))})
    else:
        # one query and one target per author; ranks 1 / mrr when the values are
        # reciprocal ranks, else rank 1; no target of another author counted ahead
        queries, targets = nodes if nodes is not None else (np.arange(n), np.arange(n))
        table = kw.pop("rank_table", None)
        if table is None:
            ranks = np.where(values > 0, np.round(1 / np.maximum(values, 1e-12)), 1)
            table = (np.arange(n), ranks, np.zeros((n, int(np.max(targets)) + 1)))
        arrays["query_author"] = (queries, "i4")
        arrays["target_author"] = (targets, "i4")
        arrays["match_query"] = (table[0], "i4")
        arrays["match_rank"] = (table[1], "i4")
        arrays["ahead_by_author"] = (np.asarray(table[2]).ravel(), "i4")
    return record(
        model, dataset, task, float(np.mean(values)), make_items("mean", unit, arrays, n=n), **kw
    )


def clustering(
    model: str,
    dataset: str,
    clusters: np.ndarray,
    labels: np.ndarray,
    extra: list[np.ndarray] | None = None,
    **kw,
) -> ResultRecord:
    """``extra``: the assignments of further k-means seeds (default: four copies of
    ``clusters``, a clustering with no seed variance)."""
    extra = extra if extra is not None else [clusters] * 4
    items = make_items(
        "assignment",
        "texts",
        {
            "labels": (labels, "i4"),
            "clusters": (clusters, "i4"),
            "seeds": (np.arange(43, 43 + len(extra)), "i4"),
            "clusters_seeds": (np.concatenate(extra), "i4"),
        },
        n=len(labels),
    )
    return record(
        model, dataset, "clustering", v_measure(clusters, labels)["v_measure"], items, **kw
    )


def probing(model: str, dataset: str, correct: dict[str, np.ndarray], **kw) -> ResultRecord:
    items = make_items(
        "probing", "test texts", {f"correct_{f}": (c, "bits") for f, c in correct.items()}
    )
    score = float(np.mean([np.mean(c) for c in correct.values()]))
    return record(model, dataset, "probing", score, items, **kw)


def units(rec: ResultRecord) -> Units:
    return units_of(rec, f"<{rec.model.name}>")


def write(root: Path, rec: ResultRecord) -> Path:
    """Where `stylebench run --out root` puts it: root/<model>/<dataset>/<task>.json."""
    return write_record(
        rec, root / rec.model.name / rec.dataset.id.replace("/", "__") / f"{rec.task}.json"
    )


def write_record_at(path: Path, rec: ResultRecord) -> Path:
    return write_record(rec, path)
