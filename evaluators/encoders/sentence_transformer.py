"""Sentence-transformers adapter (``st:<model>``, a bare hub id or path, ``minilm``).

The model's own modules (pooling, normalisation) produce the vector; we only batch
(sentence-transformers' own batches by default, or ``token_budget`` padded tokens), run
under ``torch.inference_mode`` and return float32: the loop of
:class:`~evaluators.encoders.hf_pooling.FastEncodeMixin`, which gives
``SentenceTransformer.encode``'s vectors bit for bit for the same batches while
tokenising the next batch during this one's forward, and runs the ``onnx`` / ``openvino``
backends and the fp16/bf16/int8 precisions (:mod:`evaluators.encoders.backends`). ``max_tokens`` is the model's
``max_seq_length`` (which counts special tokens), capped at ``max_length`` (default
512); the cap is written back to ``max_seq_length`` so truncation and chunk-and-pool
agree. ``trust_remote_code`` is never enabled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder
from evaluators.encoders.hf_pooling import (
    DEFAULT_MAX_LENGTH,
    FastEncodeMixin,
    TokenizerMixin,
    _one_line,
    choose_device,
    local_fingerprint,
    model_limit,
    resolve_model,
)


class SentenceTransformerEncoder(FastEncodeMixin, TokenizerMixin, BaseEncoder):
    """Wrap ``sentence_transformers.SentenceTransformer`` as a stylebench encoder."""

    pooling = "sentence-transformers"

    def __init__(
        self,
        model_name_or_path: str,
        *,
        device: str | None = None,
        batch_size: int = 32,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        revision: str | None = None,
        backend: str | None = None,
        precision: str | None = None,
        token_budget: int | str | None = None,
        strict: bool = False,
    ) -> None:
        try:
            import torch  # noqa: F401
            from sentence_transformers import SentenceTransformer
        except ImportError as error:
            raise StylebenchError(
                f"sentence-transformers encoders need torch and sentence-transformers "
                f"({_one_line(error)}); `pip install 'stylebench[models]'`"
            ) from None
        self.resolved = resolve_model(model_name_or_path, revision=revision)
        if self.resolved.gguf_file:
            raise StylebenchError("GGUF files are loaded with `causal:<dir>::<file.gguf>`")
        self.name = self.resolved.model_id
        self.device = choose_device(device)
        self.batch_size = int(batch_size)
        kwargs: dict[str, Any] = {"device": self.device, "trust_remote_code": False}
        if self.resolved.revision and self.resolved.path is None:
            kwargs["revision"] = self.resolved.revision
        try:
            self.model = SentenceTransformer(self.resolved.load_target, **kwargs)
        except (OSError, ValueError, KeyError, RuntimeError) as error:
            raise StylebenchError(
                f"cannot load {model_name_or_path!r}: {_one_line(error)}"
            ) from None
        self.model.eval()
        self.tokenizer = self.model.tokenizer
        if not getattr(self.tokenizer, "is_fast", False):
            raise StylebenchError(
                f"{model_name_or_path!r} has no fast tokenizer (needed for token counting)"
            )
        limit = self.model.max_seq_length or model_limit(self.tokenizer, None)
        caps = [value for value in (limit, max_length) if value]
        self.max_tokens = min(caps) if caps else None
        if self.max_tokens is not None:
            self.model.max_seq_length = self.max_tokens
        card = getattr(self.model, "model_card_data", None)
        transformer = self.model[0]
        auto_model = getattr(transformer, "auto_model", None) or getattr(transformer, "model", None)
        self.commit_hash = (
            getattr(getattr(auto_model, "config", None), "_commit_hash", None)
            or getattr(card, "base_model_revision", None)
            or self.resolved.revision
        )
        self.fingerprint = local_fingerprint(self.resolved.path)
        self._setup_fast_path(
            self.identity(),
            backend=backend,
            precision=precision,
            token_budget=token_budget,
            strict=strict,
        )

    @property
    def dim(self) -> int:
        getter = getattr(self.model, "get_embedding_dimension", None) or (
            self.model.get_sentence_embedding_dimension
        )
        return int(getter())

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "sentence-transformers",
            "model": self.resolved.model_id,
            "path": str(self.resolved.path) if self.resolved.path else None,
            "revision": self.commit_hash,
            "fingerprint": self.fingerprint,
            "pooling": "model",
            "max_tokens": self.max_tokens,
            "chunk": False,
        } | self.backend_identity()

    def _model_config(self) -> Any:
        transformer = self.model[0]
        auto_model = getattr(transformer, "auto_model", None) or getattr(transformer, "model", None)
        return getattr(auto_model, "config", None)

    def _count_groups(self, texts: Sequence[str]) -> list[list[int]]:
        """The batches of sentence-transformers' ``encode``: inputs ordered by
        ``np.argsort`` of their negated character length, cut every ``batch_size`` (a
        test checks this against the installed sentence-transformers)."""
        order = np.argsort([-len(text) for text in texts])
        return [
            [int(i) for i in order[start : start + self.batch_size]]
            for start in range(0, len(order), self.batch_size)
        ]

    def _prepare(self, texts: list[str]) -> dict[str, Any]:
        # the model's default prompt, as SentenceTransformer.encode applies it
        name = getattr(self.model, "default_prompt_name", None)
        prompt = (getattr(self.model, "prompts", None) or {}).get(name) if name else None
        return dict(self.model.preprocess(texts, prompt=prompt))

    def _torch_forward(self, features: dict[str, Any]) -> Any:
        vectors = self.model(features)["sentence_embedding"]
        keep = getattr(self.model, "truncate_dim", None)  # as encode's truncate_dim
        return vectors[..., :keep] if keep else vectors

    def encode(self, texts: list[str]) -> np.ndarray:
        self.model.eval()  # as SentenceTransformer.encode (a model in training, too)
        return super().encode(texts)
