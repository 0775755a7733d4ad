"""The leaderboard's data: the long-format results table, read once per process and turned
into every view at start-up, so that switching a view or a filter is a dict lookup and a
row filter.

The table (``stylebench results table --out table.parquet``) has one row per (record,
metric, benchmark) with the columns of :data:`COLUMNS`. It comes from, in this order:

1. the ``source`` argument of :func:`get_leaderboard`, else ``STYLEBENCH_LEADERBOARD_TABLE``:
   a ``.parquet`` file, a results-repository folder (read with
   ``evaluators.results.table.results_table`` when that module is installed), or a Hub
   dataset repo id ``org/name`` (its Parquet files, through ``huggingface_hub``; not
   offline);
2. nothing: the STEB paper's 40 models alone (the four tables of
   :mod:`evaluators.steb_scores.reference`).

The paper's 40 models are reference rows in the STEB views either way (``source`` =
``paper``, their printed numbers).

How a view aggregates (:class:`evaluators.views.ViewSpec`): a view's column is the mean
over its groups of the mean over the group's units (a unit = one dataset, task and
metric), the one rule of :mod:`evaluators.views`, here in its matrix form
(:func:`evaluators.views.weights`); for the STEB views the column layout comes from
:mod:`evaluators.steb_scores.scores` (``operational_spec``, ``definitional_spec``,
``application_spec``, ``multilingual_spec``; operational with every dataset its own
cluster: the redundancy clusters of the paper are not recomputed here). Any other
benchmark gets one column per task type (the mean over its datasets) and one column per
dataset (the drill-down view): :func:`evaluators.views.by_task_type` and
:func:`evaluators.views.per_dataset`. Unlike :func:`evaluators.views.evaluate_spec`, a
cell is shown only when the model has every unit of it: a model missing a dataset gets no
value for that column or the average, and its coverage (``k/n`` datasets) says why.
Because every column is a fixed linear combination of units,
the 95% interval of a cell is the normal approximation from the per-dataset intervals
(``ci_low``/``ci_high``), datasets independent: ``se = sqrt(sum w_u^2 se_u^2)``
(:func:`evaluators.views.normal_se`) with
``se_u = (ci_high - ci_low) / (2 * 1.96)``; it is shown only when every unit has one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import math
import os
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from dataset_scripts.core.errors import DataError, UnknownNameError
from evaluators.metric_math.paired import Z_95
from evaluators.results.table import COLUMNS as RESULTS_COLUMNS
from evaluators.views import (
    BY_TASK_TYPE,
    PER_DATASET,
    Unit,
    ViewSpec,
    by_task_type,
    normal_se,
    per_dataset,
    pruned,
    weights,
)

log = logging.getLogger("stylebench_space")

ENV_TABLE = "STYLEBENCH_LEADERBOARD_TABLE"
# the contract: the columns `stylebench results table` writes (their one home)
COLUMNS = RESULTS_COLUMNS
TEXT_COLUMNS = ("model", "dataset", "task", "metric", "task_type")
KEY = ("model", "revision", "benchmark", "dataset", "task", "metric")
SCALE = 100.0  # shown x100, like the paper
DIGITS = 2

ABSENT_METRIC = "(main score)"  # a declared unit no row of the table holds
NO_BENCHMARK = "(no benchmark)"
STEB_VIEWS = ("operational", "definitional", "application", "multilingual")
PAPER_BENCHMARK = "STEB(v1)"
PAPER_ONLY = "STEB(v1) (paper)"
SIZES = {
    "any size": (None, None),
    "< 100M parameters": (None, 1e8),
    "100M - 1B": (1e8, 1e9),
    "1B - 10B": (1e9, 1e10),
    "> 10B": (1e10, None),
}
META = ("source", "open_weights", "n_parameters", "coverage")


# ----------------------------------------------------------------------------- reading


def read_table(source: str | Path) -> tuple[pd.DataFrame, str]:
    """The long table from a Parquet file, a results-repository folder or a Hub dataset
    repo id; with a one-line description of where it came from. Raises :class:`DataError`."""
    text = str(source)
    path = Path(text).expanduser()
    if path.is_file():
        try:
            frame = pd.read_parquet(path)
        except Exception as error:  # pyarrow's errors are many types
            raise DataError(f"{path}: not a readable Parquet table ({error})") from None
        return check_table(frame, str(path)), f"Parquet table {path.name}"
    if path.is_dir():
        return check_table(_repository_table(path), str(path)), f"results repository {path.name}"
    if text.count("/") == 1 and not text.startswith((".", "/", "~")):
        return check_table(*_hub_table(text)), f"Hub dataset {text}"
    raise DataError(f"{ENV_TABLE}={text!r}: no such file or folder, and not a Hub repo id")


def _repository_table(folder: Path) -> pd.DataFrame:
    try:
        from evaluators.results import table as results_table_module
    except ImportError:
        raise DataError(
            f"{folder}: reading a results repository needs evaluators.results.table, which "
            "this build lacks; point at the Parquet file of `stylebench results table`"
        ) from None
    frame = results_table_module.results_table(folder)
    return frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)


def _hub_table(repo_id: str) -> tuple[pd.DataFrame, str]:
    if os.environ.get("HF_HUB_OFFLINE", "") not in ("", "0"):
        raise DataError(f"Hub dataset {repo_id}: the Hub is offline here (HF_HUB_OFFLINE)")
    from huggingface_hub import snapshot_download

    from stylebench_space.embedding import space_home

    folder = Path(
        snapshot_download(
            repo_id,
            repo_type="dataset",
            allow_patterns=["*.parquet", "**/*.parquet"],
            cache_dir=space_home() / "hub-tables",
        )
    )
    files = sorted(folder.rglob("*.parquet"))
    if not files:
        raise DataError(f"Hub dataset {repo_id}: holds no Parquet file")
    return pd.concat([pd.read_parquet(f) for f in files], ignore_index=True), repo_id


def check_table(frame: pd.DataFrame, where: str) -> pd.DataFrame:
    """The table with the contract's columns and types; a one-line :class:`DataError`
    naming the column (and row) otherwise."""
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise DataError(f"{where}: the leaderboard table lacks column(s) {', '.join(missing)}")
    out = frame.loc[:, list(COLUMNS)].reset_index(drop=True)

    def refuse(column: str, bad: pd.Series | np.ndarray, what: str) -> None:
        rows = np.flatnonzero(np.asarray(bad))
        if rows.size:
            value = out[column].iloc[int(rows[0])]
            raise DataError(
                f"{where}: row {int(rows[0])}, column {column}: {value!r} is not {what}"
            )

    for column in TEXT_COLUMNS:
        if pd.api.types.infer_dtype(out[column], skipna=False) != "string":
            refuse(column, out[column].map(lambda v: not isinstance(v, str)), "a name")
        refuse(column, out[column].str.len() == 0, "a name")
    for column in ("revision", "benchmark", "benchmark_version"):  # null: none
        out[column] = out[column].astype(object).where(out[column].notna(), "").astype(str)
    for column in ("value", "ci_low", "ci_high", "n_parameters", "embedding_dim", "max_tokens"):
        numbers = pd.to_numeric(out[column], errors="coerce").astype(float)
        bad = numbers.isna() & out[column].notna()
        if column == "value":
            bad |= ~np.isfinite(numbers.to_numpy())
        refuse(column, bad, "a number")
        out[column] = numbers
    for column in ("is_main", "open_weights"):
        kind = pd.api.types.infer_dtype(out[column], skipna=column == "open_weights")
        if kind not in ("boolean", "empty"):
            refuse(
                column,
                out[column].map(
                    lambda v, c=column: (
                        not (
                            isinstance(v, (bool, np.bool_)) or (c == "open_weights" and pd.isna(v))
                        )
                    )
                ),
                "true/false",
            )
    out["is_main"] = out["is_main"].astype(bool)
    ow = out["open_weights"].astype(object)
    out["open_weights"] = ow.where(ow.notna(), None)
    duplicated = out.duplicated(list(KEY))
    if duplicated.any():
        row = int(np.flatnonzero(duplicated.to_numpy())[0])
        key = ", ".join(f"{k}={out[k].iloc[row]!r}" for k in KEY)
        raise DataError(f"{where}: row {row} repeats an earlier row ({key})")
    return out


# ----------------------------------------------------------------------------- views


def generic_spec(units: Iterable[Unit], view: str) -> ViewSpec:
    """``by task type``: one column per task (the mean over its datasets), ``score`` = the
    mean of the task columns (``evaluators.benchmarks.Benchmark.aggregate``'s rule);
    ``per dataset``: one column per (dataset, task), ``score`` = their mean."""
    ordered = sorted(set(units))
    if view == BY_TASK_TYPE:
        return by_task_type(ordered, view, sort_columns=True)
    return per_dataset(ordered, view)


def steb_spec(view: str, available: Mapping[str, set[str]]) -> ViewSpec:
    """A STEB view over ``available`` ({dataset: tasks}), laid out by
    :func:`evaluators.steb_scores.scores.view_spec` (operational: every dataset its own
    cluster), without its empty groups and columns."""
    from evaluators.steb_scores import scores

    if view not in STEB_VIEWS:
        raise UnknownNameError(f"unknown STEB view {view!r}; known: {', '.join(STEB_VIEWS)}")
    note = ""
    if view == "operational":
        note = (
            "each dataset is its own cluster (the paper's redundancy clusters are not recomputed)"
        )
    return pruned(replace(scores.view_spec(view, available), note=note))


def declared(key: str) -> Any:
    """The :class:`evaluators.benchmarks.Benchmark` of a table key (``STEB(v1)``), or None
    for a benchmark this build does not declare."""
    try:
        from evaluators.benchmarks import benchmarks
    except ImportError:
        return None
    return benchmarks().get(key)


@dataclass
class BenchmarkData:
    """One benchmark's units as matrices over its models (rows) and units (columns)."""

    name: str
    models: list[str]  # display names, row order of the matrices
    meta: pd.DataFrame  # index = display name: open_weights, n_parameters
    units: list[Unit]
    unit_index: dict[Unit, int]
    values: np.ndarray  # models x units, NaN where missing
    se: np.ndarray  # models x units, NaN where the interval is missing
    main_units: list[Unit]  # incl. the declared units no row of the table has
    long: pd.DataFrame  # the table's rows of this benchmark
    declared_units: tuple[tuple[str, str], ...] = ()
    views: list[str] = field(default_factory=list)

    @property
    def task_types(self) -> list[str]:
        return sorted({u[1] for u in self.main_units})

    def available(self, keep: set[str] | None = None) -> dict[str, set[str]]:
        """{dataset: tasks} of the table's rows and the benchmark's declared units."""
        out: dict[str, set[str]] = {}
        for dataset, task in [*((u[0], u[1]) for u in self.units), *self.declared_units]:
            if keep is None or task in keep:
                out.setdefault(dataset, set()).add(task)
        return out


def display_names(frame: pd.DataFrame) -> pd.Series:
    """``model``, or ``model@revision`` where the table holds several revisions of it."""
    pairs = frame.loc[:, ["model", "revision"]].drop_duplicates()
    several = pairs["model"].map(pairs["model"].value_counts()) > 1
    names = pairs["model"].where(~several, pairs["model"] + "@" + pairs["revision"].str[:12])
    lookup = dict(zip(zip(pairs["model"], pairs["revision"], strict=True), names, strict=True))
    codes, uniques = _codes(frame, ("model", "revision"))
    return pd.Series(np.array([lookup[u] for u in uniques], dtype=object)[codes], index=frame.index)


def _codes(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, list[tuple]]:
    """Row codes of the distinct value tuples of ``columns`` (sorted), and those tuples."""
    combined = np.zeros(len(frame), dtype=np.int64)
    levels = []
    for column in columns:
        codes, uniques = pd.factorize(frame[column], sort=True)
        combined = combined * len(uniques) + codes
        levels.append(np.asarray(uniques, dtype=object))
    distinct, inverse = np.unique(combined, return_inverse=True)
    tuples = []
    for value in distinct.tolist():
        parts = []
        for level in reversed(levels):
            value, code = divmod(value, len(level))
            parts.append(level[code])
        tuples.append(tuple(reversed(parts)))
    return inverse.reshape(-1), tuples


def _benchmark_data(name: str, frame: pd.DataFrame) -> BenchmarkData:
    frame = frame.assign(name=display_names(frame))
    unit_codes, units = _codes(frame, ("dataset", "task", "metric"))
    index = {u: i for i, u in enumerate(units)}
    model_codes, model_keys = pd.factorize(frame["name"], sort=True)
    models = [str(m) for m in model_keys]
    values = np.full((len(models), len(units)), np.nan)
    se = np.full_like(values, np.nan)
    values[model_codes, unit_codes] = frame["value"].to_numpy(dtype=float)
    se[model_codes, unit_codes] = (frame["ci_high"] - frame["ci_low"]).to_numpy(dtype=float) / (
        2 * Z_95
    )
    main_codes = np.unique(unit_codes[frame["is_main"].to_numpy()])
    main_units = [units[i] for i in main_codes]
    bench = declared(name)
    declared_units = tuple(bench.units) if bench is not None else ()
    have = {(d, t) for d, t, _ in main_units}
    main_units += [(d, t, ABSENT_METRIC) for d, t in declared_units if (d, t) not in have]
    known = frame.loc[frame["open_weights"].notna()].drop_duplicates("name")
    meta = pd.DataFrame(
        {
            "open_weights": known.set_index("name")["open_weights"].reindex(models),
            "n_parameters": frame.groupby("name")["n_parameters"].max().reindex(models),
        }
    )
    meta["open_weights"] = (
        meta["open_weights"].astype(object).where(meta["open_weights"].notna(), None)
    )
    return BenchmarkData(
        name, models, meta, units, index, values, se, sorted(main_units), frame, declared_units
    )


@dataclass
class ViewTable:
    """A view computed for every model: the wide frame (x100, rounded) and its notes."""

    frame: pd.DataFrame  # columns: model, *META, overall, its CI, the view's columns
    overall: str
    columns: list[str]
    caption: str


def _one_thread() -> Any:
    """BLAS on one thread: the matrices here are small, and a multi-threaded BLAS on busy
    cores made them 6x slower (the Space shares its cores with its visitors' requests)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")


def compute_view(
    data: BenchmarkData,
    spec: ViewSpec,
    paper: Mapping[str, Mapping[str, float]] | None = None,
) -> ViewTable:
    """Every model's row of one view: a cell only where the model has all its units (a
    unit the benchmark declares but no row of the table holds leaves its cells empty)."""
    spec_units = sorted(
        {u for groups in spec.columns.values() for us in groups.values() for u in us}
    )
    absent = [u for u in spec_units if u not in data.unit_index]
    index = {**data.unit_index, **{u: len(data.units) + i for i, u in enumerate(absent)}}
    filler = np.full((len(data.models), len(absent)), np.nan)
    values = np.hstack([data.values, filler]) if absent else data.values
    se_units = np.hstack([data.se, filler]) if absent else data.se
    names, w = weights(spec, index)
    used = w != 0
    missing = np.isnan(values).astype(float)
    cells = np.nan_to_num(values) @ w
    cells[(missing @ used) > 0] = np.nan
    no_ci = (np.isnan(se_units) | np.isnan(values)).astype(float)
    se = normal_se(se_units, w)
    se[(no_ci @ used) > 0] = np.nan
    all_units = [*data.units, *absent]
    view_units = np.flatnonzero(used.any(axis=1))
    datasets = sorted({all_units[i][0] for i in view_units})
    dataset_of = {d: i for i, d in enumerate(datasets)}
    of_dataset = np.zeros((len(all_units), len(datasets)))
    of_dataset[view_units, [dataset_of[all_units[i][0]] for i in view_units]] = 1.0
    covered = ((missing @ of_dataset) == 0).sum(axis=1)
    overall = spec.overall
    records: dict[str, Any] = {
        "model": data.models,
        "source": ["table"] * len(data.models),
        "open_weights": data.meta["open_weights"].tolist(),
        "n_parameters": data.meta["n_parameters"].to_numpy(dtype=float),
        "coverage": [f"{k}/{len(datasets)}" for k in covered],
    }
    if overall in names:
        j = names.index(overall)
        records[overall] = _scaled(cells[:, j])
        records["ci_low"] = _scaled(cells[:, j] - Z_95 * se[:, j])
        records["ci_high"] = _scaled(cells[:, j] + Z_95 * se[:, j])
    rest = [j for j, c in enumerate(names) if c != overall]
    frame = pd.concat(
        [
            pd.DataFrame(records),
            pd.DataFrame(_scaled(cells[:, rest]), columns=[names[j] for j in rest]),
        ],
        axis=1,
    )
    caption = (
        f"{data.name}, {spec.name}: {len(datasets)} dataset(s), x100. A cell needs every "
        "dataset it averages; coverage counts the datasets a model has all results of."
    )
    if absent:
        caption += f" {len(absent)} declared result(s) are in no row of the table yet."
    if spec.note:
        caption += f" Here {spec.note}."
    if paper:
        rows, recomputed = _paper_rows(paper, spec, names)
        frame = pd.concat([frame, rows], ignore_index=True)
        caption += " Rows marked paper: the STEB paper's printed numbers"
        caption += f"; their {overall} is recomputed over the columns shown." if recomputed else "."
    return ViewTable(frame, overall, [names[j] for j in rest], caption)


def _scaled(values: np.ndarray) -> np.ndarray:
    return np.round(SCALE * np.asarray(values, dtype=float), DIGITS)


def _paper_rows(
    paper: Mapping[str, Mapping[str, float]], spec: ViewSpec, names: Sequence[str]
) -> tuple[pd.DataFrame, bool]:
    """The paper's printed rows in a view's columns (x100 as printed); the derived
    columns follow the view's own rule over the columns shown (the printed ones when every
    printed column is shown: then ``recomputed`` is False)."""
    rows = []
    recomputed = False
    for model, values in paper.items():
        cols = {c: np.array([SCALE * values[c]]) for c in spec.columns if c in values}
        derived = spec.combine(cols) if cols else {}
        row: dict[str, Any] = {
            "model": model,
            "source": "paper",
            "open_weights": None,
            "n_parameters": np.nan,
            "coverage": "paper",
        }
        for column in names:
            if column in cols:
                row[column] = round(float(cols[column][0]), DIGITS)
            elif column in derived:
                printed = values.get(column)
                value = float(derived[column][0])
                if printed is None or abs(value - SCALE * printed) > 0.011 * len(cols):
                    recomputed = True
                    row[column] = round(value, DIGITS)
                else:
                    row[column] = round(SCALE * printed, DIGITS)
        rows.append(row)
    return pd.DataFrame(rows), recomputed


# ----------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class Filters:
    open_only: bool = False
    size: str = "any size"
    task_types: tuple[str, ...] | None = None  # None = every task type


def benchmark_key(name: Any, version: Any) -> str:
    """How the table names a benchmark version: ``STEB(v1)``; rows of no benchmark
    ``(no benchmark)``."""
    if name is None or (isinstance(name, float) and math.isnan(name)) or name == "":
        return NO_BENCHMARK
    if not version or str(name).endswith(")"):
        return str(name)
    return f"{name}({version})"


class Leaderboard:
    """Every benchmark's views, precomputed; :meth:`table` answers a switch."""

    def __init__(self, frame: pd.DataFrame | None, source: str, error: str | None = None):
        self.source = source
        self.error = error
        # the results repository the table was built from, when it was (its records carry
        # the per-item data that `stylebench compare` needs)
        self.repository: Path | None = None
        self.frame = frame if frame is not None else pd.DataFrame(columns=list(COLUMNS))
        self.benchmarks: dict[str, BenchmarkData] = {}
        self._views: dict[tuple[str, str], ViewTable] = {}
        self._filtered: dict[tuple[str, str, tuple[str, ...]], ViewTable] = {}
        self._lock = threading.Lock()
        self._paper = _paper_views()
        if len(self.frame):
            codes, pairs = _codes(self.frame, ("benchmark", "benchmark_version"))
            with _one_thread():
                for code, (name, version) in enumerate(pairs):
                    group = self.frame.loc[codes == code]
                    data = _benchmark_data(benchmark_key(name, version), group)
                    data.views = self._view_names(data)
                    self.benchmarks[data.name] = data
                    for view in data.views:
                        self._views[(data.name, view)] = self._compute(data, view, None)
        if PAPER_BENCHMARK not in self.benchmarks and self._paper:
            self._paper_only()

    # -- construction

    @staticmethod
    def _steb_views(name: str) -> list[str]:
        """The STEB views of a benchmark key: all four for ``STEB(v1)``, the named one for
        ``STEB-<view>(v1)``."""
        bench = declared(name)
        if bench is None or bench.family != "steb":
            return []
        if bench.name == "STEB":
            return list(STEB_VIEWS)
        suffix = bench.name.removeprefix("STEB-")
        return [suffix] if suffix in STEB_VIEWS else []

    def _view_names(self, data: BenchmarkData) -> list[str]:
        views = [v for v in self._steb_views(data.name) if steb_spec(v, data.available()).columns]
        return [*views, BY_TASK_TYPE, PER_DATASET]

    def _spec(self, data: BenchmarkData, view: str, task_types: Sequence[str] | None) -> ViewSpec:
        keep = set(task_types) if task_types is not None else None
        if view in STEB_VIEWS:
            return steb_spec(view, data.available(keep))
        units = [u for u in data.main_units if keep is None or u[1] in keep]
        return generic_spec(units, view)

    def _compute(
        self, data: BenchmarkData, view: str, task_types: Sequence[str] | None
    ) -> ViewTable:
        spec = self._spec(data, view, task_types)
        paper = None
        if view in self._steb_views(data.name) and (task_types is None or view == "operational"):
            paper = self._paper.get(view)
        table = compute_view(data, spec, paper)
        if view in self._steb_views(data.name) and paper is None:
            table.caption += " The paper's rows have no per-task split in this view."
        return table

    def _paper_only(self) -> None:
        """No STEB results in the table: the paper's four views alone."""
        from evaluators.steb_scores.scores import OVERALL

        for view, models in self._paper.items():
            columns = list(dict.fromkeys(c for v in models.values() for c in v))
            overall = OVERALL[view]
            rows = [
                {
                    "model": m,
                    "source": "paper",
                    "open_weights": None,
                    "n_parameters": np.nan,
                    "coverage": "paper",
                    overall: round(SCALE * v[overall], DIGITS) if overall in v else np.nan,
                    **{c: round(SCALE * v[c], DIGITS) for c in columns if c != overall and c in v},
                }
                for m, v in models.items()
            ]
            self._views[(PAPER_ONLY, view)] = ViewTable(
                pd.DataFrame(rows),
                overall,
                [c for c in columns if c != overall],
                f"STEB paper, {view} view, x100: the paper's printed numbers (no STEB "
                "results in the loaded table).",
            )

    # -- queries

    def benchmark_names(self) -> list[str]:
        names = list(self.benchmarks)
        if any(b == PAPER_ONLY for b, _ in self._views):
            names.append(PAPER_ONLY)
        first = [n for n in (PAPER_BENCHMARK, PAPER_ONLY) if n in names]
        return [*first, *(n for n in names if n not in first)]

    def views(self, benchmark: str) -> list[str]:
        if benchmark in self.benchmarks:
            return list(self.benchmarks[benchmark].views)
        views = [v for (b, v) in self._views if b == benchmark]
        if not views:
            raise UnknownNameError(
                f"unknown benchmark {benchmark!r}; known: {', '.join(self.benchmark_names())}"
            )
        return views

    def task_types(self, benchmark: str) -> list[str]:
        data = self.benchmarks.get(benchmark)
        return data.task_types if data else []

    def models(self, benchmark: str) -> list[str]:
        data = self.benchmarks.get(benchmark)
        return list(data.models) if data else []

    def view_table(self, benchmark: str, view: str, task_types: Sequence[str] | None) -> ViewTable:
        if view not in self.views(benchmark):
            raise UnknownNameError(
                f"benchmark {benchmark!r} has no view {view!r}; views: "
                + ", ".join(self.views(benchmark))
            )
        data = self.benchmarks.get(benchmark)
        chosen = None
        if data is not None and task_types is not None:
            unknown = sorted(set(task_types) - set(data.task_types))
            if unknown:
                raise UnknownNameError(
                    f"benchmark {benchmark!r} has no task type {', '.join(unknown)}; "
                    f"task types: {', '.join(data.task_types)}"
                )
            if set(task_types) != set(data.task_types):
                chosen = tuple(sorted(task_types))
        if chosen is None:
            return self._views[(benchmark, view)]
        key = (benchmark, view, chosen)
        with self._lock:
            if key not in self._filtered:
                if len(self._filtered) > 256:
                    self._filtered.clear()
                with _one_thread():
                    self._filtered[key] = self._compute(data, view, chosen)  # type: ignore[arg-type]
            return self._filtered[key]

    def table(
        self, benchmark: str, view: str, filters: Filters = Filters()
    ) -> tuple[pd.DataFrame, str]:
        """The ranked, filtered table of a view and its caption."""
        if filters.size not in SIZES:
            raise UnknownNameError(f"unknown size {filters.size!r}; known: {', '.join(SIZES)}")
        vt = self.view_table(benchmark, view, filters.task_types)
        frame = vt.frame
        keep = np.ones(len(frame), bool)
        if filters.open_only:
            keep &= frame["open_weights"].map(lambda v: v is True).to_numpy()
        low, high = SIZES[filters.size]
        if low is not None or high is not None:
            size = pd.to_numeric(frame["n_parameters"], errors="coerce").to_numpy()
            ok = ~np.isnan(size)
            if low is not None:
                ok &= np.nan_to_num(size) >= low
            if high is not None:
                ok &= np.nan_to_num(size) < high
            keep &= ok
        frame = frame.loc[keep]
        frame = rank(frame, vt.overall)
        caption = vt.caption
        if filters.open_only or filters.size != "any size":
            caption += f" Filtered: {len(frame)} of {len(vt.frame)} rows."
        return frame, caption

    def drilldown(self, benchmark: str, model: str) -> pd.DataFrame:
        """Every row of the table for one model in one benchmark (x100), with its CI."""
        data = self.benchmarks.get(benchmark)
        if data is None:
            raise UnknownNameError(f"benchmark {benchmark!r} has no per-dataset results here")
        rows = data.long.loc[data.long["name"] == model]
        if rows.empty:
            raise UnknownNameError(f"model {model!r} has no results in {benchmark!r}")
        out = rows.loc[:, ["dataset", "task", "task_type", "metric", "is_main"]].copy()
        for column in ("value", "ci_low", "ci_high"):
            out[column] = _scaled(rows[column].to_numpy(dtype=float))
        return out.sort_values(["dataset", "task", "metric"]).reset_index(drop=True)

    def paired(self, benchmark: str, first: str, second: str) -> pd.DataFrame:
        """Main score of two models on each dataset both have (x100)."""
        data = self.benchmarks.get(benchmark)
        if data is None:
            raise UnknownNameError(f"benchmark {benchmark!r} has no per-dataset results here")
        rows = []
        for model in (first, second):
            if model not in data.models:
                raise UnknownNameError(f"model {model!r} has no results in {benchmark!r}")
            rows.append(data.models.index(model))
        present = [u for u in data.main_units if u in data.unit_index]
        cols = [data.unit_index[u] for u in present]
        a, b = data.values[rows[0], cols], data.values[rows[1], cols]
        both = ~(np.isnan(a) | np.isnan(b))
        units = [u for u, ok in zip(present, both, strict=True) if ok]
        return pd.DataFrame(
            {
                "dataset": [u[0] for u in units],
                "task": [u[1] for u in units],
                "metric": [u[2] for u in units],
                first: _scaled(a[both]),
                second if second != first else f"{second} (again)": _scaled(b[both]),
            }
        )

    def health(self) -> dict[str, Any]:
        return {
            "status": "ok" if self.error is None else "degraded",
            "source": self.source,
            "error": self.error,
            "rows": len(self.frame),
            "models": int(self.frame["model"].nunique()) if len(self.frame) else 0,
            "benchmarks": self.benchmark_names(),
            "views": len(self._views),
        }


def rank(frame: pd.DataFrame, overall: str) -> pd.DataFrame:
    """Best first by ``overall``; rows without it (incomplete coverage) after, unranked."""
    if overall not in frame.columns:
        return frame.reset_index(drop=True).assign(rank=None)[["rank", *frame.columns]]
    score = pd.to_numeric(frame[overall], errors="coerce")
    order = np.lexsort((frame["model"].to_numpy(dtype=str), -score.fillna(-np.inf).to_numpy()))
    out = frame.iloc[order].reset_index(drop=True)
    ranks = np.arange(1, len(out) + 1, dtype=object)
    ranks[pd.to_numeric(out[overall], errors="coerce").isna().to_numpy()] = None
    out.insert(0, "rank", ranks)
    return out


@functools.cache
def _paper_views() -> dict[str, dict[str, dict[str, float]]]:
    try:
        from evaluators.steb_scores.reference import VIEW_TABLES, view_reference
    except ImportError:
        return {}
    return {view: view_reference(view) for view in VIEW_TABLES}


_board: Leaderboard | None = None
_board_lock = threading.Lock()


def get_leaderboard(source: str | Path | None = None, *, reload: bool = False) -> Leaderboard:
    """The process's leaderboard, loaded on first use (``source``, else
    ``STYLEBENCH_LEADERBOARD_TABLE``, else the paper's rows alone). A table that does not
    load is logged and leaves the paper's rows, with the reason in :meth:`Leaderboard.health`."""
    global _board
    with _board_lock:
        if _board is not None and not reload:
            return _board
        chosen = source if source is not None else os.environ.get(ENV_TABLE) or None
        frame, where, error = None, "the STEB paper's 40 models (no results table)", None
        if chosen is not None:
            try:
                frame, where = read_table(chosen)
            except Exception as exc:  # any failure leaves the reference rows, and says why
                error = (
                    f"{type(exc).__name__}: {exc}" if not isinstance(exc, DataError) else str(exc)
                )
                log.error("leaderboard table did not load: %s", error)
        _board = Leaderboard(frame, where, error)
        if frame is not None and chosen is not None and Path(str(chosen)).is_dir():
            _board.repository = Path(str(chosen))
        return _board


def csv_file(frame: pd.DataFrame, folder: Path, stem: str) -> Path:
    """``frame`` as CSV under ``folder``, named by its content (one file per distinct table)."""
    text = frame.to_csv(index=False)
    digest = hashlib.sha1(text.encode()).hexdigest()[:16]
    path = folder / digest / f"{_safe(stem)}.csv"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def _safe(stem: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in stem)[:80] or "table"
