"""The delete-one-author jackknife of a retrieval MRR: every author's query and targets
left out in turn, every other query re-ranked without that author's targets, exactly.

A query's score (the STEB rule, :func:`evaluators.metric_math.retrieval.all_match_scores`)
is the mean over its relevant targets ``m`` of ``1 / r_m``, ``r_m = 1 + (targets ahead of
m)``: ahead = earlier in the stable sort of the query's distances (``ties="sort"``), or at
a distance ``<=`` its own (``"pessimistic"``). Leaving author ``a`` out removes its
queries and lowers every other rank by the number of ``a``'s targets ahead of it. So per
relevant (query, target) row the record keeps the rank and the count of each author's
targets ahead of it (:func:`author_rank_table`); :func:`delete_one_author_mrr` gives the
G leave-one-out MRRs from them.

Authors, not queries, are the independent units: a query and the target of its author
are one author's texts, and every target enters every query's rank.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["author_rank_table", "delete_one_author_mrr"]


def author_rank_table(
    distances: Any, relevance: Any, target_author: Any, n_authors: int, ties: str = "sort"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per relevant (query, target) row, in query order: the query's index, the target's
    rank, and ``(rows, n_authors)`` counts of each author's targets ahead of it."""
    d = np.asarray(distances, dtype=np.float64)
    rel = np.asarray(relevance, dtype=bool)
    owner = np.asarray(target_author)
    if d.ndim != 2 or rel.shape != d.shape or owner.shape != (d.shape[1],):
        raise ValueError(f"distances {d.shape}, relevance {rel.shape}, authors {owner.shape}")
    if ties not in ("sort", "pessimistic"):
        raise ValueError(f"ties must be 'sort' or 'pessimistic', not {ties!r}")
    onehot = np.zeros((d.shape[1], n_authors))
    onehot[np.arange(d.shape[1]), owner] = 1.0
    queries, ranks, counts = [], [], []
    for q in np.flatnonzero(rel.any(axis=1)):
        matches = np.flatnonzero(rel[q])
        if ties == "sort":
            position = np.empty(d.shape[1], dtype=np.int64)
            position[np.argsort(d[q], kind="stable")] = np.arange(d.shape[1])
            ahead = position[None, :] < position[matches, None]
        else:
            ahead = d[q][None, :] <= d[q][matches, None]
            ahead[np.arange(matches.size), matches] = False
        queries.append(np.full(matches.size, q))
        ranks.append(1 + ahead.sum(axis=1))
        counts.append(ahead.astype(np.float64) @ onehot)
    return (
        np.concatenate(queries),
        np.concatenate(ranks).astype(np.float64),
        np.concatenate(counts).round().astype(np.int64),
    )


def delete_one_author_mrr(
    match_query: Any, match_rank: Any, ahead: Any, query_author: Any
) -> np.ndarray:
    """``(G,)`` MRR with author ``a``'s queries and targets left out, for each author
    (the mean over the remaining queries of the mean reciprocal rank of their matches)."""
    mq = np.asarray(match_query)
    rank = np.asarray(match_rank, dtype=np.float64)
    counts = np.asarray(ahead, dtype=np.float64)
    authors = np.asarray(query_author)
    n_q, g = authors.size, counts.shape[1]
    per_row = 1.0 / (rank[:, None] - counts)  # (rows, G)
    n_matches = np.bincount(mq, minlength=n_q).astype(np.float64)
    per_query = np.stack([np.bincount(mq, col, n_q) for col in per_row.T], axis=1)
    per_query /= n_matches[:, None]  # (queries, G)
    own = authors[:, None] == np.arange(g)[None, :]
    kept = (~own).sum(axis=0)
    if (kept == 0).any():
        raise ValueError("leaving one author out leaves no query")
    return np.where(own, 0.0, per_query).sum(axis=0) / kept
