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
are one author's texts, and every target enters every query's rank. Authors that share a
text are one unit (:func:`author_groups`); :func:`group_columns` merges their columns and
the same jackknife leaves a whole group out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["author_groups", "author_rank_table", "delete_one_author_mrr", "group_columns"]


def author_groups(authors: Any, texts: Any) -> dict[str, int]:
    """Each author's group: authors linked by a shared text (the same text in a query or
    target of both, directly or through others) are one group (connected components),
    numbered 0.. in order of first appearance. ``authors[k]`` owns ``texts[k]`` (an
    iterable of texts). A benchmark can hold one person's texts under several labels
    (PAN18's English problems reuse their candidates' texts): such labels are not
    independent units, their group is."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent.setdefault(root, root) != root:
            root = parent[root]
        while parent[x] != root:  # path compression
            parent[x], x = root, parent[x]
        return root

    owner: dict[Any, str] = {}
    for author, own in zip(authors, texts, strict=True):
        find(author)
        for text in own:
            if text in owner:
                a, b = find(author), find(owner[text])
                if a != b:
                    parent[a] = b
            else:
                owner[text] = author
    codes: dict[str, int] = {}
    return {a: codes.setdefault(find(a), len(codes)) for a in parent}


def group_columns(ahead: Any, group_of_author: Any) -> np.ndarray:
    """``(rows, groups)`` counts of each group's targets ahead of each row, from the
    per-author counts ``(rows, authors)`` and each author's group code."""
    counts = np.asarray(ahead)
    group = np.asarray(group_of_author)
    out = np.zeros((counts.shape[0], int(group.max()) + 1), dtype=counts.dtype)
    np.add.at(out.T, group, counts.T)
    return out


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
