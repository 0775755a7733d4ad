"""The long-format table the leaderboard reads (``stylebench results table``).

:func:`results_table` is the one place it is built. One row per (record, metric), and per
benchmark: a record whose (dataset, task) is a unit of several benchmark versions
(``STEB(v1)``, ``STEB-lite(v1)``, ...) gives one row per benchmark; a record of no known
benchmark gives one row with ``benchmark`` and ``benchmark_version`` null. Columns, in
this order (:data:`COLUMNS`):

| column | type | what |
|---|---|---|
| ``model`` | str | the model's public name (``model_meta.json`` ``name``) |
| ``revision`` | str | its revision folder (``no_revision_available`` when none) |
| ``benchmark`` | str or null | benchmark name (``STEB``, ``STEB-lite``, ``ARB``, ...) |
| ``benchmark_version`` | str or null | its version (``v1``) |
| ``dataset`` | str | the record's dataset id (``steb/pastel_age``) |
| ``task`` | str | the task type (``clustering``, ``all_to_all_pairs``, ...) |
| ``metric`` | str | the metric name (``v_measure``, ``auc``, ...) |
| ``value`` | float | its value, in [0, 1] as recorded |
| ``ci_low``, ``ci_high`` | float or null | the task's 95 % interval for that metric (``details.ci95``) |
| ``is_main`` | bool | the metric is the record's main score |
| ``n_parameters``, ``embedding_dim``, ``max_tokens`` | int or null | from ``model_meta.json`` (``embed_dim``) |
| ``open_weights`` | bool or null | from ``model_meta.json`` |
| ``task_type`` | str | the task's family label as on the Hub (``Clustering``, ``PairClassification``, ``OrderAlignment``, ``Retrieval``, ``Probing``) |

:func:`benchmark_scores` turns the table into one row per (model, revision, benchmark):
the benchmark's aggregate over complete rows only (:meth:`Benchmark.aggregate`), with
its coverage.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluators.records.paths import revision_folder
from evaluators.results.repository import iter_model_folders

if TYPE_CHECKING:
    import pandas as pd

COLUMNS = (
    "model",
    "revision",
    "benchmark",
    "benchmark_version",
    "dataset",
    "task",
    "metric",
    "value",
    "ci_low",
    "ci_high",
    "is_main",
    "n_parameters",
    "embedding_dim",
    "max_tokens",
    "open_weights",
    "task_type",
)
SCORE_COLUMNS = (
    "model",
    "revision",
    "benchmark",
    "benchmark_version",
    "score",
    "covered",
    "total",
    "complete",
)


def _ci(record: Any, metric: str) -> tuple[float | None, float | None]:
    ci = (record.ci95 or {}).get(metric)
    if (
        isinstance(ci, list | tuple)
        and len(ci) == 2
        and all(isinstance(v, int | float) for v in ci)
    ):
        return float(ci[0]), float(ci[1])
    return None, None


def table_rows(root: Path) -> list[dict[str, Any]]:
    """The rows of :func:`results_table` as dicts."""
    from evaluators.benchmarks import benchmarks_of
    from evaluators.tasks.facts import hub_type

    rows = []
    for folder in iter_model_folders(root):
        meta = folder.meta
        model = {
            "model": str(meta["name"]),
            "revision": revision_folder(meta.get("revision")),
        }
        about = {
            "n_parameters": meta.get("n_parameters"),
            "embedding_dim": meta.get("embed_dim"),
            "max_tokens": meta.get("max_tokens"),
            "open_weights": meta.get("open_weights"),
        }
        for _, record in folder.records:
            found = benchmarks_of(record.dataset_id, record.task)
            names = [(b.name, b.version) for b in found] or [(None, None)]
            for metric, value in sorted(record.metrics.items()):
                low, high = _ci(record, metric)
                for bench, version in names:
                    rows.append(
                        {
                            **model,
                            "benchmark": bench,
                            "benchmark_version": version,
                            "dataset": record.dataset_id,
                            "task": record.task,
                            "metric": metric,
                            "value": float(value),
                            "ci_low": low,
                            "ci_high": high,
                            "is_main": metric == record.main_score_name,
                            **about,
                            "task_type": hub_type(record.task),
                        }
                    )
    return rows


def results_table(root: Path) -> pd.DataFrame:
    """The long-format table of a results repository (see the module docstring for the
    columns); DataError naming the file at the first unreadable one."""
    import pandas as pd

    frame = pd.DataFrame(table_rows(root), columns=list(COLUMNS))
    for column in ("n_parameters", "embedding_dim", "max_tokens"):
        frame[column] = frame[column].astype("Int64")
    frame["open_weights"] = frame["open_weights"].astype("boolean")
    frame["is_main"] = frame["is_main"].astype(bool)
    frame["value"] = frame["value"].astype(float)
    for column in ("ci_low", "ci_high"):
        frame[column] = frame[column].astype("Float64")
    return frame.sort_values(
        ["model", "revision", "benchmark", "dataset", "task", "metric"], na_position="last"
    ).reset_index(drop=True)


def benchmark_scores(table: pd.DataFrame) -> pd.DataFrame:
    """One row per (model, revision, benchmark version): its aggregate
    (:meth:`~evaluators.benchmarks.Benchmark.aggregate`: null unless every unit of the
    benchmark is present) and its coverage."""
    import pandas as pd

    from evaluators.benchmarks import get_benchmark

    main = table[table["is_main"] & table["benchmark"].notna()]
    rows = []
    for (model, revision, name, version), group in main.groupby(
        ["model", "revision", "benchmark", "benchmark_version"], sort=True
    ):
        bench = get_benchmark(str(name), str(version))
        values = {
            (d, t): float(v)
            for d, t, v in zip(group["dataset"], group["task"], group["value"], strict=True)
        }
        score = bench.aggregate(values)
        rows.append(
            {
                "model": model,
                "revision": revision,
                "benchmark": name,
                "benchmark_version": version,
                "score": score.value,
                "covered": score.covered,
                "total": score.total,
                "complete": score.complete,
            }
        )
    return pd.DataFrame(rows, columns=list(SCORE_COLUMNS))
