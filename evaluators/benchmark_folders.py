"""``stylebench run --benchmark NAME``: a STEB benchmark (an object of
:mod:`evaluators.benchmarks`: ``steb`` is ``STEB(v1)``, ``lite`` is ``STEB-lite(v1)``, ...)
resolved to locally built folders."""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.hub_folder import BUILD_INFO
from dataset_scripts.core.spec import folder_name
from evaluators.benchmarks import DECLARATIONS, get_benchmark

#: the names ``--benchmark`` takes: the STEB family's benchmarks (the runner's tasks)
BENCHMARKS = tuple(d.aliases[0] for d in DECLARATIONS if d.family == "steb")


def benchmark_datasets(name: str) -> list[str]:
    """Dataset ids of a benchmark (by alias, name or key), sorted."""
    return list(get_benchmark(name).datasets)


def local_folder(hub_id: str, built_root: Path) -> Path:
    """Where ``stylebench build`` output for ``hub_id`` is expected under ``built_root``."""
    return Path(built_root) / folder_name(hub_id)


def resolve_benchmark(name: str, built_root: Path | None) -> tuple[list[str], list[str]]:
    """(refs, missing): each hub id of the subset becomes its built folder under
    ``built_root`` when that folder exists (it holds ``data/`` or ``stylebench_build.json``),
    else stays a Hub id; ``missing`` lists the hub ids not built locally (they will be
    loaded from the Hub, which fails offline)."""
    refs, missing = [], []
    release = _release_configs()
    for hub_id in benchmark_datasets(name):
        folder = local_folder(hub_id, built_root) if built_root is not None else None
        if folder is not None and ((folder / BUILD_INFO).is_file() or (folder / "data").is_dir()):
            refs.append(str(folder))
            continue
        if hub_id in release and built_root is not None:
            # one config of a release repo: its folder is the repo's (built/steb__STEL)
            repo, config = release[hub_id]
            folder = local_folder(repo, built_root)
            if config in _built_configs(folder):
                refs.append(f"{folder}:{config}")
                continue
        refs.append(f"{release[hub_id][0]}:{release[hub_id][1]}" if hub_id in release else hub_id)
        missing.append(refs[-1])
    return refs, missing


def _release_configs() -> dict[str, tuple[str, str]]:
    """STEB dataset id -> (repo, config) for the datasets that are configs of a release."""
    from dataset_scripts.registry import all_datasets

    return {k: (s.repo, s.config) for k, s in all_datasets().items() if s.config}


def _built_configs(folder: Path) -> set[str]:
    from dataset_scripts.core.hub_folder import built_configs

    return set(built_configs(folder)) if folder.is_dir() else set()
