"""LUAR (``luar:<model>``; bare ``rrivera1849/LUAR-MUD`` or ``-CRUD``): authorship embeddings that read a
whole episode (several texts of one author) at once.

How the STEB authors' code runs it (``steb/models/luar_model.py``, facts only):

- ``AutoModel`` / ``AutoTokenizer`` with ``trust_remote_code=True``: the architecture
  lives in the model repository's own Python files (``rrivera1849/LUAR-MUD``,
  ``rrivera1849/LUAR-CRUD``), so remote code is enabled here, for this adapter only,
  and only ever for a local folder or the local Hugging Face cache (nothing is
  downloaded at run time; see :func:`~evaluators.encoders.hf_pooling.resolve_model`).
- Each text is tokenised with ``max_length=512``, ``truncation=True`` and
  ``padding="max_length"``; ``input_ids`` and ``attention_mask`` are reshaped to
  ``(episodes, texts per episode, 512)`` and the model returns one vector per episode.
  No chunk-and-pool: LUAR truncates at 512 tokens, so this encoder has no ``max_tokens``
  and ``get_encoder(..., chunk=True)`` leaves it as it is.
- A single text is an episode of one (``embed_single``).

Episodes of a batch must have the same size (the authors reshape by the first one's);
we group episodes by size, so mixed sizes are fine. ``padding="longest"`` is offered
for speed (masked positions do not change the vectors beyond float noise; tested on a
tiny LUAR-shaped model) and recorded in the identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, as_embedding_matrix
from evaluators.encoders.hf_pooling import (
    TokenizerMixin,
    _one_line,
    choose_device,
    local_fingerprint,
    resolve_local,
)

LUAR_MAX_LENGTH = 512
"""Tokens per text (the authors' fixed ``max_length``)."""


class LUAREncoder(TokenizerMixin, BaseEncoder):
    """LUAR with episode input ``(episodes, texts per episode, tokens)``."""

    episode_pooling = "model"

    def __init__(
        self,
        model_name_or_path: str,
        *,
        device: str | None = None,
        batch_size: int = 32,
        max_length: int = LUAR_MAX_LENGTH,
        padding: str = "max_length",
        revision: str | None = None,
    ) -> None:
        try:
            import torch  # noqa: F401
            from transformers import AutoModel, AutoTokenizer
        except ImportError as error:
            raise StylebenchError(
                f"LUAR needs torch and transformers ({_one_line(error)}); "
                "`pip install 'stylebench[models]'`"
            ) from None
        if padding not in {"max_length", "longest"}:
            raise StylebenchError(f"padding must be 'max_length' or 'longest', not {padding!r}")
        if max_length < 2:
            raise StylebenchError(f"max_length must be >= 2, not {max_length}")
        self.resolved = resolve_local(model_name_or_path, "LUAR", "luar", revision=revision)
        self.name = self.resolved.model_id
        self.device = choose_device(device)
        self.batch_size = int(batch_size)
        self.truncate_at = int(max_length)
        self.padding = padding
        target = str(self.resolved.path)
        try:  # the architecture is the repository's own code (as the authors load it)
            self.tokenizer = AutoTokenizer.from_pretrained(target, trust_remote_code=True)
            self.model = AutoModel.from_pretrained(target, trust_remote_code=True)
        except (OSError, ValueError, KeyError, RuntimeError, ImportError) as error:
            raise StylebenchError(
                f"cannot load LUAR model {model_name_or_path!r}: {_one_line(error)}"
            ) from None
        self.model.to(self.device).eval()
        self.commit_hash = (
            getattr(self.model.config, "_commit_hash", None) or self.resolved.revision
        )
        self.fingerprint = local_fingerprint(self.resolved.path)
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self._dim = int(self.encode_episodes([["."]]).shape[1])
        return self._dim

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "luar",
            "model": self.resolved.model_id,
            "path": str(self.resolved.path),
            "revision": self.commit_hash,
            "fingerprint": self.fingerprint,
            "pooling": "model (episode input)",
            "trust_remote_code": True,
            "truncation": self.truncate_at,
            "padding": self.padding,
            "max_tokens": None,
            "chunk": False,
        }

    def encode(self, texts: list[str]) -> np.ndarray:
        return self.encode_episodes([[text] for text in texts])

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        import torch

        episodes = [list(episode) for episode in episodes]
        if not episodes:
            return np.zeros((0, self.dim), dtype=np.float32)
        if any(not episode for episode in episodes):
            raise StylebenchError("LUAR: every episode needs at least one text")
        by_size: dict[int, list[int]] = {}
        for index, episode in enumerate(episodes):
            by_size.setdefault(len(episode), []).append(index)
        output: np.ndarray | None = None
        with torch.inference_mode():
            for size, indices in by_size.items():
                for start in range(0, len(indices), self.batch_size):
                    batch = indices[start : start + self.batch_size]
                    vectors = self._forward([episodes[i] for i in batch], size)
                    if output is None:
                        output = np.zeros((len(episodes), vectors.shape[1]), dtype=np.float32)
                        self._dim = vectors.shape[1]
                    output[batch] = vectors
        assert output is not None
        return output

    def _forward(self, batch: list[list[str]], size: int) -> np.ndarray:
        import torch

        texts = [text for episode in batch for text in episode]
        encoded = self.tokenizer(
            texts,
            max_length=self.truncate_at,
            truncation=True,
            padding=self.padding,
            return_tensors="pt",
        )
        length = encoded["input_ids"].shape[1]
        input_ids = encoded["input_ids"].reshape(len(batch), size, length).to(self.device)
        mask = encoded["attention_mask"].reshape(len(batch), size, length).to(self.device)
        result = self.model(input_ids=input_ids, attention_mask=mask)
        if not isinstance(result, torch.Tensor):  # a tuple or ModelOutput: first field
            result = result[0]
        return as_embedding_matrix(result.float().cpu().numpy(), len(batch), self.name)
