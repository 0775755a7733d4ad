"""``stylebench results validate``: the checks a submission to a results repository
passes (MTEB's CI checks, and what none of them checks: every main score re-derived).

Each problem is a :class:`Finding` naming the file and the reason. Refusals:

* **schema and version**: every record reads as a :class:`ResultRecord` and is schema
  version 2 on disk (``add`` migrates version-1 files); ``model_meta.json`` and
  ``run_settings.json`` are present and readable; no stray file in the layout;
* **folder matches metadata**: the model folder is the slug of ``model_meta.json``'s
  ``name``, the revision folder its ``revision``; each record's model is the folder's
  ``run_name`` (and revision), its dataset folder the slug of its dataset id, its file
  name its task;
* **run settings present**: ``run_settings.json`` holds every :data:`SETTINGS_KEYS`
  value, each record's ``run`` block every :data:`RUN_KEYS` key (``protocol`` and
  ``seed`` set), and they agree;
* **benchmark version known**: ``benchmark`` / ``benchmark_version`` name a version of
  :mod:`evaluators.benchmarks` (a superseded one is a warning);
* **main score re-derived**: recomputed from the record's per-item data
  (:meth:`ResultRecord.rederived_main_score`) it equals the stored main score, and the
  metric of that name, within :data:`TOLERANCE`;
* **no duplicates**: one file per (model identity, revision, dataset, task); the same
  encoder under two names is a duplicate, and so is the same dataset under an old and a
  new id (``steb/pastel_age`` and ``steb/PASTEL:age``);
* **no removed result**: every result file of the base is still there (the base: a
  folder given with ``--base``, a git ref with ``--base``, or for a git work tree its
  upstream ``origin/HEAD`` or else ``HEAD``; a plain folder without ``--base`` is not
  checked, and the report says so).

Warnings (reported, not refused): a migrated version-1 record without per-item data
whose main score cannot be re-derived (version-1 files kept only the mean metrics'
histograms); a record whose items were left out for size; a record outside its declared
benchmark; a superseded benchmark version; a model whose ``training_data`` lists a dataset
it is evaluated on (contamination).
"""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError, UnknownNameError
from evaluators.results.record import SCHEMA_VERSION, ResultRecord
from evaluators.results.repository import (
    MODEL_META,
    RESULTS_DIR,
    RUN_KEYS,
    RUN_SETTINGS,
    SETTINGS_KEYS,
    SHARED_RUN_KEYS,
    read_json,
    revision_folder,
    slug,
)

TOLERANCE = 1e-9
REFUSAL = "refusal"
WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    path: str  # repository-relative
    reason: str
    level: str = REFUSAL

    def __str__(self) -> str:
        return f"{self.level}: {self.path}: {self.reason}"


@dataclass
class ValidationReport:
    findings: list[Finding] = field(default_factory=list)
    n_records: int = 0
    n_models: int = 0
    base: str | None = None  # what removals were checked against (None: not checked)

    @property
    def refusals(self) -> list[Finding]:
        return [f for f in self.findings if f.level == REFUSAL]

    @property
    def warnings(self) -> list[Finding]:
        return [f for f in self.findings if f.level == WARNING]

    @property
    def ok(self) -> bool:
        return not self.refusals

    def refuse(self, path: str, reason: str) -> None:
        self.findings.append(Finding(path, reason, REFUSAL))

    def warn(self, path: str, reason: str) -> None:
        self.findings.append(Finding(path, reason, WARNING))


# ----------------------------------------------------------------------------- base


def base_files(root: Path, base: str | None) -> tuple[str | None, set[str] | None]:
    """(label, repository-relative result files) of the state a submission is compared
    with; ``(None, None)`` when there is none to compare with."""
    root = Path(root)
    if base is not None and Path(base).is_dir():
        return str(base), _json_files(Path(base))
    is_git = (root / ".git").exists()
    if base is not None and not is_git:
        raise DataError(f"--base {base!r}: not a folder, and {root} is not a git work tree")
    if not is_git:
        return None, None
    refs = [base] if base is not None else ["origin/HEAD", "HEAD"]
    for ref in refs:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            if base is not None:
                raise DataError(f"--base {base!r}: not a commit of {root}")
            continue
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-tree", "-r", "--name-only", ref, "--", RESULTS_DIR],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return f"git {ref}", {p for p in listed.splitlines() if p.endswith(".json")}
    return None, None  # a repository without commits yet


def _json_files(root: Path) -> set[str]:
    base = root / RESULTS_DIR
    if not base.is_dir():
        return set()
    return {p.relative_to(root).as_posix() for p in base.rglob("*.json") if p.is_file()}


# ----------------------------------------------------------------------------- checks


def canonical_dataset(dataset_id: str) -> str:
    """The dataset id a duplicate check compares: ``repo:config`` of a release read as
    the STEB dataset that config is (``steb/PASTEL:age`` -> ``steb/pastel_age``)."""
    from dataset_scripts.core.dataset_ids import split_config
    from dataset_scripts.registry import all_datasets

    repo, config = split_config(dataset_id)
    if config is None:
        return dataset_id
    for hub_id, spec in all_datasets().items():
        if spec.config == config and spec.repo == repo:
            return hub_id
    return dataset_id


def _check_meta(report: ValidationReport, rel: str, folder: Path) -> dict[str, Any] | None:
    path = folder / MODEL_META
    if not path.is_file():
        report.refuse(f"{rel}/{MODEL_META}", "missing (every model revision folder has one)")
        return None
    try:
        meta = read_json(path)
    except DataError as error:
        report.refuse(f"{rel}/{MODEL_META}", str(error).split(": ", 1)[-1])
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
        report.refuse(f"{rel}/{MODEL_META}", "lacks 'name'")
        return None
    model_dir, revision_dir = folder.parent.name, folder.name
    if slug(meta["name"]) != model_dir:
        report.refuse(
            f"{rel}/{MODEL_META}",
            f"wrong folder: model folder {model_dir!r} does not match model_meta name "
            f"{meta['name']!r} (expected {slug(meta['name'])!r})",
        )
    if revision_folder(meta.get("revision")) != revision_dir:
        report.refuse(
            f"{rel}/{MODEL_META}",
            f"wrong folder: revision folder {revision_dir!r} does not match model_meta "
            f"revision {meta.get('revision')!r} (expected {revision_folder(meta.get('revision'))!r})",
        )
    return meta


def _check_settings(report: ValidationReport, rel: str, folder: Path) -> dict[str, Any] | None:
    from evaluators.benchmarks import get_benchmark

    path = folder / RUN_SETTINGS
    where = f"{rel}/{RUN_SETTINGS}"
    if not path.is_file():
        report.refuse(where, "missing run settings (run_settings.json)")
        return None
    try:
        settings = read_json(path)
    except DataError as error:
        report.refuse(where, str(error).split(": ", 1)[-1])
        return None
    if not isinstance(settings, dict):
        report.refuse(where, "is not a JSON object")
        return None
    for key in SETTINGS_KEYS:
        if settings.get(key) is None:
            report.refuse(where, f"missing run setting {key!r}")
    name, version = settings.get("benchmark"), settings.get("benchmark_version")
    if name is not None and version is not None:
        try:
            bench = get_benchmark(str(name), str(version))
        except UnknownNameError as error:
            report.refuse(where, str(error))
        else:
            settings["_benchmark"] = bench
            if bench.superseded_by:
                report.warn(where, f"benchmark {bench.key} is superseded by {bench.superseded_by}")
    return settings


def _check_record(
    report: ValidationReport,
    rel: str,
    path: Path,
    meta: dict[str, Any] | None,
    settings: dict[str, Any] | None,
) -> ResultRecord | None:
    try:
        payload = read_json(path)
    except DataError as error:
        report.refuse(rel, str(error).split(": ", 1)[-1])
        return None
    if isinstance(payload, dict) and payload.get("schema_version", 1) != SCHEMA_VERSION:
        report.refuse(
            rel,
            f"schema_version {payload.get('schema_version', 1)} on disk; the repository holds "
            f"version {SCHEMA_VERSION} (`stylebench results add` migrates older files)",
        )
        return None
    try:
        record = ResultRecord.from_dict(payload, rel)
    except DataError as error:
        report.refuse(rel, str(error).removeprefix(f"{rel}: "))
        return None
    # folder matches metadata
    if meta is not None:
        run_name = meta.get("run_name") or meta["name"]
        if record.model.name != run_name:
            report.refuse(
                rel, f"wrong folder: record of model {record.model.name!r}, folder of {run_name!r}"
            )
        if record.model.revision and record.model.revision != meta.get("revision"):
            report.refuse(
                rel,
                f"wrong folder: record of revision {record.model.revision!r}, folder of "
                f"{meta.get('revision')!r}",
            )
    if slug(record.dataset_id) != path.parent.name:
        report.refuse(
            rel,
            f"wrong folder: record of dataset {record.dataset_id!r} belongs under "
            f"{slug(record.dataset_id)!r}, not {path.parent.name!r}",
        )
    if path.stem != record.task:
        report.refuse(rel, f"wrong file name: record of task {record.task!r}, file {path.name!r}")
    # run settings
    for key in RUN_KEYS:
        if key not in record.run or (key in SHARED_RUN_KEYS and record.run[key] is None):
            report.refuse(rel, f"missing run setting {key!r} in the record's run block")
    if settings is not None:
        for key in SHARED_RUN_KEYS:
            if key in record.run and key in settings and record.run[key] != settings[key]:
                report.refuse(
                    rel,
                    f"run setting {key!r} is {record.run[key]!r}, run_settings.json says "
                    f"{settings[key]!r}",
                )
        bench = settings.get("_benchmark")
        if bench is not None and not bench.contains(record.dataset_id, record.task):
            report.warn(rel, f"({record.dataset_id}, {record.task}) is not a unit of {bench.key}")
    _check_score(report, rel, record)
    return record


def _check_score(report: ValidationReport, rel: str, record: ResultRecord) -> None:
    stored = record.main_score
    if not math.isclose(
        stored, record.metrics[record.main_score_name], rel_tol=0, abs_tol=TOLERANCE
    ):
        report.refuse(
            rel,
            f"tampered score: main_score {stored!r} is not metrics[{record.main_score_name!r}] "
            f"{record.metrics[record.main_score_name]!r}",
        )
    items = record.items
    if isinstance(items, dict) and "omitted" in items:
        report.warn(rel, f"per-item data left out ({items['omitted']}): main score not re-derived")
        return
    try:
        derived = record.rederived_main_score()
    except ValueError as error:
        if record.migrated_from == 1:
            report.warn(
                rel,
                "migrated version-1 record keeps no per-item data: main score not re-derived",
            )
        else:
            report.refuse(rel, f"main score cannot be re-derived: {error}")
        return
    if not math.isclose(derived, stored, rel_tol=0, abs_tol=TOLERANCE):
        report.refuse(
            rel,
            f"tampered score: main score {record.main_score_name} {stored!r} differs from "
            f"{derived!r} re-derived from its per-item data (|difference| "
            f"{abs(derived - stored):.3g} > {TOLERANCE:g})",
        )


def _identity(record: ResultRecord) -> str:
    return json.dumps(record.model.identity or {"name": record.model.name}, sort_keys=True)


def validate_repository(root: Path, base: str | None = None) -> ValidationReport:
    """Every check of the module docstring over the repository at ``root``."""
    root = Path(root)
    report = ValidationReport()
    results = root / RESULTS_DIR
    if not results.is_dir():
        report.refuse(RESULTS_DIR, f"{root} holds no {RESULTS_DIR}/ folder")
        return report
    seen: dict[tuple[str, str | None, str, str], str] = {}
    for model_dir in sorted(results.iterdir()):
        if not model_dir.is_dir():
            report.refuse(_rel(root, model_dir), "stray file: results/ holds model folders only")
            continue
        for folder in sorted(model_dir.iterdir()):
            rel = _rel(root, folder)
            if not folder.is_dir():
                report.refuse(rel, "stray file: a model folder holds revision folders only")
                continue
            report.n_models += 1
            meta = _check_meta(report, rel, folder)
            settings = _check_settings(report, rel, folder)
            for entry in sorted(folder.iterdir()):
                if entry.is_file() and entry.name not in (MODEL_META, RUN_SETTINGS):
                    report.refuse(_rel(root, entry), "stray file in a model revision folder")
                elif entry.is_dir():
                    for path in sorted(entry.iterdir()):
                        if not (path.is_file() and path.suffix == ".json"):
                            report.refuse(
                                _rel(root, path),
                                "stray entry: a dataset folder holds <task>.json files",
                            )
                            continue
                        report.n_records += 1
                        record = _check_record(report, _rel(root, path), path, meta, settings)
                        if record is None:
                            continue
                        key = (
                            _identity(record),
                            record.model.revision or (meta or {}).get("revision"),
                            canonical_dataset(record.dataset_id),
                            record.task,
                        )
                        if key in seen:
                            report.refuse(
                                _rel(root, path),
                                f"duplicate of {seen[key]}: the same model, revision, dataset "
                                f"({key[2]}) and task",
                            )
                        else:
                            seen[key] = _rel(root, path)
            _check_contamination(report, rel, meta, folder)
    label, before = base_files(root, base)
    report.base = label
    if before is not None:
        now = _json_files(root)
        for gone in sorted(before - now):
            report.refuse(gone, f"removed result: present in the base ({label}), absent here")
    return report


def _check_contamination(
    report: ValidationReport, rel: str, meta: dict[str, Any] | None, folder: Path
) -> None:
    trained = set((meta or {}).get("training_data") or ())
    if not trained:
        return
    evaluated: set[str] = set()
    for path in folder.glob("*/*.json"):
        try:
            record = ResultRecord.from_dict(read_json(path), str(path))
        except DataError:
            continue
        evaluated |= {record.dataset_id, record.dataset.repo}
    overlap = sorted(trained & evaluated)
    if overlap:
        report.warn(
            f"{rel}/{MODEL_META}",
            f"contamination: training_data lists {', '.join(overlap)}, which it is evaluated on",
        )


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def format_report(report: ValidationReport) -> Iterable[str]:
    """The lines ``stylebench results validate`` prints."""
    for finding in report.findings:
        yield str(finding)
    removed = (
        f"removed results checked against {report.base}"
        if report.base
        else ("removed results not checked (no base: pass --base FOLDER or a git ref)")
    )
    yield (
        f"{report.n_records} results of {report.n_models} model revisions: "
        f"{len(report.refusals)} refused, {len(report.warnings)} warnings; {removed}"
    )
