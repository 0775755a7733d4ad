"""Clustering (STEB Sec. 3.1, following MTEB): mini-batch k-means with batch size 32,
k = number of gold labels and a fixed seed; V-measure against the gold labels.

As in the STEB authors' code, k-means runs once (``n_init="auto"``) on the raw
(unnormalised) vectors.

``details["ci95"]`` records a 95 % percentile bootstrap CI of the V-measure (1,000
resamples, the evaluator's seed): the texts are resampled with replacement and the V-measure
of the *fixed* cluster assignment against the gold labels is recomputed with
:func:`evaluators.metric_math.v_measure`. K-means is not rerun per replicate (that would
cost 1,000 clusterings), so the interval covers the evaluation sample, not the variance of
the clustering algorithm itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.cluster import MiniBatchKMeans

from evaluators.data import Table
from evaluators.metric_math import v_measure
from evaluators.tasks.base import (
    CI_N_BOOT,
    DEFAULT_SEED,
    EmbeddingLookup,
    TaskEvaluator,
    ci_record,
)

KMEANS_BATCH_SIZE = 32


def v_measure_ci(
    assignments: np.ndarray,
    labels: np.ndarray,
    seed: int = DEFAULT_SEED,
    n_boot: int = CI_N_BOOT,
) -> dict[str, Any]:
    """``details["ci95"]`` of a clustering: resample texts, re-score the fixed assignment."""
    assignments, labels = np.asarray(assignments), np.asarray(labels)
    rng = np.random.default_rng(seed)
    n = len(labels)
    replicates = np.empty(n_boot)
    for b in range(n_boot):
        picks = rng.integers(0, n, size=n)
        replicates[b] = v_measure(assignments[picks], labels[picks])["v_measure"]
    method = "percentile bootstrap over texts, V-measure of the fixed k-means assignment"
    return ci_record("v_measure", replicates, "texts", n, method, seed)


class ClusteringEvaluator(TaskEvaluator):
    task_type = "clustering"
    schema = "labelled_texts"
    main_score_name = "v_measure"
    description = "mini-batch k-means (batch 32, k = #labels, seed 42), V-measure"

    def texts(self, table: Table) -> list[str]:
        return [row["text"] for row in table.rows]

    def cluster(self, vectors: np.ndarray, n_clusters: int) -> np.ndarray:
        kmeans = MiniBatchKMeans(
            n_clusters=n_clusters,
            batch_size=KMEANS_BATCH_SIZE,
            random_state=self.seed,
            n_init="auto",
        )
        return kmeans.fit_predict(vectors.astype(np.float64))

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        labels = [row["label"] for row in table.rows]
        vectors = embed(self.texts(table))
        n_clusters = len(set(labels))
        assignments = self.cluster(vectors, n_clusters)
        metrics = v_measure(assignments, labels)
        counts = {"n_texts": len(labels), "n_labels": n_clusters}
        details = {"ci95": v_measure_ci(assignments, np.asarray(labels), self.seed)}
        return dict(metrics), counts, details
