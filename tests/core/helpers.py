"""Small builders of in-memory tables for task tests."""

from __future__ import annotations

from typing import Any

import numpy as np

from dataset_scripts.core.schemas import validate_rows
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
