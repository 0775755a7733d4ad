"""LISA (``lisa:<folder>``): interpretable style vectors through a linear embedder.

LISA (Patel et al., 2023) is an EncT5 model: a T5 encoder stack whose hidden state at
the first position (a BOS token) goes through a linear head to 768 style-attribute
scores, which a learned linear embedder projects to the style embedding. How the STEB
authors' code runs a LISA checkpoint (``steb/models/lisa_model.py`` and
``lisa_helpers/``, facts only), which we follow:

- a LISA folder holds ``config.json`` (a T5 config), the weights
  (``pytorch_model.bin`` or ``model.safetensors``: ``shared``, ``encoder.*`` and
  ``classifier.weight``/``classifier.bias``) and ``linear_embedder.ckpt`` (its
  ``state_dict`` has ``embedder`` (used as is) or ``embedder.weight`` (transposed));
  the authors route any path with ``linear_embedder.ckpt`` to LISA;
- the tokenizer is ``t5-base``'s; each text (or chunk) is tokenised with truncation at
  ``512 - 1`` tokens and the BOS id 32100 is prepended (the fast T5 tokenizer only
  appends ``</s>``), so 512 tokens in all;
- vector = ``clamp(classifier(h[:, 0]), 0, 1) @ embedder`` (element-wise product when
  the embedder is a vector); no sigmoid, no normalisation (dropout is off in eval);
- long texts are chunked (sentence-aware, 512 tokens) and chunk vectors mean-pooled, then
  an episode is the mean of its texts: here ``max_tokens = 512`` with 2 special tokens,
  so ``get_encoder(..., chunk=True)`` wraps it in :class:`ChunkAndPool`.

The T5 encoder is transformers' ``T5EncoderModel`` (same parameter names as EncT5's
``shared`` + ``encoder``); the head is a ``torch.nn.Linear``; weights are loaded
strictly (only the tied ``encoder.embed_tokens.weight`` may be absent).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, length_sorted_batches
from evaluators.encoders.hf_pooling import (
    TokenizerMixin,
    _one_line,
    choose_device,
    local_fingerprint,
    resolve_model,
)

LISA_EMBEDDER_FILE = "linear_embedder.ckpt"
LISA_MAX_LENGTH = 512
LISA_NUM_LABELS = 768
LISA_BOS_TOKEN_ID = 32100
LISA_TOKENIZER = "t5-base"


def is_lisa_folder(path: str | Path) -> bool:
    """A LISA checkpoint folder: it has ``linear_embedder.ckpt`` (the authors' test)."""
    return (Path(path).expanduser() / LISA_EMBEDDER_FILE).is_file()


def _load_state_dict(folder: Path) -> dict[str, Any]:
    import torch

    safetensors = folder / "model.safetensors"
    if safetensors.is_file():
        from safetensors.torch import load_file

        return dict(load_file(str(safetensors)))
    binary = folder / "pytorch_model.bin"
    if binary.is_file():
        return dict(torch.load(binary, map_location="cpu", weights_only=True))
    raise StylebenchError(f"LISA folder {folder} has no model.safetensors or pytorch_model.bin")


def _load_embedder(file: Path) -> Any:
    import torch

    try:
        checkpoint = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as error:  # pickled objects other than tensors and containers
        raise StylebenchError(
            f"cannot read {file} as a weights-only checkpoint: {_one_line(error, 160)}"
        ) from None
    state = checkpoint.get("state_dict", checkpoint) if isinstance(checkpoint, dict) else None
    if not isinstance(state, dict):
        raise StylebenchError(f"{file}: expected a checkpoint with a state_dict")
    if "embedder" in state:
        return state["embedder"]
    if "embedder.weight" in state:
        return state["embedder.weight"].T
    raise StylebenchError(
        f"{file}: state_dict has neither 'embedder' nor 'embedder.weight' "
        f"(keys: {', '.join(sorted(state)[:8])})"
    )


class LISAEncoder(TokenizerMixin, BaseEncoder):
    """EncT5 BOS state -> 768 clamped scores -> linear embedder."""

    def __init__(
        self,
        model_path: str,
        *,
        device: str | None = None,
        batch_size: int = 32,
        tokenizer: str = LISA_TOKENIZER,
        bos_token_id: int = LISA_BOS_TOKEN_ID,
        max_length: int = LISA_MAX_LENGTH,
    ) -> None:
        try:
            import torch
            from transformers import AutoTokenizer, T5Config, T5EncoderModel
        except ImportError as error:
            raise StylebenchError(
                f"LISA needs torch and transformers ({_one_line(error)}); "
                "`pip install 'stylebench[models]'`"
            ) from None
        self.resolved = resolve_model(model_path)
        folder = self.resolved.path
        if folder is None or not is_lisa_folder(folder):
            raise StylebenchError(
                f"{model_path!r} is not a LISA folder (config.json, weights and "
                f"{LISA_EMBEDDER_FILE}); download the checkpoint and pass its folder"
            )
        if max_length < 3:
            raise StylebenchError(f"max_length must be >= 3, not {max_length}")
        self.name = self.resolved.model_id
        self.device = choose_device(device)
        self.batch_size = int(batch_size)
        self.bos_token_id = int(bos_token_id)
        self.max_tokens = int(max_length)
        try:
            self.tokenizer_resolved = resolve_model(tokenizer)
            self.tokenizer = AutoTokenizer.from_pretrained(self.tokenizer_resolved.load_target)
        except (StylebenchError, OSError, ValueError, KeyError) as error:
            raise StylebenchError(
                f"cannot load the LISA tokenizer {tokenizer!r} (the authors use t5-base; "
                f"`huggingface-cli download t5-base`): {_one_line(error)}"
            ) from None
        config = T5Config.from_pretrained(str(folder))
        if self.bos_token_id >= config.vocab_size:
            raise StylebenchError(
                f"bos_token_id {self.bos_token_id} is outside the vocabulary ({config.vocab_size})"
            )
        state = _load_state_dict(folder)
        head = {key[len("classifier.") :]: state.pop(key) for key in list(state)
                if key.startswith("classifier.")}  # fmt: skip
        if set(head) != {"weight", "bias"}:
            raise StylebenchError(f"LISA weights in {folder} lack classifier.weight/bias")
        self.encoder = T5EncoderModel(config)
        missing, unexpected = self.encoder.load_state_dict(state, strict=False)
        missing = [key for key in missing if key != "encoder.embed_tokens.weight"]
        if missing or unexpected:
            raise StylebenchError(
                f"LISA weights in {folder} do not fit a T5 encoder: missing {missing[:4]}, "
                f"unexpected {unexpected[:4]}"
            )
        self.head = torch.nn.Linear(head["weight"].shape[1], head["weight"].shape[0])
        self.head.load_state_dict(head)
        self.embedder = _load_embedder(folder / LISA_EMBEDDER_FILE).float()
        n_scores = head["weight"].shape[0]
        if self.embedder.shape[0] != n_scores:
            raise StylebenchError(
                f"{LISA_EMBEDDER_FILE} has {self.embedder.shape[0]} rows, the head "
                f"{n_scores} outputs"
            )
        self.dim = int(self.embedder.shape[1]) if self.embedder.ndim == 2 else n_scores
        self.encoder.to(self.device).eval()
        self.head.to(self.device).eval()
        self.embedder = self.embedder.to(self.device)
        self.fingerprint = local_fingerprint(folder)

    @property
    def num_special_tokens(self) -> int:  # the tokenizer's own (</s>) plus our BOS
        return int(self.tokenizer.num_special_tokens_to_add(pair=False)) + 1

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "lisa",
            "model": self.resolved.model_id,
            "path": str(self.resolved.path),
            "fingerprint": self.fingerprint,
            "tokenizer": self.tokenizer_resolved.model_id,
            "tokenizer_fingerprint": local_fingerprint(self.tokenizer_resolved.path),
            "bos_token_id": self.bos_token_id,
            "pooling": "bos-token -> clamp(head, 0, 1) -> linear embedder",
            "max_tokens": self.max_tokens,
            "chunk": False,
        }

    def scores(self, texts: list[str]) -> np.ndarray:
        """The 768 clamped style-attribute scores of each text (before the embedder)."""
        return self._run(texts, project=False)

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._run(texts, project=True)

    def _run(self, texts: list[str], *, project: bool) -> np.ndarray:
        import torch

        texts = list(texts)
        width = self.dim if project else int(self.head.out_features)
        output = np.zeros((len(texts), width), dtype=np.float32)
        with torch.inference_mode():
            for batch in length_sorted_batches(texts, self.batch_size):
                encoded = self.tokenizer(
                    [texts[i] for i in batch],
                    truncation=True,
                    max_length=self.max_tokens - 1,  # room for the BOS we prepend
                    padding=True,
                    return_tensors="pt",
                )
                ids, mask = encoded["input_ids"], encoded["attention_mask"]
                bos = torch.full((ids.shape[0], 1), self.bos_token_id, dtype=ids.dtype)
                ids = torch.cat([bos, ids], dim=1).to(self.device)
                mask = torch.cat([torch.ones_like(bos), mask], dim=1).to(self.device)
                hidden = self.encoder(input_ids=ids, attention_mask=mask).last_hidden_state
                scores = torch.clamp(self.head(hidden[:, 0, :]), min=0.0, max=1.0)
                if project:
                    if self.embedder.ndim == 2:
                        scores = scores @ self.embedder
                    else:
                        scores = scores * self.embedder
                output[batch] = scores.float().cpu().numpy()
        return output
