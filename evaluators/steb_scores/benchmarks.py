"""Named STEB dataset subsets (``stylebench run --benchmark NAME``) and their resolution
to locally built folders.

* ``steb``: every STEB dataset: the declared 96 and the names of the STEB repository's
  application and multilingual lists (all declared here too, the 17 multilingual sets
  included);
* ``operational``: the English datasets (the main STEB scores);
* ``definitional``: datasets assigned to a Table 13 cluster (from the catalogue);
* ``application``: the datasets of the application clusters (Table 4);
* ``multilingual``: the non-English datasets (Table 5);
* ``lite``: a fast preset: per task type, the two smallest English datasets of the
  catalogue by Table 15 text count, at most 2,000 texts each.
"""

from __future__ import annotations

from pathlib import Path

from dataset_scripts.core.errors import UnknownNameError
from dataset_scripts.core.hub_folder import BUILD_INFO
from dataset_scripts.core.spec import folder_name
from evaluators.steb_scores.results import STEB_PREFIX, catalogue
from evaluators.steb_scores.scores import multilingual_datasets, repo_clusters

BENCHMARKS = ("steb", "operational", "definitional", "application", "multilingual", "lite")
LITE_PER_TASK = 2
LITE_MAX_TEXTS = 2000


def _application_ids() -> list[str]:
    lists = repo_clusters()["application"]
    return [STEB_PREFIX + n for names in lists.values() for n in names]


def benchmark_datasets(name: str) -> list[str]:
    """Hub ids of a named subset, sorted."""
    entries = list(catalogue().values())
    catalogued = {e.hub_id for e in entries}
    foreign = multilingual_datasets()
    if name == "steb":
        ids = catalogued | set(_application_ids()) | foreign
    elif name == "operational":
        ids = (catalogued | set(_application_ids())) - foreign
    elif name == "definitional":
        ids = {e.hub_id for e in entries if e.steb and e.steb.definitional}
    elif name == "application":
        ids = set(_application_ids())
    elif name == "multilingual":
        ids = foreign
    elif name == "lite":
        ids = set()
        by_task: dict[str, list[tuple[int, str]]] = {}
        for e in entries:
            if e.hub_id in foreign:
                continue
            for task, count in (e.steb.table15 if e.steb else {}).items():
                if count.total <= LITE_MAX_TEXTS:
                    by_task.setdefault(task, []).append((count.total, e.hub_id))
        for items in by_task.values():
            ids.update(h for _, h in sorted(items)[:LITE_PER_TASK])
    else:
        raise UnknownNameError(
            f"unknown benchmark {name!r}; known benchmarks: {', '.join(BENCHMARKS)}"
        )
    return sorted(ids)


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
