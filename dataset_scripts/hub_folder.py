"""Write Hub-ready dataset folders: Parquet shards per config/split plus a README.md card
whose YAML front matter lists the configs (``datasets`` >= 4 reads such a folder, locally
or as a Hub repo, without any loading script). Publishing is ``evaluators.publish``
(``stylebench push``); registering a build for ``load_dataset(<hub id>)`` offline is
:mod:`dataset_scripts.hub_cache`."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasets import Dataset

from dataset_scripts.cards import ALL_CONFIG, render_card
from dataset_scripts.registry import DatasetSpec
from dataset_scripts.schemas import SCHEMAS, probing_features, probing_features_spec, validate_rows
from evaluators.data import quiet_datasets
from evaluators.errors import StylebenchError

BUILD_INFO = "stylebench_build.json"


def _features_for(config: str, rows: Sequence[Mapping[str, Any]]):
    if config == "probing":
        return probing_features_spec(probing_features(list(rows[0])))
    return SCHEMAS[config].features


def count_texts(config: str, rows: Sequence[Mapping[str, Any]]) -> int:
    """Number of texts in a table (a pair holds two, a sequence or retrieval unit many)."""
    total = 0
    for column in SCHEMAS[config].text_columns:
        for row in rows:
            value = row[column]
            total += len(value) if isinstance(value, list | tuple) else 1
    return total


def write_hub_folder(
    spec: DatasetSpec,
    tables: Mapping[str, Mapping[str, list[dict[str, Any]]]],
    out_dir: Path,
    dropped: Mapping[str, int] | None = None,
    build_info: Mapping[str, Any] | None = None,
    *,
    schemas: Mapping[str, str] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> Path:
    """Validate ``tables`` ({config: {split: rows}}) and write them under ``out_dir``.

    ``schemas`` gives each config's schema (default: the config's own name); ``members``
    the dataset of each config of a multi-dataset release (see :func:`build_release`).

    The folder is written into a fresh hidden sibling (``.<name>.<random>.partial``) and
    renamed into place at the end, so an interrupted or failed build never leaves a
    half-written dataset behind (the sibling is removed on failure). An existing
    ``out_dir`` is replaced only when it holds a previous stylebench build (see
    :func:`check_out_dir`); anything else is an :class:`OutputFolderError`.
    """
    out_dir = Path(out_dir)
    check_out_dir(out_dir)
    staging = _staging_dir(out_dir)
    try:
        _write_staging(spec, tables, staging, dropped, build_info, schemas, members)
        _move_into_place(staging, out_dir)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out_dir


class OutputFolderError(StylebenchError):
    """An output folder that a build must not write into or replace."""


def is_previous_build(folder: Path) -> bool:
    """True when ``folder`` holds a stylebench build marker (:data:`BUILD_INFO` with a
    ``hub_id``), i.e. it is a folder a previous build wrote and may replace."""
    marker = Path(folder) / BUILD_INFO
    try:
        info = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and isinstance(info.get("hub_id"), str)


def check_out_dir(out_dir: Path, raw: Path | None = None) -> None:
    """Refuse an output folder a build must not touch (:class:`OutputFolderError`).

    Allowed: a path that does not exist yet, an empty folder, or a folder holding a previous
    stylebench build (its marker file). Refused: an existing file, any other folder, and,
    whatever it holds, a folder that is, contains or lies inside the raw download ``raw``.
    """
    out_dir = Path(out_dir)
    if raw is not None:
        out_abs, raw_abs = out_dir.resolve(), Path(raw).resolve()
        if out_abs == raw_abs or raw_abs in out_abs.parents or out_abs in raw_abs.parents:
            relation = (
                "is"
                if out_abs == raw_abs
                else "lies inside"
                if raw_abs in out_abs.parents
                else "contains"
            )
            raise OutputFolderError(
                f"--out {out_dir} {relation} the raw download {raw}; choose an output folder "
                "outside it (the raw data is never overwritten)"
            )
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise OutputFolderError(
            f"--out {out_dir} exists and is not a folder; remove it or choose another path"
        )
    if out_dir.is_dir() and any(out_dir.iterdir()) and not is_previous_build(out_dir):
        raise OutputFolderError(
            f"--out {out_dir} is a folder that does not hold a stylebench build (no valid "
            f"{BUILD_INFO}); it is left alone: choose a new or empty folder"
        )


def _staging_dir(out_dir: Path) -> Path:
    """A fresh hidden sibling of ``out_dir`` (same file system, so the final move is a
    rename); unique, so two builds of one folder never share it."""
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".partial", dir=out_dir.parent))


def _move_into_place(staging: Path, out_dir: Path) -> None:
    """Rename ``staging`` to ``out_dir``; a previous build there (checked again here) is
    moved aside first and deleted only once the new folder is in place."""
    if not out_dir.exists():
        os.rename(staging, out_dir)
        return
    check_out_dir(out_dir)  # it may have changed while the build ran
    if not any(out_dir.iterdir()):
        out_dir.rmdir()
        os.rename(staging, out_dir)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", suffix=".old", dir=out_dir.parent))
    old.rmdir()
    os.rename(out_dir, old)
    try:
        os.rename(staging, out_dir)
    except BaseException:
        os.rename(old, out_dir)  # put the previous build back
        raise
    shutil.rmtree(old, ignore_errors=True)


def _write_staging(
    spec: DatasetSpec,
    tables: Mapping[str, Mapping[str, list[dict[str, Any]]]],
    staging: Path,
    dropped: Mapping[str, int] | None,
    build_info: Mapping[str, Any] | None,
    schemas: Mapping[str, str] | None = None,
    members: Mapping[str, DatasetSpec] | None = None,
) -> None:
    counts: dict[str, dict[str, int]] = {}
    texts: dict[str, int] = {}
    chosen = {c: (schemas or {}).get(c, c) for c in tables}
    features: dict[str, Any] = {}
    for config, splits in tables.items():
        schema = chosen[config]
        if schema not in SCHEMAS:
            raise ValueError(f"{spec.hub_id}: config {config!r} has no known schema ({schema!r})")
        for split, rows in splits.items():
            validate_rows(schema, rows, f"{spec.hub_id} [{config}/{split}]")
            features[config] = _features_for(schema, rows)
            dataset = Dataset.from_list(list(rows), features=features[config])
            target = staging / "data" / config / f"{split}-00000-of-00001.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            with quiet_datasets():
                dataset.to_parquet(str(target))
            counts.setdefault(config, {})[split] = len(rows)
            texts[config] = texts.get(config, 0) + count_texts(schema, rows)
    card = render_card(
        spec, counts, dict(dropped or {}), texts, schemas=chosen, features=features, members=members
    )
    (staging / "README.md").write_text(card)
    info: dict[str, Any] = {"hub_id": spec.hub_id, "counts": counts, "dropped": dict(dropped or {})}
    # config -> schema and the dataset it is (a STEB dataset id for a release's config)
    info["configs"] = {
        c: {"schema": chosen[c], "dataset": members[c].hub_id if members else spec.hub_id}
        for c in tables
    }
    info.update(build_info or {})
    (staging / BUILD_INFO).write_text(json.dumps(info, indent=2, default=str))


def check_buildable(spec: DatasetSpec, raw: Path | None) -> None:
    """FileNotFoundError naming what is missing: a build script, the raw download, or the
    raw path given."""
    if spec.builder is None:
        raise FileNotFoundError(
            f"{spec.hub_id} has no build script yet; its source is {spec.source_url}"
        )
    if spec.needs_raw and raw is None:
        raise FileNotFoundError(
            f"{spec.hub_id} is built from its raw download ({spec.source_url}); pass --raw"
        )
    if raw is not None and not Path(raw).exists():
        raise FileNotFoundError(f"{spec.hub_id}: raw path {raw} does not exist")


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
    tables, dropped = spec.builder(Path(raw) if raw is not None else None)
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
        extra={"family": first.extra.get("family", ""), "release": [m.hub_id for m in members]},
    )


def built_configs(folder: Path) -> dict[str, dict[str, str]]:
    """``{config: {"schema", "dataset"}}`` of a built folder (its :data:`BUILD_INFO`); a
    folder built before configs were recorded maps each schema-named config to itself."""
    try:
        info = json.loads((Path(folder) / BUILD_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return _card_configs(Path(folder))
    if isinstance(info.get("configs"), dict):
        return info["configs"]
    return {c: {"schema": c, "dataset": info.get("hub_id", "")} for c in info.get("counts", {})}


def _card_configs(folder: Path) -> dict[str, dict[str, str]]:
    """The same map from the card of a folder without build info (a downloaded repo)."""
    from dataset_scripts.cards import stylebench_metadata

    try:
        block = stylebench_metadata((folder / "README.md").read_text(encoding="utf-8"))
    except OSError:
        return {}
    configs = block.get("configs")
    return dict(configs) if isinstance(configs, dict) else {}


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
    from evaluators.errors import StylebenchError as _Error

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
            built, dropped[spec.config] = spec.builder(Path(raw) if raw is not None else None)
        except (FileNotFoundError, _Error, ValueError) as error:
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
        from dataset_scripts.registry import find_config

        previous = [c for c in previous if find_config(repo, c) is not None]
        old_tables, old_schemas = _previous_tables(out_dir, previous)
        tables.update(old_tables)
        schemas.update(old_schemas)
        try:
            old_info = json.loads((out_dir / BUILD_INFO).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            old_info = {}
        for config in old_tables:  # their drop counts travel with them
            dropped[config] = dict(old_info.get("dropped_by_config", {}).get(config, {}))
        all_specs.update({c: find_config(repo, c) for c in old_tables})  # type: ignore[misc]
    from dataset_scripts.registry import releases

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
