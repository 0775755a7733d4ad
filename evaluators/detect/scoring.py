"""Resumable detector scoring with a progress bar (tqdm: rate and ETA).

Raw scores are appended, batch by batch, to ``<out>/scores/<detector>-<key>.jsonl`` (one
``{"sha": <SHA-256 of the text>, "raw": <score>}`` per line, flushed and fsynced after every
batch); ``<key>`` hashes the detector's configuration (model, truncation, batch size, and
for a supervised detector the training rows), so a changed detector never reuses old
scores. A killed run loses at most one batch: the next run reads the file, skips every
text already scored (a torn last line is ignored) and scores the rest.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm.auto import tqdm

from dataset_scripts.core.errors import StylebenchError

DEFAULT_BATCH = 16


def text_key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def config_key(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:12]


class ScoreStore:
    """Append-only raw scores of one detector configuration."""

    def __init__(self, folder: Path | None, name: str, config: dict[str, Any]) -> None:
        self.path = None
        self.scores: dict[str, float] = {}
        if folder is None:
            return
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("_") or "detector"
        self.path = Path(folder) / f"{slug}-{config_key(config)}.jsonl"
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                try:
                    record = json.loads(line)
                    self.scores[record["sha"]] = float(record["raw"])
                except (ValueError, KeyError, TypeError):
                    continue  # a line torn by an interruption: rescored
        else:
            self.path.write_text("")

    def add(self, texts: Sequence[str], raw: np.ndarray) -> None:
        lines = []
        for text, value in zip(texts, raw, strict=True):
            key = text_key(text)
            self.scores[key] = float(value)
            lines.append(json.dumps({"sha": key, "raw": float(value)}))
        if self.path is not None and lines:
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
                handle.flush()
                os.fsync(handle.fileno())


def score_resumable(
    detector: Any,
    texts: Sequence[str],
    store: ScoreStore,
    *,
    name: str,
    batch_size: int = DEFAULT_BATCH,
    progress: bool = True,
) -> tuple[np.ndarray, int]:
    """Raw scores of ``texts`` (in order) and how many were read back from ``store``."""
    unique = list(dict.fromkeys(texts))
    todo = [t for t in unique if text_key(t) not in store.scores]
    reused = len(unique) - len(todo)
    bar = tqdm(
        total=len(unique),
        initial=reused,
        desc=f"score {name}",
        unit="text",
        disable=not progress,
        dynamic_ncols=True,
    )
    try:
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            raw = np.asarray(detector.raw_scores(batch), dtype=np.float64).reshape(-1)
            if raw.shape != (len(batch),):
                raise StylebenchError(f"{name}: returned {raw.size} scores for {len(batch)} texts")
            if not np.all(np.isfinite(raw)):
                bad = batch[int(np.flatnonzero(~np.isfinite(raw))[0])]
                raise StylebenchError(f"{name}: non-finite score for the text {bad[:60]!r}")
            store.add(batch, raw)
            bar.update(len(batch))
    finally:
        bar.close()
    return np.array([store.scores[text_key(t)] for t in texts], dtype=np.float64), reused
