"""Retrieval scores against a plain-Python ranking, cosine similarity and bad input."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import cosine_similarity

from evaluators.metric_math import cosine_similarity_matrix, first_relevant_ranks, retrieval_scores


def python_ranks(scores, relevance, ignore=None):
    """Pessimistic rank of the best relevant target, one query at a time."""
    ranks = []
    for q, row in enumerate(scores):
        rel = [j for j, r in enumerate(relevance[q]) if r]
        best = max(row[j] for j in rel)
        ranks.append(
            1
            + sum(
                1
                for j, s in enumerate(row)
                if not relevance[q][j] and not (ignore is not None and ignore[q][j]) and s >= best
            )
        )
    return ranks


@pytest.mark.parametrize("seed", range(15))
def test_matches_python_ranking(seed):
    rng = np.random.default_rng(seed)
    nq, nt = int(rng.integers(1, 30)), int(rng.integers(2, 40))
    scores = np.round(rng.random((nq, nt)), 1).astype(np.float32)  # ties
    relevance = rng.random((nq, nt)) < 0.2
    relevance[np.arange(nq), rng.integers(0, nt, nq)] = True
    ignore = (rng.random((nq, nt)) < 0.1) & ~relevance
    for ign in (None, ignore):
        ranks = np.array(python_ranks(scores.tolist(), relevance.tolist(), ign))
        np.testing.assert_array_equal(first_relevant_ranks(scores, relevance, ign), ranks)
        out = retrieval_scores(scores, relevance.astype(int), ks=(1, 3, 10), ignore=ign)
        assert out["mrr"] == pytest.approx(np.mean(1 / ranks))
        assert out["mean_rank"] == pytest.approx(np.mean(ranks))
        for k in (1, 3, 10):
            assert out[f"recall@{k}"] == pytest.approx(np.mean(ranks <= k))
        assert out["n_queries"] == nq


def test_hand_example_and_pessimistic_ties():
    out = retrieval_scores([[0.9, 0.1, 0.5], [0.2, 0.3, 0.4]], [[1, 0, 0], [1, 0, 0]], ks=[1, 2])
    # query 0: relevant target scores best -> rank 1; query 1: two targets above -> rank 3
    assert out == {
        "mrr": pytest.approx((1 + 1 / 3) / 2),
        "mean_rank": 2.0,
        "recall@1": 0.5,
        "recall@2": 0.5,
        "n_queries": 2,
    }
    assert retrieval_scores([[0.5, 0.5, 0.5]], [[1, 0, 0]], ks=1)["mean_rank"] == 3.0
    # the query itself ignored in an all-vs-all setup
    assert retrieval_scores([[1.0, 0.2, 0.7]], [[0, 0, 1]], ks=1, ignore=[[1, 0, 0]])["mrr"] == 1.0


def test_cosine_similarity_matrix():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 7)), rng.normal(size=(4, 7))
    sim = cosine_similarity_matrix(a, b)
    assert sim.dtype == np.float32 and sim.shape == (5, 4)
    np.testing.assert_allclose(sim, cosine_similarity(a, b), atol=1e-6)
    a[2] = 0
    sim = cosine_similarity_matrix(a, b)
    assert not np.isnan(sim).any() and np.all(sim[2] == 0)


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        (
            ([[0.1, 0.2], [0.3, 0.4]], [[1, 0], [0, 0]]),
            {},
            "relevance has no relevant target for query 1",
        ),
        (([[0.1, 0.2]], [[1, 0, 0]]), {}, r"relevance must have the shape of scores \(1, 2\)"),
        (([[0.1, np.nan]], [[1, 0]]), {}, "scores contains NaN or infinite values"),
        (([[0.1, 0.2]], [[2, 0]]), {}, "relevance must be 0/1 or boolean"),
        (([], []), {}, "scores must be 2-D"),
        (([[0.1, 0.2]], [[1, 0]]), {"ks": [0]}, "ks must hold positive integers"),
        (([[0.1, 0.2]], [[1, 0]]), {"ks": []}, "ks is empty"),
        (([[0.1, 0.2]], [[1, 0]]), {"ignore": [[1, 0]]}, "ignore marks a relevant target"),
    ],
)
def test_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        retrieval_scores(*args, **kwargs)


def test_bad_cosine_input():
    with pytest.raises(ValueError, match=r"a and b differ in dimension \(2 != 3\)"):
        cosine_similarity_matrix([[1, 0]], [[1, 0, 0]])
    with pytest.raises(ValueError, match="a contains NaN or infinite values"):
        cosine_similarity_matrix([[np.inf, 0]], [[1, 0]])
