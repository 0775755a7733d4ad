"""TF-IDF-weighted n-grams (STEB §4.1 and Appendix D).

Three scikit-learn ``TfidfVectorizer`` blocks, fitted on a reference corpus the user
chooses (:meth:`TfidfNgramEncoder.fit`; STEB fits a 10B-token FineWeb sample and
reports that Reddit or the Corpus of Diverse Styles do about as well):

============  ==========================================  ===============
component     units                                       default n
============  ==========================================  ===============
``char``      characters of the raw text                  3-5
``word``      spaCy tokens, lower-cased, joined by spaces  1-2
``pos``       spaCy Universal POS tags (``token.pos_``)    1-2
============  ==========================================  ===============

Settings follow the STEB repository (protocol notes) where the paper is silent:
``max_features=2000`` per block (most frequent n-grams in the fitting corpus; ties at the
cut are broken by the term itself, see :func:`top_terms`),
``min_df=1``, ``lowercase=True``, ``norm="l2"`` per block (so each block of a row is
unit length, or zero), default ``smooth_idf``/``sublinear_tf=False``; the blocks are
concatenated into one dense float32 vector and the whole is not renormalised. Word
n-grams use scikit-learn's default token pattern on the spaCy tokens (words of two or
more word characters; punctuation dropped), as STEB does.

Deviations, each a setting:
- the paper's main model uses 1-2-grams for tokens and POS (the repository's code
  default is 1-3); we follow the paper (``word_ngrams``/``pos_ngrams`` change it);
- POS n-grams use the token pattern ``\\S+`` so the one-letter tag ``X`` is kept
  (scikit-learn's default pattern would drop it);
- ``word_tokens="regex"`` tokenises words with scikit-learn's pattern on the raw text
  instead of spaCy, so ``("char", "word")`` runs without spaCy.

Persistence: :meth:`save` writes a folder with ``vectorizers.joblib`` (the fitted
vectorizers) and ``manifest.json`` (settings, dimensions, content hash);
:meth:`load` checks the hash. The hash covers the settings and every block's
vocabulary and idf weights, and is part of :meth:`identity`, so an embedding cache
never mixes vectors of differently fitted models. Only load files you trust (joblib
unpickles).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.encoders.base import BaseEncoder, JoinedEpisodes
from evaluators.encoders.spacy_tagging import spacy_identity, tag_texts

COMPONENTS = ("char", "word", "pos")
DEFAULT_MAX_FEATURES = 2000
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
VECTORIZERS = "vectorizers.joblib"


def _pair(value: Sequence[int], what: str) -> tuple[int, int]:
    low, high = (int(v) for v in value)
    if not 1 <= low <= high:
        raise StylebenchError(f"{what} must be (low, high) with 1 <= low <= high, not {value}")
    return low, high


def top_terms(terms: Sequence[str], counts: Sequence[float], cap: int) -> list[str]:
    """The ``cap`` most frequent ``terms``, ties broken by the term (code-point order),
    returned in code-point order (the column order scikit-learn gives a vocabulary).

    Deterministic on every processor: the order is a stable sort on (-count, term).

    >>> top_terms(["b", "a", "c", "d"], [2, 1, 2, 1], 3)
    ['a', 'b', 'c']
    """
    if cap < 1:
        raise StylebenchError(f"max_features must be a positive integer or None, not {cap}")
    terms = np.asarray(terms, dtype=object)
    counts = np.asarray(counts, dtype=np.float64)
    by_term = sorted(range(len(terms)), key=terms.__getitem__)
    ordered = np.asarray(by_term, dtype=np.int64)
    keep = ordered[np.argsort(-counts[ordered], kind="stable")[:cap]]
    return sorted(str(t) for t in terms[keep])


class TfidfNgramEncoder(JoinedEpisodes, BaseEncoder):
    """Character, token and POS n-grams weighted by TF-IDF; fit, then encode."""

    name = "tfidf-ngrams"

    def __init__(
        self,
        *,
        components: Sequence[str] = COMPONENTS,
        char_ngrams: Sequence[int] = (3, 5),
        word_ngrams: Sequence[int] = (1, 2),
        pos_ngrams: Sequence[int] = (1, 2),
        max_features: int | Mapping[str, int | None] | None = DEFAULT_MAX_FEATURES,
        lowercase: bool = True,
        sublinear_tf: bool = False,
        word_tokens: str = "spacy",
        spacy_model: str | None = None,
        batch_size: int = 64,
    ) -> None:
        components = tuple(components)
        unknown = [c for c in components if c not in COMPONENTS]
        if unknown or not components or len(set(components)) != len(components):
            raise StylebenchError(
                f"components must be distinct names from {COMPONENTS}, not {components}"
            )
        if word_tokens not in {"spacy", "regex"}:
            raise StylebenchError(f"word_tokens must be 'spacy' or 'regex', not {word_tokens!r}")
        if isinstance(max_features, Mapping):
            caps = {c: max_features.get(c, DEFAULT_MAX_FEATURES) for c in components}
        else:
            caps = dict.fromkeys(components, max_features)
        self.settings: dict[str, Any] = {
            "components": list(components),
            "char_ngrams": list(_pair(char_ngrams, "char_ngrams")),
            "word_ngrams": list(_pair(word_ngrams, "word_ngrams")),
            "pos_ngrams": list(_pair(pos_ngrams, "pos_ngrams")),
            "max_features": caps,
            "lowercase": bool(lowercase),
            "sublinear_tf": bool(sublinear_tf),
            "word_tokens": word_tokens,
            "spacy_model": spacy_model,
        }
        self.batch_size = int(batch_size)
        self.vectorizers: dict[str, Any] | None = None
        self.content_hash: str | None = None
        self.fit_info: dict[str, Any] = {}

    # -- configuration ------------------------------------------------------------

    @property
    def components(self) -> tuple[str, ...]:
        return tuple(self.settings["components"])

    @property
    def needs_spacy(self) -> bool:
        return "pos" in self.components or (
            "word" in self.components and self.settings["word_tokens"] == "spacy"
        )

    @property
    def is_fitted(self) -> bool:
        return self.vectorizers is not None

    @property
    def dim(self) -> int:
        self._require_fitted()
        assert self.vectorizers is not None
        return sum(len(self.vectorizers[c].vocabulary_) for c in self.components)

    @property
    def block_dims(self) -> dict[str, int]:
        """Width of each block, in vector order."""
        self._require_fitted()
        assert self.vectorizers is not None
        return {c: len(self.vectorizers[c].vocabulary_) for c in self.components}

    def _analyzer_settings(self, component: str) -> dict[str, Any]:
        """The tokenisation settings of one block (shared by counting and weighting)."""
        common: dict[str, Any] = {"lowercase": self.settings["lowercase"]}
        if component == "char":
            return {
                "analyzer": "char",
                "ngram_range": tuple(self.settings["char_ngrams"]),
                **common,
            }
        if component == "word":
            return {
                "analyzer": "word",
                "ngram_range": tuple(self.settings["word_ngrams"]),
                **common,
            }
        return {
            "analyzer": "word",
            "token_pattern": r"\S+",
            "ngram_range": tuple(self.settings["pos_ngrams"]),
            **common,
        }

    def _new_vectorizer(self, component: str, vocabulary: Sequence[str] | None = None) -> Any:
        from sklearn.feature_extraction.text import TfidfVectorizer

        return TfidfVectorizer(
            **self._analyzer_settings(component),
            vocabulary=None if vocabulary is None else list(vocabulary),
            sublinear_tf=self.settings["sublinear_tf"],
            min_df=1,
            norm="l2",
            # float64 inside, float32 out (encode): the weights and norms then round to
            # the same float32 on every CPU, whatever its summation order
            dtype=np.float64,
        )

    def _vocabulary(self, component: str, texts: list[str]) -> list[str] | None:
        """The capped vocabulary of one block, or ``None`` for no cap.

        scikit-learn's own ``max_features`` keeps the top terms by an unstable sort of
        their counts, so which of several equally frequent terms survive the cut depends
        on the processor's SIMD sort (issue 20: TF-IDF demo scores moved between CPUs).
        We count the n-grams with the same analyzer and cut with an explicit tie-break.
        """
        from sklearn.feature_extraction.text import CountVectorizer

        cap = self.settings["max_features"][component]
        if cap is None:
            return None
        counter = CountVectorizer(**self._analyzer_settings(component), min_df=1)
        counts = np.asarray(counter.fit_transform(texts).sum(axis=0)).ravel()
        return top_terms(counter.get_feature_names_out(), counts, int(cap))

    # -- inputs per component -------------------------------------------------------

    def _inputs(self, texts: Sequence[str]) -> dict[str, list[str]]:
        texts = list(texts)
        for index, text in enumerate(texts):
            if not isinstance(text, str):
                raise DataError(f"text #{index} is {type(text).__name__}, not str")
        inputs: dict[str, list[str]] = {}
        if "char" in self.components:
            inputs["char"] = texts
        if "word" in self.components and self.settings["word_tokens"] == "regex":
            inputs["word"] = texts
        if self.needs_spacy:
            tagged = tag_texts(
                texts, model=self.settings["spacy_model"], batch_size=self.batch_size
            )
            if "word" in self.components and self.settings["word_tokens"] == "spacy":
                inputs["word"] = [" ".join(t.lower() for t in doc.tokens) for doc in tagged]
            if "pos" in self.components:
                inputs["pos"] = [" ".join(doc.pos) for doc in tagged]
        return inputs

    # -- fit / encode -----------------------------------------------------------------

    def fit(self, texts: Sequence[str]) -> TfidfNgramEncoder:
        """Fit every block on the reference corpus ``texts``; returns ``self``."""
        if len(texts) == 0:
            raise DataError("cannot fit tfidf-ngrams on an empty corpus")
        inputs = self._inputs(texts)
        vectorizers = {}
        for component in self.components:
            try:
                vocabulary = self._vocabulary(component, inputs[component])
                vectorizer = self._new_vectorizer(component, vocabulary)
                vectorizer.fit(inputs[component])
            except ValueError as error:  # e.g. empty vocabulary
                raise DataError(f"tfidf-ngrams {component} block: {error}") from None
            vectorizers[component] = vectorizer
        self.vectorizers = vectorizers
        self.fit_info = {"n_texts": len(texts)}
        if self.needs_spacy:
            self.fit_info.update(spacy_identity(self.settings["spacy_model"]))
        self.content_hash = self._compute_hash()
        return self

    def _compute_hash(self) -> str:
        assert self.vectorizers is not None
        digest = hashlib.sha256(json.dumps(self.settings, sort_keys=True).encode())
        for component in self.components:
            vectorizer = self.vectorizers[component]
            digest.update(f"\0{component}\0".encode())
            for term, index in sorted(vectorizer.vocabulary_.items()):
                digest.update(f"{term}\0{index}\0".encode())
            digest.update(np.asarray(vectorizer.idf_, dtype=np.float64).tobytes())
        return digest.hexdigest()[:20]

    def _require_fitted(self) -> None:
        if self.vectorizers is None:
            raise StylebenchError(
                "tfidf-ngrams is not fitted: call fit(texts) on a reference corpus, or "
                "load a fitted model with TfidfNgramEncoder.load(path)"
            )

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Dense ``(n, dim)`` float32: the L2-normalised blocks side by side."""
        self._require_fitted()
        assert self.vectorizers is not None
        if len(texts) == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        inputs = self._inputs(texts)
        blocks = [
            self.vectorizers[c].transform(inputs[c]).toarray().astype(np.float32, copy=False)
            for c in self.components
        ]
        return np.ascontiguousarray(np.concatenate(blocks, axis=1), dtype=np.float32)

    def identity(self) -> dict[str, Any]:
        self._require_fitted()
        identity = {
            "kind": "tfidf-ngrams",
            "settings": {k: v for k, v in self.settings.items() if k != "spacy_model"},
            "content_hash": self.content_hash,
            "dim": self.dim,
        }
        if self.needs_spacy:
            identity["spacy"] = {
                k: self.fit_info.get(k) for k in ("spacy_model", "spacy_model_version")
            }
        return identity

    # -- persistence --------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Write the fitted model to the folder ``path`` (created); returns it."""
        import joblib

        self._require_fitted()
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        joblib.dump(self.vectorizers, folder / VECTORIZERS)
        manifest = {
            "format": "stylebench-tfidf-ngrams",
            "format_version": FORMAT_VERSION,
            "settings": self.settings,
            "content_hash": self.content_hash,
            "block_dims": self.block_dims,
            "fit_info": self.fit_info,
        }
        (folder / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        return folder

    @classmethod
    def load(cls, path: str | Path, *, batch_size: int = 64) -> TfidfNgramEncoder:
        """Read a folder written by :meth:`save` (checks the content hash)."""
        import joblib

        folder = Path(path)
        if not (folder / MANIFEST).is_file() or not (folder / VECTORIZERS).is_file():
            raise StylebenchError(
                f"{folder} is not a saved tfidf-ngrams model ({MANIFEST} + {VECTORIZERS})"
            )
        manifest = json.loads((folder / MANIFEST).read_text())
        if manifest.get("format") != "stylebench-tfidf-ngrams":
            raise StylebenchError(f"{folder / MANIFEST} is not a tfidf-ngrams manifest")
        settings = manifest["settings"]
        encoder = cls(
            components=settings["components"],
            char_ngrams=settings["char_ngrams"],
            word_ngrams=settings["word_ngrams"],
            pos_ngrams=settings["pos_ngrams"],
            max_features=settings["max_features"],
            lowercase=settings["lowercase"],
            sublinear_tf=settings["sublinear_tf"],
            word_tokens=settings["word_tokens"],
            spacy_model=settings["spacy_model"],
            batch_size=batch_size,
        )
        encoder.vectorizers = joblib.load(folder / VECTORIZERS)
        encoder.fit_info = dict(manifest.get("fit_info", {}))
        if set(encoder.vectorizers) != set(encoder.components):
            raise DataError(f"{folder}: vectorizers do not match the manifest's components")
        encoder.content_hash = encoder._compute_hash()
        if encoder.content_hash != manifest.get("content_hash"):
            raise DataError(
                f"{folder}: content hash {encoder.content_hash} does not match the manifest's "
                f"{manifest.get('content_hash')} (files changed or mixed)"
            )
        return encoder
