"""PPM: prediction-by-partial-matching character models (Teahan & Harper 2003; Valla's
``methods/PPM.py`` and ``PPM_AV.py``), using the PPMd (variant H) coder of the maintained
``pyppmd`` package (the coder of py7zr / 7-Zip) rather than a hand-written model.

The cross-entropy of an unknown text ``x`` under an author's model is estimated by
compression: ``H(x | A) ~ 8 * (C(A + x) - C(A)) / len(x)`` bits per byte, where ``C`` is
the PPMd-compressed length in bytes and ``A`` the concatenated training texts of the
author (the adaptive coder has learnt ``A`` when it reaches ``x``). AA predicts the author
of lowest cross-entropy. AV builds a model on one text and measures the other, in both
directions: the score is the mean relative saving ``1 - (C(a + b) - C(a)) / C(b)``, higher
for the same author.

Valla's own PPM is order 5 over a 256-symbol alphabet; the default here is PPMd order 5.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from evaluators.errors import StylebenchError


@dataclass
class PPMConfig:
    order: int = 5
    mem_mb: int = 16
    workers: int = 1  # worker processes (authors are divided between them)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _require_pyppmd():
    try:
        import pyppmd
    except ImportError:  # pragma: no cover - depends on the install
        raise StylebenchError("PPM needs the `pyppmd` package: pip install pyppmd") from None
    return pyppmd


def compressed_size(data: bytes, config: PPMConfig) -> int:
    """PPMd-compressed length of ``data`` in bytes (stream flushed, no end mark)."""
    pyppmd = _require_pyppmd()
    encoder = pyppmd.Ppmd7Encoder(config.order, config.mem_mb << 20)
    return len(encoder.encode(data)) + len(encoder.flush())


class _Worker:
    """A ``_ppm_worker`` process (see its notes); falls back to re-encoding without fork."""

    def __init__(self) -> None:
        self.process = None
        if hasattr(os, "fork"):
            self.process = subprocess.Popen(
                [sys.executable, "-m", "evaluators.valla._ppm_worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
            )

    def submit(self, config: PPMConfig, context: bytes, texts: list[bytes]) -> None:
        self.pending = (config, context, texts)
        if self.process is not None:
            payload = pickle.dumps((config.order, config.mem_mb, context, texts))
            self.process.stdin.write(struct.pack("<Q", len(payload)) + payload)
            self.process.stdin.flush()

    def result(self) -> list[int]:
        config, context, texts = self.pending
        if self.process is None:
            base = compressed_size(context, config)
            return [compressed_size(context + t, config) - base for t in texts]
        head = self.process.stdout.read(8)
        if len(head) < 8:
            raise StylebenchError("the PPM worker process died")
        (size,) = struct.unpack("<Q", head)
        status, value = pickle.loads(self.process.stdout.read(size))
        if status != "ok":
            raise StylebenchError(f"PPM worker: {value}")
        return value

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=30)


def _encode(text: str) -> bytes:
    return text.encode("utf-8")


class PPMAA:
    """One PPMd model per author; predicts the author of lowest cross-entropy."""

    def __init__(self, config: PPMConfig | None = None) -> None:
        self.config = config or PPMConfig()
        self.contexts: dict[str, bytes] = {}

    def fit(self, texts: Sequence[str], authors: Sequence[str]) -> PPMAA:
        joined: dict[str, list[bytes]] = {}
        for text, author in zip(texts, authors, strict=True):
            joined.setdefault(str(author), []).append(_encode(text))
        if len(joined) < 2:
            raise StylebenchError("PPM_A needs training texts of at least two authors")
        self.contexts = {a: b"\n".join(parts) + b"\n" for a, parts in sorted(joined.items())}
        return self

    def cross_entropy(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Bits per byte of each text (rows) under each author model (columns,
        ``self.authors`` order)."""
        if not self.contexts:
            raise StylebenchError("PPM_A is not fitted")
        encoded = [_encode(t) for t in texts]
        authors = self.authors
        result = np.zeros((len(encoded), len(authors)))
        workers = [_Worker() for _ in range(max(1, self.config.workers))]
        bar = _progress(len(authors), progress, "PPM authors")
        try:
            for start in range(0, len(authors), len(workers)):
                batch = list(enumerate(authors[start : start + len(workers)], start))
                for worker, (_, author) in zip(workers, batch, strict=False):
                    worker.submit(self.config, self.contexts[author], encoded)
                for worker, (column, _) in zip(workers, batch, strict=False):
                    result[:, column] = worker.result()
                    bar.update(1)
        finally:
            bar.close()
            for worker in workers:
                worker.close()
        lengths = np.array([max(1, len(e)) for e in encoded], dtype=np.float64)
        return 8.0 * result / lengths[:, None]

    @property
    def authors(self) -> list[str]:
        return list(self.contexts)

    def predict(self, texts: Sequence[str], progress: bool = False) -> list[str]:
        entropy = self.cross_entropy(texts, progress)
        return [self.authors[i] for i in np.argmin(entropy, axis=1)]


class PPMAV:
    """Symmetric relative compression saving of one text given the other (no training)."""

    def __init__(self, config: PPMConfig | None = None) -> None:
        self.config = config or PPMConfig()

    def fit(self, *_: Any) -> PPMAV:  # nothing to learn; kept for a uniform interface
        return self

    def score(self, text1: Sequence[str], text2: Sequence[str]) -> np.ndarray:
        cache: dict[bytes, int] = {}

        def size(data: bytes) -> int:
            if data not in cache:
                cache[data] = compressed_size(data, self.config)
            return cache[data]

        scores = []
        for t1, t2 in zip(text1, text2, strict=True):
            a, b = _encode(t1), _encode(t2)
            ca, cb = size(a), size(b)
            gain_b = 1.0 - (compressed_size(a + b"\n" + b, self.config) - ca) / max(1, cb)
            gain_a = 1.0 - (compressed_size(b + b"\n" + a, self.config) - cb) / max(1, ca)
            scores.append(0.5 * (gain_a + gain_b))
        return np.asarray(scores)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress(total: int, enabled: bool, desc: str):
    if not enabled:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc)
