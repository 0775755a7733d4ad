"""PPM: prediction-by-partial-matching character models (Teahan & Harper 2003; Valla's
``methods/PPM.py`` and ``PPM_AV.py``).

Two coders (``PPMConfig.coder``):

- ``"teahan"`` (default): the order-5 model over a 256-symbol alphabet exactly as Valla's
  port of PAN's ``teahan03`` computes it (:mod:`evaluators.valla.teahan`: per-author
  counts in every context up to the order, the relative frequency in the longest context
  that saw the character, ``1/alph_size`` for a character the author never used, no
  escape penalty); the cross-entropy of an unknown text is the mean ``-log2 P`` per
  character and AA predicts the author of lowest cross-entropy. On CCAT50 this gives the
  paper's 69.36 exactly.
- ``"ppmd"``: the PPMd (variant H) coder of the maintained ``pyppmd`` package (7-Zip's),
  with the cross-entropy estimated by compression:
  ``H(x | A) ~ 8 * (C(A + x) - C(A)) / len(x)`` bits per byte, ``C`` the compressed length
  and ``A`` the author's concatenated training texts. A real escape-coded PPM, but not
  what the paper ran (CCAT50 with CRLF line ends kept: 70.24; several times slower).

AV (``PPMAV``), teahan: as Valla's ``PPM_AV.py``, a model built on one text measures the
other in both directions, and the two cross-entropies, their mean and absolute difference
go to a logistic regression trained on same/different-author pairs (the score is P(same)).
Valla draws its training pairs from the AA training texts (one same-author and one random
partner per text); here they are the dataset's ``text_pairs`` training split. PPMd: no
training, the score is the mean relative saving ``1 - (C(a + b) - C(a)) / C(b)`` of the two
directions.
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

from dataset_scripts.core.errors import StylebenchError
from evaluators.valla.teahan import progress_bar

CODERS = ("teahan", "ppmd")


@dataclass
class PPMConfig:
    order: int = 5
    coder: str = "teahan"  # Valla's executed model; "ppmd" for pyppmd's PPMd (variant H)
    alph_size: int = 256  # teahan: a character the author never used gets 1 / alph_size
    mem_mb: int = 16  # ppmd only
    workers: int = 1  # ppmd only: worker processes (authors are divided between them)

    def __post_init__(self) -> None:
        if self.coder not in CODERS:
            raise StylebenchError(f"PPM coder must be one of {CODERS}, not {self.coder!r}")
        if self.order < 0 or self.alph_size < 1:
            raise StylebenchError(
                f"PPM needs order >= 0 and alph_size >= 1 (got {self.order}, {self.alph_size})"
            )

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
    """One model per author; predicts the author of lowest cross-entropy."""

    def __init__(self, config: PPMConfig | None = None) -> None:
        self.config = config or PPMConfig()
        self.contexts: dict[str, bytes] = {}
        self.train: tuple[list[str], list[str]] = ([], [])

    def fit(self, texts: Sequence[str], authors: Sequence[str]) -> PPMAA:
        joined: dict[str, list[bytes]] = {}
        for text, author in zip(texts, authors, strict=True):
            joined.setdefault(str(author), []).append(_encode(text))
        if len(joined) < 2:
            raise StylebenchError("PPM_A needs training texts of at least two authors")
        self.contexts = {a: b"\n".join(parts) + b"\n" for a, parts in sorted(joined.items())}
        self.train = (list(texts), [str(a) for a in authors])
        return self

    def cross_entropy(self, texts: Sequence[str], progress: bool = False) -> np.ndarray:
        """Bits per character (teahan) or per byte (ppmd) of each text (rows) under each
        author model (columns, ``self.authors`` order)."""
        if not self.contexts:
            raise StylebenchError("PPM_A is not fitted")
        if self.config.coder == "teahan":
            from evaluators.valla.teahan import cross_entropies

            authors, entropy = cross_entropies(
                *self.train, texts, self.config.order, self.config.alph_size, progress
            )
            assert authors == self.authors
            return entropy
        encoded = [_encode(t) for t in texts]
        authors = self.authors
        result = np.zeros((len(encoded), len(authors)))
        workers = [_Worker() for _ in range(max(1, self.config.workers))]
        bar = progress_bar(len(authors), progress, "PPM authors")
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
    """``teahan``: Valla's ``PPM_AV.py``, a logistic regression on the two directed
    cross-entropies of a pair, their mean and absolute difference, trained on labelled
    pairs (texts cut to 50,000 characters as there); ``ppmd``: the symmetric relative
    compression saving of one text given the other (no training)."""

    def __init__(self, config: PPMConfig | None = None) -> None:
        self.config = config or PPMConfig()
        self.model: Any = None

    def features(self, text1: Sequence[str], text2: Sequence[str]) -> np.ndarray:
        """Per pair: H(text2 | model of text1), H(text1 | model of text2), mean, |diff|."""
        from evaluators.valla.teahan import pair_cross_entropy

        rows = []
        for a, b in zip(text1, text2, strict=True):
            d1 = pair_cross_entropy(a, b, self.config.order, self.config.alph_size)
            d2 = pair_cross_entropy(b, a, self.config.order, self.config.alph_size)
            rows.append([d1, d2, 0.5 * (d1 + d2), abs(d1 - d2)])
        return np.asarray(rows, dtype=np.float64).reshape(-1, 4)

    def fit(self, text1: Sequence[str], text2: Sequence[str], labels: Sequence[int]) -> PPMAV:
        if self.config.coder != "teahan":
            return self  # PPMd saving: nothing to learn
        if len(set(labels)) < 2:
            raise StylebenchError("PPM_V needs same- and different-author training pairs")
        from sklearn.linear_model import LogisticRegression

        cut = [t[:50_000] for t in text1], [t[:50_000] for t in text2]
        self.model = LogisticRegression().fit(self.features(*cut), list(labels))
        return self

    def score(self, text1: Sequence[str], text2: Sequence[str]) -> np.ndarray:
        """Higher = same author (teahan: P(same author))."""
        if self.config.coder == "teahan":
            if self.model is None:
                raise StylebenchError("PPM_V (teahan) is not fitted: call fit on labelled pairs")
            proba = self.model.predict_proba(self.features(text1, text2))
            return proba[:, list(self.model.classes_).index(1)]
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
