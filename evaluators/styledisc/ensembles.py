"""Majority-vote (MV) and performance-weighted-vote (PWV) ensembles of metric votes, and
the search over ensemble compositions behind the paper's Table 3.

Votes are ``+1`` (T+ closer), ``-1`` (T- closer) or ``0`` (abstain: a tie or a judge's
Both/None/unparseable answer). An ensemble sums its members' votes (weighted by their
accuracy on a held-out *fit* split for PWV) and takes the sign; a zero sum is a tie and,
like a metric's tie under Eq. 1, counts as wrong.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

STRATEGIES = ("MV", "PWV")

# Metric families of Sec. 3.3 (the names are matched against metric families).
FAMILIES: dict[str, str] = {
    "ngram": "n-gram metrics",
    "not_llm": "all non-LLM metrics",
    "llm": "LLM judges",
    "os": "all open-source metrics",
    "all": "all metrics",
}


def _matrix(votes: Sequence[np.ndarray]) -> np.ndarray:
    matrix = np.vstack([np.asarray(v, dtype=np.float64) for v in votes])
    if not np.isin(matrix, (-1.0, 0.0, 1.0)).all():
        raise ValueError("votes must be -1, 0 or +1")
    return matrix


def majority_vote(votes: Sequence[np.ndarray]) -> np.ndarray:
    """Sign of the summed votes (0 on a tie)."""
    return np.sign(_matrix(votes).sum(axis=0)).astype(np.int8)


def weighted_vote(votes: Sequence[np.ndarray], weights: Sequence[float]) -> np.ndarray:
    """Sign of the weighted sum of votes (0 on a tie)."""
    w = np.asarray(weights, dtype=np.float64)
    matrix = _matrix(votes)
    if w.shape != (matrix.shape[0],):
        raise ValueError(f"{matrix.shape[0]} vote vectors but {w.size} weights")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("weights must be finite and non-negative")
    return np.sign(w @ matrix).astype(np.int8)


def accuracy(votes: np.ndarray) -> float:
    """Share of triplets voted T+ (ties and abstentions are wrong)."""
    votes = np.asarray(votes)
    if votes.size == 0:
        raise ValueError("accuracy of an empty vote vector")
    return float(np.mean(votes == 1))


def pwv_weights(fit_votes: Mapping[str, np.ndarray]) -> dict[str, float]:
    """PWV weights: each metric's accuracy on the fit split."""
    return {name: accuracy(v) for name, v in fit_votes.items()}


def ensemble_votes(
    strategy: str,
    members: Sequence[str],
    votes: Mapping[str, np.ndarray],
    weights: Mapping[str, float] | None = None,
) -> np.ndarray:
    """Votes of an MV or PWV ensemble of ``members``."""
    if strategy == "MV":
        return majority_vote([votes[m] for m in members])
    if strategy == "PWV":
        if weights is None:
            raise ValueError("PWV needs weights fitted on a held-out split")
        return weighted_vote([votes[m] for m in members], [weights[m] for m in members])
    raise ValueError(f"unknown ensemble strategy {strategy!r}; known: {STRATEGIES}")


@dataclass(frozen=True)
class Composition:
    strategy: str
    family: str
    members: tuple[str, ...]
    fit_score: float


def search_composition(
    strategy: str,
    family: str,
    candidates: Sequence[str],
    fit_votes: Mapping[str, np.ndarray],
    fit_groups: np.ndarray,
    weights: Mapping[str, float] | None = None,
    min_size: int = 2,
) -> Composition | None:
    """The subset of ``candidates`` (at least ``min_size``) whose ensemble has the best
    mean accuracy over the groups (settings) of the fit split; ties go to the smaller,
    then alphabetically first subset. ``None`` with fewer than ``min_size`` candidates."""
    names = sorted(candidates)
    groups = [g for g in dict.fromkeys(fit_groups.tolist())]
    best: Composition | None = None
    for size in range(min_size, len(names) + 1):
        for members in itertools.combinations(names, size):
            votes = ensemble_votes(strategy, members, fit_votes, weights)
            score = float(np.mean([accuracy(votes[fit_groups == g]) for g in groups]))
            if best is None or score > best.fit_score + 1e-12:
                best = Composition(strategy, family, members, score)
    return best
