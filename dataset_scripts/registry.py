"""Registry of buildable datasets: metadata declared once, used for the card, the
``stylebench list datasets`` table and ``stylebench build``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.spec import Builder, DatasetSpec


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


# Release resolvers: hub id -> (repo id, config) for a dataset that is one config of a
# multi-dataset repo, else None. Applied to every spec (catalogued or registered) that
# does not set ``repo_id`` itself, so builders keep registering by their dataset's id.
_RELEASES: list[Callable[[str], tuple[str, str] | None]] = []


def register_releases(resolver: Callable[[str], tuple[str, str] | None]) -> None:
    _RELEASES.append(resolver)


def _with_release(spec: DatasetSpec) -> DatasetSpec:
    if spec.repo_id:
        return spec
    for resolver in _RELEASES:
        found = resolver(spec.hub_id)
        if found is not None:
            return replace(spec, repo_id=found[0], config=found[1])
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
    merged = {key: _with_release(spec) for key, spec in merged.items()}
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
    repo, _, config = name.partition(":")
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
