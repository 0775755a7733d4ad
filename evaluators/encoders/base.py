"""The encoder protocol every model adapter satisfies.

An encoder is anything with ``encode(list[str]) -> np.ndarray`` of shape ``(n, d)``
(float32); a ``SentenceTransformer`` already is one. Adapters in this package add an
``identity()`` used to key the embedding cache: two encoders with the same identity
must produce the same vectors for the same text.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Encoder(Protocol):
    """Structural type: ``encode(texts) -> (n, d) float32 array``."""

    def encode(self, texts: list[str]) -> np.ndarray: ...


class BaseEncoder(ABC):
    """Base class for stylebench's adapters.

    Subclasses set ``name`` and implement :meth:`encode` and :meth:`identity`.
    ``max_tokens`` is the model's context length in tokens (``None`` when the model
    has no limit, e.g. count-based baselines); ``count_tokens`` is used by the
    chunk-and-pool wrapper.
    """

    name: str = "encoder"
    max_tokens: int | None = None

    @abstractmethod
    def encode(self, texts: list[str]) -> np.ndarray:
        """Embed ``texts`` into an ``(len(texts), d)`` float32 array."""

    @abstractmethod
    def identity(self) -> dict[str, Any]:
        """JSON-serialisable description that determines the vectors (model id,
        revision, pooling, max length, fitted-state hash, ...)."""

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Number of model tokens of each text (without special tokens)."""
        raise NotImplementedError(f"{self.name} does not count tokens")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def encoder_identity(encoder: Encoder) -> dict[str, Any]:
    """Identity of any encoder: its ``identity()`` if it has one, else its class
    and, for a SentenceTransformer, the model path."""
    identity = getattr(encoder, "identity", None)
    if callable(identity):
        return dict(identity())
    info: dict[str, Any] = {"class": f"{type(encoder).__module__}.{type(encoder).__qualname__}"}
    for attribute in ("model_card_data", "name_or_path", "model_name"):
        value = getattr(encoder, attribute, None)
        if isinstance(value, str):
            info[attribute] = value
    return info


def identity_key(identity: dict[str, Any]) -> str:
    """Stable short hash of an identity dict (cache directory name)."""
    blob = json.dumps(identity, sort_keys=True, default=str).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()[:20]


def as_embedding_matrix(vectors: Any, n_texts: int, who: str) -> np.ndarray:
    """Validate an encoder's output: 2-D, one row per text, finite, float32."""
    array = np.asarray(vectors)
    if array.ndim != 2 or array.shape[0] != n_texts:
        raise ValueError(
            f"{who} returned shape {array.shape} for {n_texts} texts; expected ({n_texts}, d)"
        )
    array = array.astype(np.float32, copy=False)
    if not np.isfinite(array).all():
        bad = int(np.flatnonzero(~np.isfinite(array).all(axis=1))[0])
        raise ValueError(f"{who} returned a non-finite vector for text #{bad}")
    return array
