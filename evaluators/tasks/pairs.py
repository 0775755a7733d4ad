"""Pair classification (STEB Sec. 3.1): cosine similarity of two embeddings scores
"same label"; reported as AUROC (main), EER and standardised partial AUCs.

*All-to-all* compares every text with every other (all i < j); *predefined* scores a
given list of pairs (e.g. cross-topic PAN pairs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evaluators.data import Table
from evaluators.metric_math import roc_summary
from evaluators.tasks.base import EmbeddingLookup, TaskEvaluator, unit_normalise

PARTIAL_AUC_FPRS = (0.01, 0.05, 0.1)


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
        return metrics, counts, {}


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
        return pair_metrics(scores, labels), counts, {}
