"""Where a result record lives: the one path rule, for a run's output folder and for a
results repository.

A run writes ``<out>/<model>/<dataset>/<task>.json`` (:func:`run_relpath`); a results
repository holds ``results/<model>/<revision>/<dataset>/<task>.json``
(:func:`record_relpath`). Both name each folder by :func:`~evaluators.records.ids.slug`
of the model, revision and dataset id and the file by the task type; the repository's
names also pass the path-segment rule (:func:`~evaluators.records.ids.path_segment`),
since strangers send them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dataset_scripts.core.errors import DataError
from evaluators.records.ids import path_segment, slug
from evaluators.records.record import ResultRecord

#: the folder of a results repository that holds the records
RESULTS_DIR = "results"
#: the revision folder of a model published without a revision
NO_REVISION = "no_revision_available"


def model_folder(name: Any) -> str:
    """The folder of a model's public name (its slug, through the path-segment rule)."""
    if not isinstance(name, str):
        raise DataError(f"model name {name!r} is not a string")
    return path_segment(slug(name), f"model folder of {name!r}:")


def revision_folder(revision: str | None) -> str:
    """The folder of a model revision (:data:`NO_REVISION` when there is none)."""
    if not revision:
        return NO_REVISION
    if not isinstance(revision, str):
        raise DataError(f"model revision {revision!r} is not a string")
    return path_segment(slug(revision), f"revision folder of {revision!r}:")


def dataset_folder(dataset_id: str) -> str:
    """The folder of a dataset id (its slug, through the path-segment rule)."""
    return path_segment(slug(dataset_id), f"dataset folder of {dataset_id!r}:")


def task_file(task: str) -> str:
    """The file of a task type's record: ``<task>.json``."""
    return path_segment(task, "task") + ".json"


def run_relpath(model: str, dataset: str, task: str) -> str:
    """``<model>/<dataset>/<task>.json`` of a run's record below its output folder."""
    return "/".join((slug(model), slug(dataset), task_file(task)))


def record_relpath(meta: Mapping[str, Any], record: ResultRecord) -> str:
    """``results/<model>/<revision>/<dataset>/<task>.json`` of a record in a results
    repository, POSIX style; DataError when a name is not a safe path segment."""
    return "/".join(
        (
            RESULTS_DIR,
            model_folder(meta["name"]),
            revision_folder(meta.get("revision")),
            dataset_folder(record.dataset_id),
            task_file(record.task),
        )
    )
