"""Ngram: Valla's n-gram ensemble for AA and Weerasinghe et al.'s feature-difference
logistic regression for AV.

AA (``NgramAA``) follows Valla's ``methods/CharNGram.py`` (itself from Muttenthaler et
al., PAN 2019): one TF-IDF vectoriser per feature family, ``MaxAbsScaler``, a multinomial
logistic regression per family, and soft voting (mean of the class probabilities). The
families are character 2-5-grams, "distorted" character 1-3-grams (letters masked as
``*``, Table 2's text distortion), word 1-3-grams (punctuation removed), and optionally
part-of-speech 1-3-grams and summary statistics (the stylometric features of
:mod:`evaluators.encoders.stylometric`), the paper's description of Ngram_A. The two
spaCy-based families are off by default (tagging CCAT50 takes minutes on two cores).

AV (``NgramAV``) follows Weerasinghe et al. (2021): the absolute difference of the two
texts' feature vectors (scaled character n-gram TF-IDF, optionally POS n-grams and
statistics) is the input of a logistic regression trained on same/different-author pairs;
the score is P(same author).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from evaluators.errors import StylebenchError

FAMILIES = ("char", "dist_char", "word", "pos", "stats")
DEFAULT_FAMILIES = ("char", "dist_char", "word")


def base_preprocess(text: str) -> str:
    """Digits become ``0``, whitespace-before-newline/tab runs are removed, URLs ``@``."""
    text = re.sub(r"[0-9]", "0", text)
    text = re.sub(r"( \n| \t)+", "", text)
    return re.sub(r"https?://\S+", "@", text)


def distort(text: str) -> str:
    """Text distortion: every run of ASCII letters becomes one ``*`` (Stamatatos 2018)."""
    return re.sub(r"[a-zA-Z]+", "*", base_preprocess(text))


def word_preprocess(text: str) -> str:
    """Keep letters, digits and whitespace only (for word n-grams)."""
    return "".join(c for c in base_preprocess(text) if c.isalnum() or c.isspace())


@dataclass
class NgramConfig:
    """Hyper-parameters (defaults: Valla's ``CharNGram.py`` command line, except
    ``sublinear_tf`` which its sweeps turned on)."""

    families: tuple[str, ...] = DEFAULT_FAMILIES
    char_range: tuple[int, int] = (2, 5)
    dist_range: tuple[int, int] = (1, 3)
    word_range: tuple[int, int] = (1, 3)
    pos_range: tuple[int, int] = (1, 3)
    max_features: int = 100_000
    min_df: float = 0.01
    sublinear_tf: bool = True
    C: float = 1.0
    max_iter: int = 1000
    seed: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [f for f in self.families if f not in FAMILIES]
        if unknown or not self.families:
            raise StylebenchError(f"Ngram families must be a non-empty subset of {FAMILIES}")

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _pos_strings(texts: Sequence[str]) -> list[str]:
    from evaluators.encoders.spacy_tagging import tag_texts

    return [" ".join(p for p in doc.pos if p != "SPACE") for doc in tag_texts(list(texts))]


class _Family:
    """One feature family: vectoriser (+ scaler); ``fit``/``transform`` on raw texts."""

    def __init__(self, name: str, config: NgramConfig) -> None:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.preprocessing import MaxAbsScaler, StandardScaler

        self.name = name
        self.config = config
        self.scaler = StandardScaler() if name == "stats" else MaxAbsScaler()
        if name == "stats":
            self.vectorizer = None
            return
        analyzer, ngram_range, preprocessor = {
            "char": ("char", config.char_range, base_preprocess),
            "dist_char": ("char", config.dist_range, distort),
            "word": ("word", config.word_range, word_preprocess),
            "pos": ("word", config.pos_range, None),
        }[name]
        self.vectorizer = TfidfVectorizer(
            analyzer=analyzer,
            ngram_range=tuple(ngram_range),
            preprocessor=preprocessor,
            lowercase=False,
            strip_accents="unicode" if name != "pos" else None,
            token_pattern=r"(?u)\b\w+\b" if analyzer == "word" else None,
            min_df=config.min_df,
            max_features=config.max_features,
            sublinear_tf=config.sublinear_tf,
            dtype=np.float64,
        )

    def _inputs(self, texts: Sequence[str]) -> Any:
        if self.name == "pos":
            return _pos_strings(texts)
        if self.name == "stats":
            from evaluators.encoders.stylometric import StylometricEncoder

            return StylometricEncoder(normalize=None).encode(list(texts)).astype(np.float64)
        return list(texts)

    def fit_transform(self, texts: Sequence[str]) -> Any:
        inputs = self._inputs(texts)
        matrix = inputs if self.vectorizer is None else self.vectorizer.fit_transform(inputs)
        return self.scaler.fit_transform(matrix)

    def transform(self, texts: Sequence[str]) -> Any:
        inputs = self._inputs(texts)
        matrix = inputs if self.vectorizer is None else self.vectorizer.transform(inputs)
        return self.scaler.transform(matrix)


def _logistic(config: NgramConfig, balanced: bool = False):
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(
        C=config.C,
        max_iter=config.max_iter,
        random_state=config.seed,
        class_weight="balanced" if balanced else None,
    )


class NgramAA:
    """Ensemble of per-family logistic regressions, soft voting (see module notes)."""

    def __init__(self, config: NgramConfig | None = None) -> None:
        self.config = config or NgramConfig()
        self.members: list[tuple[_Family, Any]] = []
        self.classes_: np.ndarray | None = None

    def fit(self, texts: Sequence[str], authors: Sequence[str]) -> NgramAA:
        if len(set(authors)) < 2:
            raise StylebenchError("Ngram_A needs training texts of at least two authors")
        self.members = []
        for name in self.config.families:
            family = _Family(name, self.config)
            model = _logistic(self.config).fit(family.fit_transform(texts), list(authors))
            self.members.append((family, model))
        self.classes_ = self.members[0][1].classes_
        return self

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        if self.classes_ is None:
            raise StylebenchError("Ngram_A is not fitted")
        return np.mean([m.predict_proba(f.transform(texts)) for f, m in self.members], axis=0)

    def predict(self, texts: Sequence[str]) -> list[str]:
        assert self.classes_ is not None
        return [str(c) for c in self.classes_[np.argmax(self.predict_proba(texts), axis=1)]]


class NgramAV:
    """Feature-difference logistic regression (Weerasinghe et al. 2021)."""

    def __init__(self, config: NgramConfig | None = None) -> None:
        config = config or NgramConfig()
        # word n-grams carry topic more than style; the AV default is char + distorted char
        if config.families == DEFAULT_FAMILIES:
            config = NgramConfig(**{**config.as_dict(), "families": ("char", "dist_char")})
        self.config = config
        self.families: list[_Family] = []
        self.model: Any = None

    def _features(self, texts: Sequence[str], fit: bool) -> Any:
        blocks = []
        if fit:
            self.families = [_Family(name, self.config) for name in self.config.families]
        for family in self.families:
            block = family.fit_transform(texts) if fit else family.transform(texts)
            blocks.append(sparse.csr_matrix(block))
        return sparse.hstack(blocks).tocsr()

    def _pair_matrix(self, text1: Sequence[str], text2: Sequence[str], fit: bool) -> Any:
        unique = sorted(set(text1) | set(text2))
        index = {t: i for i, t in enumerate(unique)}
        features = self._features(unique, fit)
        a = features[[index[t] for t in text1]]
        b = features[[index[t] for t in text2]]
        return abs(a - b)

    def fit(self, text1: Sequence[str], text2: Sequence[str], labels: Sequence[int]) -> NgramAV:
        if len(set(labels)) < 2:
            raise StylebenchError("Ngram_V needs same- and different-author training pairs")
        self.model = _logistic(self.config, balanced=True).fit(
            self._pair_matrix(text1, text2, fit=True), list(labels)
        )
        return self

    def score(self, text1: Sequence[str], text2: Sequence[str]) -> np.ndarray:
        """P(same author) per pair, in [0, 1]."""
        if self.model is None:
            raise StylebenchError("Ngram_V is not fitted")
        proba = self.model.predict_proba(self._pair_matrix(text1, text2, fit=False))
        return proba[:, list(self.model.classes_).index(1)]
