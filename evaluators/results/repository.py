"""The results repository: where stylebench results are shared, checked and read by the
leaderboard (``stylebench results add|validate|submit|table``).

Layout (as MTEB's results repository, one folder per model and revision)::

    results/<org>__<model>/<revision>/model_meta.json
    results/<org>__<model>/<revision>/run_settings.json
    results/<org>__<model>/<revision>/<dataset slug>/<task>.json

* ``<org>__<model>`` is the model's public name with every run of characters outside
  ``[A-Za-z0-9._-]`` as ``__`` (the run folders' rule, :func:`evaluators.records.ids.slug`);
  ``<revision>`` is the model revision, or ``no_revision_available``;
* ``<dataset slug>`` the same rule over the record's dataset id (``steb/pastel_age`` ->
  ``steb__pastel_age``), ``<task>.json`` one :class:`~evaluators.records.record.ResultRecord`
  (always schema version 2 in the repository: ``add`` migrates version-1 files);
* ``model_meta.json`` (:data:`META_KEYS`, MTEB's ``ModelMeta`` field names where they mean
  the same thing): ``name`` (public name), ``revision``, ``run_name`` (the model name the
  records carry), ``release_date``, ``languages``, ``license``, ``n_parameters``,
  ``embed_dim``, ``max_tokens``, ``open_weights``, ``framework``, ``similarity_fn_name``,
  ``training_datasets`` (dataset ids the model was trained on: the contamination flag of
  ``validate``), ``reference``. The names before MTEB's (``embedding_dim``,
  ``training_data``) are migrated on read (:func:`migrate_meta`);
* ``run_settings.json`` (:data:`SETTINGS_KEYS`): the settings every record of the folder
  shares: ``benchmark`` and ``benchmark_version`` it was run for, ``stylebench_version``,
  ``protocol`` and ``seed``. The per-task settings (``sampling``, ``submetrics``) stay in
  each record's ``run`` block (:data:`RUN_KEYS`), which must agree with this file.

Every folder and file name comes from a record or ``--model-meta`` through one rule
(:func:`evaluators.records.ids.path_segment`: no ``.``/``..``, separators, NUL, control
characters, leading dots or over-long names), and each path is checked to lie inside the
repository, with no symbolic link on the way, before anything is written
(:func:`inside`). A repository holds no symbolic links (:func:`repository_links`).

``--repo`` is a local folder (a git work tree or not), a git remote (URL, ``git@``, or a
path ending ``.git``: cloned into a working copy under the stylebench cache), or, with
``--hub``, a Hub dataset repo id (``org/name``: files are staged in a folder under the
cache and sent as one pull request by ``submit``). A path-like ``--repo`` (``a/b``) that
does not exist is an error without ``--hub``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.records.ids import slug
from evaluators.records.paths import (
    RESULTS_DIR,
    model_folder,
    record_relpath,
    revision_folder,
)
from evaluators.records.record import (
    ResultRecord,
    is_sidecar_ref,
    load_record,
    read_sidecar,
    sidecar_name,
    write_record,
)

MODEL_META = "model_meta.json"
RUN_SETTINGS = "run_settings.json"
META_KEYS = (
    "name",
    "revision",
    "run_name",
    "release_date",
    "languages",
    "license",
    "n_parameters",
    "embed_dim",
    "max_tokens",
    "open_weights",
    "framework",
    "similarity_fn_name",
    "training_datasets",
    "reference",
)
#: model_meta.json keys before MTEB's names -> MTEB's (:func:`migrate_meta`)
LEGACY_META_KEYS = {"embedding_dim": "embed_dim", "training_data": "training_datasets"}
#: MTEB's ``ScoringFunction`` values
SIMILARITY_FUNCTIONS = ("cosine", "dot", "euclidean", "manhattan", "MaxSim", "custom")
SETTINGS_KEYS = ("benchmark", "benchmark_version", "stylebench_version", "protocol", "seed")
RUN_KEYS = ("protocol", "seed", "sampling", "submetrics")  # each record's ``run`` block
SHARED_RUN_KEYS = ("protocol", "seed")  # the ones run_settings.json holds for all


def inside(root: Path, rel: str) -> Path:
    """``root / rel`` after checking that it lies inside ``root`` once resolved and that
    no part of it below ``root`` is a symbolic link; DataError naming it otherwise."""
    root = Path(root)
    path = root / rel
    current = root
    for part in Path(rel).parts:
        current = current / part
        if current.is_symlink():
            raise DataError(
                f"{current}: a symbolic link inside the results repository (refused: a "
                "repository holds plain files and folders only)"
            )
    resolved, base = path.resolve(), root.resolve()
    if resolved != base and base not in resolved.parents:
        raise DataError(f"{rel}: resolves to {resolved}, outside the repository {base}")
    return path


def repository_links(root: Path) -> list[str]:
    """Every symbolic link at or below ``root/results`` (repository-relative, sorted);
    links are not followed."""
    base = Path(root) / RESULTS_DIR
    if base.is_symlink():
        return [RESULTS_DIR]
    found = []
    for folder, dirs, files in os.walk(base, followlinks=False):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            if path.is_symlink():
                found.append(path.relative_to(root).as_posix())
    return sorted(found)


def refuse_links(root: Path) -> None:
    """DataError naming the first symbolic links of a repository, if any."""
    links = repository_links(root)
    if links:
        raise DataError(
            f"{Path(root) / links[0]}: a symbolic link inside the results repository "
            f"({len(links)} in all; a repository holds plain files and folders only)"
        )


# ----------------------------------------------------------------------------- model_meta

#: key -> (allowed types, check of the value or None, what it must be)
_INT = (int,)
META_SCHEMA: dict[str, tuple[tuple[type, ...], Any, str]] = {
    "name": ((str,), lambda v: 0 < len(v) <= 300, "a non-empty string of at most 300 characters"),
    "revision": ((str,), lambda v: 0 < len(v) <= 300, "a string (or null)"),
    "run_name": ((str,), lambda v: 0 < len(v) <= 300, "a string (or null)"),
    "license": ((str,), lambda v: len(v) <= 200, "a string (or null)"),
    "n_parameters": (_INT, lambda v: 0 < v <= 10**13, "an integer in 1 .. 10^13 (or null)"),
    "embed_dim": (_INT, lambda v: 0 < v <= 10**6, "an integer in 1 .. 10^6 (or null)"),
    "max_tokens": (_INT, lambda v: 0 < v <= 10**9, "an integer in 1 .. 10^9 (or null)"),
    "open_weights": ((bool,), None, "true, false or null"),
    "training_datasets": (
        (str, list, dict),
        None,
        "a dataset id, a list of dataset ids or a mapping of dataset id to splits (or null)",
    ),
    "reference": ((str,), lambda v: len(v) <= 2000, "a string (URL) of at most 2000 characters"),
    "release_date": (
        (str,),
        lambda v: re.fullmatch(r"\d{4}-\d{2}-\d{2}", v) is not None,
        "a date YYYY-MM-DD (or null)",
    ),
    "languages": (
        (list,),
        lambda v: all(isinstance(c, str) and _LANGUAGE.fullmatch(c) for c in v),
        "a list of ISO 639-3 codes with their script, as MTEB writes them ('eng-Latn')",
    ),
    "framework": (
        (list,),
        lambda v: all(isinstance(c, str) and 0 < len(c) <= 100 for c in v),
        "a list of framework names, as MTEB's ('Sentence Transformers', 'PyTorch', 'NumPy')",
    ),
    "similarity_fn_name": (
        (str,),
        lambda v: v in SIMILARITY_FUNCTIONS,
        f"one of {', '.join(SIMILARITY_FUNCTIONS)} (MTEB's scoring functions) or null",
    ),
}
_LANGUAGE = re.compile(r"[a-z]{3}-[A-Z][a-z]{3}")


def migrate_meta(meta: Any) -> Any:
    """A ``model_meta.json`` mapping with the names before MTEB's (``embedding_dim``,
    ``training_data``) as MTEB's (``embed_dim``, ``training_datasets``); anything else,
    and a mapping holding both an old and a new name, as it is (the schema check names
    the old key then)."""
    if not isinstance(meta, dict):
        return meta
    out = {}
    for key, value in meta.items():
        new = LEGACY_META_KEYS.get(key)
        out[new if new is not None and new not in meta else key] = value
    return out


def meta_problems(meta: Any) -> list[str]:
    """What is wrong with a ``model_meta.json`` mapping, each naming the key (empty when
    nothing): known keys only (:data:`META_KEYS`), each of its type and range
    (:data:`META_SCHEMA`), ``name`` present; a bool is not an integer."""
    if not isinstance(meta, dict):
        return [f"model metadata is a mapping of {', '.join(META_KEYS)}, not {type(meta).__name__}"]
    problems = [
        f"key {key!r} (the old name of key {LEGACY_META_KEYS[key]!r}) given beside "
        f"{LEGACY_META_KEYS[key]!r}: keep one"
        if key in LEGACY_META_KEYS
        else f"unknown key {key!r} (known: {', '.join(META_KEYS)})"
        for key in meta
        if key not in META_SCHEMA
    ]
    if "name" not in meta:
        problems.append("key 'name' is missing")
    for key, value in meta.items():
        if key not in META_SCHEMA or (value is None and key != "name"):
            continue
        types, check, what = META_SCHEMA[key]
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        if ok and key == "training_datasets":
            ok = training_data(value) is not None
        if ok and check is not None:
            ok = bool(check(value))
        if not ok:
            shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
            problems.append(f"key {key!r} is {shown}: it must be {what}")
    return problems


def training_data(value: Any) -> list[str] | None:
    """``training_datasets`` as a list of dataset ids: a string is one id, a list of
    strings is kept, a mapping (MTEB 1.x: dataset id -> splits) gives its keys, null is
    the empty list; None when it is neither (the one normalisation, used by ``add`` and
    by ``validate``'s contamination check)."""
    if value is None:
        return []
    if isinstance(value, dict):
        value = list(value)
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return [v for v in value if v.strip()]
    return None


def read_json(path: Path) -> Any:
    """A JSON file of a repository or run folder; DataError naming the file when it does
    not read, nests too deep or is over the record-file budget."""
    from evaluators.records.items import RECORD_FILE_BYTES

    try:
        size = Path(path).stat().st_size
        if size > RECORD_FILE_BYTES:
            raise DataError(f"{path}: {size:,} bytes, over the budget of {RECORD_FILE_BYTES:,}")
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise DataError(f"{path}: not readable JSON ({error})") from None


# ----------------------------------------------------------------------------- --repo


@dataclass(frozen=True)
class RepoTarget:
    """Where ``--repo`` points: ``kind`` is ``folder`` (a local folder, maybe a git work
    tree), ``git`` (a remote, ``root`` its working copy) or ``hub`` (a Hub dataset repo,
    ``root`` the staging folder of files to send)."""

    kind: str
    spec: str
    root: Path
    remote: str | None = None

    @property
    def is_git_work_tree(self) -> bool:
        return (self.root / ".git").exists()


def _is_git_remote(spec: str) -> bool:
    path = Path(spec)
    if "://" in spec or spec.startswith("git@") or spec.endswith(".git"):
        return True
    return path.is_dir() and (path / "HEAD").is_file() and (path / "objects").is_dir()


def workspace(spec: str) -> Path:
    """The working copy (git) or staging folder (Hub) of a remote ``--repo``."""
    from evaluators.paths import cache_root

    return cache_root() / "results-repos" / slug(spec.rstrip("/"))


def resolve_repo(spec: str, workdir: Path | None = None, hub: bool = False) -> RepoTarget:
    """What ``--repo SPEC`` names (nothing is cloned or created here): with ``hub`` a Hub
    dataset repo id; else a git remote, or a local folder. A path-like ``spec`` (``a/b``,
    the shape of a Hub id) that does not exist is a StylebenchError without ``hub``: a
    typo'd folder is never staged as a Hub repo."""
    if hub:
        if not is_hub_repo_id(spec):
            raise StylebenchError(f"--hub: {spec!r} is not a Hub dataset repo id (org/name)")
        return RepoTarget("hub", spec, Path(workdir) if workdir else workspace(spec), spec)
    if _is_git_remote(spec):
        return RepoTarget("git", spec, Path(workdir) if workdir else workspace(spec), spec)
    path = Path(spec).expanduser()
    if not path.exists() and is_hub_repo_id(spec):
        raise StylebenchError(
            f"--repo {spec!r}: no such folder (for a Hub dataset repo pass --hub; for a new "
            f"local repository create the folder first or write ./{spec})"
        )
    return RepoTarget("folder", spec, path)


def git(root: Path, *args: str, check: bool = True) -> str:
    """``git -C root args`` (an identity is supplied when none is configured)."""
    command = ["git", "-C", str(root)]
    if args and args[0] == "commit":
        probe = subprocess.run(
            ["git", "-C", str(root), "config", "user.email"], capture_output=True, text=True
        )
        if probe.returncode != 0 or not probe.stdout.strip():
            command += ["-c", "user.name=stylebench", "-c", "user.email=results@stylebench.invalid"]
    done = subprocess.run([*command, *args], capture_output=True, text=True)
    if check and done.returncode != 0:
        raise StylebenchError(f"git {' '.join(args)} in {root}: {done.stderr.strip()}")
    return done.stdout


def open_repo(spec: str, workdir: Path | None = None, hub: bool = False) -> RepoTarget:
    """:func:`resolve_repo`, with a git remote cloned into its working copy when there is
    none yet and a Hub staging folder created."""
    target = resolve_repo(spec, workdir, hub)
    if target.kind == "git" and not (target.root / ".git").exists():
        target.root.parent.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            ["git", "clone", "--quiet", spec, str(target.root)], capture_output=True, text=True
        )
        if done.returncode != 0:
            raise StylebenchError(f"cannot clone results repository {spec}: {done.stderr.strip()}")
    elif target.kind == "hub":
        target.root.mkdir(parents=True, exist_ok=True)
    return target


# ----------------------------------------------------------------------------- reading


@dataclass
class ModelFolder:
    """One ``results/<model>/<revision>/`` folder."""

    path: Path
    meta: dict[str, Any]
    settings: dict[str, Any]
    records: list[tuple[Path, ResultRecord]] = field(default_factory=list)


def record_files(folder: Path) -> list[Path]:
    """Every ``<dataset>/<task>.json`` of a model revision folder, sorted."""
    return sorted(p for p in folder.glob("*/*.json") if p.is_file())


def revision_folders(root: Path) -> list[Path]:
    base = Path(root) / RESULTS_DIR
    return sorted(p for p in base.glob("*/*") if p.is_dir()) if base.is_dir() else []


def iter_model_folders(root: Path) -> Iterator[ModelFolder]:
    """Every model revision folder of a repository with its records; DataError naming
    the file at the first unreadable one or symbolic link (``validate`` reports every
    problem instead)."""
    refuse_links(root)
    for folder in revision_folders(root):
        meta = migrate_meta(read_json(folder / MODEL_META))
        problems = meta_problems(meta)
        if problems:
            raise DataError(f"{folder / MODEL_META}: {'; '.join(problems)}")
        settings = read_json(folder / RUN_SETTINGS)
        records = [(p, load_record(p)) for p in record_files(folder)]
        yield ModelFolder(folder, meta, settings, records)


# ----------------------------------------------------------------------------- add


@dataclass
class AddReport:
    written: list[str]  # repository-relative paths
    replaced: list[str]
    migrated: int
    models: list[str]
    benchmark: str = ""  # the benchmark key the run settings name


def run_records(run_folder: Path) -> list[tuple[Path, ResultRecord]]:
    """Every result record of a run output folder (``<model>/<dataset>/<task>.json``,
    any record version, an items sidecar read back); other JSON files (a scores summary)
    are left alone. A record that is a symbolic link is refused."""
    run_folder = Path(run_folder)
    if not run_folder.is_dir():
        raise StylebenchError(f"run output folder {run_folder} does not exist")
    found = []
    for path in sorted(run_folder.rglob("*.json")):
        payload = read_json(path)
        if not isinstance(payload, dict) or "main_score" not in payload or "task" not in payload:
            continue
        if path.is_symlink():
            raise DataError(f"{path}: a result record that is a symbolic link (copy the file)")
        record = ResultRecord.from_dict(payload, str(path))
        if is_sidecar_ref(record.items):
            try:
                record.items = read_sidecar(record.items, path)
            except (OSError, ValueError) as error:
                raise DataError(f"{path}: {error}") from None
        found.append((path, record))
    if not found:
        raise StylebenchError(f"{run_folder}: no result files (<model>/<dataset>/<task>.json)")
    return found


def _only(values: Sequence[Any], what: str, model: str) -> Any:
    distinct = {json.dumps(v, sort_keys=True, default=str) for v in values}
    if len(distinct) > 1:
        raise DataError(
            f"the results of model {model!r} differ in {what} ({', '.join(sorted(distinct))}): "
            "add each setting's run separately, to a model revision of its own"
        )
    return values[0] if values else None


def load_meta_file(path: Path | None) -> dict[str, Any]:
    """``--model-meta``: a JSON or YAML mapping of :data:`META_KEYS`, checked against
    :data:`META_SCHEMA` (``name`` may be left out: it defaults to the records' model)."""
    if path is None:
        return {}
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix in (".yaml", ".yml"):
        import yaml

        try:
            payload = yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise DataError(f"{path}: not readable YAML ({error})") from None
    else:
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as error:
            raise DataError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(payload, dict):
        raise DataError(f"{path}: model metadata is a mapping of {', '.join(META_KEYS)}")
    payload = migrate_meta(payload)
    problems = meta_problems({"name": "x", **payload})
    if problems:
        raise DataError(f"{path}: {'; '.join(problems)}")
    return payload


def model_meta(records: Sequence[ResultRecord], given: Mapping[str, Any]) -> dict[str, Any]:
    """``model_meta.json`` of one model's records: what the records say of the model,
    overridden by ``given`` (``--model-meta``), which must not contradict them; checked
    against :data:`META_SCHEMA` (DataError naming the key)."""
    name = records[0].model.name
    revisions = [r.model.revision for r in records if r.model.revision]
    revision = _only(revisions, "model revision", name) if revisions else None
    meta: dict[str, Any] = {
        "name": name,
        "revision": revision,
        "run_name": name,
        "release_date": None,
        "languages": None,
        "license": None,
        "n_parameters": None,
        "embed_dim": None,
        "max_tokens": None,
        "open_weights": None,
        "framework": None,
        "similarity_fn_name": None,
        "training_datasets": None,
        "reference": None,
    }
    for key, field_name in (
        ("n_parameters", "n_parameters"),
        ("embed_dim", "embedding_dim"),
        ("max_tokens", "max_tokens"),
    ):
        values = [
            getattr(r.model, field_name)
            for r in records
            if getattr(r.model, field_name) is not None
        ]
        meta[key] = _only(values, key, name) if values else None
    for key, value in given.items():
        if key == "run_name" and value != name:
            raise DataError(f"--model-meta run_name {value!r} is not the records' model {name!r}")
        if key == "revision" and revision and value != revision:
            raise DataError(
                f"--model-meta revision {value!r} contradicts the records' revision {revision!r}"
            )
        meta[key] = value
    if meta["training_datasets"] is not None:
        meta["training_datasets"] = training_data(meta["training_datasets"])
    problems = meta_problems(meta)
    if problems:
        raise DataError(f"model metadata of {name!r}: {'; '.join(problems)}")
    return meta


def benchmark_of(records: Sequence[ResultRecord], given: str | None) -> Any:
    """The benchmark a run was made for: the one its records' run settings name
    (``run.benchmark``), else ``given`` (``--benchmark``), else the one whose units hold
    every record (STEB(v1) when it does, else the smallest such benchmark: a STEB-nano run
    is STEB-nano), else STEB(v1). DataError when the records name several or contradict
    ``given``."""
    from evaluators.benchmarks import benchmarks, get_benchmark

    named = sorted({str(r.run["benchmark"]) for r in records if r.run.get("benchmark")})
    if len(named) > 1:
        raise DataError(f"the records name several benchmarks ({', '.join(named)}): add each run")
    if named:
        bench = get_benchmark(named[0])
        if given is not None and get_benchmark(given).key != bench.key:
            raise DataError(
                f"--benchmark {given!r} contradicts the records' run settings ({bench.key})"
            )
        return bench
    if given is not None:
        return get_benchmark(given)
    units = {(r.dataset_id, r.task) for r in records}
    holding = [b for b in benchmarks().values() if all(b.contains(d, t) for d, t in units)]
    steb = get_benchmark("steb")
    if not holding or steb in holding:
        return steb
    return min(holding, key=lambda b: (len(b.units), b.key))


def run_settings_of(records: Sequence[ResultRecord], benchmark: Any) -> dict[str, Any]:
    """``run_settings.json`` of one model's records (they must share protocol and seed)."""
    name = records[0].model.name
    settings: dict[str, Any] = {
        "benchmark": benchmark.name,
        "benchmark_version": benchmark.version,
        "stylebench_version": _only(
            [r.versions.get("stylebench") for r in records], "stylebench version", name
        ),
    }
    for key in SHARED_RUN_KEYS:
        settings[key] = _only([r.run.get(key) for r in records], f"run setting {key!r}", name)
    return settings


def _json_bytes(payload: Any) -> bytes:
    return (json.dumps(payload, indent=2, sort_keys=False) + "\n").encode("utf-8")


def add_run(
    run_folder: Path,
    root: Path,
    meta_file: Path | None = None,
    benchmark: str | None = None,
    model: str | None = None,
) -> AddReport:
    """Lay the records of a run output folder out in the repository at ``root`` (see the
    module docstring); version-1 files are migrated (written as version 2).

    ``model`` names the one model of the run folder to add (required with ``meta_file``
    when the folder holds several, unless the metadata's ``run_name`` names it;
    ``meta_file`` applies to it alone, and only it is added). All or nothing:
    every path, name and setting is checked first, every file is then staged in a
    temporary folder inside the repository and renamed into place only when all were
    written; a failure leaves the repository as it was."""
    root = Path(root)
    given = load_meta_file(meta_file)
    by_model: dict[str, list[ResultRecord]] = {}
    migrated: dict[str, int] = {}
    for _, record in run_records(run_folder):
        by_model.setdefault(record.model.name, []).append(record)
        migrated[record.model.name] = migrated.get(record.model.name, 0) + (
            record.migrated_from is not None
        )
    if model is None and given.get("run_name") and len(by_model) > 1:
        model = str(given["run_name"])
    if model is not None:
        if model not in by_model:
            raise DataError(
                f"{run_folder} holds no results of model {model!r} (it holds "
                f"{', '.join(sorted(by_model))})"
            )
        by_model = {model: by_model[model]}
    elif given and len(by_model) > 1:
        raise DataError(
            f"{run_folder} holds {len(by_model)} models ({', '.join(sorted(by_model))}); "
            "--model-meta describes one: name it with --model (or its run_name)"
        )
    if root.exists():
        refuse_links(root)
    all_records = [r for records in by_model.values() for r in records]
    bench = benchmark_of(all_records, benchmark)
    # 1. plan: every name, path and setting checked; nothing written yet
    plan: list[tuple[str, bytes | ResultRecord]] = []
    report = AddReport([], [], 0, [], bench.key)
    for name, records in sorted(by_model.items()):
        meta = model_meta(records, given)
        settings = run_settings_of(records, bench)
        rel_folder = (
            f"{RESULTS_DIR}/{model_folder(meta['name'])}/{revision_folder(meta['revision'])}"
        )
        folder = inside(root, rel_folder)
        if (folder / RUN_SETTINGS).is_file():
            stored = read_json(folder / RUN_SETTINGS)
            if stored != settings:
                raise DataError(
                    f"{folder / RUN_SETTINGS}: this model revision holds results of other "
                    f"settings ({stored}); these are {settings}"
                )
        if (folder / MODEL_META).is_file():
            stored = migrate_meta(read_json(folder / MODEL_META))
            if isinstance(stored, dict) and stored.get("run_name") not in (None, name):
                raise DataError(
                    f"{folder / MODEL_META}: this model revision holds the results of "
                    f"{stored.get('run_name')!r}, not {name!r}"
                )
        plan.append((f"{rel_folder}/{MODEL_META}", _json_bytes(meta)))
        plan.append((f"{rel_folder}/{RUN_SETTINGS}", _json_bytes(settings)))
        for record in records:
            rel = record_relpath(meta, record)
            if any(rel == p for p, _ in plan):
                raise DataError(f"two records of {name!r} would both be {rel}")
            inside(root, rel)
            plan.append((rel, record))
        report.models.append(str(meta["name"]))
        report.migrated += migrated[name]
    # 2. stage every file inside the repository, 3. rename into place
    root.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".stylebench-add-", dir=root))
    created: list[Path] = []
    try:
        for index, (rel, content) in enumerate(plan):
            staged = stage / str(index) / Path(rel).name
            if isinstance(content, ResultRecord):
                write_record(content, staged)
            else:
                staged.parent.mkdir(parents=True, exist_ok=True)
                staged.write_bytes(content)
        for index, (rel, content) in enumerate(plan):
            target = inside(root, rel)
            for parent in reversed(target.parents):
                if parent != root and root in parent.parents and not parent.exists():
                    parent.mkdir()
                    created.append(parent)
            staged_files = sorted(
                (stage / str(index)).iterdir(), key=lambda p: p.name == target.name
            )  # a sidecar before its record
            if isinstance(content, ResultRecord):
                (report.replaced if target.exists() else report.written).append(rel)
                old_sidecar = target.with_name(sidecar_name(target))
                if len(staged_files) == 1 and old_sidecar.is_file():
                    old_sidecar.unlink()  # the replaced record's own sidecar
            for staged in staged_files:
                os.replace(staged, target.with_name(staged.name))
    except BaseException:
        for folder in reversed(created):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return report
