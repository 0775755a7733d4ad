"""``stylebench results export --format mteb``: a results repository as a folder that
MTEB's own tables read (``mteb.ResultCache(out).load_results()``, ``to_dataframe``,
``join_revisions``, ``BenchmarkResults.to_dict/from_dict``, the leaderboard's frame) and
that MTEB's results repository accepts.

Our repository keeps its own layout (``results/<model>/<revision>/<dataset>/<task>.json``,
one record per (dataset, task) with per-item data, which MTEB's files have no room
for); the export writes MTEB's layout::

    <out>/results/<model_name_as_path>/<revision>/model_meta.json
    <out>/results/<model_name_as_path>/<revision>/run_settings.jsonl
    <out>/results/<model_name_as_path>/<revision>/<task name>.json

The mapping, one rule each (docs/guides/share-results.md lists it):

* model name: :func:`mteb_model_name`: a model run as ``mteb:<name>`` is MTEB's
  ``<name>``, a Hub id ``org/name`` stays, any other name (a built-in such as
  ``function-words``, a prefixed spec such as ``st:<path>``) is ``stylebench/<its slug>``
  (MTEB names every model ``organization/model_name``); the export reports each rename;
* model folder: MTEB's ``ModelMeta.model_name_as_path`` (``/`` -> ``__``, space -> ``_``),
  checked as a path segment; revision: the model revision, or ``no_revision_available``
  (MTEB's placeholder), in the folder name and in ``model_meta.json`` alike;
* task name: :func:`task_name`, ``<dataset folder>.<task type>`` (``steb/pastel_age`` +
  ``clustering`` -> ``steb__pastel_age.clustering``): one MTEB task per STEB (dataset, task
  type), the names :mod:`evaluators.mteb` registers its tasks under;
* split: the record's split (``test`` when it names none); subset (``hf_subset``): the
  dataset's config (``default`` when none); ``languages``: the record's, else the dataset
  registry's, as MTEB writes them (``eng-Latn``);
* scores: ``main_score`` = our main score, as recorded (0-1, not x100, as MTEB's), beside
  every metric of the record under its own name; ``dataset_revision``: the record's dataset
  revision (a local build's ``local-<fingerprint>``); ``evaluation_time``, ``date`` (POSIX
  seconds), ``kg_co2_emissions`` (null: not measured), ``mteb_version``: the installed
  MTEB's (the version whose task and result models the export was checked with), also in
  each score entry and in ``run_settings.jsonl``'s ``version.mteb``, as MTEB writes them;
* ``model_meta.json``: MTEB's ``ModelMeta`` from ours (already MTEB's names), MTEB's other
  fields at their defaults; ``training_datasets`` must be a list of dataset ids (a string
  is refused, naming the field: it would be exported as its characters);
* ``run_settings.jsonl``: one line per task, split and subset, as MTEB writes it, with our
  run settings (protocol, seed, sampling) beside MTEB's keys.

Every file is checked with MTEB's own models (``ModelMeta``, ``TaskResult``) before
anything is written. The output may not be the repository or lie inside it (that would
overwrite the repository's own ``model_meta.json`` files). Everything is written into a
temporary folder beside the output first and moved into place only when all of it was
written: a full disk leaves the output as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.records.ids import path_segment, slug
from evaluators.records.languages import dataset_languages
from evaluators.records.paths import NO_REVISION, RESULTS_DIR, dataset_folder
from evaluators.records.record import ResultRecord
from evaluators.results.repository import MODEL_META, inside, iter_model_folders

MTEB_RUN_SETTINGS = "run_settings.jsonl"
DEFAULT_SPLIT = "test"
DEFAULT_SUBSET = "default"
#: the organisation of a model that has no Hub id in MTEB's files
STYLEBENCH_ORG = "stylebench"
#: the spec prefix of a model loaded through MTEB's registry (``mteb:<name>``)
MTEB_PREFIX = "mteb:"
#: keys of an MTEB scores entry that a metric name must not overwrite
_ENTRY_KEYS = ("main_score", "hf_subset", "languages", "mteb_version")


def mteb_version() -> str:
    """The installed MTEB's version; a StylebenchError saying how to install it."""
    try:
        return metadata.version("mteb")
    except metadata.PackageNotFoundError:
        raise StylebenchError(
            "results export --format mteb needs MTEB (pip install 'stylebench[mteb]'): "
            "its files record the MTEB version that reads them, and the export is checked "
            "with MTEB's own models"
        ) from None


def task_name(dataset_id: str, task: str) -> str:
    """The MTEB task name of a STEB (dataset, task type): ``<dataset folder>.<task type>``."""
    return path_segment(f"{dataset_folder(dataset_id)}.{task}", "MTEB task name")


def mteb_task_name(record: ResultRecord) -> str:
    """The MTEB task name of one record (:func:`task_name`)."""
    return task_name(record.dataset_id, record.task)


def mteb_model_name(name: str) -> str:
    """The model name MTEB's files give a stylebench model name (the module docstring)."""
    if name.startswith(MTEB_PREFIX) and "/" in name[len(MTEB_PREFIX) :]:
        return name[len(MTEB_PREFIX) :]
    if is_hub_repo_id(name) and ":" not in name:
        return name
    return f"{STYLEBENCH_ORG}/{slug(name)}"


def mteb_model_folder(name: str) -> str:
    """MTEB's folder of a model name (``ModelMeta.model_name_as_path``)."""
    return path_segment(name.replace("/", "__").replace(" ", "_"), "MTEB model folder")


def dataset_revision(revision: str | None, fingerprint: str | None) -> str:
    """What pins a dataset in MTEB's ``dataset_revision``: its revision, else its
    content fingerprint."""
    return revision or fingerprint or ""


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


def task_result(record: ResultRecord, version: str | None = None) -> dict[str, Any]:
    """One record as MTEB's ``TaskResult`` JSON (``version``: MTEB's, default the
    installed one)."""
    version = version or mteb_version()
    clash = sorted(set(record.metrics) & set(_ENTRY_KEYS) - {record.main_score_name})
    if clash:
        raise DataError(f"{record.dataset_id} ({record.task}): metric names {clash} are MTEB's")
    entry: dict[str, Any] = {
        **{k: v for k, v in sorted(record.metrics.items()) if k not in _ENTRY_KEYS},
        "main_score": record.main_score,
        "hf_subset": record.dataset.config or DEFAULT_SUBSET,
        "languages": record_languages(record),
        "mteb_version": version,
    }
    date = None
    if record.created_at:
        try:
            date = datetime.fromisoformat(record.created_at).timestamp()
        except ValueError:
            date = None
    return {
        "dataset_revision": dataset_revision(record.dataset.revision, record.dataset.fingerprint),
        "task_name": mteb_task_name(record),
        "mteb_version": version,
        "scores": {record.dataset.split or DEFAULT_SPLIT: [entry]},
        "evaluation_time": record.evaluation_time,
        "kg_co2_emissions": None,
        "date": date,
    }


def run_settings_line(record: ResultRecord, version: str | None = None) -> dict[str, Any]:
    """One ``run_settings.jsonl`` line (MTEB's keys, our settings beside them)."""
    versions = {k: v for k, v in sorted(record.versions.items())}
    versions["mteb"] = version or mteb_version()
    return {
        "task": mteb_task_name(record),
        "splits": [record.dataset.split or DEFAULT_SPLIT],
        "subsets": [record.dataset.config or DEFAULT_SUBSET],
        "version": versions,
        "encode_kwargs": {"batch_size": record.execution.get("batch_size")}
        if record.execution.get("batch_size") is not None
        else {},
        "stylebench_run": record.run,
    }


def _training_datasets(meta: dict[str, Any], where: str) -> list[str] | None:
    """``training_datasets`` as MTEB's list of dataset ids; a string is refused."""
    training = meta.get("training_datasets")
    if training is None:
        return None
    if isinstance(training, dict):  # MTEB 1.x: dataset id -> splits
        training = list(training)
    if not isinstance(training, list) or not all(isinstance(t, str) for t in training):
        raise DataError(
            f"{where}: key 'training_datasets' (training_data) is {training!r}: it must be "
            'a list of dataset ids, e.g. ["steb/ASSET"] (a string would be exported as '
            "its characters)"
        )
    return sorted(training)


def mteb_model_meta(meta: dict[str, Any], where: str = MODEL_META) -> dict[str, Any]:
    """``model_meta.json`` for MTEB: ours (already MTEB's names) under MTEB's name and
    revision (:func:`mteb_model_name`, ``no_revision_available``), MTEB's other fields at
    their defaults."""
    return {
        "name": mteb_model_name(str(meta["name"])),
        "revision": meta.get("revision") or NO_REVISION,
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
        "training_datasets": _training_datasets(meta, where),
        "adapted_from": None,
        "superseded_by": None,
        "modalities": ["text"],
        "model_type": ["dense"],
        "loader": None,
    }


def _mteb_problem(error: Exception) -> str:
    """The first problem of a pydantic ValidationError (or any error) on one line."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        first = errors()[0]
        where = str((first.get("loc") or ("?",))[0])  # the field, not pydantic's type path
        message = str(first.get("msg"))
        message = message if len(message) <= 160 else message[:157] + "..."
        return f"key {where!r}: {message} (got {first.get('input')!r})"
    return " ".join(str(error).split())


def check_with_mteb(rel: str, payload: dict[str, Any]) -> None:
    """Validate one file of the export with MTEB's own model (``ModelMeta`` for
    ``model_meta.json``, ``TaskResult`` for a task file); DataError naming the file."""
    from mteb.models import ModelMeta
    from mteb.results import TaskResult

    try:
        if rel.endswith("/" + MODEL_META):
            ModelMeta.model_validate_json_resolved(json.dumps(payload))
        else:
            TaskResult.model_validate(payload)
    except Exception as error:  # pydantic's ValidationError, or MTEB's own ValueError
        raise DataError(f"{rel}: MTEB refuses it: {_mteb_problem(error)}") from None


@dataclass
class ExportReport:
    written: list[str] = field(default_factory=list)  # paths relative to the output folder
    models: int = 0
    results: int = 0
    renamed: dict[str, str] = field(default_factory=dict)  # our model name -> MTEB's

    def notes(self) -> list[str]:
        """One line per model named otherwise in MTEB's files."""
        return [
            f"{ours} is {theirs!r} in MTEB's files (MTEB names models organization/name)"
            for ours, theirs in sorted(self.renamed.items())
        ]


def refuse_overlap(root: Path, out: Path) -> None:
    """DataError when ``out`` is the repository at ``root`` or lies inside it, or when the
    repository lies inside the folder the export writes (``out/results``)."""
    repo, target = Path(root).resolve(), Path(out).resolve()
    written = target / RESULTS_DIR
    if target == repo or repo in target.parents or written == repo or written in repo.parents:
        raise DataError(
            f"{out}: the export would be written into the results repository {root} "
            "(its own files would be overwritten): write it to a folder outside the repository"
        )


def plan_export(root: Path, report: ExportReport) -> list[tuple[str, str]]:
    """Every (path relative to the output, text) of the export of the repository at
    ``root``, each checked (module docstring); nothing is written."""
    version = mteb_version()
    plan: list[tuple[str, str]] = []
    for folder in iter_model_folders(root):
        meta = mteb_model_meta(folder.meta, str(folder.path / MODEL_META))
        if meta["name"] != folder.meta["name"]:
            report.renamed[str(folder.meta["name"])] = meta["name"]
        rel_folder = "/".join(
            (
                RESULTS_DIR,
                mteb_model_folder(meta["name"]),
                path_segment(meta["revision"], "revision folder"),
            )
        )
        if any(rel.startswith(rel_folder + "/") for rel, _ in plan):
            raise DataError(f"{folder.path}: a second model revision exported to {rel_folder}")
        check_with_mteb(f"{rel_folder}/{MODEL_META}", meta)
        plan.append((f"{rel_folder}/{MODEL_META}", json.dumps(meta, indent=2)))
        names: dict[str, Path] = {}
        lines = []
        for path, record in folder.records:
            name = mteb_task_name(record)
            if name in names:
                raise DataError(f"{path} and {names[name]} are both MTEB task {name!r}")
            names[name] = path
            payload = task_result(record, version)
            check_with_mteb(f"{rel_folder}/{name}.json", payload)
            plan.append((f"{rel_folder}/{name}.json", json.dumps(payload, indent=2)))
            lines.append(
                json.dumps(run_settings_line(record, version), sort_keys=True, default=str)
            )
            report.results += 1
        plan.append((f"{rel_folder}/{MTEB_RUN_SETTINGS}", "\n".join(lines)))
        report.models += 1
    return plan


def _move_into_place(stage: Path, out: Path, plan: list[tuple[str, str]]) -> None:
    """Each staged file of ``plan`` renamed to its place under ``out``: the whole staged
    folder when ``out`` does not exist yet (one rename), else file by file."""
    if not out.exists():
        os.replace(stage, out)
        return
    moved = 0
    try:
        for rel, _ in plan:
            target = inside(out, rel)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(stage / rel, target)
            moved += 1
    except OSError as error:
        raise StylebenchError(
            f"cannot move the MTEB export into {out} ({error.strerror or error}): {moved} of "
            f"{len(plan)} files were moved; run the export again"
        ) from error


def export_mteb(root: Path, out: Path) -> ExportReport:
    """Write the MTEB layout of the repository at ``root`` under ``out`` (see the module
    docstring). Every path and file is planned and checked first (DataError naming the
    problem: an output inside the repository, a name that is no path segment, two records
    of one model revision with one MTEB task name, unknown languages, a file MTEB refuses);
    then written into a temporary folder beside ``out`` and moved into place once all of
    it is written (a write that fails leaves ``out`` as it was). Files of the same name
    under ``out`` are replaced; nothing else there is touched."""
    out = Path(out)
    refuse_overlap(root, out)
    if out.exists() and not out.is_dir():
        raise DataError(f"{out}: not a folder (the export writes a folder)")
    report = ExportReport()
    plan = plan_export(root, report)
    out.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.export-", dir=out.parent))
    try:
        try:
            for rel, text in plan:
                target = stage / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes((text + "\n").encode("utf-8"))
        except OSError as error:
            raise StylebenchError(
                f"cannot write the MTEB export for {out} ({error.strerror or error}): "
                "nothing was written there"
            ) from error
        _move_into_place(stage, out, plan)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    report.written = [rel for rel, _ in plan]
    return report
