"""Write and push Hub-ready dataset folders: Parquet shards per config/split plus a
README.md card whose YAML front matter lists the configs (``datasets`` >= 4 reads such
a folder, locally or as a Hub repo, without any loading script)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from datasets import Dataset

from dataset_scripts.cards import render_card
from dataset_scripts.registry import DatasetSpec
from dataset_scripts.schemas import SCHEMAS, probing_features, probing_features_spec, validate_rows
from evaluators.data import quiet_datasets

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
) -> Path:
    """Validate ``tables`` ({config: {split: rows}}) and write them under ``out_dir``.

    The folder is written next to its final place and moved in at the end, so an
    interrupted build never leaves a half-written dataset behind.
    """
    out_dir = Path(out_dir)
    staging = out_dir.with_name(out_dir.name + ".partial")
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    counts: dict[str, dict[str, int]] = {}
    texts: dict[str, int] = {}
    for config, splits in tables.items():
        if config not in SCHEMAS:
            raise ValueError(f"{spec.hub_id}: config {config!r} is not a known schema")
        for split, rows in splits.items():
            validate_rows(config, rows, f"{spec.hub_id} [{config}/{split}]")
            dataset = Dataset.from_list(list(rows), features=_features_for(config, rows))
            target = staging / "data" / config / f"{split}-00000-of-00001.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            with quiet_datasets():
                dataset.to_parquet(str(target))
            counts.setdefault(config, {})[split] = len(rows)
            texts[config] = texts.get(config, 0) + count_texts(config, rows)
    (staging / "README.md").write_text(render_card(spec, counts, dict(dropped or {}), texts))
    info = {"hub_id": spec.hub_id, "counts": counts, "dropped": dict(dropped or {})}
    info.update(build_info or {})
    (staging / BUILD_INFO).write_text(json.dumps(info, indent=2, default=str))
    if out_dir.exists():
        shutil.rmtree(out_dir)
    staging.rename(out_dir)
    return out_dir


def build_dataset(
    spec: DatasetSpec, raw: Path | None, out_dir: Path
) -> tuple[Path, dict[str, int]]:
    """Run the registered builder on ``raw`` and write the folder; returns the folder
    and the report of dropped rows."""
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
    tables, dropped = spec.builder(Path(raw) if raw is not None else None)
    return write_hub_folder(spec, tables, out_dir, dropped), dropped


def push_folder(
    folder: Path, repo_id: str, *, private: bool = False, token: str | None = None
) -> str:
    """Upload a built folder to the Hub as a dataset repo (real code path; needs network)."""
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
    info = api.upload_folder(
        folder_path=str(folder),
        repo_id=repo_id,
        repo_type="dataset",
        commit_message=f"stylebench build of {repo_id}",
        ignore_patterns=[BUILD_INFO],
    )
    return str(info)
