"""Results in the Hub model card's ``model-index`` format, so a model repository shows them.

The layout follows the Hub's model-card metadata specification as used by mteb's
``create_meta`` (read via the search tool): ``model-index: [{name, results: [{task:
{type}, dataset: {type, name, config, split, revision}, metrics: [{type, value}]}]}]``,
values x100 as on the mteb leaderboard and a ``main_score`` metric per result. One result
per (dataset, task) main score, plus one per STEB aggregate (dataset type ``steb/STEB``,
config = the view).

Beside it, the Hub's **eval results** (https://huggingface.co/docs/hub/eval-results):
a benchmark dataset repo carries an ``eval.yaml`` (``name``, ``description``,
``evaluation_framework``, ``tasks: [{id, config, split}]``: :func:`eval_yaml`), and a
model repo carries ``.eval_results/<benchmark>.yaml``, a list of entries ``{dataset: {id,
task_id, revision}, value, date, source: {url, name}, notes}`` (:func:`eval_results`). A
task id is ``<config>_<task>`` (:func:`eval_task_id`), the same rule on both sides, so
every entry names a task of its dataset's ``eval.yaml``; values are the main score x100
as in the ``model-index``.

``evaluation_framework: stylebench`` is not among the frameworks the Hub accepts today
(``EVALUATION_FRAMEWORKS`` of huggingface.js ``packages/tasks/src/eval.ts``: inspect-ai,
mteb, ...; MTEB's cannot run these tasks): the files are written so that registering
``stylebench`` there is all that is needed (docs/guides/share-results.md has the request).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from evaluators.records.record import LOCAL_REVISION_PREFIX
from evaluators.steb_scores.results import Score
from evaluators.steb_scores.summary import ModelSummary
from evaluators.tasks.facts import hub_type


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
                "task": {"type": hub_type(s.task)},
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


EVALUATION_FRAMEWORK = "stylebench"


def eval_task_id(config: str, task: str) -> str:
    """The ``eval.yaml`` task id of one task type on one config of a dataset repo."""
    return f"{config}_{task}"


def eval_yaml(
    name: str, description: str, config_tasks: Mapping[str, Sequence[str]], split: str = "test"
) -> dict[str, Any]:
    """A benchmark dataset repo's ``eval.yaml``: one task per (config, task type), on the
    split stylebench evaluates."""
    tasks = [
        {"id": eval_task_id(config, task), "config": config, "split": split}
        for config, names in sorted(config_tasks.items())
        for task in names
    ]
    return {
        "name": name,
        "description": description,
        "evaluation_framework": EVALUATION_FRAMEWORK,
        "tasks": tasks,
    }


def eval_results(
    records: Sequence[Any],
    source_url: str | None,
    source_name: str = "stylebench results repository",
) -> list[dict[str, Any]]:
    """``.eval_results`` entries of one model: one per result (its main score x100),
    dataset = the Hub repo the rows came from, task = :func:`eval_task_id`, revision =
    the dataset's (a local build's is its content fingerprint, ``local-...``: left out,
    the Hub knows no such commit); ``source`` only when the results repository has a
    public URL."""
    entries = []
    for r in sorted(records, key=lambda r: (r.dataset_id, r.task)):
        protocol = r.run.get("protocol") or {}
        setting = f"protocol {protocol.get('name')} v{protocol.get('version')}" if protocol else ""
        entry: dict[str, Any] = {
            "dataset": {
                "id": r.dataset.repo or r.dataset_id,
                "task_id": eval_task_id(r.dataset.config, r.task),
            },
            "value": _pct(r.main_score),
        }
        if r.dataset.revision and not r.dataset.revision.startswith(LOCAL_REVISION_PREFIX):
            entry["dataset"]["revision"] = r.dataset.revision
        if r.created_at:
            entry["date"] = r.created_at[:10]
        if source_url:
            entry["source"] = {"url": source_url, "name": source_name}
        entry["notes"] = (
            f"{r.main_score_name} x100, stylebench {r.versions.get('stylebench', '?')}, "
            f"{setting}, seed {r.seed}".replace(", , ", ", ")
        )
        entries.append(entry)
    return entries


def card_metadata_yaml(meta: dict[str, Any]) -> str:
    """The YAML front matter block (with ``---`` fences) of a model card."""
    return "---\n" + yaml.safe_dump(meta, sort_keys=False, allow_unicode=True) + "---\n"


def write_model_card_metadata(meta: dict[str, Any], path: Path) -> Path:
    path.write_text(card_metadata_yaml(meta), encoding="utf-8")
    return path
