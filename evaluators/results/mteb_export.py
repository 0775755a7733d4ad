"""``stylebench results export --format mteb``: a results repository as a folder that
MTEB's own loader reads (``mteb.ResultCache(out).load_results()``).

Our repository keeps its own layout (``results/<model>/<revision>/<dataset>/<task>.json``,
one record per (dataset, task) with per-item data, which MTEB's files have no room
for); the export writes MTEB's layout beside it::

    <out>/results/<model_name_as_path>/<revision>/model_meta.json
    <out>/results/<model_name_as_path>/<revision>/run_settings.jsonl
    <out>/results/<model_name_as_path>/<revision>/<task name>.json

The mapping, one rule each (docs/guides/share-results.md lists it):

* model folder: MTEB's ``ModelMeta.model_name_as_path`` (``/`` -> ``__``, space -> ``_``),
  checked as a path segment; revision folder: the model revision, or
  ``no_revision_available`` (MTEB's placeholder);
* task name: :func:`mteb_task_name`, ``<dataset folder>.<task type>`` (the record's
  dataset folder name in our repository, then its task type: ``steb/pastel_age`` +
  ``clustering`` -> ``steb__pastel_age.clustering``): one MTEB task per STEB (dataset, task
  type), as MTEB has one task per dataset and task type;
* split: the record's split (``test`` when it names none); subset (``hf_subset``): the
  dataset's config (``default`` when none); ``languages``: the record's, else the dataset
  registry's, as MTEB writes them (``eng-Latn``);
* scores: ``main_score`` = our main score, as recorded (0-1, not x100, as MTEB's), beside
  every metric of the record under its own name; ``dataset_revision``: the record's dataset
  revision (a local build's content fingerprint); ``evaluation_time``, ``date`` (POSIX
  seconds), ``kg_co2_emissions`` (null: not measured), ``mteb_version`` null (not
  produced by MTEB; a number there would make MTEB apply its old-format fixes);
* ``model_meta.json``: our ``model_meta.json`` (MTEB's field names) with MTEB's other
  fields filled with their defaults; ``run_settings.jsonl``: one line per task, split
  and subset, as MTEB writes it, with our run settings (protocol, seed, sampling).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from evaluators.records.ids import path_segment
from evaluators.records.languages import dataset_languages
from evaluators.records.paths import NO_REVISION, RESULTS_DIR, dataset_folder
from evaluators.records.record import ResultRecord
from evaluators.results.repository import MODEL_META, inside, iter_model_folders

MTEB_RUN_SETTINGS = "run_settings.jsonl"
DEFAULT_SPLIT = "test"
DEFAULT_SUBSET = "default"
#: keys of an MTEB scores entry that a metric name must not overwrite
_ENTRY_KEYS = ("main_score", "hf_subset", "languages")


def mteb_task_name(record: ResultRecord) -> str:
    """The MTEB task name of one record: ``<dataset folder>.<task type>``."""
    return path_segment(f"{dataset_folder(record.dataset_id)}.{record.task}", "MTEB task name")


def mteb_model_folder(name: str) -> str:
    """MTEB's folder of a model name (``ModelMeta.model_name_as_path``)."""
    return path_segment(name.replace("/", "__").replace(" ", "_"), "MTEB model folder")


def record_languages(record: ResultRecord) -> list[str]:
    """The record's languages, else the registry's for its dataset; DataError when
    neither knows them (MTEB scores every subset by its languages)."""
    languages = list(record.dataset.languages) or dataset_languages(
        record.dataset_id, record.dataset.repo
    )
    if not languages:
        raise DataError(
            f"{record.dataset_id} ({record.task}): no languages recorded and the dataset "
            "registry does not know the dataset (MTEB needs them for every score)"
        )
    return languages


def task_result(record: ResultRecord) -> dict[str, Any]:
    """One record as MTEB's ``TaskResult`` JSON."""
    clash = sorted(set(record.metrics) & set(_ENTRY_KEYS) - {record.main_score_name})
    if clash:
        raise DataError(f"{record.dataset_id} ({record.task}): metric names {clash} are MTEB's")
    entry: dict[str, Any] = {
        **{k: v for k, v in sorted(record.metrics.items()) if k not in _ENTRY_KEYS},
        "main_score": record.main_score,
        "hf_subset": record.dataset.config or DEFAULT_SUBSET,
        "languages": record_languages(record),
    }
    date = None
    if record.created_at:
        try:
            date = datetime.fromisoformat(record.created_at).timestamp()
        except ValueError:
            date = None
    return {
        "dataset_revision": record.dataset.revision or record.dataset.fingerprint or "",
        "task_name": mteb_task_name(record),
        "mteb_version": None,
        "scores": {record.dataset.split or DEFAULT_SPLIT: [entry]},
        "evaluation_time": record.evaluation_time,
        "kg_co2_emissions": None,
        "date": date,
    }


def run_settings_line(record: ResultRecord) -> dict[str, Any]:
    """One ``run_settings.jsonl`` line (MTEB's keys, our settings beside them)."""
    return {
        "task": mteb_task_name(record),
        "splits": [record.dataset.split or DEFAULT_SPLIT],
        "subsets": [record.dataset.config or DEFAULT_SUBSET],
        "version": {k: v for k, v in sorted(record.versions.items())},
        "encode_kwargs": {"batch_size": record.execution.get("batch_size")}
        if record.execution.get("batch_size") is not None
        else {},
        "stylebench_run": record.run,
    }


def mteb_model_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """``model_meta.json`` for MTEB: ours (already MTEB's names) with MTEB's other fields
    at their defaults."""
    training = meta.get("training_datasets")
    return {
        "name": meta["name"],
        "revision": meta.get("revision"),
        "release_date": meta.get("release_date"),
        "languages": meta.get("languages"),
        "n_parameters": meta.get("n_parameters"),
        "memory_usage_mb": None,
        "max_tokens": meta.get("max_tokens"),
        "embed_dim": meta.get("embed_dim"),
        "license": meta.get("license"),
        "open_weights": meta.get("open_weights"),
        "public_training_code": None,
        "public_training_data": None,
        "framework": meta.get("framework") or [],
        "reference": meta.get("reference"),
        "similarity_fn_name": meta.get("similarity_fn_name"),
        "use_instructions": None,
        "training_datasets": sorted(training) if training is not None else None,
        "adapted_from": None,
        "superseded_by": None,
        "modalities": ["text"],
        "model_type": ["dense"],
        "loader": None,
    }


@dataclass
class ExportReport:
    written: list[str] = field(default_factory=list)  # paths relative to the output folder
    models: int = 0
    results: int = 0


def export_mteb(root: Path, out: Path) -> ExportReport:
    """Write the MTEB layout of the repository at ``root`` under ``out`` (see the module
    docstring). Every path is planned and checked first (DataError naming the problem:
    a name that is no path segment, two records of one model revision with one MTEB task
    name, unknown languages); files of the same name under ``out`` are replaced, nothing
    else there is touched."""
    out = Path(out)
    plan: list[tuple[str, str]] = []
    report = ExportReport()
    for folder in iter_model_folders(root):
        revision = folder.meta.get("revision")
        rel_folder = "/".join(
            (
                RESULTS_DIR,
                mteb_model_folder(str(folder.meta["name"])),
                path_segment(revision, "revision folder") if revision else NO_REVISION,
            )
        )
        if any(rel.startswith(rel_folder + "/") for rel, _ in plan):
            raise DataError(f"{folder.path}: a second model revision exported to {rel_folder}")
        plan.append(
            (f"{rel_folder}/{MODEL_META}", json.dumps(mteb_model_meta(folder.meta), indent=2))
        )
        names: dict[str, Path] = {}
        lines = []
        for path, record in folder.records:
            name = mteb_task_name(record)
            if name in names:
                raise DataError(f"{path} and {names[name]} are both MTEB task {name!r}")
            names[name] = path
            plan.append((f"{rel_folder}/{name}.json", json.dumps(task_result(record), indent=2)))
            lines.append(json.dumps(run_settings_line(record), sort_keys=True, default=str))
            report.results += 1
        plan.append((f"{rel_folder}/{MTEB_RUN_SETTINGS}", "\n".join(lines)))
        report.models += 1
    out.mkdir(parents=True, exist_ok=True)
    for rel, text in plan:
        target = inside(out, rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text + "\n", encoding="utf-8")
        report.written.append(rel)
    return report
