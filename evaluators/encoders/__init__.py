"""Encoders: adapters that turn texts into vectors, and the table that names them.

Where things live (this file only re-exports them, lazily, so importing the package
imports no torch, transformers, sentence-transformers or spaCy):

- :mod:`.base`: the ``Encoder`` protocol, ``BaseEncoder``, identities, episodes;
- :mod:`.table`: every built-in name and spec prefix (``BUILTIN_ENCODERS``,
  ``PREFIXES``) and :func:`list_encoders`; :mod:`.availability`: whether each runs here;
- :mod:`.routing`: :func:`get_encoder` (spec -> encoder; the spec list is its module
  docstring) and the STEB routing of bare model paths;
- one module per adapter: :mod:`.hf_pooling` (mean / last-token), :mod:`.sentence_transformer`,
  :mod:`.luar`, :mod:`.lisa`, :mod:`.neurobiber`, :mod:`.random_baseline`, :mod:`.tfidf`,
  :mod:`.function_words`, :mod:`.stylometric`, :mod:`.served`; wrappers
  :mod:`.chunking` (chunk-and-pool) and :mod:`.multi_device`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "BUILTIN_ENCODERS": "table",
    "PREFIXES": "table",
    "list_encoders": "table",
    "get_encoder": "routing",
    "steb_route": "routing",
    "BaseEncoder": "base",
    "Encoder": "base",
    "as_embedding_matrix": "base",
    "embed_episodes": "base",
    "encoder_identity": "base",
    "identity_key": "base",
    "ChunkAndPool": "chunking",
    "split_sentences": "chunking",
    "RandomEncoder": "random_baseline",
    "FunctionWordEncoder": "function_words",
    "StylometricEncoder": "stylometric",
    "TfidfNgramEncoder": "tfidf",
    "HFMeanPoolingEncoder": "hf_pooling",
    "CausalLastTokenEncoder": "hf_pooling",
    "SentenceTransformerEncoder": "sentence_transformer",
    "LUAREncoder": "luar",
    "LISAEncoder": "lisa",
    "NeurobiberEncoder": "neurobiber",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))


if TYPE_CHECKING:  # for type checkers and IDEs; never executed
    from evaluators.encoders.base import (  # noqa: F401
        BaseEncoder,
        Encoder,
        as_embedding_matrix,
        embed_episodes,
        encoder_identity,
        identity_key,
    )
    from evaluators.encoders.chunking import ChunkAndPool, split_sentences  # noqa: F401
    from evaluators.encoders.function_words import FunctionWordEncoder  # noqa: F401
    from evaluators.encoders.hf_pooling import (  # noqa: F401
        CausalLastTokenEncoder,
        HFMeanPoolingEncoder,
    )
    from evaluators.encoders.lisa import LISAEncoder  # noqa: F401
    from evaluators.encoders.luar import LUAREncoder  # noqa: F401
    from evaluators.encoders.neurobiber import NeurobiberEncoder  # noqa: F401
    from evaluators.encoders.random_baseline import RandomEncoder  # noqa: F401
    from evaluators.encoders.routing import get_encoder, steb_route  # noqa: F401
    from evaluators.encoders.sentence_transformer import SentenceTransformerEncoder  # noqa: F401
    from evaluators.encoders.stylometric import StylometricEncoder  # noqa: F401
    from evaluators.encoders.table import BUILTIN_ENCODERS, PREFIXES, list_encoders  # noqa: F401
    from evaluators.encoders.tfidf import TfidfNgramEncoder  # noqa: F401
