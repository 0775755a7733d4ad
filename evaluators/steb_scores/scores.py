"""STEB's aggregate scores (paper Sec. 3.3, 5.2, 5.3) for one model's results.

Every view is the three-level computation of :mod:`evaluators.views` (unit -> group
mean -> column mean -> ``ViewSpec.combine``; :func:`evaluators.views.evaluate_spec`); this
module lays out STEB's four views as :class:`evaluators.views.ViewSpec`:

* **operational** (Table 2/6): one column per task type; groups = the redundancy clusters
  of that task (discovered by :mod:`evaluators.steb_scores.clusters`, or singletons);
  order alignment uses the distractor accuracy; ``steb_score`` = mean of the task
  columns. Non-English datasets are left out (they form the multilingual view).
* **definitional** (Table 3/9, Table 13 clusters from the catalogue's ``definitional``):
  each object-of-study column (genre, register, time, demographics, dialect, idiolect)
  and linguistic_features uses every task of its datasets, with the plain order-alignment
  accuracy; groups = task types (a column is the mean over task types of the mean over
  datasets: the rule of the STEB repository's manual clusters).
  content_independence = order-alignment distractor accuracy only.
  ``object_of_study`` = mean of the six, ``average`` = mean of object_of_study,
  linguistic_features and content_independence.
* **application** (Table 4/7): the STEB repository's manual clusters (ATD, adversarial
  ATD, AV overall/easy/medium/hard, AR), groups = task types; ``average`` = mean of atd,
  atd_adversarial, av_overall, ar (easy/medium/hard are subsets and do not count).
* **multilingual** (Table 5/8): pair_classification = predefined-pair AUC over the 13
  non-English PAN13-15 AV sets, retrieval = MRR over the 4 non-English PAN18 AA sets;
  ``average`` = mean of the two.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from dataset_scripts.core.errors import UnknownNameError
from evaluators.steb_scores.reference import (
    APPLICATION_AVERAGED,
    APPLICATION_COLUMNS,
    DEFINITIONAL_CLUSTERS,
    MULTILINGUAL_COLUMNS,
    OBJECTS_OF_STUDY,
    OPERATIONAL_TASKS,
    table_info,
)
from evaluators.steb_scores.results import STEB_PREFIX, Score, catalogue
from evaluators.tasks.facts import TASK_FACTS
from evaluators.views import (
    Unit,
    ViewSpec,
    column_datasets,
    evaluate_spec,
    mean,
    mean_of,
)

VIEWS = ("operational", "definitional", "application", "multilingual")
OVERALL = {
    "operational": "steb_score",
    "definitional": "average",
    "application": "average",
    "multilingual": "average",
}

# the metric each task contributes is its main score (evaluators.tasks.facts); order
# alignment has two variants: the definitional columns use the plain accuracy
OA_PLAIN = "accuracy"


@dataclass
class ViewScore:
    """One model's scores on one view (values in [0, 1]; None where nothing was run)."""

    view: str
    columns: dict[str, float | None]
    n_datasets: dict[str, int]  # column -> datasets that contributed
    complete: bool  # every column has at least the paper's number of datasets
    overall_name: str
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def overall(self) -> float | None:
        return self.columns.get(self.overall_name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "view": self.view,
            "columns": self.columns,
            "overall": self.overall,
            "overall_name": self.overall_name,
            "n_datasets": self.n_datasets,
            "complete": self.complete,
            "ci95": {k: list(v) for k, v in self.ci.items()},
        }


@cache
def repo_clusters() -> dict[str, Any]:
    """The facts read from the STEB authors' repository (see data/steb_repo_clusters.json)."""
    text = (
        resources.files("evaluators.steb_scores.data")
        .joinpath("steb_repo_clusters.json")
        .read_text(encoding="utf-8")
    )
    return json.loads(text)


def multilingual_datasets() -> set[str]:
    """Hub ids of the non-English datasets (repository list, plus catalogue entries
    whose language does not include English)."""
    names = repo_clusters()["multilingual"]
    ids = {STEB_PREFIX + n for col in names.values() for n in col}
    ids |= {h for h, spec in catalogue().items() if spec.language and "en" not in spec.language}
    return ids


# ----------------------------------------------------------------------------- views


def _catalogue_counts(kind: str) -> dict[str, int]:
    """How many catalogued English datasets each task type (``kind="task"``) or Table 13
    cluster (``"definitional"``) has: what a complete run must cover. (The paper's printed
    counts collapse sub-datasets, e.g. Table 9 counts PASTEL once where the catalogue has
    six PASTEL datasets, and Table 6 prints 26 predefined-pair datasets where Table 15
    lists 25; the catalogue is what a run can cover.)"""
    foreign = multilingual_datasets()
    counts: dict[str, int] = {}
    for hub_id, spec in catalogue().items():
        if hub_id in foreign:
            continue
        for key in spec.task_types if kind == "task" else spec.steb.definitional:  # type: ignore[union-attr]
            counts[key] = counts.get(key, 0) + 1
    return counts


def unit_values(scores: Iterable[Score]) -> dict[Unit, float]:
    """Every metric of every result, keyed by unit (dataset, task, metric)."""
    out: dict[Unit, float] = {}
    for s in scores:
        for metric, value in s.metrics.items():
            out[(s.dataset, s.task, metric)] = value
    return out


def operational_spec(
    datasets_by_task: Mapping[str, Iterable[str]],
    clusters: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> ViewSpec:
    """Operational view over the given English datasets per task; ``clusters[task]`` is a
    list of dataset groups (datasets not in any group form their own cluster)."""
    columns: dict[str, dict[str, list[Unit]]] = {}
    for task in OPERATIONAL_TASKS:
        present = sorted(set(datasets_by_task.get(task, ())))
        main = TASK_FACTS[task].main_score
        groups: dict[str, list[Unit]] = {}
        assigned: set[str] = set()
        for i, members in enumerate((clusters or {}).get(task, ())):
            chosen = [d for d in members if d in present]
            if chosen:
                groups[f"cluster_{i + 1}"] = [(d, task, main) for d in chosen]
                assigned.update(chosen)
        for d in present:
            if d not in assigned:
                groups[f"single:{d}"] = [(d, task, main)]
        columns[task] = groups
    expected = _catalogue_counts("task")
    if not expected:  # no catalogue: the paper's Table 6 counts
        counts = table_info("6")["num_datasets"]
        expected = dict(zip(OPERATIONAL_TASKS, counts, strict=False))

    combine = mean_of(OPERATIONAL_TASKS, OVERALL["operational"])
    return ViewSpec(
        "operational",
        columns,
        combine,
        OVERALL["operational"],
        expected=expected,
        resample_groups=True,
    )


def definitional_spec(
    available: Mapping[str, Iterable[str]],
    definitional: Mapping[str, Iterable[str]] | None = None,
) -> ViewSpec:
    """Definitional view. ``available`` = {dataset: task types it has results for};
    ``definitional`` = {dataset: Table 13 clusters} (default: the catalogue)."""
    if definitional is None:
        definitional = {h: spec.steb.definitional for h, spec in catalogue().items()}  # type: ignore[union-attr]
    columns: dict[str, dict[str, list[Unit]]] = {c: {} for c in DEFINITIONAL_CLUSTERS}
    for dataset, tasks in sorted(available.items()):
        for cluster in definitional.get(dataset, ()):
            if cluster not in columns:
                continue
            for task in sorted(set(tasks)):
                if cluster == "content_independence":
                    if task != "order_alignment":
                        continue
                    metric = "distractor_accuracy"
                elif task in TASK_FACTS:
                    metric = OA_PLAIN if task == "order_alignment" else TASK_FACTS[task].main_score
                else:
                    continue
                columns[cluster].setdefault(task, []).append((dataset, task, metric))
    expected = _catalogue_counts("definitional")
    if not expected:  # no catalogue: the paper's Table 9 counts (rows of Table 13)
        counts = table_info("9")["num_datasets"]  # genre..idiolect, oos, ling, ci, total
        expected = dict(zip(OBJECTS_OF_STUDY, counts[:6], strict=True))
        expected["linguistic_features"] = counts[7]
        expected["content_independence"] = counts[8]

    def combine(cols: dict[str, float]) -> dict[str, float]:
        out: dict[str, float] = {}
        oos = [cols[c] for c in OBJECTS_OF_STUDY if c in cols]
        if oos:
            out["object_of_study"] = mean(oos)
        parts = [
            v
            for v in (
                out.get("object_of_study"),
                cols.get("linguistic_features"),
                cols.get("content_independence"),
            )
            if v is not None
        ]
        if parts:
            out["average"] = mean(parts)
        return out

    return ViewSpec("definitional", columns, combine, OVERALL["definitional"], expected=expected)


def _named_spec(
    name: str,
    lists: Mapping[str, Sequence[str]],
    available: Mapping[str, Iterable[str]],
    task_filter: Mapping[str, str] | None,
    averaged: Sequence[str],
) -> ViewSpec:
    columns: dict[str, dict[str, list[Unit]]] = {}
    expected = {}
    for column, names in lists.items():
        groups: dict[str, list[Unit]] = {}
        for n in names:
            hub = STEB_PREFIX + n
            for task in sorted(set(available.get(hub, ()))):
                if task_filter and task_filter.get(column) not in (None, task):
                    continue
                if task not in TASK_FACTS:
                    continue
                groups.setdefault(task, []).append((hub, task, TASK_FACTS[task].main_score))
        columns[column] = groups
        expected[column] = len(names)

    return ViewSpec(
        name, columns, mean_of(averaged, OVERALL[name]), OVERALL[name], expected=expected
    )


def application_spec(available: Mapping[str, Iterable[str]]) -> ViewSpec:
    lists = repo_clusters()["application"]
    ordered = {c: lists[c] for c in APPLICATION_COLUMNS}
    return _named_spec("application", ordered, available, None, APPLICATION_AVERAGED)


def multilingual_spec(available: Mapping[str, Iterable[str]]) -> ViewSpec:
    lists = repo_clusters()["multilingual"]
    ordered = {c: lists[c] for c in MULTILINGUAL_COLUMNS}
    tasks = {"pair_classification": "predefined_pairs", "retrieval": "retrieval"}
    return _named_spec("multilingual", ordered, available, tasks, MULTILINGUAL_COLUMNS)


def view_spec(
    view: str,
    available: Mapping[str, Iterable[str]],
    clusters: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> ViewSpec:
    """The spec of ``view`` over ``available`` ({dataset hub id: the task types it has
    results for}); ``clusters``: the operational view's redundancy clusters (default:
    every dataset its own)."""
    if view == "operational":
        foreign = multilingual_datasets()
        by_task: dict[str, set[str]] = {}
        for dataset, tasks in available.items():
            if dataset in foreign or not dataset.startswith(STEB_PREFIX):
                continue  # non-English sets have their own view; non-STEB data none
            for t in tasks:
                by_task.setdefault(t, set()).add(dataset)
        return operational_spec(by_task, clusters)
    if view == "definitional":
        return definitional_spec(available)
    if view == "application":
        return application_spec(available)
    if view == "multilingual":
        return multilingual_spec(available)
    raise UnknownNameError(f"unknown STEB view {view!r}; known views: {', '.join(VIEWS)}")


def build_spec(
    view: str,
    scores: Sequence[Score],
    clusters: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> ViewSpec:
    """The spec of ``view`` over the datasets that ``scores`` (one model) cover."""
    available: dict[str, set[str]] = {}
    for s in scores:
        available.setdefault(s.dataset, set()).add(s.task)
    return view_spec(view, available, clusters)


def view_score(
    view: str,
    scores: Sequence[Score],
    clusters: Mapping[str, Sequence[Sequence[str]]] | None = None,
) -> ViewScore:
    """One model's score on one view (no CIs; see :mod:`evaluators.steb_scores.bootstrap`)."""
    spec = build_spec(view, scores, clusters)
    values = unit_values(scores)
    result = evaluate_spec(spec, values)
    counts = column_datasets(spec, values)
    names = [*spec.column_names, *spec.combine({c: 0.0 for c in spec.column_names})]
    complete = all(counts.get(c, 0) >= n for c, n in spec.expected.items())
    return ViewScore(
        view=view,
        columns={c: result.get(c) for c in dict.fromkeys(names)},
        n_datasets=counts,
        complete=complete,
        overall_name=OVERALL[view],
    )
