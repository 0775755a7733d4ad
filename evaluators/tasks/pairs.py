"""Pair classification (STEB Sec. 3.1): cosine similarity of two embeddings scores
"same label"; reported as AUROC (main), EER and standardised partial AUCs.

*All-to-all* compares every text with every other (all i < j); *predefined* scores a
given list of pairs (e.g. cross-topic PAN pairs).

Both record a 95 % percentile bootstrap CI of the AUROC in ``details["ci95"]`` (1,000
resamples, the evaluator's seed; STEB reports none):

* predefined pairs: the pairs are the independent units; each replicate resamples the
  pairs with replacement and scores them with :func:`evaluators.metric_math.roc_auc`
  (a replicate drawing a single class is skipped and counted as ``n_skipped``).
* all-to-all pairs: the pairs share texts, so the *texts* are resampled. A replicate is
  a vector of multiplicities ``w`` over the texts; the pair of distinct texts (a, b)
  then occurs ``w_a * w_b`` times among the resampled texts (pairs of two copies of the
  same text are excluded: they are not pairs of texts). The AUROC of these weighted pairs
  is the Mann-Whitney count with ties worth 1/2, taken from one sort of the pair scores
  made once for all replicates (:func:`weighted_pair_auc`). On datasets with more than
  ``CI_MAX_PAIRS`` pairs the replicates are computed over a fixed, seeded subsample of the
  pairs, stratified by class (at most ``CI_MAX_PAIRS / 2`` positive and negative pairs;
  the AUROC does not depend on the class ratio): the text resampling still drives the
  variance, and the subsample keeps a 2,850-text dataset to about a second.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evaluators.data import Table
from evaluators.metric_math import roc_auc, roc_summary
from evaluators.tasks.base import (
    CI_N_BOOT,
    DEFAULT_SEED,
    EmbeddingLookup,
    TaskEvaluator,
    bootstrap_weights,
    ci_record,
    unit_normalise,
)

PARTIAL_AUC_FPRS = (0.01, 0.05, 0.1)
CI_MAX_PAIRS = 100_000  # all-to-all CI: pairs scored per replicate (stratified subsample)
CI_CHUNK = 25  # all-to-all CI: replicates computed together (memory ~ chunk x pairs)


def pair_metrics(scores: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """AUROC, EER and partial AUCs (McClish-standardised, as scikit-learn's max_fpr),
    all from one sort of the scores."""
    summary = roc_summary(scores, labels, max_fpr=PARTIAL_AUC_FPRS)
    metrics = {"auc": summary["auroc"], "eer": summary["eer"]}
    for max_fpr in PARTIAL_AUC_FPRS:
        metrics[f"auc@{max_fpr:g}"] = summary[f"partial_auc@{max_fpr:g}"]
    return metrics


def all_pairs(vectors: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Cosine similarity and same-label indicator of every pair i < j, vectorised:
    one matrix product, one boolean mask, no loop over pairs (float32 throughout)."""
    unit = unit_normalise(vectors.astype(np.float32, copy=False))
    similarity = unit @ unit.T
    upper = np.triu(np.ones(similarity.shape, dtype=bool), k=1)
    _, codes = np.unique(labels, return_inverse=True)
    same = codes[:, None] == codes[None, :]
    return similarity[upper], same[upper]


def predefined_pairs_ci(
    scores: np.ndarray, labels: np.ndarray, seed: int = DEFAULT_SEED, n_boot: int = CI_N_BOOT
) -> dict[str, Any]:
    """``details["ci95"]`` of a predefined-pairs AUROC: resample the pairs (module doc)."""
    scores = np.asarray(scores)
    positive = np.asarray(labels).astype(bool)
    rng = np.random.default_rng(seed)
    n = len(scores)
    replicates = np.full(n_boot, np.nan)
    for b in range(n_boot):
        picks = rng.integers(0, n, size=n)
        drawn = positive[picks]
        if drawn.any() and not drawn.all():
            replicates[b] = roc_auc(scores[picks], drawn)
    method = "percentile bootstrap over pairs, AUROC by metric_math.roc_auc"
    return ci_record("auc", replicates, "pairs", n, method, seed)


def _block_sums(weights: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Sums of contiguous row blocks ending at rows ``ends`` (inclusive), via one cumsum
    (``np.add.reduceat`` is far slower on 2-D arrays with many blocks)."""
    at_ends = np.cumsum(weights, axis=0)[ends]
    at_ends[1:] -= at_ends[:-1].copy()
    return at_ends


def weighted_pair_auc(
    sorted_scores: np.ndarray,
    positive: np.ndarray,
    pair_weights: np.ndarray,
    block_starts: np.ndarray | None = None,
) -> np.ndarray:
    """AUROC of weighted pairs for a batch of weightings (the *columns* of
    ``pair_weights``, shape ``(n_pairs,)`` or ``(n_pairs, n_weightings)``):
    ``sum_{p pos, q neg} w_p w_q ([s_p > s_q] + [s_p == s_q] / 2) / (W_pos W_neg)``.

    ``sorted_scores`` must be ascending; ties form contiguous blocks (``block_starts``,
    computed when not given), so each weighting costs a few passes over the pairs.
    With all weights 1 this is the Mann-Whitney AUROC of ``metric_math.roc_auc``; a
    weighting with no positive or no negative weight gives NaN."""
    weights = np.asarray(pair_weights, dtype=np.float64)
    if weights.ndim == 1:
        weights = weights[:, None]
    if block_starts is None:
        block_starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    pos_weights = weights * np.asarray(positive, dtype=bool)[:, None]
    neg_weights = weights - pos_weights
    if len(block_starts) < len(sorted_scores):  # tied scores: sum each block first
        ends = np.r_[block_starts[1:], len(sorted_scores)] - 1
        pos_weights, neg_weights = (_block_sums(w, ends) for w in (pos_weights, neg_weights))
    below = np.cumsum(neg_weights, axis=0) - neg_weights
    numerator = (pos_weights * (below + 0.5 * neg_weights)).sum(axis=0)
    denominator = pos_weights.sum(axis=0) * neg_weights.sum(axis=0)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, numerator / safe, np.nan)


def all_pairs_ci(
    scores: np.ndarray,
    same: np.ndarray,
    n_texts: int,
    seed: int = DEFAULT_SEED,
    n_boot: int = CI_N_BOOT,
    max_pairs: int = CI_MAX_PAIRS,
) -> dict[str, Any]:
    """``details["ci95"]`` of an all-to-all AUROC: resample the texts (module doc).
    ``scores``/``same`` are :func:`all_pairs`' output (pairs i < j in row-major order)."""
    rng = np.random.default_rng(seed)
    first, second = np.triu_indices(n_texts, k=1)
    selected = np.arange(len(scores))
    if len(scores) > max_pairs:
        parts = []
        for flag in (True, False):
            members = np.flatnonzero(same == flag)
            if members.size > max_pairs // 2:
                members = members[rng.choice(members.size, max_pairs // 2, replace=False)]
            parts.append(members)
        selected = np.sort(np.concatenate(parts))
    order = selected[np.argsort(scores[selected], kind="stable")]
    sorted_scores, positive = scores[order], same[order]
    first, second = first[order], second[order]
    starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    replicates = []
    for done in range(0, n_boot, CI_CHUNK):
        size = min(CI_CHUNK, n_boot - done)
        weights = bootstrap_weights(n_texts, size, rng).T.astype(np.float32, order="C")
        pair_weights = weights[first] * weights[second]  # pairs x replicates
        replicates.append(weighted_pair_auc(sorted_scores, positive, pair_weights, starts))
    method = "percentile bootstrap over texts (weighted pairs of resampled texts, no self-pairs)"
    if len(selected) < len(scores):
        method += f"; replicates on a seeded class-stratified subsample of {len(selected)} pairs"
    return ci_record("auc", np.concatenate(replicates), "texts", n_texts, method, seed)


class AllToAllPairsEvaluator(TaskEvaluator):
    task_type = "all_to_all_pairs"
    schema = "labelled_texts"
    main_score_name = "auc"
    description = "cosine of every pair i<j, same label = positive; AUROC, EER, partial AUC"

    def texts(self, table: Table) -> list[str]:
        return [row["text"] for row in table.rows]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        labels = np.asarray([row["label"] for row in table.rows])
        scores, same = all_pairs(embed(self.texts(table)), labels)
        metrics = pair_metrics(scores, same)
        counts = {
            "n_texts": len(labels),
            "n_pairs": int(scores.size),
            "n_positive_pairs": int(same.sum()),
        }
        return metrics, counts, {"ci95": all_pairs_ci(scores, same, len(labels), self.seed)}


class PredefinedPairsEvaluator(TaskEvaluator):
    task_type = "predefined_pairs"
    schema = "text_pairs"
    main_score_name = "auc"
    description = "cosine of each given pair; AUROC, EER, partial AUC"

    def texts(self, table: Table) -> list[str]:
        return [t for row in table.rows for t in (row["text1"], row["text2"])]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        left = unit_normalise(embed(row["text1"] for row in table.rows))
        right = unit_normalise(embed(row["text2"] for row in table.rows))
        scores = np.einsum("ij,ij->i", left, right)
        labels = np.asarray([row["label"] for row in table.rows], dtype=np.int8)
        counts = {"n_pairs": len(labels), "n_positive_pairs": int(labels.sum())}
        details = {"ci95": predefined_pairs_ci(scores, labels, self.seed)}
        return pair_metrics(scores, labels), counts, details
