"""Registry of buildable datasets, read from their declarations.

One idiom for every family: a builder module declares its datasets in a module-level
``DATASETS`` tuple of :class:`~dataset_scripts.core.spec.DatasetSpec`, next to the build
functions they name::

    def build(raw: Path | None) -> BuildResult: ...

    DATASETS = (DatasetSpec(hub_id="demo/x", ..., builder=build, protocol=PROTOCOL),)

(STEB datasets use :func:`dataset_scripts.steb.catalog.steb_dataset`, which fills the
STEB metadata and the release repo.) The registry imports every module of the builder
packages, on first use only, and collects their ``DATASETS``; adding a dataset needs no
edit here or in any list. Builder modules keep their top-level imports light (heavy
libraries are imported inside the functions that use them), so listing stays fast.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.source import Source
from dataset_scripts.core.spec import DatasetSpec

BUILDER_PACKAGES = ("demo", "steb", "arb", "valla", "styledisc")


def declaring_modules() -> list[str]:
    """Every module of the builder packages (each may declare ``DATASETS``)."""
    import importlib
    import pkgutil

    names = []
    for package_name in BUILDER_PACKAGES:
        package = importlib.import_module(f"dataset_scripts.{package_name}")
        names += [
            m.name for m in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
        ]
    return names


def _collect(attribute: str, kind: type) -> tuple:
    """Every builder module's ``attribute`` tuple (``DATASETS``, ``RAW_SOURCES``) joined,
    each item checked to be a ``kind``."""
    import importlib

    found: list = []
    for name in declaring_modules():
        declared = getattr(importlib.import_module(name), attribute, ())
        for item in declared:
            if not isinstance(item, kind):
                raise TypeError(
                    f"{name}.{attribute} holds {type(item).__name__}, not a {kind.__name__}"
                )
        found.extend(declared)
    return tuple(found)


@cache
def declared_datasets() -> tuple[DatasetSpec, ...]:
    """Every ``DATASETS`` declaration in module order (cached: the same tuple until
    ``declared_datasets.cache_clear()``, so callers may key their own caches on it)."""
    return _collect("DATASETS", DatasetSpec)


@cache
def _declared_sources() -> tuple[Source, ...]:
    return _collect("RAW_SOURCES", Source)


def all_sources() -> dict[str, Source]:
    """Every declared raw-download source by name (each builder module's ``RAW_SOURCES``,
    declared beside the builders that read it)."""
    merged: dict[str, Source] = {}
    for source in _declared_sources():
        if source.name in merged:
            raise ValueError(f"source {source.name!r} is declared twice")
        merged[source.name] = source
    return merged


def source_of(spec: DatasetSpec) -> Source | None:
    """The source ``spec`` is built from: the one named like its ``raw_hint``, or the one
    listing its id (or its repo's) in ``datasets``; None for a dataset without a download."""
    sources = all_sources()
    if spec.raw_hint and spec.raw_hint in sources:
        return sources[spec.raw_hint]
    for source in sources.values():
        if spec.hub_id in source.datasets or spec.repo in source.datasets:
            return source
    return None


def datasets_of(source: Source) -> list[DatasetSpec]:
    """The datasets ``source`` feeds (by id)."""
    return sorted(
        (s for s in all_datasets().values() if source_of(s) == source), key=lambda s: s.hub_id
    )


def all_datasets() -> dict[str, DatasetSpec]:
    """Every declared dataset by hub id (modules imported on the first call)."""
    merged: dict[str, DatasetSpec] = {}
    for spec in declared_datasets():
        if spec.hub_id in merged:
            raise ValueError(f"dataset {spec.hub_id!r} is declared twice")
        merged[spec.hub_id] = spec
    _check_configs(merged.values())
    return merged


def _check_configs(specs: Iterable[DatasetSpec]) -> None:
    seen: dict[tuple[str, str], str] = {}
    for spec in specs:
        if not spec.config:
            continue
        key = (spec.repo, spec.config)
        if key in seen:
            raise ValueError(f"{spec.hub_id} and {seen[key]} are both {spec.repo} [{spec.config}]")
        seen[key] = spec.hub_id


def releases() -> dict[str, list[DatasetSpec]]:
    """Every Hub repo id with the datasets it holds (one, or one per config)."""
    out: dict[str, list[DatasetSpec]] = {}
    for spec in all_datasets().values():
        out.setdefault(spec.repo, []).append(spec)
    return {repo: sorted(specs, key=_config_key) for repo, specs in out.items()}


def suggest(name: str, limit: int = 3) -> list[str]:
    """At most ``limit`` repo ids close to ``name`` (difflib ratio, then shared prefix)."""
    import difflib

    repos = sorted(releases())
    lowered = {r.lower(): r for r in repos}
    close = difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6)
    if not close:  # e.g. a bare dataset name without its org
        close = [r for r in lowered if r.split("/")[-1].startswith(name.lower().split("/")[-1])]
    return [lowered[c] for c in close[:limit]]


def unknown_dataset_message(name: str) -> str:
    """One line for an id that is no repo, config or dataset: close ids and how to build."""
    close = suggest(name)
    hint = f"; did you mean {', '.join(close)}?" if close else "."
    target = close[0] if close else "<repo id>"
    return (
        f"unknown dataset {name!r}{hint} Build a dataset with `stylebench build {target} "
        "--raw <download>`; `stylebench list datasets` lists them all"
    )


# display order of configs within a release (difficulty levels as PAN orders them)
_CONFIG_ORDER = ("easy", "medium", "hard", "basic", "advanced", "sentence")


def _config_key(spec: DatasetSpec) -> tuple[int, str]:
    order = _CONFIG_ORDER.index(spec.config) if spec.config in _CONFIG_ORDER else 99
    return order, spec.config


def deprecation_note(spec: DatasetSpec) -> str:
    """The note printed when a dataset is addressed by its pre-release-repo id."""
    return (
        f"deprecated id {spec.hub_id!r}: it is now config {spec.config!r} of the repo "
        f"{spec.repo!r} ({spec.load_call}); the old id works in this release only"
    )


def resolve(name: str) -> tuple[list[DatasetSpec], str | None]:
    """The datasets an id names, and a deprecation note where it is an old id.

    ``name`` is a repo id (every dataset of the release: ``steb/pan23_style_change``),
    ``<repo>:<config>`` (one of them: ``steb/pan23_style_change:hard``), or a dataset's own
    id; for a dataset that moved into a release repo (``steb/pan23_style_change_hard``) that
    id still resolves, with the note from :func:`deprecation_note`.
    """
    specs = all_datasets()
    repos = releases()
    from dataset_scripts.core.dataset_ids import split_config

    repo, config = split_config(name)
    if config:
        for spec in repos.get(repo, []):
            if spec.config == config:
                return [spec], None
        if repo in repos:
            configs = ", ".join(s.config for s in repos[repo] if s.config) or "none"
            raise UnknownNameError(f"{repo} has no config {config!r} (configs: {configs})")
        raise UnknownNameError(unknown_dataset_message(name))
    if name in repos:
        return list(repos[name]), None
    if name in specs:
        spec = specs[name]
        return [spec], (deprecation_note(spec) if spec.repo != spec.hub_id else None)
    raise UnknownNameError(unknown_dataset_message(name))


def find_config(repo: str, config: str) -> DatasetSpec | None:
    """The dataset that is ``config`` of ``repo`` (None when not a release config)."""
    return next((s for s in releases().get(repo, []) if s.config == config), None)


def get_dataset(hub_id: str) -> DatasetSpec:
    """The one dataset ``hub_id`` names (its own id, ``<repo>:<config>``, or a repo that
    holds a single dataset)."""
    datasets = all_datasets()
    if hub_id in datasets:
        return datasets[hub_id]
    found, _ = resolve(hub_id)
    if len(found) != 1:
        configs = ", ".join(f"{hub_id}:{s.config}" for s in found)
        raise UnknownNameError(f"{hub_id} holds {len(found)} datasets; name one: {configs}")
    return found[0]
