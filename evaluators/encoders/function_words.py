"""Function-word frequencies (STEB §4.1, "Function word frequencies").

Each text becomes a vector with one entry per function word or phrase of the
vocabulary: its number of occurrences divided by the text's token count. The
protocol follows the STEB repository (per the protocol notes):

- tokens are the lower-cased runs of word characters (regex ``\\b\\w+\\b``), so
  "don't" is the two tokens "don", "t";
- vocabulary entries are tokenised the same way; an entry of one token is a word, an
  entry of several is a phrase matched as a whole-word token sequence (up to any
  length; the bundled list goes up to 4), case-insensitive;
- counts overlap as n-gram counts do: "in front of" also counts "in" and "of";
- frequency = count / max(1, number of tokens); no other normalisation.

The default vocabulary is the STEB authors' list, ``resources/steb_function_words.json``
(390 words and 69 phrases from their repository, used as data), matched as their
scikit-learn ``CountVectorizer`` matches it: an entry counts when its lower-cased text
equals a space-joined run of tokens, so entries with punctuation ("and/or", "e.g.",
"tho'") never match and stay zero columns, and "I"/"i" are one feature (458 in all).
``resources/function_words.txt`` (compiled for stylebench: ~430 words and ~180 phrases
including contractions, whose entries are tokenised like the texts, so "don't" matches
"don t") is available as ``FunctionWordEncoder(vocabulary=RESOURCE)``; a custom
vocabulary may be passed as a list of strings (tokenised like the texts) or a file.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.encoders.base import BaseEncoder, JoinedEpisodes

RESOURCE = Path(__file__).resolve().parent / "resources" / "function_words.txt"
STEB_RESOURCE = Path(__file__).resolve().parent / "resources" / "steb_function_words.json"
TOKEN = re.compile(r"\b\w+\b")


def tokenize(text: str) -> list[str]:
    """Lower-cased ``\\b\\w+\\b`` tokens (the unit of counts and of the normaliser)."""
    return TOKEN.findall(text.lower())


def read_vocabulary(path: str | Path = RESOURCE) -> list[str]:
    """Entries of a vocabulary file: one per line, ``#`` comments and blanks skipped."""
    entries = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            entries.append(line)
    return entries


def read_steb_vocabulary(path: str | Path = STEB_RESOURCE) -> list[str]:
    """The STEB list: its words, then its phrases (as their vocabulary builder orders them)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return [*data["words"], *data["phrases"]]


def _exact_key(entry: str) -> tuple[str, ...] | None:
    """STEB's matching rule for one entry: the lower-cased entry's space-separated words,
    or None when that is not a run of tokens (the entry can never match)."""
    lowered = entry.lower()
    return tuple(lowered.split(" ")) if " ".join(tokenize(lowered)) == lowered else None


class FunctionWordEncoder(JoinedEpisodes, BaseEncoder):
    """Relative frequencies of function words and phrases (dimension = vocabulary size).
    An episode is counted as its texts joined by one space (the STEB authors'
    ``FunctionWordFreqModel.embed_multiple``), not as the mean of per-text frequencies."""

    name = "function-words"

    def __init__(self, vocabulary: Iterable[str] | str | Path | None = None) -> None:
        exact = vocabulary is None or (
            isinstance(vocabulary, (str, Path)) and str(vocabulary).endswith(".json")
        )
        if vocabulary is None:
            entries = read_steb_vocabulary()
        elif isinstance(vocabulary, (str, Path)):
            path = Path(vocabulary)
            entries = read_steb_vocabulary(path) if exact else read_vocabulary(path)
        else:
            entries = list(vocabulary)
        self.features: list[tuple[str, ...]] = []
        seen: set[object] = set()
        for entry in entries:
            if exact:  # STEB: one column per distinct lower-cased entry, matchable or not
                if entry.lower() in seen or not entry.strip():
                    continue
                seen.add(entry.lower())
                key = _exact_key(entry)
                # an unmatchable entry keeps its column (always 0) under its own text
                self.features.append(key if key is not None else ("\0" + entry.lower(),))
                continue
            key = tuple(tokenize(entry))
            if key and key not in seen:
                seen.add(key)
                self.features.append(key)
        if not self.features:
            raise DataError("function-word vocabulary is empty")
        self._index = {key: i for i, key in enumerate(self.features)}
        self._lengths = sorted({len(key) for key in self.features if len(key) > 1})
        self._words = {key[0]: i for key, i in self._index.items() if len(key) == 1}
        digest = hashlib.sha256("\n".join(" ".join(k) for k in self.features).encode())
        self.vocabulary_hash = digest.hexdigest()[:16]

    @property
    def feature_names(self) -> list[str]:
        """The features in vector order (phrases as space-separated tokens; an entry that
        can never match, under STEB's rule, as its own text)."""
        return [key[0][1:] if key[0].startswith("\0") else " ".join(key) for key in self.features]

    @property
    def dim(self) -> int:
        return len(self.features)

    def identity(self) -> dict[str, Any]:
        return {
            "kind": "function-words",
            "vocabulary_hash": self.vocabulary_hash,
            "dim": self.dim,
            "tokenizer": TOKEN.pattern,
            "normalisation": "count/tokens",
        }

    def counts(self, text: str) -> tuple[np.ndarray, int]:
        """Raw counts of every feature in ``text`` and its token count."""
        tokens = tokenize(text)
        vector = np.zeros(self.dim, dtype=np.float64)
        for word, count in Counter(tokens).items():
            index = self._words.get(word)
            if index is not None:
                vector[index] += count
        for length in self._lengths:
            grams = Counter(zip(*(tokens[i:] for i in range(length)), strict=False))
            for gram, count in grams.items():
                index = self._index.get(gram)
                if index is not None:
                    vector[index] += count
        return vector, len(tokens)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        output = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            vector, n_tokens = self.counts(text)
            output[row] = vector / max(1, n_tokens)
        return output
