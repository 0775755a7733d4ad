"""One call from result files to every STEB score of every model, with CIs:
:func:`summarize` (used by ``stylebench steb scores`` and the leaderboard)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.metric_math.resampling import DEFAULT_SEED
from evaluators.steb_scores.bootstrap import N_BOOT, attach_ci, dataset_ci
from evaluators.steb_scores.clusters import (
    THRESHOLD,
    TaskClusters,
    as_assignment,
    discover_clusters,
)
from evaluators.steb_scores.results import (
    STEB_TOTAL_DATASETS,
    Score,
    by_model,
    coverage,
)
from evaluators.steb_scores.scores import (
    VIEWS,
    ViewScore,
    build_spec,
    multilingual_datasets,
    unit_values,
    view_score,
)


@dataclass
class DatasetScore:
    dataset: str
    task: str
    metric: str
    value: float
    ci: tuple[float, float] | None
    n_units: int


@dataclass
class ModelSummary:
    model: str
    views: dict[str, ViewScore]
    datasets: list[DatasetScore]
    covered: int
    total: int = STEB_TOTAL_DATASETS

    @property
    def coverage(self) -> str:
        return f"{self.covered} of {self.total}"

    @property
    def comparable(self) -> bool:
        """True only on the full benchmark: a partial dataset set is not comparable to
        the paper's rows."""
        return self.covered >= self.total

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "coverage": self.coverage,
            "covered_datasets": self.covered,
            "total_datasets": self.total,
            "comparable_to_paper": self.comparable,
            "views": {k: v.to_dict() for k, v in self.views.items()},
            "datasets": [
                {
                    "dataset": d.dataset,
                    "task": d.task,
                    "metric": d.metric,
                    "value": d.value,
                    "ci95": list(d.ci) if d.ci else None,
                    "n_units": d.n_units,
                }
                for d in self.datasets
            ],
        }


@dataclass
class Summary:
    models: dict[str, ModelSummary]
    clusters: dict[str, list[list[str]]]
    cluster_details: dict[str, TaskClusters] = field(default_factory=dict)
    cluster_source: str = ""
    n_boot: int = N_BOOT
    seed: int = DEFAULT_SEED

    def to_dict(self) -> dict[str, Any]:
        return {
            "bootstrap": {"n_boot": self.n_boot, "seed": self.seed, "interval": "percentile 95%"},
            "cluster_source": self.cluster_source,
            "clusters": {t: tc.to_dict() for t, tc in self.cluster_details.items()}
            or self.clusters,
            "models": {m: s.to_dict() for m, s in self.models.items()},
        }

    def write_json(self, path: Path) -> Path:
        path.write_text(json.dumps(self.to_dict(), indent=2))
        return path


def _dataset_key(score: Score) -> tuple[str, str]:
    return score.dataset, score.task


def dataset_score(score: Score, n_boot: int = N_BOOT, seed: int = DEFAULT_SEED) -> DatasetScore:
    """The main score of one result with its CI: the one the task evaluator recorded at
    evaluation time (``details["ci95"]``: AUROC, V-measure, probing accuracy, whose
    bootstrap needs the raw pairs/texts) when present, else the bootstrap of the recorded
    per-unit scores (unit-average metrics), else none."""
    name = score.main_score_name
    recorded = score.cis.get(name)
    if recorded is not None:
        return DatasetScore(
            score.dataset, score.task, name, score.metrics[name], recorded, score.ci_units
        )
    units = score.units.get(name)
    return DatasetScore(
        score.dataset,
        score.task,
        name,
        score.metrics[name],
        dataset_ci(units, n_boot, seed) if units else None,
        int(sum(units[1])) if units else 0,
    )


def summarize(
    scores: Sequence[Score],
    clusters: Mapping[str, Sequence[Sequence[str]]] | None = None,
    *,
    threshold: float = THRESHOLD,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    views: Sequence[str] = VIEWS,
) -> Summary:
    """Every view for every model in ``scores``.

    ``clusters``: a given assignment ``{task: [[dataset, ...], ...]}``; when None they are
    discovered from ``scores`` themselves (needs 3+ models with complete results per task,
    otherwise every dataset is its own cluster; the summary records which happened)."""
    if clusters is None:
        details = discover_clusters(scores, threshold, exclude=multilingual_datasets())
        assignment = as_assignment(details)
        source = "discovered from these results: " + "; ".join(
            f"{t}: {tc.method}" for t, tc in details.items()
        )
    else:
        details = {}
        assignment = {t: [list(g) for g in groups] for t, groups in clusters.items()}
        source = "given"
    models = {}
    for model, own in sorted(by_model(scores).items()):
        values = unit_values(own)
        unit_scores = {
            (s.dataset, s.task, metric): units for s in own for metric, units in s.units.items()
        }
        model_views = {}
        for view in views:
            spec = build_spec(view, own, assignment)
            score = view_score(view, own, assignment)
            if score.overall is not None or any(v is not None for v in score.columns.values()):
                attach_ci(score, spec, values, unit_scores, n_boot, seed)
            model_views[view] = score
        datasets = [dataset_score(s, n_boot, seed) for s in sorted(own, key=_dataset_key)]
        covered = coverage(own, multilingual_datasets())
        models[model] = ModelSummary(model, model_views, datasets, covered)
    return Summary(models, assignment, details, source, n_boot, seed)
