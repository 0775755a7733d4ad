"""Build datasets: run a registered builder on its raw download and write the Hub folder
(one dataset, or several configs of one source release into one repo folder)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dataset_scripts.core.cards import ALL_CONFIG
from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.hub_folder import (
    built_configs,
    check_out_dir,
    read_build_info,
    write_hub_folder,
)
from dataset_scripts.core.quiet import quiet_datasets
from dataset_scripts.core.spec import BuildResult, DatasetSpec
from dataset_scripts.registry import find_config, releases


def check_buildable(spec: DatasetSpec, raw: Path | None) -> None:
    """FileNotFoundError naming what is missing: a build script, the raw download, or the
    raw path given."""
    if spec.builder is None:
        raise FileNotFoundError(
            f"{spec.hub_id} has no build script (not a declared dataset); its source is "
            f"{spec.source_url}"
        )
    if spec.needs_raw and raw is None:
        raise FileNotFoundError(
            f"{spec.hub_id} is built from its raw download ({spec.source_url}); pass --raw"
        )
    if raw is not None and not Path(raw).exists():
        raise FileNotFoundError(f"{spec.hub_id}: raw path {raw} does not exist")


def run_builder(spec: DatasetSpec, raw: Path | None) -> BuildResult:
    """The declared builder's :class:`BuildResult` for ``raw`` (TypeError naming the
    dataset when a builder returns anything else)."""
    assert spec.builder is not None  # check_buildable ran
    result = spec.builder(Path(raw) if raw is not None else None)
    if not isinstance(result, BuildResult):
        raise TypeError(
            f"{spec.hub_id}: its builder returned {type(result).__name__}, not a BuildResult"
        )
    return result


def build_dataset(
    spec: DatasetSpec, raw: Path | None, out_dir: Path
) -> tuple[Path, dict[str, int]]:
    """Run the registered builder on ``raw`` and write the folder; returns the folder
    and the report of dropped rows."""
    check_buildable(spec, raw)
    if spec.config:  # one config of a multi-dataset release repo
        folder, dropped_by_config, failed = build_release([spec], raw, out_dir)
        if failed:
            raise failed[spec.config]
        return folder, dropped_by_config[spec.config]
    check_out_dir(Path(out_dir), raw)  # before the build runs: fail fast, touch nothing
    tables, dropped = run_builder(spec, raw)
    return write_hub_folder(spec, tables, out_dir, dropped), dropped


def release_spec(repo: str, members: Sequence[DatasetSpec]) -> DatasetSpec:
    """The repo-level spec (card title, summary, licence) of a multi-dataset release."""
    first = members[0]
    configs = ", ".join(m.config for m in members)
    return DatasetSpec(
        hub_id=repo,
        pretty_name=f"STEB {repo.split('/')[-1]}" if repo.startswith("steb/") else repo,
        summary=(
            f"One source release holding {len(members)} STEB dataset(s), one config each "
            f"({configs}); the configs are described below."
        ),
        builder=None,
        license=first.license,
        source_url=first.source_url,
        citation=first.citation,
        raw_format=first.raw_format,
        language=tuple(dict.fromkeys(lang for m in members for lang in m.language)),
    )


def _previous_tables(
    folder: Path, keep: Sequence[str]
) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, str]]:
    """Rows of configs ``keep`` of a previous build in ``folder`` (carried into a rebuild
    of other configs of the same release)."""
    tables: dict[str, dict[str, list[dict[str, Any]]]] = {}
    schemas: dict[str, str] = {}
    configs = built_configs(folder)
    for config in keep:
        for shard in sorted((Path(folder) / "data" / config).glob("*-00000-of-00001.parquet")):
            split = shard.name.split("-00000-of-")[0]
            from datasets import Dataset

            with quiet_datasets():
                rows = Dataset.from_parquet(str(shard)).to_list()
            tables.setdefault(config, {})[split] = rows
        schemas[config] = configs[config]["schema"]
    return tables, schemas


def build_release(
    specs: Sequence[DatasetSpec], raw: Path | None, out_dir: Path, *, keep_others: bool = True
) -> tuple[Path, dict[str, dict[str, int]], dict[str, Exception]]:
    """Build configs of one release repo (``specs`` share ``spec.repo``) from one raw
    download into one folder: ``data/<config>/test-*.parquet`` per STEB dataset and a card
    listing every config (plus the default ``all`` view).

    Each builder must return one schema table. A config whose builder fails (its files are
    not in this download, malformed data) is reported in the returned ``failed`` map and
    the others are still written; nothing is written when every config fails. With
    ``keep_others``, configs of a previous build of the same repo in ``out_dir`` that are
    not rebuilt now are carried over unchanged. Returns (folder, dropped rows per config,
    failures per config).
    """
    repos = {s.repo for s in specs}
    if len(repos) != 1:
        raise ValueError(f"build_release: datasets of several repos {sorted(repos)}")
    (repo,) = repos
    out_dir = Path(out_dir)
    check_out_dir(out_dir, raw)
    tables: dict[str, dict[str, list[dict[str, Any]]]] = {}
    schemas: dict[str, str] = {}
    dropped: dict[str, dict[str, int]] = {}
    failed: dict[str, Exception] = {}
    for spec in specs:
        try:
            check_buildable(spec, raw)
            built, dropped[spec.config] = run_builder(spec, raw)
        except (FileNotFoundError, StylebenchError, ValueError) as error:
            failed[spec.config] = error
            continue
        if len(built) != 1:
            raise ValueError(
                f"{spec.hub_id}: a release config holds one table; its builder returned "
                f"{sorted(built)}"
            )
        ((schemas[spec.config], tables[spec.config]),) = built.items()
    if not tables:
        first = next(iter(failed.values()))
        raise first
    all_specs = {s.config: s for s in specs}
    if keep_others and out_dir.is_dir():
        previous = [c for c in built_configs(out_dir) if c not in tables and c != ALL_CONFIG]
        previous = [c for c in previous if find_config(repo, c) is not None]
        old_tables, old_schemas = _previous_tables(out_dir, previous)
        tables.update(old_tables)
        schemas.update(old_schemas)
        old_info = read_build_info(out_dir)
        for config in old_tables:  # their drop counts travel with them
            dropped[config] = dict(old_info.get("dropped_by_config", {}).get(config, {}))
        all_specs.update({c: find_config(repo, c) for c in old_tables})  # type: ignore[misc]
    order = [s.config for s in releases().get(repo, [])]
    configs = sorted(tables, key=lambda c: order.index(c) if c in order else len(order))
    members = {c: all_specs[c] for c in configs}
    # one config: its reasons as they are; several: each reason names its config
    flat = {
        (f"[{c}] {reason}" if len(configs) > 1 else reason): n
        for c, d in dropped.items()
        for reason, n in d.items()
    }
    write_hub_folder(
        release_spec(repo, list(members.values())),
        {c: tables[c] for c in configs},
        out_dir,
        flat,
        {"dropped_by_config": dropped},
        schemas=schemas,
        members=members,
    )
    return out_dir, {c: dropped.get(c, {}) for c in tables}, failed
