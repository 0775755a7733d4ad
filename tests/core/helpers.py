"""Small builders of in-memory tables for task tests."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.hub_folder import write_hub_folder
from dataset_scripts.core.schemas import validate_rows
from dataset_scripts.core.spec import DatasetSpec
from evaluators.data import Table
from evaluators.tasks import EmbeddingLookup


def table(config: str, rows: list[dict[str, Any]], name: str = "toy") -> Table:
    validate_rows(config, rows, name)
    return Table(name, name, config, "test", rows, "fp")


def lookup(vectors: dict[str, np.ndarray]) -> EmbeddingLookup:
    texts = list(vectors)
    return EmbeddingLookup(
        texts, np.stack([np.asarray(vectors[t], dtype=np.float32) for t in texts])
    )


def random_lookup(texts: list[str], dim: int = 8, seed: int = 0) -> EmbeddingLookup:
    rng = np.random.default_rng(seed)
    unique = list(dict.fromkeys(texts))
    return EmbeddingLookup(unique, rng.normal(size=(len(unique), dim)).astype(np.float32))


def write_folder(
    tables: Mapping[str, Mapping[str, list[dict[str, Any]]]], folder: Path, hub_id: str
) -> Path:
    """Write ``{config: {split: rows}}`` as a built Hub folder of a minimal local dataset."""
    spec = DatasetSpec(
        hub_id=hub_id,
        pretty_name=hub_id.split("/")[-1],
        summary="rows written by a test",
        builder=None,
        license="cc0-1.0",
        source_url="(test)",
        citation="(test)",
        raw_format="records",
        protocol="test rows",
    )
    return Path(write_hub_folder(spec, tables, folder, {}))
