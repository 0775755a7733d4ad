"""Neurobiber (``neurobiber``, ``neurobiber:<model>``): 96 Biber-feature probabilities.

Neurobiber (Alkiek et al., 2025; Hub ``Blablablab/neurobiber``) is a RoBERTa sequence
classifier with one sigmoid output per Biber feature. How the STEB authors' code turns
it into a vector (``steb/models/neurobiber_model.py``, facts only), which we follow:

- a text is split into chunks of 512 whitespace words (``text.split()``, re-joined with
  single spaces); each chunk is tokenised with truncation at 512 tokens;
- a chunk's vector is ``sigmoid(logits)``; a text's vector is the element-wise MAX over
  its chunks (the model card's inference rule), an empty text's is all zeros;
- an episode is its texts joined with one space, then treated as one text;
- on CUDA the forward runs under ``torch.autocast("cuda")`` (recorded in the identity).

It chunks by words itself, so it has no ``max_tokens`` and ``chunk=True`` leaves it as it
is. Chunks are batched longest first (less padding; padded positions are masked).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, length_sorted_batches
from evaluators.encoders.hf_pooling import (
    _one_line,
    choose_device,
    local_fingerprint,
    resolve_local,
)
from evaluators.encoders.model_ids import NEUROBIBER_ID

CHUNK_WORDS = 512
MAX_LENGTH = 512


def word_chunks(text: str, size: int = CHUNK_WORDS) -> list[str]:
    """``text`` as chunks of ``size`` whitespace words; no chunk for a blank text."""
    words = text.split()
    return [" ".join(words[i : i + size]) for i in range(0, len(words), size)]


class NeurobiberEncoder(BaseEncoder):
    """Max over 512-word chunks of the per-feature sigmoid probabilities."""

    episode_pooling = "model"

    def __init__(
        self,
        model_name_or_path: str = NEUROBIBER_ID,
        *,
        device: str | None = None,
        batch_size: int = 32,
        chunk_words: int = CHUNK_WORDS,
        max_length: int = MAX_LENGTH,
        revision: str | None = None,
    ) -> None:
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as error:
            raise StylebenchError(
                f"neurobiber needs torch and transformers ({_one_line(error)}); "
                "`pip install 'stylebench[models]'`"
            ) from None
        if chunk_words < 1 or max_length < 2:
            raise StylebenchError("chunk_words must be >= 1 and max_length >= 2")
        self.resolved = resolve_local(
            model_name_or_path, "Neurobiber", "neurobiber", revision=revision
        )
        self.name = self.resolved.model_id
        self.device = choose_device(device)
        self.batch_size = int(batch_size)
        self.chunk_words = int(chunk_words)
        self.max_length = int(max_length)
        target = str(self.resolved.path)
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(target, use_fast=True)
            self.model = AutoModelForSequenceClassification.from_pretrained(target)
        except (OSError, ValueError, KeyError, RuntimeError) as error:
            raise StylebenchError(
                f"cannot load Neurobiber model {model_name_or_path!r}: {_one_line(error)}"
            ) from None
        self.model.to(self.device).eval()
        self.dim = int(self.model.config.num_labels)
        self.autocast = str(self.device).startswith("cuda")
        self.commit_hash = (
            getattr(self.model.config, "_commit_hash", None) or self.resolved.revision
        )
        self.fingerprint = local_fingerprint(self.resolved.path)

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "neurobiber",
            "model": self.resolved.model_id,
            "path": str(self.resolved.path),
            "revision": self.commit_hash,
            "fingerprint": self.fingerprint,
            "pooling": "max over word chunks of sigmoid(logits)",
            "chunk_words": self.chunk_words,
            "truncation": self.max_length,
            "autocast": self.autocast,
            "max_tokens": None,
            "chunk": False,
        }

    def encode(self, texts: list[str]) -> np.ndarray:
        import torch

        texts = list(texts)
        output = np.zeros((len(texts), self.dim), dtype=np.float32)
        chunks: list[str] = []
        owners: list[int] = []
        for row, text in enumerate(texts):
            pieces = word_chunks(text, self.chunk_words)
            chunks += pieces
            owners += [row] * len(pieces)
        if not chunks:
            return output
        probabilities = np.zeros((len(chunks), self.dim), dtype=np.float32)
        with torch.inference_mode():
            for batch in length_sorted_batches(chunks, self.batch_size):
                encoded = self.tokenizer(
                    [chunks[i] for i in batch],
                    padding=True,
                    truncation=True,
                    max_length=self.max_length,
                    return_tensors="pt",
                ).to(self.device)
                if self.autocast:
                    with torch.autocast("cuda"):
                        logits = self.model(**encoded).logits
                else:
                    logits = self.model(**encoded).logits
                probabilities[batch] = torch.sigmoid(logits).float().cpu().numpy()
        filled = np.zeros(len(texts), dtype=bool)
        for index, row in enumerate(owners):
            if filled[row]:
                np.maximum(output[row], probabilities[index], out=output[row])
            else:
                output[row] = probabilities[index]
                filled[row] = True
        return output

    def encode_episodes(self, episodes: Sequence[Sequence[str]]) -> np.ndarray:
        """An episode is its texts joined with one space (as the authors' code does)."""
        return self.encode([" ".join(episode) for episode in episodes])
