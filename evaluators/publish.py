"""Publish to the Hugging Face Hub: a built dataset folder (a dataset repo), a bundled
metric (a Gradio Space ``stylebench/<name>``), the stylebench Space, or one model's
results from a results repository (``.eval_results/<benchmark>.yaml`` for its model repo).

A dataset repo that holds a dataset of a known benchmark (:mod:`evaluators.benchmarks`,
STEB-nano's ``steb-nano/<name>`` included) gets an ``eval.yaml`` (the Hub's benchmark
registration, :func:`~evaluators.steb_scores.model_card.eval_yaml`): the plan derives it
from the folder's configs and lists it as a generated file; it is written into the folder
only by the push itself (a dry run writes nothing).

``.eval_results`` files are checked against the Hub's documented format
(https://huggingface.co/docs/hub/eval-results, huggingface_hub's ``EvalResultEntry``):
:func:`validate_eval_results`.

:func:`plan_push` decides the repo id, repo type and the exact files, and validates the
card's metadata with ``huggingface_hub``'s own card classes (``DatasetCard`` /
``SpaceCard`` and their card-data classes), plus ``datasets``' parser of a dataset card's
``configs:`` and ``dataset_info``; nothing touches the network. :func:`run_push` uploads
that same plan (``HfApi.create_repo`` + ``upload_folder`` restricted to the planned files),
so ``stylebench push --dry-run`` shows exactly what a real push sends.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import StylebenchError
from evaluators.paths import metrics_dir, spaces_dir

SPACE_NAME = "stylebench"
HUB_ORG = "stylebench"  # the namespace the metric modules and the Space are published under
_SKIP = ("__pycache__", ".DS_Store", "*.pyc", ".*")


class PublishError(StylebenchError):
    """A folder or card that cannot be published as it is."""


@dataclass(frozen=True)
class PushPlan:
    kind: str  # dataset, metric, space or model-results
    repo_id: str
    repo_type: str  # "dataset", "space" or "model"
    folder: Path
    files: tuple[str, ...]  # paths relative to ``folder``, POSIX style
    card_summary: str
    #: files the push writes into ``folder`` before uploading (``eval.yaml``): (path, text)
    generated: tuple[tuple[str, str], ...] = ()


def _files(folder: Path, ignore: tuple[str, ...] = ()) -> tuple[str, ...]:
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or any(
            fnmatch.fnmatch(part, pattern) for part in rel.parts for pattern in _SKIP
        ):
            continue
        if rel.as_posix() in ignore:
            continue
        out.append(rel.as_posix())
    return tuple(out)


def _check_repo_id(repo_id: str) -> str:
    from huggingface_hub.utils import HFValidationError, validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as error:
        raise PublishError(f"invalid repo id {repo_id!r}: {error}") from None
    if repo_id.count("/") != 1:
        raise PublishError(f"repo id {repo_id!r} needs a namespace: '<org or user>/<name>'")
    return repo_id


def validate_dataset_card(folder: Path, files: tuple[str, ...]) -> str:
    """Parse README.md with ``DatasetCard``; every config's ``data_files`` must match
    uploaded files, ``dataset_info`` must parse, at most one config is the default."""
    from datasets.info import DatasetInfosDict
    from datasets.utils.metadata import MetadataConfigs
    from huggingface_hub import DatasetCard, DatasetCardData

    readme = folder / "README.md"
    if not readme.is_file():
        raise PublishError(f"{folder}: no README.md (the dataset card)")
    try:
        card = DatasetCard.load(readme)
    except ValueError as error:
        raise PublishError(f"{readme}: card metadata does not parse: {error}") from None
    data = card.data
    if not isinstance(data, DatasetCardData):
        raise PublishError(f"{readme}: not dataset card metadata")
    if not data.license:
        raise PublishError(f"{readme}: metadata has no 'license'")
    if data.license == "other" and not data.get("license_name"):
        raise PublishError(f"{readme}: license 'other' needs 'license_name'")
    try:
        configs = MetadataConfigs.from_dataset_card_data(data)
        infos = DatasetInfosDict.from_dataset_card_data(data)
    except Exception as error:
        raise PublishError(f"{readme}: configs/dataset_info invalid: {error}") from None
    if not configs:
        raise PublishError(f"{readme}: metadata lists no 'configs'")
    defaults = [n for n, p in configs.items() if p.get("default")]
    if len(defaults) > 1:
        raise PublishError(f"{readme}: several default configs {defaults}")
    for name, params in configs.items():
        for entry in params.get("data_files", []):
            patterns = entry["path"] if isinstance(entry["path"], list) else [entry["path"]]
            if not any(fnmatch.fnmatch(f, p) for p in patterns for f in files):
                raise PublishError(
                    f"{readme}: config {name!r} split {entry['split']!r} reads {patterns}, "
                    "which matches no uploaded file"
                )
    unknown = sorted(set(infos) - set(configs))
    if unknown:
        raise PublishError(f"{readme}: dataset_info for configs not in 'configs': {unknown}")
    default = f", default {defaults[0]!r}" if defaults else ""
    return (
        f"DatasetCard ok: {len(configs)} configs ({', '.join(configs)}){default}, "
        f"license {data.license}"
    )


def validate_space_card(folder: Path, files: tuple[str, ...]) -> str:
    """Parse README.md with ``SpaceCard``: Gradio SDK, a title and an ``app_file`` that is
    uploaded."""
    from huggingface_hub import SpaceCard, SpaceCardData

    readme = folder / "README.md"
    if not readme.is_file():
        raise PublishError(f"{folder}: no README.md (the Space card)")
    try:
        card = SpaceCard.load(readme)
    except ValueError as error:
        raise PublishError(f"{readme}: card metadata does not parse: {error}") from None
    data = card.data
    if not isinstance(data, SpaceCardData):
        raise PublishError(f"{readme}: not Space card metadata")
    if data.sdk != "gradio":
        raise PublishError(f"{readme}: sdk is {data.sdk!r}, expected 'gradio'")
    if not data.title:
        raise PublishError(f"{readme}: metadata has no 'title'")
    app = data.app_file or "app.py"
    if app not in files:
        raise PublishError(f"{readme}: app_file {app!r} is not among the uploaded files")
    if "requirements.txt" not in files:
        raise PublishError(
            f"{folder}: no requirements.txt (the Space could not install stylebench)"
        )
    return f"SpaceCard ok: {data.title!r}, sdk gradio {data.sdk_version or ''}, app {app}".strip()


EVAL_YAML = "eval.yaml"
EVAL_RESULTS_DIR = ".eval_results"


def benchmark_member(repo: str) -> tuple[list[Any], set[str]]:
    """(the registry's specs of ``repo``, the ids among them and ``repo`` itself that are
    datasets of a known benchmark): a repo carries an ``eval.yaml`` when the set is not
    empty (STEB-nano's ``steb-nano/<name>`` is a benchmark dataset of its own)."""
    from dataset_scripts.registry import all_datasets
    from evaluators.benchmarks import benchmarks

    specs = [s for s in all_datasets().values() if s.repo == repo]
    in_benchmark = {d for b in benchmarks().values() for d in b.datasets}
    return specs, ({s.hub_id for s in specs} | {repo}) & in_benchmark


def eval_yaml_text(folder: Path, repo: str) -> str | None:
    """The ``eval.yaml`` of a built dataset folder when its repo holds a dataset of a
    known benchmark (:func:`benchmark_member`): one task per (config, task type) of the
    folder, on the split stylebench evaluates; None otherwise. Nothing is written."""
    import yaml

    from dataset_scripts.core.schemas import SCHEMAS
    from evaluators.benchmarks import NANO_PREFIX, benchmarks
    from evaluators.data import DEFAULT_SPLIT, config_schemas
    from evaluators.steb_scores.model_card import eval_yaml

    specs, member = benchmark_member(repo)
    if not member:
        return None
    config_tasks = {
        config: SCHEMAS[schema].task_types for config, schema in config_schemas(str(folder)).items()
    }
    in_benchmarks = sorted(b.key for b in benchmarks().values() if member & set(b.datasets))
    own = next((s for s in specs if s.hub_id == repo), None)
    if own is not None:
        name, about = own.pretty_name, own.summary
    elif specs:
        name = repo.split("/")[-1]
        about = f"{len(specs)} datasets: " + ", ".join(s.pretty_name for s in specs)
    else:  # STEB-nano: a seeded sub-sample of a STEB dataset (evaluators/nano.py)
        source = "steb/" + repo.removeprefix(NANO_PREFIX)
        name = f"{repo.split('/')[-1]} (STEB-nano)"
        about = f"STEB-nano sub-sample of {source} (rule and seed in evaluators/nano.py)"
    description = (
        f"{about.rstrip('.')}. Part of {', '.join(in_benchmarks)}; evaluated with "
        f"`stylebench run --dataset {repo}`."
    )
    payload = eval_yaml(name, description, config_tasks, DEFAULT_SPLIT)
    text = yaml.safe_dump(payload, sort_keys=False, allow_unicode=True)
    validate_eval_yaml(text, f"{folder}/{EVAL_YAML}", set(config_tasks))
    return text


#: what the Hub documents for ``eval.yaml`` and each of its tasks (required keys: True)
EVAL_YAML_KEYS = {"name": True, "description": True, "evaluation_framework": True, "tasks": True}
EVAL_TASK_KEYS = {"id": True, "config": True, "split": True}


def validate_eval_yaml(text: str, where: str, configs: set[str]) -> int:
    """Check an ``eval.yaml`` against the Hub's documented format: ``name``,
    ``description``, ``evaluation_framework`` strings, ``tasks`` a non-empty list of
    ``{id, config, split}`` with distinct ids and each config one of ``configs`` (the
    dataset's); the number of tasks."""
    import yaml

    payload = _check_keys(yaml.safe_load(text), EVAL_YAML_KEYS, where)
    for key in ("name", "description", "evaluation_framework"):
        _check_string(payload[key], f"{where} {key}", 10_000)
    tasks = payload["tasks"]
    if not isinstance(tasks, list) or not tasks:
        raise PublishError(f"{where}: tasks is a non-empty list")
    seen: set[str] = set()
    for i, task in enumerate(tasks):
        _check_keys(task, EVAL_TASK_KEYS, f"{where} task {i}")
        for key in EVAL_TASK_KEYS:
            _check_string(task[key], f"{where} task {i} {key}", 200)
        if task["id"] in seen:
            raise PublishError(f"{where} task {i}: id {task['id']!r} given twice")
        if task["config"] not in configs:
            raise PublishError(
                f"{where} task {i}: config {task['config']!r} is not one of the dataset's "
                f"({', '.join(sorted(configs))})"
            )
        seen.add(task["id"])
    return len(tasks)


#: what the Hub documents for one ``.eval_results`` entry (required keys marked True)
EVAL_ENTRY_KEYS = {
    "dataset": True,
    "value": True,
    "verifyToken": False,
    "date": False,
    "source": False,
    "evaluation_framework": False,
    "notes": False,
}
EVAL_DATASET_KEYS = {
    "id": True,
    "task_id": True,
    "revision": False,
    "config": False,
    "split": False,
}
EVAL_SOURCE_KEYS = {"url": True, "name": False, "user": False, "org": False}


def _check_keys(value: Any, known: dict[str, bool], where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PublishError(f"{where} is not a mapping")
    unknown = sorted(set(value) - set(known))
    if unknown:
        raise PublishError(f"{where} has unknown keys {unknown} (known: {', '.join(known)})")
    missing = [k for k, required in known.items() if required and value.get(k) in (None, "")]
    if missing:
        raise PublishError(f"{where} lacks {', '.join(missing)}")
    return value


def _check_string(value: Any, where: str, limit: int = 2000) -> None:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise PublishError(f"{where} {value!r:.80} is not a string of 1 to {limit} characters")


def is_public_url(value: Any) -> bool:
    """An ``http(s)://host/...`` URL without credentials in it."""
    from urllib.parse import urlsplit

    if not isinstance(value, str):
        return False
    parts = urlsplit(value)
    return parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.username


def validate_eval_results(text: str, where: str) -> int:
    """Check one ``.eval_results`` YAML against the Hub's documented format: a non-empty
    list of entries with the keys of :data:`EVAL_ENTRY_KEYS` (``dataset`` with
    :data:`EVAL_DATASET_KEYS`, ``source`` with :data:`EVAL_SOURCE_KEYS`); ``dataset.id``
    a repo id, ``value`` a finite number, ``date`` ISO-8601, ``source.url`` an http(s)
    URL, strings where strings go; no two entries for one (``dataset.id``,
    ``task_id``); then read by huggingface_hub's own parser. The number of entries."""
    import math
    from datetime import date, datetime

    import yaml
    from huggingface_hub import parse_eval_result_entries

    try:
        entries = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise PublishError(f"{where}: not readable YAML ({error})") from None
    if not isinstance(entries, list) or not entries:
        raise PublishError(f"{where}: an eval results file is a non-empty list of entries")
    seen: dict[tuple[str, str], int] = {}
    for i, entry in enumerate(entries):
        at = f"{where}: entry {i}"
        _check_keys(entry, EVAL_ENTRY_KEYS, at)
        dataset = _check_keys(entry["dataset"], EVAL_DATASET_KEYS, f"{at} dataset")
        try:
            _check_repo_id(str(dataset["id"]))
        except PublishError as error:
            raise PublishError(f"{at} dataset.id: {error}") from None
        for key in ("task_id", "revision", "config", "split"):
            if key in dataset:
                _check_string(dataset[key], f"{at} dataset.{key}", 200)
        value = entry["value"]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise PublishError(f"{at} value {value!r} is not a finite number")
        if "date" in entry:
            stamp = entry["date"]
            if isinstance(stamp, str):
                try:
                    datetime.fromisoformat(stamp.replace("Z", "+00:00"))
                except ValueError:
                    stamp = None
            if not isinstance(stamp, str | date):
                raise PublishError(f"{at} date {entry['date']!r} is not an ISO-8601 date")
        if "source" in entry:
            source = _check_keys(entry["source"], EVAL_SOURCE_KEYS, f"{at} source")
            if not is_public_url(source["url"]):
                raise PublishError(
                    f"{at} source.url {source['url']!r:.120} is not an http(s) URL "
                    "(without credentials)"
                )
            for key in ("name", "user", "org"):
                if key in source:
                    _check_string(source[key], f"{at} source.{key}", 200)
        for key in ("verifyToken", "evaluation_framework", "notes"):
            if key in entry:
                _check_string(entry[key], f"{at} {key}", 10_000)
        pair = (str(dataset["id"]), str(dataset["task_id"]))
        if pair in seen:
            raise PublishError(
                f"{at} duplicates entry {seen[pair]}: dataset {pair[0]} task {pair[1]} "
                "(one value per task in a file)"
            )
        seen[pair] = i
    try:
        parse_eval_result_entries(entries)
    except (KeyError, TypeError, ValueError) as error:
        raise PublishError(f"{where}: huggingface_hub does not read it ({error})") from None
    return len(entries)


def _results_source(target) -> str | None:
    """The public address of a results repository: its Hub page, its git remote, or the
    origin of a local git work tree; None for a plain local folder."""
    import subprocess

    if target.kind == "hub":
        return f"https://huggingface.co/datasets/{target.spec}"
    remote = None
    if target.kind == "git":
        remote = str(target.remote)
    elif (target.root / ".git").exists():
        done = subprocess.run(
            ["git", "-C", str(target.root), "remote", "get-url", "origin"],
            capture_output=True,
            text=True,
        )
        remote = done.stdout.strip() if done.returncode == 0 else None
    return public_url(remote) if remote else None


def public_url(remote: str) -> str | None:
    """The web address of a git remote: an http(s) URL as it is (None when it carries
    credentials), ``git@host:org/repo.git`` and ``ssh://git@host/org/repo.git`` as
    ``https://host/org/repo``; None for a local path or anything else."""
    import re
    from urllib.parse import urlsplit

    scp = re.fullmatch(r"[\w.-]+@([\w.-]+):(?!/)([\w./-]+?)(?:\.git)?/?", remote)
    if scp:
        return f"https://{scp.group(1)}/{scp.group(2)}"
    parts = urlsplit(remote)
    if parts.scheme == "ssh" and parts.hostname:
        path = parts.path.removesuffix("/").removesuffix(".git")
        return f"https://{parts.hostname}{path}" if path.strip("/") else None
    if is_public_url(remote):
        return remote
    return None


def plan_model_results(results_repo: str, model: str, repo_id: str | None = None) -> PushPlan:
    """``.eval_results/<benchmark>.yaml`` for one model of a results repository (its
    records grouped by the broadest benchmark that holds them), staged in a folder under
    the stylebench cache; the repository is validated first."""
    import shutil

    import yaml

    from evaluators.benchmarks import benchmarks_of
    from evaluators.paths import cache_root
    from evaluators.results.repository import iter_model_folders, resolve_repo, slug
    from evaluators.results.validate import validate_repository
    from evaluators.steb_scores.model_card import eval_results

    target = resolve_repo(results_repo)
    report = validate_repository(target.root)
    if not report.ok:
        raise PublishError(
            f"results repository {target.root} does not validate: "
            + "; ".join(str(f) for f in report.refusals)
        )
    folders = [f for f in iter_model_folders(target.root) if f.meta["name"] == model]
    if not folders:
        raise PublishError(f"{target.root}: no results of model {model!r}")
    if len(folders) > 1:
        revisions = ", ".join(f.path.name for f in folders)
        raise PublishError(f"model {model!r} has results for several revisions ({revisions})")
    folder = folders[0]
    by_benchmark: dict[str, list] = {}
    skipped = 0
    without_eval_yaml: set[str] = set()
    for _, record in folder.records:
        found = benchmarks_of(record.dataset_id, record.task)
        if not found:
            skipped += 1
            continue
        if not benchmark_member(record.dataset.repo or record.dataset_id)[1]:
            without_eval_yaml.add(record.dataset.repo or record.dataset_id)
            continue
        broadest = max(found, key=lambda b: (len(b.units), b.key))
        by_benchmark.setdefault(f"{broadest.name}_{broadest.version}", []).append(record)
    if not by_benchmark:
        raise PublishError(f"model {model!r}: none of its results is part of a known benchmark")
    source = _results_source(target)
    staging = cache_root() / "push" / slug(model)
    shutil.rmtree(staging, ignore_errors=True)
    (staging / EVAL_RESULTS_DIR).mkdir(parents=True)
    files = []
    n_entries = 0
    for name, records in sorted(by_benchmark.items()):
        rel = f"{EVAL_RESULTS_DIR}/{name}.yaml"
        text = yaml.safe_dump(eval_results(records, source), sort_keys=False, allow_unicode=True)
        n_entries += validate_eval_results(text, rel)
        (staging / rel).write_text(text, encoding="utf-8")
        files.append(rel)
    summary = f"eval results ok: {n_entries} entries in {len(files)} files"
    if skipped:
        summary += f" ({skipped} results of no known benchmark left out)"
    if without_eval_yaml:
        summary += f" (left out, no eval.yaml: {', '.join(sorted(without_eval_yaml))})"
    return PushPlan(
        "model-results", _check_repo_id(repo_id or model), "model", staging, tuple(files), summary
    )


def plan_push(
    target: str | None,
    *,
    repo_id: str | None = None,
    kind: str | None = None,
    model: str | None = None,
) -> PushPlan:
    """What ``stylebench push`` would upload for ``target``: a built dataset folder, a
    bundled metric name (or its folder), ``space`` (the stylebench Space), or with
    ``kind="model-results"`` a results repository and ``model`` (the model's name there)."""
    from dataset_scripts.core.hub_folder import BUILD_INFO

    from .metric_loading import list_metrics

    if kind == "model-results":
        if target is None or model is None:
            raise PublishError("--kind model-results needs a results repository and --model")
        return plan_model_results(target, model, repo_id)

    if kind is None:
        if target is None or target == "space":
            kind = "space"
        elif target in list_metrics():
            kind = "metric"
        elif Path(target).is_dir() and (Path(target) / BUILD_INFO).is_file():
            kind = "dataset"
        elif Path(target).is_dir() and (Path(target) / f"{Path(target).name}.py").is_file():
            kind = "metric"
        else:
            raise PublishError(
                f"cannot tell what {target!r} is: give a built dataset folder (it holds "
                f"{BUILD_INFO}), a bundled metric ({', '.join(list_metrics())}) or 'space'"
            )
    if kind == "dataset":
        if target is None or not Path(target).is_dir():
            raise PublishError(f"dataset push needs a built folder, got {target!r}")
        folder = Path(target)
        info_path = folder / BUILD_INFO
        recorded = None
        if info_path.is_file():
            recorded = json.loads(info_path.read_text(encoding="utf-8")).get("hub_id")
        repo = _check_repo_id(repo_id or recorded or "")
        eval_text = eval_yaml_text(folder, recorded or repo)  # its benchmark: the declared id
        files = _files(folder, ignore=(BUILD_INFO, EVAL_YAML))  # a stale eval.yaml: not sent
        summary = validate_dataset_card(folder, files)
        if eval_text is None:
            summary += "; no eval.yaml (not in a benchmark)"
            return PushPlan(kind, repo, "dataset", folder, files, summary)
        summary += "; eval.yaml generated (written by the push)"
        return PushPlan(
            kind,
            repo,
            "dataset",
            folder,
            (*files, EVAL_YAML),
            summary,
            generated=((EVAL_YAML, eval_text),),
        )
    if kind == "metric":
        name = Path(target).name if target else ""
        folder = Path(target) if target and Path(target).is_dir() else metrics_dir() / name
        if not (folder / f"{folder.name}.py").is_file():
            raise PublishError(f"{folder}: no module script {folder.name}.py")
        repo = _check_repo_id(repo_id or f"{HUB_ORG}/{folder.name}")
        files = _files(folder)
        return PushPlan(kind, repo, "space", folder, files, validate_space_card(folder, files))
    if kind == "space":
        folder = Path(target) if target and target != "space" else spaces_dir() / SPACE_NAME
        repo = _check_repo_id(repo_id or f"{HUB_ORG}/{SPACE_NAME}")
        files = _files(folder)
        return PushPlan(kind, repo, "space", folder, files, validate_space_card(folder, files))
    raise PublishError(f"unknown kind {kind!r} (dataset, metric, space or model-results)")


def run_push(plan: PushPlan, *, private: bool = False, token: str | None = None) -> str:
    """Upload ``plan`` (needs network and a write token); the same files as the dry run."""
    from huggingface_hub import HfApi

    for rel, text in plan.generated:  # eval.yaml: into our own build folder, then sent
        target = plan.folder / rel
        temporary = target.with_name(f".{target.name}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
    api = HfApi(token=token)
    # model results go to someone's model repo: a pull request there, never a new repo
    as_pr = plan.kind == "model-results"
    if not as_pr:
        api.create_repo(
            plan.repo_id,
            repo_type=plan.repo_type,
            private=private,
            exist_ok=True,
            space_sdk="gradio" if plan.repo_type == "space" else None,
        )
    info = api.upload_folder(
        folder_path=str(plan.folder),
        repo_id=plan.repo_id,
        repo_type=plan.repo_type,
        allow_patterns=list(plan.files),
        commit_message=f"stylebench {'eval results' if as_pr else 'push'} for {plan.repo_id}",
        **({"create_pr": True} if as_pr else {}),
    )
    return str(info)


@dataclass(frozen=True)
class ReleasePlan:
    """One release repo of ``push --all``: its plan, or why it is not pushed."""

    repo: str  # the declared repo (``steb/STEL``)
    plan: PushPlan | None
    missing: str = ""  # why there is no plan (not built under the built root)


def target_repo(repo: str, org: str | None) -> str:
    """The repo id ``repo`` is pushed to: itself, or under ``org`` (``steb/STEL`` ->
    ``<org>/STEL``; another family's repo keeps its family as a prefix,
    ``valla/amazon`` -> ``<org>/valla-amazon``, so that no two collide)."""
    if not org:
        return repo
    family, _, name = repo.partition("/")
    return f"{org}/{name}" if family == "steb" else f"{org}/{family}-{name}"


def plan_push_all(
    built_root: Path, org: str | None = None, family: str | None = None
) -> list[ReleasePlan]:
    """Every release repo of the registry (of ``family``), in repo order: the push plan
    of its build under ``built_root`` (``<built-root>/<org>__<name>``, what ``build --all
    --download`` writes), or why there is none."""
    from dataset_scripts.core.hub_folder import BUILD_INFO
    from dataset_scripts.core.spec import folder_name
    from dataset_scripts.registry import releases

    out = []
    for repo in sorted(releases()):
        if family and repo.split("/")[0] != family:
            continue
        folder = Path(built_root) / folder_name(repo)
        if not (folder / BUILD_INFO).is_file():
            out.append(ReleasePlan(repo, None, f"not built under {built_root}"))
            continue
        out.append(
            ReleasePlan(
                repo, plan_push(str(folder), repo_id=target_repo(repo, org), kind="dataset")
            )
        )
    return out


def print_push_all(
    console, built_root: Path, *, org: str | None, dry_run: bool, private: bool = False
) -> None:
    """``stylebench push --all``: every release repo and file; uploads unless ``dry_run``."""
    plans = plan_push_all(built_root, org)
    ready = [p for p in plans if p.plan is not None]
    for release in plans:
        if release.plan is None:
            console.print(f"[yellow]skip[/yellow] {release.repo}: {release.missing}")
            continue
        plan = release.plan
        console.print(f"{plan.repo_id} (dataset, from {plan.folder}): {plan.card_summary}")
        for file in plan.files:
            console.print(f"  {file}")
    n_files = sum(len(p.plan.files) for p in ready if p.plan is not None)
    console.print(
        f"{len(ready)} of {len(plans)} release repos, {n_files} files"
        + ("; dry run: nothing uploaded" if dry_run else "")
    )
    if not dry_run:
        for release in ready:
            assert release.plan is not None
            console.print(run_push(release.plan, private=private))
