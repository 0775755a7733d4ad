"""Authorship retrieval (STEB Sec. 3.1, App. C.9): each query and each target is one
or more documents by one author, represented by the mean of its documents' vectors
(as the STEB authors do for neural models); targets are ranked by cosine similarity;
a target is relevant when it has the query's author. MRR is the main score.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from evaluators.data import Table
from evaluators.metric_math import retrieval_scores
from evaluators.metric_math.retrieval import first_relevant_ranks
from evaluators.tasks.base import EmbeddingLookup, TaskEvaluator, unit_histogram, unit_normalise

STEB_RECALL_KS = (1, 8, 16, 32, 64, 128)


class RetrievalEvaluator(TaskEvaluator):
    task_type = "retrieval"
    schema = "retrieval"
    main_score_name = "mrr"
    description = "mean-pooled author documents, cosine ranking; MRR, recall@k, mean rank"

    def texts(self, table: Table) -> list[str]:
        return [t for row in table.rows for t in row["texts"]]

    def _pooled(self, rows: list[dict[str, Any]], embed: EmbeddingLookup) -> np.ndarray:
        vectors = embed(t for row in rows for t in row["texts"])
        owner = np.repeat(np.arange(len(rows)), [len(row["texts"]) for row in rows])
        sums = np.zeros((len(rows), vectors.shape[1]), dtype=np.float64)
        np.add.at(sums, owner, vectors)
        return unit_normalise(sums / np.bincount(owner)[:, None])

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        queries = [row for row in table.rows if row["role"] == "query"]
        targets = [row for row in table.rows if row["role"] == "target"]
        target_authors = {row["author"] for row in targets}
        answerable = [row for row in queries if row["author"] in target_authors]
        similarity = self._pooled(answerable, embed) @ self._pooled(targets, embed).T
        relevance = (
            np.asarray([row["author"] for row in answerable])[:, None]
            == np.asarray([row["author"] for row in targets])[None, :]
        )
        ks = tuple(k for k in STEB_RECALL_KS if k < len(targets)) or (1,)
        metrics = retrieval_scores(similarity, relevance, ks=ks)
        ranks = first_relevant_ranks(similarity, relevance)  # per query, for bootstrap CIs
        counts = {
            "n_queries": len(answerable),
            "n_targets": len(targets),
            "n_queries_without_target": len(queries) - len(answerable),
            "n_documents": sum(len(row["texts"]) for row in table.rows),
        }
        units = {"mrr": unit_histogram(1.0 / ranks), "mean_rank": unit_histogram(ranks)}
        units |= {f"recall@{k}": unit_histogram(ranks <= k) for k in ks}
        return (
            {k: float(v) for k, v in metrics.items() if k != "n_queries"},
            counts,
            {"units": units},
        )
