"""Influence of the target collection on a retrieval score: how the mean reciprocal rank
moves when one target's multiplicity changes (the derivative at the observed collection,
an infinitesimal-jackknife term). With it, a comparison can treat targets, not only
queries, as sampled units (:mod:`evaluators.compare.units`).

A query's score (the STEB rule, :func:`evaluators.metric_math.retrieval.all_match_scores`
with ``ties="sort"``) is the mean over its relevant targets ``m`` of ``1 / r_m``, ``r_m``
the 1-based position of ``m`` in the stable sort of the query's distances. With target
multiplicities ``w``: ``r_m(w) = 1 + sum_{t before m} w_t`` and the mean over matches
weighted by ``w_m``, so at ``w = 1``

``d score_q / d w_t = (- sum_{m relevant, after t} 1 / r_m^2 + [t relevant] (1 / r_t -
score_q)) / |M_q|``

and the MRR's influence is the mean over queries.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["mrr_target_influence"]


def mrr_target_influence(distances: Any, relevance: Any) -> np.ndarray:
    """``(n_targets,)`` derivative of the MRR (mean over queries of the mean reciprocal
    rank of every relevant target, stable-sort ranks) with respect to each target's
    multiplicity (module doc). Every query needs a relevant target."""
    d = np.asarray(distances, dtype=np.float64)
    rel = np.asarray(relevance, dtype=bool)
    if d.ndim != 2 or rel.shape != d.shape:
        raise ValueError(f"distances {d.shape} and relevance {rel.shape} must be one 2-d shape")
    n_rel = rel.sum(axis=1)
    if not n_rel.all():
        raise ValueError(f"query {int(np.argmin(n_rel))} has no relevant target")
    order = np.argsort(d, axis=1, kind="stable")
    hits = np.take_along_axis(rel, order, axis=1).astype(np.float64)
    position = np.arange(1, d.shape[1] + 1, dtype=np.float64)[None, :]
    score = (hits / position).sum(axis=1, keepdims=True) / n_rel[:, None]
    after = hits / position**2
    later = np.cumsum(after[:, ::-1], axis=1)[:, ::-1] - after  # relevant targets after
    sorted_influence = (-later + hits * (1.0 / position - score)) / n_rel[:, None]
    influence = np.empty_like(sorted_influence)
    np.put_along_axis(influence, order, sorted_influence, axis=1)
    return influence.mean(axis=0)
