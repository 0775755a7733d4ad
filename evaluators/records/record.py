"""The one result type of stylebench, in memory and on disk: what a (model, dataset, task)
run produced. The runner returns it (so do ``api.evaluate``, ``api.run``, the demo, Ray
and the Space) and writes it; every reader reads it back (resume, STEB scores, reports,
the results repository, comparisons); versioned and migrated. (A task evaluator's own
output, :class:`evaluators.tasks.base.TaskResult`, holds only the scores; the runner
wraps it into this record once.)

Layout (``schema_version`` 2; a file without ``schema_version`` is version 1, the
runner's dict before this module, and is migrated on read):

``schema_version``, ``task``, ``dataset`` (``name``, ``ref`` as given when it is a Hub id
or relative, else the folder's name, never the submitter's absolute path; ``id`` the STEB
dataset id, ``repo`` the Hub repo, ``config``, ``schema``, ``split``, ``fingerprint`` of
the rows, ``revision`` of the Hub dataset, or for a local build its content fingerprint
``local-<fingerprint>``; ``languages`` as MTEB writes them, ``eng-Latn``), ``model`` (``name``, ``identity``,
``revision``, ``n_parameters``, ``embedding_dim``, ``max_tokens``), ``run`` (the settings
that decide the numbers: ``protocol``, ``seed``, ``sampling``, ``submetrics``),
``main_score_name``, ``main_score``, ``metrics``, ``counts``, ``embedding``
(``texts``, ``unique_texts``, ``texts_encoded``, ``texts_from_cache``), ``timings``,
``evaluation_time`` (seconds, encoding and scoring; MTEB's field; a record without it
reads the sum of its timings),
``execution`` (batch size, devices: how it ran, not what it computed), ``seed``,
``versions``, ``hardware``, ``created_at``, ``details`` (CIs in ``details.ci95``,
per-group scores, sampling), ``items`` (per-unit data,
:mod:`evaluators.records.items`).

An items block larger than :data:`~evaluators.records.items.INLINE_ITEMS_BYTES` is written
to a sidecar file beside the record, ``<record stem>.items.zlib`` (the block's JSON,
zlib-compressed), and the record's ``items`` is ``{"sidecar": {"file", "sha256", "bytes",
"inflated"}}`` (the file's name, its SHA-256, its size and its inflated size).
:func:`load_record` reads it back (checksum, sizes and the inflate budget checked first);
in memory a record always holds the whole block.

:meth:`ResultRecord.stable_json` leaves out what differs between two runs of the same
work (embedding counts and cache hits, timings, timestamps, execution, hardware): the CLI, the Python API, the
demo, Ray and the Space give byte-identical stable JSON for the same run.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import tempfile
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.errors import DataError

SCHEMA_VERSION = 2
# top-level fields that describe one execution, not the result (see stable_json)
# (``embedding``: how many texts the embed step saw and found cached, which depends on
# what else was embedded with the task in one step and on the cache, not on the result)
VOLATILE = ("embedding", "timings", "evaluation_time", "execution", "hardware", "created_at")
REQUIRED = ("model", "dataset", "task", "main_score_name", "main_score", "metrics")


@dataclass
class DatasetInfo:
    name: str
    ref: str = ""
    id: str = ""  # the STEB dataset id (steb/pan23_style_change_hard), when it is one
    repo: str = ""  # the Hub repo the rows come from (or a folder's recorded hub id)
    config: str = ""
    schema: str = ""
    split: str | None = None
    fingerprint: str = ""
    revision: str | None = None
    languages: list[str] = field(default_factory=list)  # as MTEB writes them: eng-Latn

    def __post_init__(self) -> None:
        """No local leftovers (the module docstring): an absolute ``ref`` becomes the
        folder's name, and a local build without a revision gets its content fingerprint
        as one; languages not given are the dataset registry's. Applied to every record
        made or read, so old records read clean too."""
        local = bool(self.ref) and (_is_absolute(self.ref) or not is_hub_repo_id(self.ref))
        if self.ref and _is_absolute(self.ref):
            self.ref = PureWindowsPath(self.ref).name or PurePosixPath(self.ref).name
        if not self.revision and self.fingerprint and local:
            self.revision = f"{LOCAL_REVISION_PREFIX}{self.fingerprint}"
        if not self.languages and (self.id or self.repo):
            from evaluators.records.languages import dataset_languages

            self.languages = dataset_languages(self.id, self.repo)


@dataclass
class ModelInfo:
    name: str
    identity: dict[str, Any] = field(default_factory=dict)
    revision: str | None = None
    n_parameters: int | None = None
    embedding_dim: int | None = None
    max_tokens: int | None = None


@dataclass
class ResultRecord:
    task: str
    dataset: DatasetInfo
    model: ModelInfo
    main_score_name: str
    main_score: float
    metrics: dict[str, float]
    seed: int
    run: dict[str, Any] = field(default_factory=dict)
    counts: dict[str, Any] = field(default_factory=dict)
    embedding: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    execution: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)
    hardware: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    items: dict[str, Any] | None = None
    schema_version: int = SCHEMA_VERSION
    migrated_from: int | None = None
    evaluation_time: float | None = None  # seconds, encoding and scoring (as MTEB's)
    # Not part of the record (never written, never read from a file, not compared): how
    # this process came by it. ``path``: the file a run wrote it to or read it from;
    # ``resumed``: a run found it already written and read it back instead of evaluating;
    # ``node``: the Ray node that evaluated it.
    path: Path | None = field(default=None, compare=False, repr=False)
    resumed: bool = field(default=False, compare=False, repr=False)
    node: str | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.evaluation_time is None:
            self.evaluation_time = _evaluation_time({"timings": self.timings})

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        payload = {
            "schema_version": self.schema_version,
            "model": _json_safe(asdict(self.model)),
            "dataset": asdict(self.dataset),
            "task": self.task,
            "run": _json_safe(self.run),
            "main_score_name": self.main_score_name,
            "main_score": self.main_score,
            "metrics": self.metrics,
            "counts": self.counts,
            "embedding": self.embedding,
            "timings": self.timings,
            "evaluation_time": self.evaluation_time,
            "execution": _json_safe(self.execution),
            "seed": self.seed,
            "versions": self.versions,
            "hardware": self.hardware,
            "created_at": self.created_at,
            "details": _json_safe(self.details),
            "items": self.items,
        }
        if self.migrated_from is not None:
            payload["migrated_from"] = self.migrated_from
        return payload

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, default=str)

    def stable_dict(self) -> dict[str, Any]:
        """:meth:`to_dict` without what differs between two executions of the same run."""
        payload = self.to_dict()
        for key in VOLATILE:
            payload.pop(key, None)
        return payload

    def stable_json(self) -> str:
        return json.dumps(self.stable_dict(), indent=2, default=str)

    @classmethod
    def from_dict(cls, payload: dict[str, Any], source: str = "<record>") -> ResultRecord:
        """A record from its JSON dict; a version-1 dict (no ``schema_version``) is
        migrated; DataError naming ``source`` and the field otherwise."""
        if not isinstance(payload, dict):
            raise DataError(
                f"{source}: a result record is a JSON object, not {type(payload).__name__}"
            )
        version = payload.get("schema_version", 1)
        if version == 1:
            payload = migrate_v1(payload)
        elif version != SCHEMA_VERSION:
            raise DataError(
                f"{source}: result schema_version {version!r} is not known to this stylebench "
                f"(it reads 1 and {SCHEMA_VERSION}); upgrade stylebench"
            )
        for key in REQUIRED:
            if key not in payload:
                raise DataError(f"{source}: result record lacks field {key!r}")
        try:
            model, dataset = payload["model"], payload["dataset"]
            if not isinstance(model, dict) or not isinstance(model.get("name"), str):
                raise DataError(f"{source}: result record lacks field 'model.name'")
            if not isinstance(dataset, dict):
                raise DataError(f"{source}: result record field 'dataset' is not an object")
            record = cls(
                task=str(payload["task"]),
                dataset=DatasetInfo(
                    **{"name": "", **{k: dataset[k] for k in _fields(DatasetInfo) if k in dataset}}
                ),
                model=ModelInfo(**{k: model.get(k) for k in _fields(ModelInfo) if k in model}),
                main_score_name=str(payload["main_score_name"]),
                main_score=float(payload["main_score"]),
                metrics={k: float(v) for k, v in payload["metrics"].items() if v is not None},
                seed=payload.get("seed"),
                run=dict(payload.get("run") or {}),
                counts=dict(payload.get("counts") or {}),
                embedding=dict(payload.get("embedding") or {}),
                timings=dict(payload.get("timings") or {}),
                execution=dict(payload.get("execution") or {}),
                versions=dict(payload.get("versions") or {}),
                hardware=dict(payload.get("hardware") or {}),
                created_at=str(payload.get("created_at") or ""),
                details=dict(payload.get("details") or {}),
                items=payload.get("items"),
                migrated_from=payload.get("migrated_from"),
                evaluation_time=_evaluation_time(payload),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise DataError(f"{source}: result record lacks or mistypes field {error}") from None
        if record.main_score_name not in record.metrics:
            raise DataError(
                f"{source}: main score {record.main_score_name!r} is not among its metrics"
            )
        return record

    @classmethod
    def from_json(cls, text: str, source: str = "<record>") -> ResultRecord:
        try:
            payload = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as error:
            raise DataError(f"{source}: not a readable result JSON ({error})") from None
        return cls.from_dict(payload, source)

    # ------------------------------------------------------------------ use
    @property
    def ci95(self) -> dict[str, Any] | None:
        """The 95 % intervals the task recorded (``details.ci95``: per metric, unit, method)."""
        return self.details.get("ci95")

    @property
    def dataset_id(self) -> str:
        """The id scores and leaderboards key the result by: the STEB dataset id, else
        the repo (with ``:config`` for a config of a release), else the name."""
        return self.dataset.id or self.dataset.repo or self.dataset.name

    def rederived_main_score(self) -> float:
        """The main score recomputed from :attr:`items` (ValueError when not kept)."""
        from evaluators.records.items import rederive

        if self.items is not None:
            return rederive(self.items, self.main_score_name)
        units = self.details.get("units", {}).get(self.main_score_name)
        if isinstance(units, dict) and units.get("counts"):  # version 1: a histogram
            values, counts = units["values"], units["counts"]
            return float(sum(v * c for v, c in zip(values, counts, strict=True)) / sum(counts))
        raise ValueError("the record keeps no per-item data to re-derive its main score from")


#: the revision of a local build: its content fingerprint, so two builds of other rows
#: never share one
LOCAL_REVISION_PREFIX = "local-"


def _is_absolute(ref: str) -> bool:
    """A path of the submitter's machine: POSIX or Windows absolute, or ``~``."""
    return (
        ref.startswith("~")
        or PurePosixPath(ref).is_absolute()
        or PureWindowsPath(ref).is_absolute()
    )


def _evaluation_time(payload: dict[str, Any]) -> float | None:
    """``evaluation_time`` as recorded, else (a record written before it was) the sum
    of the recorded timings; None when there are none."""
    value = payload.get("evaluation_time")
    if value is not None:
        return float(value)
    timings = payload.get("timings") or {}
    parts = [timings.get(k) for k in ("encode_seconds", "evaluation_seconds")]
    if all(isinstance(p, int | float) and not isinstance(p, bool) for p in parts):
        return round(float(sum(parts)), 4)
    return None


def _fields(cls: type) -> list[str]:
    return list(cls.__dataclass_fields__)


def _json_safe(value: Any) -> Any:
    """``value`` through a JSON round trip (numpy scalars, paths and tuples become JSON
    types), so a record compares equal to the one read back from its file."""
    return json.loads(json.dumps(value, default=str))


def migrate_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """A version-1 result dict (the runner's before the record) as version 2: the run
    settings are read from ``details`` (protocol, sampling, submetrics) and the seed, the
    dataset id by the old fallback chain when the file did not record it, no per-item
    data (the histograms in ``details.units`` still re-derive the mean scores)."""
    out = dict(payload)
    details = dict(payload.get("details") or {})
    dataset = dict(payload.get("dataset") or {})
    if not dataset.get("id"):
        from evaluators.records.ids import legacy_dataset_id

        dataset["id"] = legacy_dataset_id(str(dataset.get("name", "")), dataset.get("ref"))
    out["dataset"] = dataset
    out["run"] = run_settings(
        details.get("protocol"),
        payload.get("seed"),
        details.get("sampling"),
        {n: v.get("classes") for n, v in (details.get("submetrics") or {}).items()},
    )
    out["schema_version"] = SCHEMA_VERSION
    out["migrated_from"] = 1
    out.setdefault("items", None)
    return out


def run_settings(protocol: Any, seed: Any, sampling: Any, submetrics: Any) -> dict[str, Any]:
    """The ``run`` block: the settings that decide a result's numbers."""
    return {
        "protocol": protocol,
        "seed": seed,
        "sampling": sampling,
        "submetrics": submetrics or {},
    }


def hardware() -> dict[str, Any]:
    """Where a result was computed (not part of its stable JSON)."""
    return {
        "machine": platform.machine(),
        "processor": platform.processor() or None,
        "system": platform.system(),
        "cpu_count": os.cpu_count(),
    }


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


SIDECAR_SUFFIX = ".items.zlib"


def sidecar_name(record_path: Path) -> str:
    """``<task>.items.zlib`` beside ``<task>.json``."""
    return Path(record_path).stem + SIDECAR_SUFFIX


def is_sidecar_ref(items: Any) -> bool:
    return isinstance(items, dict) and set(items) == {"sidecar"}


def read_sidecar(items: dict[str, Any], record_path: Path, source: str | None = None) -> Any:
    """The items block a record's ``{"sidecar": ...}`` points to, read from beside
    ``record_path``: ValueError naming the problem (a name other than
    :func:`sidecar_name`, a link or missing file, a size or SHA-256 other than declared, a
    declared inflated size over the per-record budget or a stream inflating past it)."""
    from evaluators.records.items import RECORD_INFLATE_BYTES, inflate

    ref = items["sidecar"]
    where = source or str(record_path)
    if not isinstance(ref, dict):
        raise ValueError("items sidecar reference is not an object")
    name, digest, size, inflated = (ref.get(k) for k in ("file", "sha256", "bytes", "inflated"))
    if name != sidecar_name(record_path):
        raise ValueError(f"items sidecar {name!r} is not {sidecar_name(record_path)!r}")
    for key, value in (("bytes", size), ("inflated", inflated)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"items sidecar {key} {value!r} is not a size")
    if inflated > RECORD_INFLATE_BYTES:
        raise ValueError(
            f"items sidecar declares {inflated:,} bytes, over the budget of "
            f"{RECORD_INFLATE_BYTES:,} per record"
        )
    if size > inflated + inflated // 100 + 1024:  # deflate never grows data by more
        raise ValueError(f"items sidecar declares {size:,} bytes for {inflated:,} inflated")
    path = Path(record_path).with_name(name)
    if path.is_symlink() or not path.is_file():
        raise ValueError(f"items sidecar {name} is missing or not a plain file (beside {where})")
    if path.stat().st_size != size:
        raise ValueError(f"items sidecar {name} is {path.stat().st_size} bytes, declared {size}")
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != digest:
        raise ValueError(f"items sidecar {name}: SHA-256 differs from the one the record declares")
    text = inflate(data, inflated, f"items sidecar {name}")
    if len(text) != inflated:
        raise ValueError(f"items sidecar {name} inflates to {len(text)} bytes, declared {inflated}")
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError(f"items sidecar {name} is not JSON ({error})") from None


def load_record(path: Path) -> ResultRecord:
    """One result file (its items sidecar read back, :func:`read_sidecar`); DataError
    naming the file otherwise."""
    from evaluators.records.items import RECORD_FILE_BYTES

    try:
        size = Path(path).stat().st_size
        if size > RECORD_FILE_BYTES:
            raise DataError(
                f"{path}: result file of {size:,} bytes, over the budget of {RECORD_FILE_BYTES:,}"
            )
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DataError(f"{path}: not a readable result JSON ({error})") from None
    record = ResultRecord.from_json(text, str(path))
    record.path = Path(path)
    if is_sidecar_ref(record.items):
        try:
            record.items = read_sidecar(record.items, Path(path))
        except (OSError, ValueError) as error:
            raise DataError(f"{path}: {error}") from None
    return record


def _write_atomic(data: bytes, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a result is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_record(record: ResultRecord, path: Path) -> Path:
    """Write atomically: a uniquely named temporary file beside ``path``, then
    ``os.replace`` (two runs writing the same result never share a temporary file). An
    items block over the inline budget goes to its sidecar file first (the module
    docstring), so a record never points to a sidecar not yet written."""
    from evaluators.records.items import INLINE_ITEMS_BYTES

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = record.to_dict()
    sidecar = path.with_name(sidecar_name(path))
    items_json = json.dumps(record.items) if record.items is not None else ""
    if len(items_json) > INLINE_ITEMS_BYTES:
        data = zlib.compress(items_json.encode("utf-8"), 6)
        _write_atomic(data, sidecar)
        payload["items"] = {
            "sidecar": {
                "file": sidecar.name,
                "sha256": hashlib.sha256(data).hexdigest(),
                "bytes": len(data),
                "inflated": len(items_json.encode("utf-8")),
            }
        }
    _write_atomic(json.dumps(payload, indent=2, default=str).encode("utf-8"), path)
    if not is_sidecar_ref(payload["items"]) and sidecar.is_file() and not sidecar.is_symlink():
        sidecar.unlink()  # our own earlier sidecar of this record, now inline
    return path
