"""Where each registered dataset stands on this machine: built, buildable from a raw
download that is present, needing a download, or still without a build script."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from dataset_scripts.hub_folder import BUILD_INFO
from dataset_scripts.registry import DatasetSpec

BUILT, BUILDABLE, NEEDS_DOWNLOAD, NO_BUILDER = (
    "built",
    "buildable",
    "needs download",
    "no builder yet",
)


@dataclass(frozen=True)
class DatasetStatus:
    spec: DatasetSpec
    kind: str  # one of BUILT, BUILDABLE, NEEDS_DOWNLOAD, NO_BUILDER
    detail: str  # the folder, the raw path, or the download URL
    raw: Path | None = None  # the raw download to build from, when BUILDABLE/BUILT

    def line(self) -> str:
        return f"{self.kind}: {self.detail}" if self.detail else self.kind


def built_folder(spec: DatasetSpec, built_root: Path | None) -> Path | None:
    """The locally built folder of ``spec`` under ``built_root`` (``<org>__<name>``)."""
    if built_root is None:
        return None
    folder = Path(built_root) / spec.slug
    return folder if (folder / BUILD_INFO).is_file() else None


def raw_location(spec: DatasetSpec, raw_root: Path | None) -> Path | None:
    """The raw download of ``spec`` under ``raw_root`` (its ``raw_hint`` folder)."""
    if raw_root is None or not spec.raw_hint:
        return None
    candidate = Path(raw_root) / spec.raw_hint
    return candidate if candidate.exists() else None


def dataset_status(
    spec: DatasetSpec, raw_root: Path | None, built_root: Path | None
) -> DatasetStatus:
    raw = raw_location(spec, raw_root)
    folder = built_folder(spec, built_root)
    if folder is not None:
        return DatasetStatus(spec, BUILT, str(folder), raw)
    if spec.builder is None:
        return DatasetStatus(spec, NO_BUILDER, f"source {spec.source_url}")
    if not spec.needs_raw:
        return DatasetStatus(spec, BUILDABLE, "no download needed")
    if raw is not None:
        return DatasetStatus(spec, BUILDABLE, f"from {raw}", raw)
    return DatasetStatus(spec, NEEDS_DOWNLOAD, spec.source_url)


def task_types(spec: DatasetSpec) -> tuple[str, ...]:
    return tuple(spec.extra.get("task_types", ()))


def select(
    specs: Iterable[DatasetSpec],
    *,
    language: str | None = None,
    task: str | None = None,
    family: str | None = None,
) -> list[DatasetSpec]:
    """Filter specs by language code, task type and family (hub id prefix)."""
    chosen = []
    for spec in specs:
        if language and language not in spec.language:
            continue
        if task and task not in task_types(spec):
            continue
        if family and spec.hub_id.split("/")[0] != family:
            continue
        chosen.append(spec)
    return chosen
