"""Ranking metrics for (authorship) retrieval: MRR, mean rank and recall@k.

References
----------
.. [1] Voorhees, E. M. (1999). The TREC-8 Question Answering Track Report. TREC-8 (MRR).
.. [2] Rivera-Soto, R. A. et al. (2021). Learning Universal Authorship Representations.
   EMNLP 2021 (authorship retrieval with R@k and MRR).
.. [3] STEB: the Style Text Embedding Benchmark (2026), Sec. 3.1 "Retrieval".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._checks import as_finite_matrix, check_ks
from .grid import fixed_mean, fixed_sum, grid_cosines

__all__ = [
    "all_match_scores",
    "cosine_similarity_matrix",
    "first_relevant_ranks",
    "retrieval_scores",
]


def cosine_similarity_matrix(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Cosine similarity between every row of ``a`` and every row of ``b``, as float32.

    Rows are L2-normalised first; a zero row stays zero, so its similarity with anything
    is 0 (never NaN). The cosines are the exact gridded ones of
    :func:`evaluators.metric_math.grid.grid_cosines` (unit vectors on the ``2^-26``
    grid, integer dot products), rounded to float32 once: the result is the same bits
    on every BLAS kernel, thread count and SIMD level; exact ties stay ties.

    Parameters
    ----------
    a : array-like of shape (n_a, d)
    b : array-like of shape (n_b, d)

    Returns
    -------
    ndarray of shape (n_a, n_b), float32, values in [-1, 1] (up to rounding).

    Examples
    --------
    >>> sim = cosine_similarity_matrix([[1, 0], [0, 0]], [[2, 0], [1, 1]])
    >>> sim.dtype, [[round(float(v), 4) for v in row] for row in sim]
    (dtype('float32'), [[1.0, 0.7071], [0.0, 0.0]])
    """
    x = as_finite_matrix(a, "a").astype(np.float64, copy=False)
    y = as_finite_matrix(b, "b").astype(np.float64, copy=False)
    if x.shape[1] != y.shape[1]:
        raise ValueError(f"a and b differ in dimension ({x.shape[1]} != {y.shape[1]})")
    return grid_cosines(x, y).astype(np.float32)


def _as_mask(values: Any, name: str, shape: tuple[int, int]) -> np.ndarray:
    arr = np.asarray(values)
    if arr.shape != shape:
        raise ValueError(f"{name} must have the shape of scores {shape}; got {arr.shape}")
    if arr.dtype.kind == "b":
        return arr
    if arr.dtype.kind not in "iuf" or not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must be 0/1 or boolean")
    return arr.astype(bool)


def first_relevant_ranks(
    scores: ArrayLike, relevance: ArrayLike, ignore: ArrayLike | None = None
) -> np.ndarray:
    """1-based rank of the best-scoring relevant target of each query (pessimistic ties).

    ``rank = 1 + #{non-relevant, non-ignored targets with score >= best relevant score}``:
    a competitor that ties the best relevant target is ranked above it. See
    :func:`retrieval_scores` for the parameters.
    """
    s = as_finite_matrix(scores, "scores")
    rel = _as_mask(relevance, "relevance", s.shape)
    has_relevant = rel.any(axis=1)
    if not has_relevant.all():
        q = int(np.argmin(has_relevant))
        raise ValueError(f"relevance has no relevant target for query {q}")
    competitors = ~rel
    if ignore is not None:
        ign = _as_mask(ignore, "ignore", s.shape)
        if (ign & rel).any():
            q = int(np.argmax((ign & rel).any(axis=1)))
            raise ValueError(f"ignore marks a relevant target as ignored for query {q}")
        competitors &= ~ign
    best = np.where(rel, s, -np.inf).max(axis=1)
    beaten = (s >= best[:, None]) & competitors
    return 1 + np.count_nonzero(beaten, axis=1)


def retrieval_scores(
    scores: ArrayLike,
    relevance: ArrayLike,
    ks: Sequence[int] | int = (1, 5, 10),
    ignore: ArrayLike | None = None,
) -> dict[str, float | int]:
    """MRR, mean rank and recall@k of a query-by-target score matrix.

    For each query the rank of its *first* relevant target is taken (the best-scoring
    one). Ties are broken pessimistically: every non-relevant target whose score is
    ``>=`` the best relevant score ranks above it, so a constant scorer gets the worst
    rank rather than the best. With exactly one relevant target per query (STEB's
    retrieval: one vector per author and side) the numbers are STEB's ``mrr``,
    ``mean_rank`` and ``recall@k`` (STEB breaks exact ties by sort order instead).

    Parameters
    ----------
    scores : array-like of shape (n_queries, n_targets)
        Similarity of each query to each target, higher = more similar (e.g.
        :func:`cosine_similarity_matrix`). float32 stays float32.
    relevance : array-like of shape (n_queries, n_targets)
        True/1 where the target is relevant (same author). Every query needs at least one.
    ks : int or sequence of int, default (1, 5, 10)
        Cut-offs for ``recall@k`` (STEB uses 1, 8, 16, 32, 64, 128).
    ignore : array-like of shape (n_queries, n_targets), optional
        True where a target takes no part in a query's ranking (e.g. the query itself
        in an all-vs-all setup). It must not mark relevant targets.

    Returns
    -------
    dict
        ``mrr`` (mean of 1/rank), ``mean_rank``, ``recall@<k>`` for each k (fraction of
        queries whose first relevant target is within the top k, i.e. success@k) and
        ``n_queries``.

    Raises
    ------
    ValueError
        Empty or non-finite scores, shape mismatch, non-binary relevance, a query with no
        relevant target (named by index), or non-positive ``ks``.

    Examples
    --------
    >>> retrieval_scores([[0.9, 0.1, 0.5], [0.2, 0.3, 0.4]], [[1, 0, 0], [1, 0, 0]], ks=[1, 2])
    {'mrr': 0.6666666666666666, 'mean_rank': 2.0, 'recall@1': 0.5, 'recall@2': 0.5, 'n_queries': 2}
    >>> retrieval_scores([[0.5, 0.5]], [[1, 0]], ks=1)["mean_rank"]  # pessimistic tie
    2.0
    """
    cut = check_ks(ks)
    ranks = first_relevant_ranks(scores, relevance, ignore)
    out: dict[str, float | int] = {
        "mrr": fixed_mean(1.0 / ranks),
        "mean_rank": float(np.mean(ranks)),
    }
    for k in cut:
        out[f"recall@{k}"] = float(np.mean(ranks <= k))
    out["n_queries"] = int(ranks.size)
    return out


def all_match_scores(
    distances: ArrayLike,
    relevance: ArrayLike,
    ks: Sequence[int] | int = (1, 8, 16, 32, 64, 128),
    ties: str = "sort",
) -> dict[str, np.ndarray]:
    """Per-query retrieval scores over *every* relevant target (the STEB authors' rule).

    Each query's targets are ordered by ascending distance and every relevant target's
    1-based rank is taken: ``mrr`` is the mean of ``1/rank`` over the query's relevant
    targets, ``mean_rank`` the mean rank, ``recall@k`` the fraction of its relevant
    targets ranked within the top ``k`` (for every ``k``, also ``k >=`` the number of
    targets, where it is 1). With one relevant target per query these are the usual
    MRR, mean rank and success@k.

    Parameters
    ----------
    distances : array-like of shape (n_queries, n_targets)
        Lower = closer (e.g. cosine distance ``1 - cos``).
    relevance : array-like of shape (n_queries, n_targets)
        True/1 where the target is relevant; every query needs at least one.
    ks : int or sequence of int
    ties : "sort" or "pessimistic"
        ``"sort"``: ranks are positions in a *stable* ``numpy.argsort`` of each row
        (the STEB code's ranking; exact ties keep target order, where numpy's default
        sort orders them differently with its SIMD level). ``"pessimistic"``: a
        target's rank is 1 + the number of other targets at a distance ``<=`` its own.

    Returns
    -------
    dict of per-query arrays (``mrr``, ``mean_rank``, ``recall@<k>``); average them for
    the dataset score.

    Examples
    --------
    >>> out = all_match_scores([[0.1, 0.5, 0.3]], [[1, 0, 1]], ks=[1, 2])
    >>> [float(out[k][0]) for k in ("mrr", "mean_rank", "recall@1", "recall@2")]
    [0.75, 1.5, 0.5, 1.0]
    """
    cut = check_ks(ks)
    d = as_finite_matrix(distances, "distances")
    rel = _as_mask(relevance, "relevance", d.shape)
    n_rel = rel.sum(axis=1)
    if not n_rel.all():
        q = int(np.argmin(n_rel))
        raise ValueError(f"relevance has no relevant target for query {q}")
    if ties == "sort":
        order = np.argsort(d, axis=1, kind="stable")
        hits = np.take_along_axis(rel, order, axis=1)
        positions = np.arange(1, d.shape[1] + 1, dtype=np.float64)[None, :]
        inverse = fixed_sum(hits / positions, axis=1)  # the same bits on every CPU
        rank_sum = (hits * positions).sum(axis=1)
        within = np.cumsum(hits, axis=1)
        recall = {k: within[:, min(k, d.shape[1]) - 1] / n_rel for k in cut}
    elif ties == "pessimistic":
        inverse = np.zeros(d.shape[0])
        rank_sum = np.zeros(d.shape[0])
        recall = {k: np.zeros(d.shape[0]) for k in cut}
        for q in range(d.shape[0]):
            ranks = (d[q][None, :] <= d[q][rel[q]][:, None]).sum(axis=1).astype(np.float64)
            inverse[q] = float(fixed_sum(1.0 / ranks))
            rank_sum[q] = ranks.sum()
            for k in cut:
                recall[k][q] = np.count_nonzero(ranks <= k) / n_rel[q]
    else:
        raise ValueError(f"ties must be 'sort' or 'pessimistic'; got {ties!r}")
    out = {"mrr": inverse / n_rel, "mean_rank": rank_sum / n_rel}
    out |= {f"recall@{k}": recall[k] for k in cut}
    return out
