"""On-disk embedding cache: one SQLite file per encoder identity, keyed by the
SHA-256 of each text.

* Safe against concurrent runs: SQLite serialises writers (WAL journal, busy timeout),
  and ``INSERT OR IGNORE`` makes a race between two runs embedding the same text
  harmless (both write the same vector).
* Safe against interruption: every batch is committed as soon as it is embedded, so a
  killed run resumes without re-embedding what was done.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from evaluators.encoders.base import identity_key


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class EmbeddingCache:
    """Vectors of one encoder identity stored under ``root/<identity hash>/``."""

    def __init__(self, root: Path, identity: dict[str, Any]) -> None:
        self.identity = identity
        self.folder = Path(root) / identity_key(identity)
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self.folder / "identity.json"
        if not manifest.exists():
            manifest.write_text(json.dumps(identity, indent=2, sort_keys=True, default=str))
        self._db = sqlite3.connect(self.folder / "embeddings.sqlite", timeout=120)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, dim INTEGER, vector BLOB)"
        )
        self._db.commit()

    def get_many(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """Cached vectors of the given texts (missing texts are absent)."""
        by_key: dict[str, str] = {text_key(t): t for t in texts}
        found: dict[str, np.ndarray] = {}
        keys = list(by_key)
        for start in range(0, len(keys), 900):  # SQLite's bound-parameter limit
            chunk = keys[start : start + 900]
            marks = ",".join("?" * len(chunk))
            for key, _dim, blob in self._db.execute(
                f"SELECT key, dim, vector FROM vectors WHERE key IN ({marks})", chunk
            ):
                found[by_key[key]] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put_many(self, texts: list[str], vectors: np.ndarray) -> None:
        rows = [
            (text_key(t), int(v.shape[0]), np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        with self._db:  # one transaction per batch
            self._db.executemany("INSERT OR IGNORE INTO vectors VALUES (?, ?, ?)", rows)

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    def close(self) -> None:
        self._db.close()
