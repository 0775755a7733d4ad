"""Redundancy clusters of STEB's operational score (paper Sec. 3.3).

Per task type, datasets whose model rankings agree are grouped so that a family of
near-duplicate datasets does not outweigh the rest: the Spearman correlation between the
datasets' score columns over models, distance ``clip(1 - rho, 0, 2)``, Ward linkage, and
flat clusters at distance 0.5. The details follow the STEB authors' analysis script
(rrivera1849/STEB, scripts/benchmark_clustering/auto_cluster.py at commit
2919bdfb13d69db0a35fe6c67a272578bcdef0b2, read as facts): models without results on every
dataset of the task are left out, an undefined correlation (a constant column) counts as
0, and a task with fewer than two datasets is not clustered.

The paper's own assignment is not published as data (the repository computes it at
analysis time from result files it does not ship), so it is recomputed here from whatever
result files a user has; with fewer than ``min_models`` models every dataset stays its own
cluster and the result says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.steb_scores.results import Score

THRESHOLD = 0.5  # paper Sec. 3.3
MIN_MODELS = 3  # the STEB script's default --min-models


@dataclass
class TaskClusters:
    """The clusters of one task type."""

    task: str
    clusters: list[list[str]]
    models: list[str]
    method: str  # "ward-spearman", "singletons (<k models)", "given"
    correlation: list[list[float]] = field(default_factory=list)
    datasets: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "task": self.task,
            "clusters": self.clusters,
            "models": self.models,
            "method": self.method,
            "datasets": self.datasets,
            "correlation": self.correlation,
        }


def spearman_matrix(matrix: np.ndarray) -> np.ndarray:
    """Pairwise Spearman rho between the columns of a (models x datasets) matrix; NaN
    (a constant column) is 0, the diagonal is 1."""
    import warnings

    from scipy.stats import spearmanr

    n = matrix.shape[1]
    corr = np.eye(n)
    for i in range(n):
        for j in range(i + 1, n):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a constant column: rho is NaN, read as 0
                rho = spearmanr(matrix[:, i], matrix[:, j]).statistic
            corr[i, j] = corr[j, i] = 0.0 if np.isnan(rho) else float(rho)
    return corr


def cluster_columns(matrix: np.ndarray, threshold: float = THRESHOLD) -> list[int]:
    """Flat Ward clusters (labels 1..k) of the columns of a (models x datasets) matrix."""
    from scipy.cluster.hierarchy import fcluster, linkage
    from scipy.spatial.distance import squareform

    n = matrix.shape[1]
    if n < 2:
        return [1] * n
    dist = np.clip(1.0 - spearman_matrix(matrix), 0.0, 2.0)
    np.fill_diagonal(dist, 0.0)
    dist = (dist + dist.T) / 2
    tree = linkage(squareform(dist, checks=False), method="ward")
    return [int(x) for x in fcluster(tree, t=threshold, criterion="distance")]


def discover_task_clusters(
    table: Mapping[str, Mapping[str, float]],
    task: str = "",
    threshold: float = THRESHOLD,
    min_models: int = MIN_MODELS,
) -> TaskClusters:
    """Clusters of the datasets of one task from ``table[model][dataset] = score``.

    Models lacking any dataset are dropped; datasets are ordered by name and clusters by
    their first dataset, so the result does not depend on input order."""
    datasets = sorted({d for row in table.values() for d in row})
    models = sorted(m for m, row in table.items() if all(d in row for d in datasets))
    if len(datasets) < 2 or len(models) < min_models:
        method = (
            "single dataset"
            if len(datasets) < 2
            else f"singletons (only {len(models)} complete model(s), need {min_models})"
        )
        return TaskClusters(task, [[d] for d in datasets], models, method, datasets=datasets)
    matrix = np.array([[table[m][d] for d in datasets] for m in models], dtype=float)
    labels = cluster_columns(matrix, threshold)
    groups: dict[int, list[str]] = {}
    for d, label in zip(datasets, labels, strict=True):
        groups.setdefault(label, []).append(d)
    clusters = sorted(groups.values(), key=lambda g: g[0])
    corr = spearman_matrix(matrix)
    return TaskClusters(
        task,
        clusters,
        models,
        f"ward-spearman (threshold {threshold:g})",
        correlation=np.round(corr, 6).tolist(),
        datasets=datasets,
    )


def discover_clusters(
    scores: Iterable[Score],
    threshold: float = THRESHOLD,
    min_models: int = MIN_MODELS,
    exclude: Iterable[str] = (),
) -> dict[str, TaskClusters]:
    """Clusters per task type from result records of several models (main scores;
    datasets in ``exclude``, e.g. the non-English ones, are left out)."""
    skip = set(exclude)
    tables: dict[str, dict[str, dict[str, float]]] = {}
    for s in scores:
        if s.dataset in skip:
            continue
        tables.setdefault(s.task, {}).setdefault(s.model, {})[s.dataset] = s.metrics[
            s.main_score_name
        ]
    return {
        task: discover_task_clusters(table, task, threshold, min_models)
        for task, table in sorted(tables.items())
    }


def as_assignment(found: Mapping[str, TaskClusters]) -> dict[str, list[list[str]]]:
    return {task: tc.clusters for task, tc in found.items()}


def save_clusters(found: Mapping[str, TaskClusters], path: Path) -> Path:
    path.write_text(json.dumps({t: tc.to_dict() for t, tc in found.items()}, indent=2))
    return path


def load_clusters(path: Path) -> dict[str, list[list[str]]]:
    """A cluster file: ``{task: {"clusters": [[hub id, ...], ...]}}`` or
    ``{task: [[hub id, ...], ...]}``."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: not a readable cluster JSON ({error})") from None
    out: dict[str, list[list[str]]] = {}
    for task, value in raw.items():
        groups = value.get("clusters") if isinstance(value, dict) else value
        if not isinstance(groups, list) or not all(
            isinstance(g, list) and all(isinstance(d, str) for d in g) for g in groups
        ):
            raise DataError(f"{path}: task {task!r}: clusters must be lists of dataset ids")
        out[task] = [list(g) for g in groups]
    return out
