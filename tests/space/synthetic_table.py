"""A synthetic long-format leaderboard table (the ``stylebench results table`` contract,
:mod:`evaluators.results.table`) at any scale, for the leaderboard's tests and benchmark.

Every model has a result on each (dataset, task) unit of ``STEB(v1)`` as declared in
:mod:`evaluators.benchmarks` (113 datasets, 138 units, 5 task types as the Hub labels
them), repeated for every benchmark version that holds the unit (``STEB-operational(v1)``,
``STEB-lite(v1)``, ...) as ``results table`` writes it; the main metric and, for order
alignment, the plain accuracy; CIs; open and closed weights, sizes; every
``missing_every``-th model lacks one unit. A share of the models also has ARB, Valla and
style-discrimination results.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from evaluators.results.table import COLUMNS
from evaluators.tasks.facts import TASK_FACTS

MAIN = {
    **{name: f.main_score for name, f in TASK_FACTS.items()},
    "detection": "tpr_at_fpr",
    "aa": "macro_accuracy",
    "av": "auc",
    "style_discrimination": "accuracy",
}


def _units(key: str) -> list[tuple[str, str]]:
    from evaluators.benchmarks import benchmarks

    return list(benchmarks()[key].units)


def synthetic_table(
    n_models: int = 500,
    seed: int = 0,
    missing_every: int = 7,
    other_every: int = 10,
) -> pd.DataFrame:
    from evaluators.benchmarks import benchmarks
    from evaluators.tasks.facts import hub_type

    rng = np.random.default_rng(seed)
    models = np.array([f"org{i % 37}/model-{i:04d}" for i in range(n_models)], dtype=object)
    skill = rng.normal(0.0, 0.08, n_models)
    params = np.round(10 ** rng.uniform(7, 10.5, n_models))
    open_w = np.array([[True, False, None][i % 3] for i in range(n_models)], dtype=object)
    owners: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for bench in benchmarks().values():
        for unit in bench.units:
            owners.setdefault(unit, []).append((bench.name, bench.version))
    frames = []
    for key, every in (
        ("STEB(v1)", 1),
        ("ARB(v1)", other_every),
        ("Valla(v1)", other_every),
        ("StyleDisc(v1)", other_every),
    ):
        units = _units(key)
        chosen = np.arange(0, n_models, every)
        m, u = (a.ravel() for a in np.meshgrid(chosen, np.arange(len(units)), indexing="ij"))
        base = rng.uniform(0.3, 0.7, len(units))
        value = np.clip(base[u] + skill[m] + rng.normal(0, 0.03, m.size), 0, 1)
        half = rng.uniform(0.005, 0.05, m.size)
        keep = (
            ~((m % missing_every == 3) & (u == 5)) if key == "STEB(v1)" else np.ones(m.size, bool)
        )
        datasets = np.array([d for d, _ in units], dtype=object)[u]
        tasks = np.array([t for _, t in units], dtype=object)[u]
        record = pd.DataFrame(
            {
                "model": models[m],
                "revision": "main",
                "dataset": datasets,
                "task": tasks,
                "metric": [MAIN[t] for t in tasks],
                "value": value,
                "ci_low": np.clip(value - half, 0, 1),
                "ci_high": np.clip(value + half, 0, 1),
                "is_main": True,
                "n_parameters": params[m],
                "embedding_dim": 768.0,
                "max_tokens": 512.0,
                "open_weights": open_w[m],
                "task_type": [hub_type(t) for t in tasks],
            }
        ).loc[keep]
        oa = record.loc[record["task"] == "order_alignment"].copy()
        oa["metric"], oa["is_main"] = "accuracy", False
        oa["value"] = np.clip(oa["value"] + 0.1, 0, 1)
        record = pd.concat([record, oa], ignore_index=True)
        # one row per benchmark version holding the unit, as `results table` writes
        pairs = list(zip(record["dataset"], record["task"], strict=True))
        names = [owners[p] for p in pairs]
        record = record.assign(_owners=names).explode("_owners", ignore_index=True)
        record["benchmark"] = [o[0] for o in record["_owners"]]
        record["benchmark_version"] = [o[1] for o in record["_owners"]]
        frames.append(record.drop(columns="_owners"))
    out = pd.concat(frames, ignore_index=True)
    return out.loc[:, list(COLUMNS)]


def write_table(path: Path, **kwargs) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    synthetic_table(**kwargs).to_parquet(path, index=False)
    return path
