"""Clustering (STEB Sec. 3.1, following MTEB): mini-batch k-means with batch size 32,
k = number of gold labels and a fixed seed; V-measure against the gold labels.

As in the STEB authors' code, k-means runs once (``n_init="auto"``) on the raw
(unnormalised) vectors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from sklearn.cluster import MiniBatchKMeans

from evaluators.data import Table
from evaluators.metric_math import v_measure
from evaluators.tasks.base import EmbeddingLookup, TaskEvaluator

KMEANS_BATCH_SIZE = 32


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
        return dict(metrics), counts, {}
