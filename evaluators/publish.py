"""Publish to the Hugging Face Hub: a built dataset folder (a dataset repo), a bundled
metric (a Gradio Space ``stylebench/<name>``) or the stylebench Space.

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

from dataset_scripts.core.errors import StylebenchError
from evaluators.paths import metrics_dir, spaces_dir

SPACE_NAME = "stylebench"
HUB_ORG = "stylebench"  # the namespace the metric modules and the Space are published under
_SKIP = ("__pycache__", ".DS_Store", "*.pyc", ".*")


class PublishError(StylebenchError):
    """A folder or card that cannot be published as it is."""


@dataclass(frozen=True)
class PushPlan:
    kind: str  # dataset, metric or space
    repo_id: str
    repo_type: str  # "dataset" or "space"
    folder: Path
    files: tuple[str, ...]  # paths relative to ``folder``, POSIX style
    card_summary: str


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


def plan_push(
    target: str | None, *, repo_id: str | None = None, kind: str | None = None
) -> PushPlan:
    """What ``stylebench push`` would upload for ``target``: a built dataset folder, a
    bundled metric name (or its folder), or ``space`` (the stylebench Space)."""
    from dataset_scripts.core.hub_folder import BUILD_INFO

    from .metric_loading import list_metrics

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
        files = _files(folder, ignore=(BUILD_INFO,))
        return PushPlan(kind, repo, "dataset", folder, files, validate_dataset_card(folder, files))
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
    raise PublishError(f"unknown kind {kind!r} (dataset, metric or space)")


def run_push(plan: PushPlan, *, private: bool = False, token: str | None = None) -> str:
    """Upload ``plan`` (needs network and a write token); the same files as the dry run."""
    from huggingface_hub import HfApi

    api = HfApi(token=token)
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
        commit_message=f"stylebench push of {plan.repo_id}",
    )
    return str(info)
