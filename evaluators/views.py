"""Views: how a benchmark's unit scores become columns and one overall score.

Every view (STEB's four, the leaderboard's by-task-type and per-dataset views, the
aggregate of :meth:`evaluators.benchmarks.Benchmark.aggregate` and of ``stylebench
compare``) is the same three-level computation, described by a :class:`ViewSpec`:

    unit   = one (dataset, task, metric) score
    group  = mean of its units that are present
    column = mean of its groups that have a unit present
    derived columns (the overall score, averages) = ``ViewSpec.combine(columns)``

The rule has two forms, kept as two functions because each keeps the arithmetic order of
its callers (so their numbers stay bit-identical): :func:`evaluate_spec` sums unit values
(floats, or arrays over models) in that order; :func:`weights` writes every column and
derived column as weights over the units (``1 / (groups * units)`` per unit, then
``combine``) for a matrix product. They agree up to rounding (tests/core/test_views.py).
:func:`normal_se` is the interval rule of the matrix form (units with normal intervals,
independent).

:func:`by_task_type` (one column per task type, one group per dataset) and
:func:`per_dataset` (one column per (dataset, task)) are the generic views of any
benchmark; the STEB views are laid out by :mod:`evaluators.steb_scores.scores`.

``import evaluators.views`` loads no numpy (``evaluators.benchmarks`` imports it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

Unit = tuple[str, str, str]  # (dataset id, task, metric)
Combine = Callable[[dict[str, Any]], dict[str, Any]]

OVERALL = "score"  # the overall column of the generic views
BY_TASK_TYPE = "by task type"
PER_DATASET = "per dataset"


@dataclass
class ViewSpec:
    """What a view averages: ``columns[column][group] = [units]``; ``combine`` derives
    further columns from the columns (a linear function: it gets floats or arrays);
    ``overall`` names the view's one score. ``note`` says how this view was laid out,
    ``expected`` how many datasets each column holds in the reference (for completeness),
    ``resample_groups`` whether a bootstrap resamples a column's groups (operational
    clusters) or keeps them as fixed strata (task types inside a column)."""

    name: str
    columns: dict[str, dict[str, list[Unit]]]
    combine: Combine
    overall: str = OVERALL
    note: str = ""
    expected: dict[str, int] = field(default_factory=dict)
    resample_groups: bool = False

    @property
    def column_names(self) -> list[str]:
        return list(self.columns)

    @property
    def units(self) -> list[Unit]:
        """Every unit of the view, once, in the order of its columns and groups."""
        return list(
            dict.fromkeys(
                u for groups in self.columns.values() for us in groups.values() for u in us
            )
        )


def mean(values: Sequence[Any]) -> Any:
    """``sum(values) / len(values)``: the one mean of the views (floats or arrays)."""
    return sum(values) / len(values)


def mean_of(names: Sequence[str], out: str) -> Combine:
    """A ``combine``: ``out`` = the mean of the columns ``names`` that have a value."""
    names = list(names)

    def combine(cols: dict[str, Any]) -> dict[str, Any]:
        parts = [cols[c] for c in names if c in cols]
        return {out: mean(parts)} if parts else {}

    return combine


def by_task_type(
    units: Iterable[Unit], name: str = BY_TASK_TYPE, *, sort_columns: bool = False
) -> ViewSpec:
    """One column per task type, one group per dataset (one unit per (dataset, task): a
    later metric replaces an earlier one), ``score`` = the mean of the task columns: the
    mean over task types of the mean over their datasets. Columns come in the order their
    task first appears in ``units`` (the order the overall score sums them), or sorted by
    task name (``sort_columns``)."""
    columns: dict[str, dict[str, list[Unit]]] = {}
    for unit in units:
        columns.setdefault(unit[1], {})[unit[0]] = [unit]
    if sort_columns:
        columns = dict(sorted(columns.items()))
    return ViewSpec(name, columns, mean_of(list(columns), OVERALL))


def dataset_label(unit: Unit) -> str:
    """The per-dataset view's column name of a unit: ``dataset / task``."""
    return f"{unit[0]} / {unit[1]}"


def per_dataset(units: Iterable[Unit], name: str = PER_DATASET) -> ViewSpec:
    """One column per (dataset, task), sorted by :func:`dataset_label` (a later metric of
    the same pair replaces an earlier one); ``score`` = their mean."""
    columns: dict[str, dict[str, list[Unit]]] = {}
    for unit in units:
        columns[dataset_label(unit)] = {unit[0]: [unit]}
    columns = dict(sorted(columns.items()))
    return ViewSpec(name, columns, mean_of(list(columns), OVERALL))


def pruned(spec: ViewSpec) -> ViewSpec:
    """``spec`` without its empty groups and the columns left empty."""
    columns = {
        c: {g: list(us) for g, us in groups.items() if us} for c, groups in spec.columns.items()
    }
    return dataclasses.replace(spec, columns={c: g for c, g in columns.items() if g})


def evaluate_spec(spec: ViewSpec, values: Mapping[Unit, Any]) -> dict[str, Any]:
    """Columns and derived columns of a view for unit values (floats, or arrays over
    models); units without a value are skipped, and so are groups and columns left empty."""
    cols: dict[str, Any] = {}
    for column, groups in spec.columns.items():
        group_means = []
        for units in groups.values():
            present = [values[u] for u in units if u in values]
            if present:
                group_means.append(mean(present))
        if group_means:
            cols[column] = mean(group_means)
    return {**cols, **spec.combine(cols)}


def column_datasets(spec: ViewSpec, values: Mapping[Unit, Any]) -> dict[str, int]:
    """How many datasets with a value each column rests on."""
    return {
        column: len({u[0] for units in groups.values() for u in units if u in values})
        for column, groups in spec.columns.items()
    }


def weights(spec: ViewSpec, unit_index: Mapping[Unit, int]) -> tuple[list[str], np.ndarray]:
    """``(names, W)``: each column and derived column of ``spec`` as weights over the
    units (``W[unit_index[u], j]``), from the rule group mean -> column mean ->
    ``combine``; a view's value for unit values ``x`` is ``x @ W`` when every unit of it
    has a value. Every unit of ``spec`` must be in ``unit_index``."""
    import numpy as np

    n = len(unit_index)
    cols: dict[str, np.ndarray] = {}
    for column, groups in spec.columns.items():
        w = np.zeros(n)
        for units in groups.values():
            for unit in units:
                w[unit_index[unit]] += 1.0 / (len(groups) * len(units))
        cols[column] = w
    derived = spec.combine(cols) if cols else {}
    names = [*cols, *(d for d in derived if d not in cols)]
    everything = {**cols, **derived}
    matrix = np.stack([everything[c] for c in names], axis=1) if names else np.zeros((n, 0))
    return names, matrix


def normal_se(unit_se: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The interval rule of a view whose units carry normal intervals: each column's
    standard error for independent units, ``sqrt(sum_u w_u^2 se_u^2)`` (``matrix`` from
    :func:`weights`; ``unit_se``: ``models x units``, NaN counted as 0, so mask the cells
    whose units lack one); the 95 % interval is ``value +- 1.96 * se``."""
    import numpy as np

    return np.sqrt(np.nan_to_num(unit_se) ** 2 @ (matrix**2))
