"""Ngram: Valla's n-gram ensemble for AA and Weerasinghe et al.'s feature-difference
logistic regression for AV.

AA (``NgramAA``) follows what Valla's ``methods/CharNGram.py`` (itself from Muttenthaler et
al., PAN 2019) executes with its command-line defaults: per feature family a
``CountVectorizer`` (``lowercase=False``, ``strip_accents="unicode"``, ``min_df=0.01``,
``max_features=100000``) and a ``TfidfTransformer`` (l2, smoothed idf, ``sublinear_tf``
off: a store-true flag not set by default), ``MaxAbsScaler``, a multinomial logistic
regression (lbfgs, ``C=1``, scikit-learn's default ``max_iter=100``) per family and soft
voting (mean of the class probabilities). The families are ``char`` (character 2-5-grams),
``dist_char`` (character 1-3-grams) and ``word`` (word 1-3-grams, scikit-learn's default
token pattern of two or more word characters).

Two facts of that code decide the defaults here:

- Its ``get_vectorizers`` receives the preprocessors (digits to ``0``, URLs to ``@``, the
  text distortion of Table 2 that masks letters as ``*``, punctuation removal for words)
  but never hands them to the ``CountVectorizer``, so the executed run sees the raw text
  and ``dist_char`` is plain character 1-3-grams. ``preprocess=True`` applies them as the
  code intends (on CCAT50 that gives 74.92 against 76.00 without, paper 76.68).
- Its default ``LogisticRegression(multi_class="multinomial", dual=True)`` cannot run
  (lbfgs refuses ``dual=True`` in every scikit-learn since 0.22; Valla pins 1.0.2), so a run
  needs ``--primal`` (the lbfgs model here, ``classifier="logreg"``) or
  ``--logistic_regression`` (``SGDClassifier`` with log loss: ``classifier="sgd"``).

The paper describes Ngram_A as "character Ngram, part-of-speech Ngram, and summary
statistics" in an ensemble of logistic regressions; Valla's AA code has no POS or
statistics family. They are selectable here (``families`` with ``pos``: spaCy
``en_core_web_sm`` UPOS 1-3-grams; ``stats``: the stylometric features of
:mod:`evaluators.encoders.stylometric`, standard-scaled) and off by default.

AV (``NgramAV``) follows Weerasinghe et al. (2021) as Valla's ``FeatureDifference.py``
executes it (``av_model="valla"``): of that code's many feature sets only character
``char_wb`` 1-3-gram TF-IDF (``min_df=0.1``, scikit-learn's defaults otherwise, so
lower-cased) is active (POS-tag n-grams, chunks, vocabulary richness, function words and
the rest are commented out); a ``StandardScaler`` fitted on the stacked texts of the
training pairs, the absolute difference of the two sides, a second ``StandardScaler`` on
those differences, and an ``SGDClassifier`` with log loss whose ``alpha`` comes from a
two-draw randomised search (log-uniform in [1e-4, 1], 5-fold, on the first 100 shuffled
pairs) followed by 200 epochs of mini-batch (128) ``partial_fit``; the score is
P(same author). ``av_model="families"`` keeps the earlier model: the AA families' scaled
TF-IDF (char + dist_char by default), absolute difference, balanced logistic regression.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from dataset_scripts.core.errors import StylebenchError

FAMILIES = ("char", "dist_char", "word", "pos", "stats")
DEFAULT_FAMILIES = ("char", "dist_char", "word")
CLASSIFIERS = ("logreg", "sgd")
AV_MODELS = ("valla", "families")


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
    """Hyper-parameters; defaults: what Valla's ``CharNGram.py`` executes with its command
    line defaults (module notes). Its sweeps also tried ``sublinear_tf`` on, ``min_df`` in
    [0, 0.1], ``max_features`` in [10k, 150k] and the SGD classifier."""

    families: tuple[str, ...] = DEFAULT_FAMILIES
    char_range: tuple[int, int] = (2, 5)
    dist_range: tuple[int, int] = (1, 3)
    word_range: tuple[int, int] = (1, 3)
    pos_range: tuple[int, int] = (1, 3)
    max_features: int = 100_000
    min_df: float = 0.01
    sublinear_tf: bool = False
    preprocess: bool = False  # apply the preprocessors Valla defines but does not run
    word_token_pattern: str = r"(?u)\b\w\w+\b"  # scikit-learn's default
    classifier: str = "logreg"  # or "sgd" (Valla's --logistic_regression)
    C: float = 1.0
    max_iter: int = 100
    seed: int = 0
    # AV: "valla" = Valla's FeatureDifference.py as executed; "families" = the AA families'
    # scaled TF-IDF differences into a balanced logistic regression (stylebench's earlier AV)
    av_model: str = "valla"
    av_char_range: tuple[int, int] = (1, 3)
    av_min_df: float = 0.1
    av_epochs: int = 200
    av_batch: int = 128
    av_search_iters: int = 2
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [f for f in self.families if f not in FAMILIES]
        if unknown or not self.families:
            raise StylebenchError(f"Ngram families must be a non-empty subset of {FAMILIES}")
        if self.av_model not in AV_MODELS:
            raise StylebenchError(
                f"Ngram av_model must be one of {AV_MODELS}, not {self.av_model!r}"
            )
        if self.classifier not in CLASSIFIERS:
            raise StylebenchError(
                f"Ngram classifier must be one of {CLASSIFIERS}, not {self.classifier!r}"
            )

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
        if not config.preprocess:
            preprocessor = None  # Valla's executed path: the vectoriser sees the raw text
        pattern = config.word_token_pattern if name == "word" else r"(?u)\b\w+\b"
        self.vectorizer = TfidfVectorizer(
            analyzer=analyzer,
            ngram_range=tuple(ngram_range),
            preprocessor=preprocessor,
            lowercase=False,
            strip_accents="unicode" if name != "pos" else None,
            token_pattern=pattern if analyzer == "word" else None,
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
    """The per-family classifier: lbfgs logistic regression, or (``classifier="sgd"``)
    scikit-learn's ``SGDClassifier`` with log loss and its own defaults, as Valla's
    ``--logistic_regression`` (``max_iter`` and ``C`` apply to the first only)."""
    from sklearn.linear_model import LogisticRegression, SGDClassifier

    if config.classifier == "sgd":
        return SGDClassifier(
            loss="log_loss",
            random_state=config.seed,
            class_weight="balanced" if balanced else None,
        )
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
    """Feature-difference classifier (Weerasinghe et al. 2021), see the module notes."""

    def __init__(self, config: NgramConfig | None = None) -> None:
        config = config or NgramConfig()
        # word n-grams carry topic more than style; the AV default is char + distorted char
        if config.families == DEFAULT_FAMILIES:
            config = NgramConfig(**{**config.as_dict(), "families": ("char", "dist_char")})
        self.config = config
        self.families: list[_Family] = []
        self.vectorizer: Any = None
        self.scalers: tuple[Any, Any] | None = None
        self.model: Any = None

    def _features(self, texts: Sequence[str], fit: bool) -> Any:
        if self.config.av_model == "valla":
            if fit:
                from sklearn.feature_extraction.text import TfidfVectorizer

                # FeatureDifference.py's one active feature set: char_wb TF-IDF, min_df 0.1,
                # scikit-learn's defaults otherwise (lower-casing included)
                self.vectorizer = TfidfVectorizer(
                    analyzer="char_wb",
                    ngram_range=tuple(self.config.av_char_range),
                    min_df=self.config.av_min_df,
                    dtype=np.float64,
                )
                return self.vectorizer.fit_transform(texts).toarray()
            return self.vectorizer.transform(texts).toarray()
        blocks = []
        if fit:
            self.families = [_Family(name, self.config) for name in self.config.families]
        for family in self.families:
            block = family.fit_transform(texts) if fit else family.transform(texts)
            blocks.append(sparse.csr_matrix(block))
        return sparse.hstack(blocks).tocsr()

    def _sides(self, text1: Sequence[str], text2: Sequence[str], fit: bool) -> tuple[Any, Any]:
        """Feature rows of each pair's two texts (each distinct text vectorised once)."""
        unique = sorted(set(text1) | set(text2))
        index = {t: i for i, t in enumerate(unique)}
        if fit and self.config.av_model == "valla":
            # Valla fits the vectoriser on the stacked texts of every training pair
            self._features(list(text1) + list(text2), fit=True)
            fit = False
        features = self._features(unique, fit)
        return features[[index[t] for t in text1]], features[[index[t] for t in text2]]

    def _pair_matrix(self, text1: Sequence[str], text2: Sequence[str], fit: bool) -> Any:
        a, b = self._sides(text1, text2, fit)
        if self.config.av_model != "valla":
            return abs(a - b)
        from sklearn.preprocessing import StandardScaler

        if fit:  # one scaler on the stacked pair texts, a second on their differences
            first = StandardScaler().fit(np.vstack([a, b]))
            diff = np.abs(first.transform(a) - first.transform(b))
            self.scalers = (first, StandardScaler().fit(diff))
        assert self.scalers is not None
        first, second = self.scalers
        return second.transform(np.abs(first.transform(a) - first.transform(b)))

    def _fit_sgd(self, x: np.ndarray, y: np.ndarray) -> Any:
        """FeatureDifference.py's training: alpha from a randomised search (log-uniform in
        [1e-4, 1]) on the first 100 shuffled pairs, then ``av_epochs`` passes of
        mini-batch ``partial_fit`` in that order; the last epoch's model is kept."""
        from scipy.stats import loguniform
        from sklearn.linear_model import SGDClassifier
        from sklearn.model_selection import RandomizedSearchCV

        config = self.config
        order = np.random.default_rng(config.seed).permutation(len(y))
        x, y = x[order], y[order]
        search = RandomizedSearchCV(
            SGDClassifier(loss="log_loss", random_state=config.seed),
            {"alpha": loguniform(1e-4, 1e0)},
            n_iter=config.av_search_iters,
            random_state=config.seed,
        ).fit(x[:100], y[:100])
        model = SGDClassifier(
            loss="log_loss", alpha=search.best_params_["alpha"], random_state=config.seed
        )
        for _ in range(config.av_epochs):
            for start in range(0, len(y), config.av_batch):
                stop = start + config.av_batch
                model.partial_fit(x[start:stop], y[start:stop], classes=[0, 1])
        return model

    def fit(self, text1: Sequence[str], text2: Sequence[str], labels: Sequence[int]) -> NgramAV:
        if len(set(labels)) < 2:
            raise StylebenchError("Ngram_V needs same- and different-author training pairs")
        x = self._pair_matrix(text1, text2, fit=True)
        y = np.asarray(labels, dtype=np.int64)
        if self.config.av_model == "valla":
            self.model = self._fit_sgd(x, y)
        else:
            self.model = _logistic(self.config, balanced=True).fit(x, y)
        return self

    def score(self, text1: Sequence[str], text2: Sequence[str]) -> np.ndarray:
        """P(same author) per pair, in [0, 1]."""
        if self.model is None:
            raise StylebenchError("Ngram_V is not fitted")
        proba = self.model.predict_proba(self._pair_matrix(text1, text2, fit=False))
        return proba[:, list(self.model.classes_).index(1)]
