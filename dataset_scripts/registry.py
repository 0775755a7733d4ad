"""Registry of buildable datasets: metadata declared once, used for the card, the
``stylebench list datasets`` table and ``stylebench build``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from evaluators.errors import UnknownNameError

# A builder reads the raw download at ``raw`` and returns {config: {split: rows}} plus a
# build report {reason: count} of rows dropped (never silently).
BuildOutput = tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, int]]
Builder = Callable[[Path | None], BuildOutput]


@dataclass(frozen=True)
class DatasetSpec:
    """Everything known about one dataset: card metadata and (optionally) its builder.

    ``builder`` is ``None`` for a catalogued dataset whose build script does not exist yet.
    ``extra`` holds family-specific metadata (for STEB: task types, attribute bucket,
    definitional cluster, Table 15 sample counts).
    """

    hub_id: str
    pretty_name: str
    summary: str
    builder: Builder | None
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


@dataclass(frozen=True)
class BuilderInfo:
    """A build script attached to a catalogued dataset (see :func:`builder`)."""

    build: Builder
    protocol: str
    raw_hint: str = ""
    needs_raw: bool = True


_REGISTRY: dict[str, DatasetSpec] = {}
_BUILDERS: dict[str, BuilderInfo] = {}
# Catalogues: callables returning specs *without* builders (e.g. STEB's 96 datasets);
# a builder registered with :func:`builder` is attached by hub id.
_CATALOGUES: list[Callable[[], list[DatasetSpec]]] = []


def register(spec: DatasetSpec) -> DatasetSpec:
    """Register a dataset whose metadata lives with its builder (e.g. the demo)."""
    if spec.hub_id in _REGISTRY:
        raise ValueError(f"dataset {spec.hub_id!r} is registered twice")
    _REGISTRY[spec.hub_id] = spec
    return spec


def builder(
    hub_id: str, *, protocol: str, raw_hint: str = "", needs_raw: bool = True
) -> Callable[[Builder], Builder]:
    """Decorator attaching a build script to a catalogued dataset::

        @builder("steb/StylePTB", protocol="...", raw_hint="StylePTB")
        def build(raw: Path | None) -> BuildOutput: ...

    ``protocol`` (Markdown) goes into the card; ``raw_hint`` names the folder under
    ``../shared/corpora`` holding the raw download, where there is one.
    """

    def attach(function: Builder) -> Builder:
        if hub_id in _BUILDERS:
            raise ValueError(f"two builders for {hub_id!r}")
        _BUILDERS[hub_id] = BuilderInfo(function, protocol, raw_hint, needs_raw)
        return function

    return attach


def register_catalogue(catalogue: Callable[[], list[DatasetSpec]]) -> None:
    _CATALOGUES.append(catalogue)


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
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            importlib.import_module(module.name)


def all_datasets() -> dict[str, DatasetSpec]:
    """Every registered and catalogued dataset, builders attached."""
    _load_builtin_builders()  # idempotent: a module registers once, on first import
    merged = dict(_REGISTRY)
    for catalogue in _CATALOGUES:
        for spec in catalogue():
            if spec.hub_id in merged:
                raise ValueError(f"dataset {spec.hub_id!r} is both registered and catalogued")
            info = _BUILDERS.get(spec.hub_id)
            if info is not None:
                spec = replace(
                    spec,
                    builder=info.build,
                    protocol=info.protocol,
                    raw_hint=info.raw_hint,
                    needs_raw=info.needs_raw,
                )
            merged[spec.hub_id] = spec
    orphans = sorted(set(_BUILDERS) - set(merged))
    if orphans:
        raise ValueError(f"builders for datasets missing from every catalogue: {orphans}")
    return merged


def get_dataset(hub_id: str) -> DatasetSpec:
    datasets = all_datasets()
    if hub_id not in datasets:
        raise UnknownNameError(
            f"unknown dataset {hub_id!r}; registered: {', '.join(sorted(datasets))}"
        )
    return datasets[hub_id]
