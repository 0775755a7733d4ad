"""Results in the Hub model card's ``model-index`` format, so a model repository shows them.

The layout follows the Hub's model-card metadata specification as used by mteb's
``create_meta`` (read via the search tool): ``model-index: [{name, results: [{task:
{type}, dataset: {type, name, config, split, revision}, metrics: [{type, value}]}]}]``,
values x100 as on the mteb leaderboard and a ``main_score`` metric per result. One result
per (dataset, task) main score, plus one per STEB aggregate (dataset type ``steb/STEB``,
config = the view).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from evaluators.steb_scores.results import Score
from evaluators.steb_scores.summary import ModelSummary

TASK_LABELS = {
    "clustering": "Clustering",
    "all_to_all_pairs": "PairClassification",
    "predefined_pairs": "PairClassification",
    "order_alignment": "OrderAlignment",
    "retrieval": "Retrieval",
    "probing": "Probing",
}


def _pct(value: float) -> float:
    return round(100.0 * value, 4)


def model_index(
    model: str, scores: list[Score], summary: ModelSummary | None = None
) -> dict[str, Any]:
    """The ``model-index`` metadata dict for one model."""
    results: list[dict[str, Any]] = []
    for s in sorted(scores, key=lambda s: (s.dataset, s.task)):
        metrics = [{"type": "main_score", "value": _pct(s.metrics[s.main_score_name])}]
        metrics += [{"type": k, "value": _pct(v)} for k, v in sorted(s.metrics.items())]
        results.append(
            {
                "task": {"type": TASK_LABELS.get(s.task, s.task)},
                "dataset": {
                    "type": s.dataset,
                    "name": f"STEB {s.dataset.split('/')[-1]} ({s.task})",
                    "config": s.task,
                    "split": "test",
                    "revision": "local",
                },
                "metrics": metrics,
            }
        )
    if summary is not None:
        for view, vs in summary.views.items():
            values = {c: v for c, v in vs.columns.items() if v is not None}
            if not values:
                continue
            metrics = [{"type": "main_score", "value": _pct(vs.overall)}] if vs.overall else []
            for column, value in values.items():
                metrics.append({"type": column, "value": _pct(value)})
                if column in vs.ci:
                    lo, hi = vs.ci[column]
                    metrics.append({"type": f"{column}_ci95_low", "value": _pct(lo)})
                    metrics.append({"type": f"{column}_ci95_high", "value": _pct(hi)})
            results.append(
                {
                    "task": {"type": "STEB"},
                    "dataset": {
                        "type": "steb/STEB",
                        "name": f"STEB {view} score ({summary.coverage} datasets"
                        + ("" if summary.comparable else ", partial: not comparable")
                        + ")",
                        "config": view,
                        "split": "test",
                        "revision": "local",
                    },
                    "metrics": metrics,
                }
            )
    return {"tags": ["stylebench", "steb"], "model-index": [{"name": model, "results": results}]}


def card_metadata_yaml(meta: dict[str, Any]) -> str:
    """The YAML front matter block (with ``---`` fences) of a model card."""
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n"


def write_model_card_metadata(meta: dict[str, Any], path: Path) -> Path:
    path.write_text(card_metadata_yaml(meta), encoding="utf-8")
    return path
