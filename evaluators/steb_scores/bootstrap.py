"""Bootstrap confidence intervals (percentile, 95 % by default, fixed seed) for dataset
scores and STEB aggregates; STEB itself reports none.

* **A dataset score**: resample its evaluation units (texts, pairs, queries, ... as
  recorded by the task in ``details["units"][metric]``: per-unit scores whose mean is the
  dataset score) with replacement and take the mean. Metrics that are not unit averages
  (AUROC, V-measure, probing accuracy) carry a CI the task evaluator computed at evaluation
  time (``details["ci95"]``, see evaluators/tasks/pairs.py, clustering.py, probing.py);
  :func:`evaluators.steb_scores.summary.dataset_score` uses it. Results with neither get
  no dataset CI (aggregates still treat such datasets as fixed values).
* **An aggregate** (a view's columns and averages): a stratified, multi-stage bootstrap
  that mirrors the aggregation. The columns (task types; Table 13 or application
  clusters) are fixed strata: they are the definition of the score, not a sample. In each
  replicate, within every column:

  - operational view: the redundancy clusters are resampled with replacement (after
    de-duplication they are the independent "kinds of dataset" of the task), then the
    datasets inside each drawn cluster;
  - other views: the groups are task types (fixed), and the datasets of each are
    resampled with replacement;
  - and a dataset with per-unit scores also resamples its units (pairs, queries).

  The interval answers "how much would the score move with other datasets of the same
  kind and other evaluation samples". A column with a single dataset and no per-unit
  scores contributes no variance; ``ViewScore.n_datasets`` reports how many datasets each
  column rests on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

import numpy as np

from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    generator,
    index_draws,
    percentile_interval,
    resampled_means,
)
from evaluators.steb_scores.scores import ViewScore
from evaluators.views import Unit, ViewSpec, evaluate_spec

Units = Sequence[float] | tuple[Sequence[float], Sequence[int]]
N_BOOT = 1000
ALPHA = 0.05


def _interval(samples: Sequence[float], alpha: float) -> tuple[float, float]:
    low, high = percentile_interval(samples, 1.0 - alpha)
    return float(low), float(high)


def as_histogram(units: Sequence[float] | tuple[Sequence[float], Sequence[int]]):
    """Per-unit scores as (distinct values, counts) arrays; a plain sequence is tallied."""
    if isinstance(units, tuple) and len(units) == 2 and not np.isscalar(units[0]):
        values = np.asarray(units[0], dtype=float)
        counts = np.asarray(units[1], dtype=np.int64)
    else:
        values, counts = np.unique(np.asarray(units, dtype=float), return_counts=True)
    if values.size == 0 or counts.sum() == 0:
        raise ValueError("no units to bootstrap")
    return values, counts


def dataset_ci(
    units: Sequence[float] | tuple[Sequence[float], Sequence[int]],
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    alpha: float = ALPHA,
) -> tuple[float, float]:
    """Percentile CI of the mean of per-unit scores (a sequence, or (values, counts))."""
    values, counts = as_histogram(units)
    rng = generator(seed)
    return _interval(resampled_means(values, counts, n_boot, rng), alpha)


def view_replicates(
    spec: ViewSpec,
    values: Mapping[Unit, float],
    unit_scores: Mapping[Unit, Units] | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
) -> list[dict[str, float]]:
    """``n_boot`` bootstrap replicates of every column and derived column of a view."""
    rng = generator(seed)
    per_unit = {u: as_histogram(v) for u, v in (unit_scores or {}).items()}
    layout = {
        column: {g: [u for u in units if u in values] for g, units in groups.items()}
        for column, groups in spec.columns.items()
    }
    replicates = []
    for _ in range(n_boot):
        draw_values: dict[Unit, float] = {}
        columns: dict[str, dict[str, list[Unit]]] = {}
        for column, groups in layout.items():
            columns[column] = {}
            present = [g for g, units in groups.items() if units]
            if spec.resample_groups and present:
                drawn = [present[i] for i in index_draws(len(present), rng)]
            else:
                drawn = present
            for n_group, g in enumerate(drawn):
                units = groups[g]
                picks = index_draws(len(units), rng)
                chosen = []
                for k, i in enumerate(picks):
                    unit = units[i]
                    key = (*unit[:2], f"{unit[2]}#{column}#{n_group}#{k}")
                    if unit in per_unit:
                        draw_values[key] = float(resampled_means(*per_unit[unit], 1, rng)[0])
                    else:
                        draw_values[key] = values[unit]
                    chosen.append(key)
                columns[column][f"{g}#{n_group}"] = chosen
        replicates.append(evaluate_spec(dataclasses.replace(spec, columns=columns), draw_values))
    return replicates


def view_ci(
    spec: ViewSpec,
    values: Mapping[Unit, float],
    unit_scores: Mapping[Unit, Units] | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    alpha: float = ALPHA,
) -> dict[str, tuple[float, float]]:
    """Percentile CI of every column and derived column that has a value."""
    replicates = view_replicates(spec, values, unit_scores, n_boot, seed)
    names = dict.fromkeys(k for r in replicates for k in r)
    return {name: _interval([r[name] for r in replicates if name in r], alpha) for name in names}


def attach_ci(
    score: ViewScore,
    spec: ViewSpec,
    values: Mapping[Unit, float],
    unit_scores: Mapping[Unit, Units] | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
) -> ViewScore:
    score.ci = view_ci(spec, values, unit_scores, n_boot, seed)
    return score
