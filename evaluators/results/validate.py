"""``stylebench results validate``: the checks a submission to a results repository
passes (MTEB's CI checks, and what none of them checks: every main score re-derived).

Each problem is a :class:`Finding` naming the file and the reason. Refusals:

* **no symbolic link** anywhere under ``results/`` (each is named; none is followed);
* **safe names**: every model, revision and dataset folder and every task file name passes
  the one path-segment rule (:func:`evaluators.records.ids.path_segment`), and so do the
  names a record or ``model_meta.json`` would give them;
* **budgets** (:mod:`evaluators.records.items`): a record file over
  :data:`~evaluators.records.items.RECORD_FILE_BYTES`, items declaring more than the
  per-record or the per-submission inflate budget (all new and changed records together:
  those the base does not hold byte for byte), or a stream inflating past its declared
  size is refused before it is inflated;
* **model metadata schema**: ``model_meta.json`` holds known keys only, each of its type
  and range (:data:`~evaluators.results.repository.META_SCHEMA`), each problem naming the
  key;

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
* **main score re-derived**: recomputed from the record's per-item data (inline, or its
  checksummed sidecar ``<task>.items.zlib``; :meth:`ResultRecord.rederived_main_score`) it
  equals the stored main score, and the metric of that name, within :data:`TOLERANCE`. A
  record whose main score cannot be re-derived (items left out, malformed or missing) is
  refused; the one exception is a migrated version-1 record that the base already held
  with the same scores (a warning);
* **no duplicates**: one file per (model identity, dataset, task); the same encoder under
  two names or two revisions is a duplicate (an encoder's identity holds its revision when
  it has one), and so is the same dataset under an old and a new id (``steb/pastel_age``
  and ``steb/PASTEL:age``);
* **no removed result**: every result file of the base is still there (the base: a
  folder given with ``--base``, a git ref with ``--base``, or for a git work tree its
  upstream ``origin/HEAD`` or else ``HEAD``; a plain folder without ``--base`` is not
  checked, and the report says so).

Warnings (reported, not refused): a migrated version-1 record without per-item data that
the base already held (version-1 files kept only the mean metrics' histograms); a record
outside its declared benchmark; a superseded benchmark version; a model whose
``training_datasets`` (a dataset id or a list of them) lists a dataset it is evaluated on
(contamination).
"""

from __future__ import annotations

import hashlib
import json
import math
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError, UnknownNameError
from evaluators.records.ids import segment_problem
from evaluators.records.items import (
    RECORD_FILE_BYTES,
    RECORD_INFLATE_BYTES,
    SUBMISSION_INFLATE_BYTES,
    items_bytes,
)
from evaluators.records.paths import RESULTS_DIR, dataset_folder, model_folder, revision_folder
from evaluators.records.record import (
    SCHEMA_VERSION,
    SIDECAR_SUFFIX,
    ResultRecord,
    is_sidecar_ref,
    read_sidecar,
)
from evaluators.results.repository import (
    MODEL_META,
    RUN_KEYS,
    RUN_SETTINGS,
    SETTINGS_KEYS,
    SHARED_RUN_KEYS,
    meta_problems,
    migrate_meta,
    read_json,
    repository_links,
    training_data,
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
    inflate_bytes: int = 0  # what the new and changed records' items declared, together
    inflate_budget: int = SUBMISSION_INFLATE_BYTES

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


@dataclass(frozen=True)
class Base:
    """The state a submission is compared with: ``label``, its result files, and where
    to read one (a folder, or a git commit of ``root``)."""

    label: str | None = None
    files: frozenset[str] | None = None
    folder: Path | None = None
    root: Path | None = None
    ref: str | None = None
    _blobs: dict[str, str] = field(default_factory=dict, compare=False)

    def holds(self, rel: str, data: bytes) -> bool:
        """Whether the base holds result file ``rel`` with exactly the bytes ``data``
        (a git base: by blob id, without reading the base's file)."""
        if self.files is None or rel not in self.files:
            return False
        if self.folder is not None:
            return self.read(rel) == data
        if not self._blobs:
            listed = subprocess.run(
                ["git", "-C", str(self.root), "ls-tree", "-r", str(self.ref), "--", RESULTS_DIR],
                capture_output=True,
                text=True,
            ).stdout
            for line in listed.splitlines():
                meta, _, name = line.partition("\t")
                self._blobs[name] = meta.split()[-1]
        blob = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()
        return self._blobs.get(rel) == blob

    def read(self, rel: str) -> bytes | None:
        """The bytes of result file ``rel`` in the base (None when it has none)."""
        if self.files is None or rel not in self.files:
            return None
        if self.folder is not None:
            path = self.folder / rel
            if path.is_symlink() or not path.is_file():
                return None
            return path.read_bytes()
        done = subprocess.run(
            ["git", "-C", str(self.root), "show", f"{self.ref}:{rel}"], capture_output=True
        )
        return done.stdout if done.returncode == 0 else None


def load_base(root: Path, base: str | None) -> Base:
    """:func:`base_files` with a reader of the base's files."""
    label, files = base_files(root, base)
    if files is None:
        return Base()
    if base is not None and Path(base).is_dir():
        return Base(label, frozenset(files), folder=Path(base))
    return Base(label, frozenset(files), root=Path(root), ref=label.removeprefix("git "))


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
        meta = migrate_meta(read_json(path))
    except DataError as error:
        report.refuse(f"{rel}/{MODEL_META}", str(error).split(": ", 1)[-1])
        return None
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
        report.refuse(f"{rel}/{MODEL_META}", "lacks 'name'")
        return None
    problems = meta_problems(meta)
    for problem in problems:
        report.refuse(f"{rel}/{MODEL_META}", f"schema: {problem}")
    model_dir, revision_dir = folder.parent.name, folder.name
    try:
        expected_model = model_folder(meta["name"])
        expected_revision = revision_folder(meta.get("revision"))
    except DataError as error:
        report.refuse(f"{rel}/{MODEL_META}", str(error))
        return None
    if expected_model != model_dir:
        report.refuse(
            f"{rel}/{MODEL_META}",
            f"wrong folder: model folder {model_dir!r} does not match model_meta name "
            f"{meta['name']!r} (expected {expected_model!r})",
        )
    if expected_revision != revision_dir:
        report.refuse(
            f"{rel}/{MODEL_META}",
            f"wrong folder: revision folder {revision_dir!r} does not match model_meta "
            f"revision {meta.get('revision')!r} (expected {expected_revision!r})",
        )
    return None if problems else meta


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
    base: Base,
) -> ResultRecord | None:
    size = path.stat().st_size
    if size > RECORD_FILE_BYTES:
        report.refuse(
            rel, f"record file is {size:,} bytes, over the budget of {RECORD_FILE_BYTES:,}"
        )
        return None
    try:
        data = path.read_bytes()
        payload = json.loads(data)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        report.refuse(rel, f"not readable JSON ({error})")
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
    # safe names
    try:
        expected_folder = dataset_folder(record.dataset_id)
    except DataError as error:
        report.refuse(rel, str(error))
        return None
    problem = segment_problem(record.task)
    if problem is not None:
        report.refuse(rel, f"task {record.task!r} {problem}: not a file name of a repository")
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
    if expected_folder != path.parent.name:
        report.refuse(
            rel,
            f"wrong folder: record of dataset {record.dataset_id!r} belongs under "
            f"{expected_folder!r}, not {path.parent.name!r}",
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
    if _load_items(report, rel, path, record, base.holds(rel, data)):
        _check_score(report, rel, record, base)
    return record


def _load_items(
    report: ValidationReport, rel: str, path: Path, record: ResultRecord, unchanged: bool
) -> bool:
    """Check the items' declared sizes against the per-record and per-submission inflate
    budgets (before inflating anything; a record the base holds unchanged is not charged to
    the submission) and read a sidecar back; False (refused) when they do not pass."""
    items = record.items
    if items is None or not isinstance(items, dict):
        return True  # _check_score says why the score cannot be re-derived
    try:
        if is_sidecar_ref(items):
            declared = items["sidecar"].get("inflated") if isinstance(items["sidecar"], dict) else 0
            declared = declared if isinstance(declared, int) else 0
        elif "arrays" in items:
            declared = items_bytes(items)
        else:
            return True
    except ValueError as error:
        report.refuse(rel, f"malformed per-item data: {error}")
        return False
    if declared > RECORD_INFLATE_BYTES:
        report.refuse(
            rel,
            f"per-item data declares {declared:,} bytes, over the budget of "
            f"{RECORD_INFLATE_BYTES:,} per record (not inflated)",
        )
        return False
    if not unchanged:
        if report.inflate_bytes + declared > report.inflate_budget:
            report.refuse(
                rel,
                f"per-item data of the new and changed records declare "
                f"{report.inflate_bytes + declared:,} bytes, over the budget of "
                f"{report.inflate_budget:,} per submission (not inflated)",
            )
            return False
        report.inflate_bytes += declared
    if is_sidecar_ref(items):
        try:
            record.items = read_sidecar(items, path, rel)
        except (OSError, ValueError) as error:
            report.refuse(rel, f"malformed per-item data: {error}")
            return False
        if isinstance(record.items, dict) and "arrays" in record.items:
            try:
                inner = items_bytes(record.items)
            except ValueError as error:
                report.refuse(rel, f"malformed per-item data: {error}")
                return False
            if inner > RECORD_INFLATE_BYTES:
                report.refuse(rel, f"per-item data declares {inner:,} bytes, over the budget")
                return False
            if not unchanged:  # the sidecar's arrays inflate in their turn
                if report.inflate_bytes + inner > report.inflate_budget:
                    report.refuse(
                        rel,
                        f"per-item data of the new and changed records declare "
                        f"{report.inflate_bytes + inner:,} bytes, over the budget of "
                        f"{report.inflate_budget:,} per submission (not inflated)",
                    )
                    return False
                report.inflate_bytes += inner
    return True


def _v1_held_by_base(rel: str, record: ResultRecord, base: Base) -> bool:
    """Whether the base already held this migrated version-1 record at ``rel`` with the
    same main score and metrics."""
    data = base.read(rel)
    if data is None:
        return False
    try:
        held = ResultRecord.from_json(data.decode("utf-8"), rel)
    except (DataError, UnicodeDecodeError):
        return False
    return (
        held.migrated_from == 1
        and held.main_score_name == record.main_score_name
        and held.main_score == record.main_score
        and held.metrics == record.metrics
    )


def _check_score(report: ValidationReport, rel: str, record: ResultRecord, base: Base) -> None:
    stored = record.main_score
    if not math.isclose(
        stored, record.metrics[record.main_score_name], rel_tol=0, abs_tol=TOLERANCE
    ):
        report.refuse(
            rel,
            f"tampered score: main_score {stored!r} is not metrics[{record.main_score_name!r}] "
            f"{record.metrics[record.main_score_name]!r}",
        )
    try:
        derived = record.rederived_main_score()
    except (ValueError, TypeError, KeyError, IndexError, ArithmeticError) as error:
        reason = str(error) if isinstance(error, ValueError) else f"{type(error).__name__}: {error}"
        if record.migrated_from == 1 and _v1_held_by_base(rel, record, base):
            report.warn(
                rel,
                "migrated version-1 record keeps no per-item data: main score not re-derived "
                f"(held unchanged by the base, {base.label})",
            )
        elif record.migrated_from == 1:
            report.refuse(
                rel,
                f"main score cannot be re-derived ({reason}): a migrated version-1 record "
                "without per-item data is accepted only when the base (--base) already held it",
            )
        else:
            report.refuse(rel, f"main score cannot be re-derived: {reason}")
        return
    if not math.isclose(derived, stored, rel_tol=0, abs_tol=TOLERANCE):
        report.refuse(
            rel,
            f"tampered score: main score {record.main_score_name} {stored!r} differs from "
            f"{derived!r} re-derived from its per-item data (|difference| "
            f"{abs(derived - stored):.3g} > {TOLERANCE:g})",
        )


def _identity(record: ResultRecord) -> str:
    """The encoder a record is of: its identity (which holds the revision of a model with
    one), else its name and revision."""
    fallback = {"name": record.model.name, "revision": record.model.revision}
    return json.dumps(record.model.identity or fallback, sort_keys=True, default=str)


def validate_repository(
    root: Path, base: str | None = None, inflate_budget: int = SUBMISSION_INFLATE_BYTES
) -> ValidationReport:
    """Every check of the module docstring over the repository at ``root``;
    ``inflate_budget``: what all its records' per-item data may inflate to together."""
    root = Path(root)
    report = ValidationReport(inflate_budget=inflate_budget)
    results = root / RESULTS_DIR
    if not results.is_dir():
        report.refuse(RESULTS_DIR, f"{root} holds no {RESULTS_DIR}/ folder")
        return report
    links = set(repository_links(root))
    for link in sorted(links):
        report.refuse(
            link, "symbolic link: a results repository holds plain files and folders only"
        )
    if RESULTS_DIR in links:
        return report
    base_state = load_base(root, base)
    report.base = base_state.label
    seen: dict[tuple[str, str, str], str] = {}
    for model_dir in sorted(results.iterdir()):
        if model_dir.is_symlink():
            continue
        if not model_dir.is_dir():
            report.refuse(_rel(root, model_dir), "stray file: results/ holds model folders only")
            continue
        if _bad_name(report, root, model_dir, "model folder"):
            continue
        for folder in sorted(model_dir.iterdir()):
            rel = _rel(root, folder)
            if folder.is_symlink():
                continue
            if not folder.is_dir():
                report.refuse(rel, "stray file: a model folder holds revision folders only")
                continue
            if _bad_name(report, root, folder, "revision folder"):
                continue
            report.n_models += 1
            meta = _check_meta(report, rel, folder)
            settings = _check_settings(report, rel, folder)
            for entry in sorted(folder.iterdir()):
                if entry.is_symlink():
                    continue
                if entry.is_file() and entry.name not in (MODEL_META, RUN_SETTINGS):
                    report.refuse(_rel(root, entry), "stray file in a model revision folder")
                elif entry.is_dir() and not _bad_name(report, root, entry, "dataset folder"):
                    for path in sorted(entry.iterdir()):
                        if path.is_symlink():
                            continue
                        if _is_sidecar(path):
                            continue
                        if not (path.is_file() and path.suffix == ".json"):
                            report.refuse(
                                _rel(root, path),
                                "stray entry: a dataset folder holds <task>.json files "
                                f"(and their <task>{SIDECAR_SUFFIX} sidecars)",
                            )
                            continue
                        if _bad_name(report, root, path, "task file", path.stem):
                            continue
                        report.n_records += 1
                        record = _check_record(
                            report, _rel(root, path), path, meta, settings, base_state
                        )
                        if record is None:
                            continue
                        key = (
                            _identity(record),
                            canonical_dataset(record.dataset_id),
                            record.task,
                        )
                        if key in seen:
                            report.refuse(
                                _rel(root, path),
                                f"duplicate of {seen[key]}: the same model identity, dataset "
                                f"({key[1]}) and task (under another name or revision)",
                            )
                        else:
                            seen[key] = _rel(root, path)
            _check_contamination(report, rel, meta, folder)
    if base_state.files is not None:
        _check_removed(report, root, base_state)
    return report


def _check_removed(report: ValidationReport, root: Path, base: Base) -> None:
    """Refuse what the base holds and the repository no longer does: a result file is a
    "removed result"; a whole model revision folder gone is one "removed model revision"
    (its model_meta.json and run_settings.json are not results); a model_meta.json or
    run_settings.json gone from a folder that is still there is already refused as
    missing by the folder's own checks."""
    assert base.files is not None
    gone = sorted(base.files - _json_files(root))
    folders_gone: dict[str, int] = {}
    for rel in gone:
        folder = rel.rsplit("/", 1)[0]
        if Path(rel).name in (MODEL_META, RUN_SETTINGS):
            if not (root / folder).is_dir():
                folders_gone.setdefault(folder, 0)
            continue
        report.refuse(rel, f"removed result: present in the base ({base.label}), absent here")
        revision = rel.rsplit("/", 2)[0]
        if revision in folders_gone or not (root / revision).is_dir():
            folders_gone[revision] = folders_gone.get(revision, 0) + 1
    for folder, n in sorted(folders_gone.items()):
        report.refuse(
            folder,
            f"removed model revision: present in the base ({base.label}) with {n} results, "
            "absent here",
        )


def _is_sidecar(path: Path) -> bool:
    """An items sidecar whose record is beside it (an orphan is a stray entry)."""
    name = path.name
    if not name.endswith(SIDECAR_SUFFIX) or not path.is_file():
        return False
    return path.with_name(name.removesuffix(SIDECAR_SUFFIX) + ".json").is_file()


def _bad_name(
    report: ValidationReport, root: Path, path: Path, what: str, name: str | None = None
) -> bool:
    """Refuse an entry whose name fails the path-segment rule; True when refused."""
    problem = segment_problem(path.name if name is None else name)
    if problem is None:
        return False
    report.refuse(_rel(root, path), f"{what} name {problem}")
    return True


def _check_contamination(
    report: ValidationReport, rel: str, meta: dict[str, Any] | None, folder: Path
) -> None:
    trained = set(training_data((meta or {}).get("training_datasets")) or ())
    if not trained:
        return
    evaluated: set[str] = set()
    for path in folder.glob("*/*.json"):
        if path.is_symlink() or path.stat().st_size > RECORD_FILE_BYTES:
            continue
        try:
            record = ResultRecord.from_dict(read_json(path), str(path))
        except DataError:
            continue
        evaluated |= {record.dataset_id, record.dataset.repo}
    overlap = sorted(trained & evaluated)
    if overlap:
        report.warn(
            f"{rel}/{MODEL_META}",
            f"contamination: training_datasets lists {', '.join(overlap)}, which it is "
            "evaluated on",
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
