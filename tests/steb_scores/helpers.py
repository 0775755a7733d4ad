"""Constructed result records and runner-format result files for the STEB score tests."""

from __future__ import annotations

import json
from pathlib import Path

from evaluators.steb_scores.results import Score
from evaluators.tasks.facts import TASK_FACTS


def score(model: str, dataset: str, task: str, value: float, **metrics: float) -> Score:
    main = TASK_FACTS[task].main_score
    return Score(model, dataset, task, main, {main: value, **metrics})


def write_result(root: Path, model: str, dataset: str, task: str, value: float, **extra) -> Path:
    """A result JSON in the layout of evaluators/run/runner.py (Hub-id ref, no local folder)."""
    main = TASK_FACTS[task].main_score
    metrics = {main: value, **extra.pop("metrics", {})}
    folder = root / model / dataset.replace("/", "__")
    folder.mkdir(parents=True, exist_ok=True)
    payload = {
        "model": {"name": model, "identity": {}},
        "dataset": {"name": dataset, "ref": dataset, "config": "x", "split": "test"},
        "task": task,
        "main_score_name": main,
        "main_score": value,
        "metrics": metrics,
        "counts": {},
        "seed": 42,
        "details": extra.pop("details", {}),
    }
    path = folder / f"{task}.json"
    path.write_text(json.dumps(payload))
    return path
