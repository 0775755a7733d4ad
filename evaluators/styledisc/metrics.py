"""Similarity metrics of the style discrimination benchmark and their votes.

Every metric ``S`` compares the reference with each candidate; Eq. 1 of the paper turns
a triplet into a decision: the metric is right when ``S(T_ref, T+) > S(T_ref, T-)``.
A vote is ``+1`` (T+ closer), ``-1`` (T- closer) or ``0`` (a tie, or a judge answering
Both/None/something unparseable); only ``+1`` counts as correct (ties are wrong, as the
strict ``>`` of Eq. 1 says).

=============  ==========================================================================
``bleu``       sacrebleu ``sentence_bleu(candidate, [reference])`` / 100 (default
               tokeniser ``13a``, exponential smoothing)
``rouge1/2/L`` rouge-score ``RougeScorer(...).score(target=reference, prediction=
               candidate)`` F-measure (no stemming: the library's default)
``meteor``     NLTK ``meteor_score([reference_tokens], candidate_tokens)`` with WordNet
               from Debian's wordnet-base (see :mod:`evaluators.styledisc.wordnet`);
               tokens: lower-cased ``\\w+`` runs and single punctuation marks
``emb:<spec>`` cosine similarity of style embeddings from
               :func:`evaluators.encoders.get_encoder` (``tfidf-ngrams`` is fitted on the
               evaluated texts; ``minilm``; ``st:``/``hf:`` models such as Wegmann's or
               StyleDistance where a hub is reachable)
=============  ==========================================================================
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from dataset_scripts.core.errors import UnknownNameError
from evaluators.metric_math import cosine_similarity_matrix

_TOKENS = re.compile(r"\w+|[^\w\s]")


class SimilarityMetric(Protocol):
    """``similarity(references, candidates)`` -> one score per pair (higher = closer)."""

    name: str
    family: str  # "ngram", "embedding" or "llm"
    open_source: bool

    def similarity(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray: ...


def meteor_tokens(text: str) -> list[str]:
    """METEOR's input tokens: lower-cased word runs and single punctuation marks."""
    return _TOKENS.findall(text.lower())


@dataclass
class BleuMetric:
    name: str = "BLEU"
    family: str = "ngram"
    open_source: bool = True

    def similarity(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        from sacrebleu.metrics import BLEU

        bleu = BLEU(effective_order=True)
        return np.array(
            [
                bleu.sentence_score(c, [r]).score / 100.0
                for r, c in zip(references, candidates, strict=True)
            ]
        )


@dataclass
class RougeMetric:
    variant: str = "rouge1"  # rouge1, rouge2, rougeL
    family: str = "ngram"
    open_source: bool = True
    name: str = field(init=False)

    def __post_init__(self) -> None:
        if self.variant not in ("rouge1", "rouge2", "rougeL"):
            raise UnknownNameError(f"unknown ROUGE variant {self.variant!r}")
        self.name = self.variant.upper()

    def similarity(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        from rouge_score.rouge_scorer import RougeScorer

        scorer = RougeScorer([self.variant], use_stemmer=False)
        return np.array(
            [
                scorer.score(target=r, prediction=c)[self.variant].fmeasure
                for r, c in zip(references, candidates, strict=True)
            ]
        )


@dataclass
class MeteorMetric:
    name: str = "METEOR"
    family: str = "ngram"
    open_source: bool = True

    def similarity(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        from nltk.translate.meteor_score import meteor_score

        from evaluators.styledisc.wordnet import load_wordnet

        wordnet = load_wordnet()
        return np.array(
            [
                meteor_score([meteor_tokens(r)], meteor_tokens(c), wordnet=wordnet)
                for r, c in zip(references, candidates, strict=True)
            ]
        )


@dataclass
class EmbeddingMetric:
    """Cosine similarity of embeddings from any stylebench encoder spec."""

    spec: str
    options: dict[str, Any] = field(default_factory=dict)
    family: str = "embedding"
    open_source: bool = True
    name: str = field(init=False)
    # the embedding cache (None: none); vectors go through the Runner either way
    cache_dir: Path | None = None

    def __post_init__(self) -> None:
        self.name = self.spec
        self._encoder: Any = None

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Vectors of the unique ``texts``: each embedded once per encoder through
        :meth:`evaluators.run.runner.Runner.embed` (read from / written to the cache)."""
        from evaluators.encoders import get_encoder
        from evaluators.run.runner import Runner

        if self._encoder is None:
            self._encoder = get_encoder(self.spec, chunk=True, **self.options)
        if hasattr(self._encoder, "fit") and not getattr(self._encoder, "is_fitted", False):
            self._encoder.fit(texts)  # before the Runner: its cache key holds the fitted state
        runner = Runner(self._encoder, self.spec, cache_dir=self.cache_dir, progress=False)
        lookup, _ = runner.embed(texts, "triplet texts")
        return np.asarray(lookup(texts), dtype=np.float64)

    def similarity(self, references: Sequence[str], candidates: Sequence[str]) -> np.ndarray:
        unique = list(dict.fromkeys([*references, *candidates]))
        vectors = self._encode(unique)
        index = {text: i for i, text in enumerate(unique)}
        ref = vectors[[index[t] for t in references]]
        cand = vectors[[index[t] for t in candidates]]
        scores = np.empty(len(references))
        for start in range(0, len(references), 256):  # diagonal of blocks of the matrix
            stop = min(start + 256, len(references))
            block = cosine_similarity_matrix(ref[start:stop], cand[start:stop])
            scores[start:stop] = np.diag(block)
        return scores


NGRAM_METRICS = ("BLEU", "ROUGE1", "ROUGE2", "ROUGEL", "METEOR")
# The paper's style encoders by name (sentence-transformers models on the Hub: they load
# where a hub or a local copy is reachable, and fail with a one-line error otherwise).
STYLE_ENCODERS = {
    "Wegmann": "st:AnnaWegmann/Style-Embedding",
    "StyleDistance": "st:StyleDistance/styledistance",
}


def get_metric(name: str, **options: Any) -> SimilarityMetric:
    """``BLEU``, ``ROUGE1``, ``ROUGE2``, ``ROUGEL``, ``METEOR``, ``Wegmann``,
    ``StyleDistance`` or ``emb:<encoder spec>``."""
    upper = name.upper()
    if upper == "BLEU":
        return BleuMetric()
    if upper in ("ROUGE1", "ROUGE2", "ROUGEL"):
        return RougeMetric({"ROUGE1": "rouge1", "ROUGE2": "rouge2", "ROUGEL": "rougeL"}[upper])
    if upper == "METEOR":
        return MeteorMetric()
    if name.startswith("emb:") and name[4:]:
        return EmbeddingMetric(name[4:], options)
    for paper_name, spec in STYLE_ENCODERS.items():
        if name.lower() == paper_name.lower():
            metric = EmbeddingMetric(spec, options)
            metric.name = paper_name
            return metric
    raise UnknownNameError(
        f"unknown metric {name!r}; known: {', '.join(NGRAM_METRICS)}, "
        f"{', '.join(STYLE_ENCODERS)}, emb:<encoder spec>"
    )


def votes_from_scores(positive: np.ndarray, negative: np.ndarray) -> np.ndarray:
    """Eq. 1 as votes: +1 where S(ref, T+) > S(ref, T-), -1 where smaller, 0 on a tie."""
    positive = np.asarray(positive, dtype=np.float64)
    negative = np.asarray(negative, dtype=np.float64)
    if positive.shape != negative.shape:
        raise ValueError(f"score shapes differ: {positive.shape} vs {negative.shape}")
    return np.sign(positive - negative).astype(np.int8)


def metric_votes(
    metric: SimilarityMetric, rows: Sequence[dict[str, Any]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(votes, S(ref, T+), S(ref, T-)) of one metric over triplet rows."""
    references = [r["reference"] for r in rows]
    scores = metric.similarity(
        [*references, *references], [*(r["positive"] for r in rows), *(r["negative"] for r in rows)]
    )
    n = len(rows)
    return votes_from_scores(scores[:n], scores[n:]), scores[:n], scores[n:]
