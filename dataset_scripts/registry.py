"""Registry of buildable datasets: metadata declared once, used for the card, the
``stylebench list datasets`` table and ``stylebench build``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluators.errors import UnknownNameError

# A builder reads the raw download at ``raw`` and returns {config: {split: rows}} plus a
# build report {reason: count} of rows dropped (never silently).
BuildOutput = tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, int]]
Builder = Callable[[Path | None], BuildOutput]


@dataclass(frozen=True)
class DatasetSpec:
    hub_id: str
    pretty_name: str
    summary: str
    builder: Builder
    license: str
    source_url: str
    citation: str
    raw_format: str
    protocol: str = ""
    language: tuple[str, ...] = ("en",)
    needs_raw: bool = True
    raw_hint: str = ""  # folder name under ../shared/corpora, when available there
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return self.hub_id.replace("/", "__")


_REGISTRY: dict[str, DatasetSpec] = {}


def register(spec: DatasetSpec) -> DatasetSpec:
    if spec.hub_id in _REGISTRY:
        raise ValueError(f"dataset {spec.hub_id!r} is registered twice")
    _REGISTRY[spec.hub_id] = spec
    return spec


BUILDER_PACKAGES = ("demo", "steb", "arb", "valla", "styledisc")


def _load_builtin_builders() -> None:
    """Import every module of the builder packages: a module registers its datasets
    when it is imported (``register`` at module level), so adding a builder needs no
    edit here. Idempotent (Python imports a module once)."""
    import importlib
    import pkgutil

    for package_name in BUILDER_PACKAGES:
        try:
            package = importlib.import_module(f"dataset_scripts.{package_name}")
        except ModuleNotFoundError as error:
            if error.name == f"dataset_scripts.{package_name}":
                continue  # that family has no builders yet
            raise
        for module in pkgutil.iter_modules(package.__path__, prefix=f"{package.__name__}."):
            importlib.import_module(module.name)


def all_datasets() -> dict[str, DatasetSpec]:
    _load_builtin_builders()  # idempotent: a module registers once, on first import
    return dict(_REGISTRY)


def get_dataset(hub_id: str) -> DatasetSpec:
    datasets = all_datasets()
    if hub_id not in datasets:
        raise UnknownNameError(
            f"unknown dataset {hub_id!r}; registered: {', '.join(sorted(datasets))}"
        )
    return datasets[hub_id]
