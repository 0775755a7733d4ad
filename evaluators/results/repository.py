"""The results repository: where stylebench results are shared, checked and read by the
leaderboard (``stylebench results add|validate|submit|table``).

Layout (as MTEB's results repository, one folder per model and revision)::

    results/<org>__<model>/<revision>/model_meta.json
    results/<org>__<model>/<revision>/run_settings.json
    results/<org>__<model>/<revision>/<dataset slug>/<task>.json

* ``<org>__<model>`` is the model's public name with every run of characters outside
  ``[A-Za-z0-9._-]`` as ``__`` (the run folders' rule, :func:`evaluators.results.ids.slug`);
  ``<revision>`` is the model revision, or ``no_revision_available``;
* ``<dataset slug>`` the same rule over the record's dataset id (``steb/pastel_age`` ->
  ``steb__pastel_age``), ``<task>.json`` one :class:`~evaluators.results.record.ResultRecord`
  (always schema version 2 in the repository: ``add`` migrates version-1 files);
* ``model_meta.json`` (:data:`META_KEYS`): ``name`` (public name), ``revision``,
  ``run_name`` (the model name the records carry), ``license``, ``n_parameters``,
  ``embedding_dim``, ``max_tokens``, ``open_weights``, ``training_data`` (dataset ids the
  model was trained on: the contamination flag of ``validate``), ``reference``;
* ``run_settings.json`` (:data:`SETTINGS_KEYS`): the settings every record of the folder
  shares: ``benchmark`` and ``benchmark_version`` it was run for, ``stylebench_version``,
  ``protocol`` and ``seed``. The per-task settings (``sampling``, ``submetrics``) stay in
  each record's ``run`` block (:data:`RUN_KEYS`), which must agree with this file.

``--repo`` is a local folder (a git work tree or not), a git remote (URL, ``git@``, or a
path ending ``.git``: cloned into a working copy under the stylebench cache), or a Hub
dataset repo id (``org/name``: files are staged in a folder under the cache and sent as
one pull request by ``submit``).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dataset_scripts.core.dataset_ids import is_hub_repo_id
from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.results.ids import slug
from evaluators.results.record import ResultRecord, load_record, write_record

RESULTS_DIR = "results"
MODEL_META = "model_meta.json"
RUN_SETTINGS = "run_settings.json"
NO_REVISION = "no_revision_available"
META_KEYS = (
    "name",
    "revision",
    "run_name",
    "license",
    "n_parameters",
    "embedding_dim",
    "max_tokens",
    "open_weights",
    "training_data",
    "reference",
)
SETTINGS_KEYS = ("benchmark", "benchmark_version", "stylebench_version", "protocol", "seed")
RUN_KEYS = ("protocol", "seed", "sampling", "submetrics")  # each record's ``run`` block
SHARED_RUN_KEYS = ("protocol", "seed")  # the ones run_settings.json holds for all


def revision_folder(revision: str | None) -> str:
    return slug(revision) if revision else NO_REVISION


def record_relpath(meta: Mapping[str, Any], record: ResultRecord) -> str:
    """``results/<model>/<revision>/<dataset>/<task>.json`` of a record, POSIX style."""
    return "/".join(
        (
            RESULTS_DIR,
            slug(str(meta["name"])),
            revision_folder(meta.get("revision")),
            slug(record.dataset_id),
            f"{record.task}.json",
        )
    )


def read_json(path: Path) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: not readable JSON ({error})") from None


def write_json(payload: Any, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


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


def resolve_repo(spec: str, workdir: Path | None = None) -> RepoTarget:
    """What ``--repo SPEC`` names (nothing is cloned or created here)."""
    if _is_git_remote(spec):
        return RepoTarget("git", spec, Path(workdir) if workdir else workspace(spec), spec)
    path = Path(spec).expanduser()
    if path.exists() or spec.startswith((".", "/", "~")) or not is_hub_repo_id(spec):
        return RepoTarget("folder", spec, path)
    return RepoTarget("hub", spec, Path(workdir) if workdir else workspace(spec), spec)


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


def open_repo(spec: str, workdir: Path | None = None) -> RepoTarget:
    """:func:`resolve_repo`, with a git remote cloned into its working copy when there is
    none yet and a Hub staging folder created."""
    target = resolve_repo(spec, workdir)
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
    the file at the first unreadable one (``validate`` reports every problem instead)."""
    for folder in revision_folders(root):
        meta = read_json(folder / MODEL_META)
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


def run_records(run_folder: Path) -> list[tuple[Path, ResultRecord]]:
    """Every result record of a run output folder (``<model>/<dataset>/<task>.json``,
    any record version); other JSON files (a scores summary) are left alone."""
    run_folder = Path(run_folder)
    if not run_folder.is_dir():
        raise StylebenchError(f"run output folder {run_folder} does not exist")
    found = []
    for path in sorted(run_folder.rglob("*.json")):
        payload = read_json(path)
        if not isinstance(payload, dict) or "main_score" not in payload or "task" not in payload:
            continue
        found.append((path, ResultRecord.from_dict(payload, str(path))))
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
    """``--model-meta``: a JSON or YAML mapping of :data:`META_KEYS`."""
    if path is None:
        return {}
    text = Path(path).read_text(encoding="utf-8")
    if Path(path).suffix in (".yaml", ".yml"):
        import yaml

        payload = yaml.safe_load(text)
    else:
        try:
            payload = json.loads(text)
        except json.JSONDecodeError as error:
            raise DataError(f"{path}: not readable JSON ({error})") from None
    if not isinstance(payload, dict):
        raise DataError(f"{path}: model metadata is a mapping of {', '.join(META_KEYS)}")
    unknown = sorted(set(payload) - set(META_KEYS))
    if unknown:
        raise DataError(
            f"{path}: unknown model metadata key(s) {unknown}; known: {', '.join(META_KEYS)}"
        )
    return payload


def model_meta(records: Sequence[ResultRecord], given: Mapping[str, Any]) -> dict[str, Any]:
    """``model_meta.json`` of one model's records: what the records say of the model,
    overridden by ``given`` (``--model-meta``), which must not contradict them."""
    name = records[0].model.name
    revisions = [r.model.revision for r in records if r.model.revision]
    revision = _only(revisions, "model revision", name) if revisions else None
    meta: dict[str, Any] = {
        "name": name,
        "revision": revision,
        "run_name": name,
        "license": None,
        "n_parameters": None,
        "embedding_dim": None,
        "max_tokens": None,
        "open_weights": None,
        "training_data": None,
        "reference": None,
    }
    for key in ("n_parameters", "embedding_dim", "max_tokens"):
        values = [getattr(r.model, key) for r in records if getattr(r.model, key) is not None]
        meta[key] = _only(values, key, name) if values else None
    for key, value in given.items():
        if key == "run_name" and value != name:
            raise DataError(f"--model-meta run_name {value!r} is not the records' model {name!r}")
        if key == "revision" and revision and value != revision:
            raise DataError(
                f"--model-meta revision {value!r} contradicts the records' revision {revision!r}"
            )
        meta[key] = value
    return meta


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


def add_run(
    run_folder: Path,
    root: Path,
    meta_file: Path | None = None,
    benchmark: str = "steb",
) -> AddReport:
    """Lay the records of a run output folder out in the repository at ``root`` (see the
    module docstring); version-1 files are migrated (written as version 2)."""
    from evaluators.benchmarks import get_benchmark

    bench = get_benchmark(benchmark)
    given = load_meta_file(meta_file)
    by_model: dict[str, list[ResultRecord]] = {}
    migrated = 0
    for _, record in run_records(run_folder):
        by_model.setdefault(record.model.name, []).append(record)
        migrated += record.migrated_from is not None
    target = next(iter(by_model)) if len(by_model) == 1 else given.get("run_name")
    if given and target not in by_model:
        raise DataError(
            f"{run_folder} holds {len(by_model)} models ({', '.join(sorted(by_model))}); "
            "--model-meta must name one of them in 'run_name'"
        )
    report = AddReport([], [], migrated, [])
    for name, records in sorted(by_model.items()):
        own = given if name == target else {}
        meta = model_meta(records, own)
        settings = run_settings_of(records, bench)
        folder = Path(root) / RESULTS_DIR / slug(meta["name"]) / revision_folder(meta["revision"])
        if (folder / RUN_SETTINGS).is_file():
            stored = read_json(folder / RUN_SETTINGS)
            if stored != settings:
                raise DataError(
                    f"{folder / RUN_SETTINGS}: this model revision holds results of other "
                    f"settings ({stored}); these are {settings}"
                )
        write_json(meta, folder / MODEL_META)
        write_json(settings, folder / RUN_SETTINGS)
        for record in records:
            rel = record_relpath(meta, record)
            path = Path(root) / rel
            (report.replaced if path.exists() else report.written).append(rel)
            write_record(record, path)
        report.models.append(str(meta["name"]))
    return report
