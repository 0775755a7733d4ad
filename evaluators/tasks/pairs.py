"""Pair classification (STEB Sec. 3.1): cosine similarity of two embeddings scores
"same label"; reported as AUROC (main), EER and standardised partial AUCs.

*All-to-all* compares every text with every other (all i < j); *predefined* scores a
given list of pairs (e.g. cross-topic PAN pairs).

Both record a 95 % CI of the AUROC in ``details["ci95"]`` (STEB reports none), a normal
interval ``AUC +- 1.96 se`` clipped to [0, 1], whose standard error comes from the
placement values of the pairs (one sort, no resampling):

* predefined pairs: the pairs are the independent units; DeLong et al. (1988):
  ``se^2 = var(V_pos) / n_pos + var(U_neg) / n_neg`` with ``V_p`` the share of
  negative pairs scored below positive pair ``p`` (ties 1/2) and ``U_q`` the share of
  positive pairs scored above negative pair ``q``.
* all-to-all pairs: the pairs share texts, so the *texts* are the units. ``se^2`` is
  the variance of the text bootstrap to first order (the infinitesimal jackknife):
  with ``psi_t = sum_{positive pairs p with t} (V_p - AUC) / n_pos + sum_{negative
  pairs q with t} (U_q - AUC) / n_neg`` (the derivative of the weighted AUROC with
  respect to text ``t``'s multiplicity), ``se^2 = sum_t psi_t^2`` plus the pair-level
  DeLong term above (the second-order part, which dominates near AUC = 0.5 where the
  text-level part shrinks; together they match the text bootstrap's width within about
  5 %). On 1.28 M pairs this
  takes a fraction of a second where 1,000 bootstrap replicates took seconds; the
  resampling version (:func:`all_pairs_ci`, weighted pairs of resampled texts) is kept
  and the tests check that the two agree.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schemas import ALL_TO_ALL, PREDEFINED
from evaluators.data import Table
from evaluators.metric_math import roc_auc, roc_summary
from evaluators.metric_math.grid import fixed_sum, grid_cosines, grid_row_cosines
from evaluators.metric_math.paired import Z_95
from evaluators.metric_math.resampling import generator, index_draws, multinomial_counts
from evaluators.records.items import make_items
from evaluators.tasks.base import (
    CI_N_BOOT,
    DEFAULT_SEED,
    EmbeddingLookup,
    TaskEvaluator,
    ci_record,
    labelled_episode_groups,
    labelled_samples,
    labelled_texts,
)
from evaluators.tasks.facts import TASK_FACTS

PARTIAL_AUC_FPRS = (0.01, 0.05, 0.1, 0.2, 0.3, 0.5)  # STEB metrics.py: auc@0.01..0.50
CI_MAX_PAIRS = 100_000  # all-to-all CI: pairs scored per replicate (stratified subsample)
CI_CHUNK = 25  # all-to-all CI: replicates computed together (memory ~ chunk x pairs)


def require_both_kinds(positive: np.ndarray, no_positive: str, no_negative: str) -> None:
    """A :class:`DataError` saying why pairs cannot be scored: an AUROC needs positive
    and negative pairs (``no_positive`` / ``no_negative``: the cause in the data's terms)."""
    n_pos = int(np.count_nonzero(positive))
    if n_pos == 0 or n_pos == positive.size:
        cause = no_positive if n_pos == 0 else no_negative
        kind = "positive" if n_pos == 0 else "negative"
        pairs = f"{positive.size} pair{'' if positive.size == 1 else 's'}"
        raise DataError(
            f"no {kind} pair among {pairs}: {cause}; the AUROC needs pairs of both kinds"
        )


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
    one matrix product, one boolean mask, no loop over pairs (exact gridded cosines,
    :mod:`evaluators.metric_math.grid`, rounded to float32 once: the same on every CPU)."""
    similarity = grid_cosines(vectors).astype(np.float32)
    upper = np.triu(np.ones(similarity.shape, dtype=bool), k=1)
    _, codes = np.unique(labels, return_inverse=True)
    same = codes[:, None] == codes[None, :]
    return similarity[upper], same[upper]


def placement_values(
    scores: np.ndarray, positive: np.ndarray
) -> tuple[np.ndarray, np.ndarray, float]:
    """Placement of every pair: for positives the share of negatives scored below
    (ties 1/2), for negatives the share of positives scored above (ties 1/2); their
    means are both the AUROC (returned third). One sort; tied scores form blocks."""
    positive = np.asarray(positive, dtype=bool)
    n_pos = int(np.count_nonzero(positive))
    n_neg = positive.size - n_pos
    if n_pos == 0 or n_neg == 0:
        raise ValueError("the AUROC needs positive and negative pairs")
    order = np.argsort(scores)  # ties are handled as blocks: no stable sort needed
    sorted_scores = np.asarray(scores)[order]
    sorted_pos = positive[order]
    new_block = np.empty(sorted_scores.size, dtype=bool)
    new_block[0] = True
    np.not_equal(sorted_scores[1:], sorted_scores[:-1], out=new_block[1:])
    block = np.cumsum(new_block) - 1
    pos_in = np.bincount(block, weights=sorted_pos)
    neg_in = np.bincount(block) - pos_in
    neg_below = np.cumsum(neg_in) - neg_in
    pos_above = n_pos - np.cumsum(pos_in)
    placement_sorted = np.where(
        sorted_pos,
        (neg_below[block] + 0.5 * neg_in[block]) / n_neg,
        (pos_above[block] + 0.5 * pos_in[block]) / n_pos,
    )
    placement = np.empty(sorted_scores.size)
    placement[order] = placement_sorted
    auc = float(fixed_sum(placement_sorted[sorted_pos])) / n_pos
    return placement, positive, auc


def _normal_interval(auc: float, se: float) -> list[float]:
    return [float(max(0.0, auc - Z_95 * se)), float(min(1.0, auc + Z_95 * se))]


def delong_ci(scores: np.ndarray, labels: np.ndarray) -> dict[str, Any]:
    """``details["ci95"]`` of a predefined-pairs AUROC: DeLong's variance (module doc)."""
    placement, positive, auc = placement_values(scores, labels)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    var = 0.0
    if n_pos > 1:
        var += float(np.var(placement[positive], ddof=1)) / n_pos
    if n_neg > 1:
        var += float(np.var(placement[~positive], ddof=1)) / n_neg
    se = float(np.sqrt(var))
    return {
        "auc": _normal_interval(auc, se),
        "se": se,
        "unit": "pairs",
        "n_units": n_pos + n_neg,
        "method": "normal interval, DeLong (1988) variance of the AUROC over pairs",
    }


def all_pairs_influence_ci(scores: np.ndarray, same: np.ndarray, n_texts: int) -> dict[str, Any]:
    """``details["ci95"]`` of an all-to-all AUROC: text-level infinitesimal-jackknife
    variance (module doc). ``scores``/``same`` are :func:`all_pairs`' output."""
    placement, positive, auc = placement_values(scores, same)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    contribution = np.where(positive, (placement - auc) / n_pos, (placement - auc) / n_neg)
    first, second = np.triu_indices(n_texts, k=1)
    psi = np.bincount(first, contribution, n_texts) + np.bincount(second, contribution, n_texts)
    # + the pair-level (second-order) term, DeLong's variance with pairs as units: near
    # AUC = 0.5 the text-level term shrinks and this one matters (the text bootstrap's
    # width is matched within ~5 %, checked in tests/parity/test_ci_containment.py)
    pair_level = (
        np.var(placement[positive], ddof=1) / n_pos + np.var(placement[~positive], ddof=1) / n_neg
    )
    se = float(np.sqrt(np.sum(psi**2) + pair_level))
    return {
        "auc": _normal_interval(auc, se),
        "se": se,
        "unit": "texts",
        "n_units": int(n_texts),
        "method": (
            "normal interval, variance of the AUROC over texts: infinitesimal jackknife "
            "(first-order text bootstrap) plus the pair-level DeLong term"
        ),
    }


def text_auc_items(scores: np.ndarray, same: np.ndarray, n_texts: int) -> dict[str, Any]:
    """Per-text units of an all-to-all AUROC for the result record
    (:mod:`evaluators.records.items`, kind ``text_auc``): each text's sum of the
    placement values of its positive pairs (their total over texts is twice the AUROC's
    numerator) and its influence ``psi`` (as in :func:`all_pairs_influence_ci`)."""
    placement, positive, auc = placement_values(scores, same)
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    first, second = np.triu_indices(n_texts, k=1)
    on_positive = np.where(positive, placement, 0.0)
    per_text = np.bincount(first, on_positive, n_texts) + np.bincount(second, on_positive, n_texts)
    contribution = np.where(positive, (placement - auc) / n_pos, (placement - auc) / n_neg)
    psi = np.bincount(first, contribution, n_texts) + np.bincount(second, contribution, n_texts)
    return make_items(
        "text_auc",
        "texts",
        {
            "placement": (per_text, "f8"),
            "psi": (psi, "f8"),
            "n_positive_pairs": ([n_pos], "i4"),
        },
    )


def predefined_pairs_ci(
    scores: np.ndarray, labels: np.ndarray, seed: int = DEFAULT_SEED, n_boot: int = CI_N_BOOT
) -> dict[str, Any]:
    """``details["ci95"]`` of a predefined-pairs AUROC: resample the pairs (module doc)."""
    scores = np.asarray(scores)
    positive = np.asarray(labels).astype(bool)
    rng = generator(seed)
    n = len(scores)
    replicates = np.full(n_boot, np.nan)
    for b in range(n_boot):
        picks = index_draws(n, rng)
        drawn = positive[picks]
        if drawn.any() and not drawn.all():
            replicates[b] = roc_auc(scores[picks], drawn)
    method = "percentile bootstrap over pairs, AUROC by metric_math.roc_auc"
    return ci_record("auc", replicates, "pairs", n, method, seed)


def _block_sums(weights: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Sums of contiguous row blocks ending at rows ``ends`` (inclusive), via one cumsum
    (``np.add.reduceat`` is far slower on 2-D arrays with many blocks)."""
    at_ends = np.cumsum(weights, axis=0)[ends]
    at_ends[1:] -= at_ends[:-1].copy()
    return at_ends


def weighted_pair_auc(
    sorted_scores: np.ndarray,
    positive: np.ndarray,
    pair_weights: np.ndarray,
    block_starts: np.ndarray | None = None,
) -> np.ndarray:
    """AUROC of weighted pairs for a batch of weightings (the *columns* of
    ``pair_weights``, shape ``(n_pairs,)`` or ``(n_pairs, n_weightings)``):
    ``sum_{p pos, q neg} w_p w_q ([s_p > s_q] + [s_p == s_q] / 2) / (W_pos W_neg)``.

    ``sorted_scores`` must be ascending; ties form contiguous blocks (``block_starts``,
    computed when not given), so each weighting costs a few passes over the pairs.
    With all weights 1 this is the Mann-Whitney AUROC of ``metric_math.roc_auc``; a
    weighting with no positive or no negative weight gives NaN."""
    weights = np.asarray(pair_weights, dtype=np.float64)
    if weights.ndim == 1:
        weights = weights[:, None]
    if block_starts is None:
        block_starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    pos_weights = weights * np.asarray(positive, dtype=bool)[:, None]
    neg_weights = weights - pos_weights
    if len(block_starts) < len(sorted_scores):  # tied scores: sum each block first
        ends = np.r_[block_starts[1:], len(sorted_scores)] - 1
        pos_weights, neg_weights = (_block_sums(w, ends) for w in (pos_weights, neg_weights))
    below = np.cumsum(neg_weights, axis=0) - neg_weights
    numerator = (pos_weights * (below + 0.5 * neg_weights)).sum(axis=0)
    denominator = pos_weights.sum(axis=0) * neg_weights.sum(axis=0)
    safe = np.where(denominator > 0, denominator, 1.0)
    return np.where(denominator > 0, numerator / safe, np.nan)


def all_pairs_ci(
    scores: np.ndarray,
    same: np.ndarray,
    n_texts: int,
    seed: int = DEFAULT_SEED,
    n_boot: int = CI_N_BOOT,
    max_pairs: int = CI_MAX_PAIRS,
) -> dict[str, Any]:
    """``details["ci95"]`` of an all-to-all AUROC: resample the texts (module doc).
    ``scores``/``same`` are :func:`all_pairs`' output (pairs i < j in row-major order)."""
    rng = generator(seed)
    first, second = np.triu_indices(n_texts, k=1)
    selected = np.arange(len(scores))
    if len(scores) > max_pairs:
        parts = []
        for flag in (True, False):
            members = np.flatnonzero(same == flag)
            if members.size > max_pairs // 2:
                members = members[rng.choice(members.size, max_pairs // 2, replace=False)]
            parts.append(members)
        selected = np.sort(np.concatenate(parts))
    order = selected[np.argsort(scores[selected], kind="stable")]
    sorted_scores, positive = scores[order], same[order]
    first, second = first[order], second[order]
    starts = np.flatnonzero(np.r_[True, sorted_scores[1:] != sorted_scores[:-1]])
    replicates = []
    for done in range(0, n_boot, CI_CHUNK):
        size = min(CI_CHUNK, n_boot - done)
        weights = multinomial_counts(n_texts, size, rng).T.astype(np.float32, order="C")
        pair_weights = weights[first] * weights[second]  # pairs x replicates
        replicates.append(weighted_pair_auc(sorted_scores, positive, pair_weights, starts))
    method = "percentile bootstrap over texts (weighted pairs of resampled texts, no self-pairs)"
    if len(selected) < len(scores):
        method += f"; replicates on a seeded class-stratified subsample of {len(selected)} pairs"
    return ci_record("auc", np.concatenate(replicates), "texts", n_texts, method, seed)


def per_label_pair_metrics(
    scores: np.ndarray, labels: np.ndarray, n_samples: int
) -> dict[str, dict[str, float]]:
    """The STEB authors' per-label "label vs. all other labels" payload of the all-to-all
    task (their ``_per_label``): for each label L, the pairs with at least one sample of
    L; positive = both are L, negative = exactly one is. AUROC, EER and partial AUCs as
    the global ones, plus the pair counts; labels with no positive or no negative pair
    (a single sample, or every sample L) are left out, as theirs are. ``scores`` are
    :func:`all_pairs`' (pairs i < j in row-major order)."""
    names, codes = np.unique(labels, return_inverse=True)
    first, second = np.triu_indices(n_samples, k=1)
    code_i, code_j = codes[first], codes[second]
    # pairs grouped by each endpoint's label (one stable sort each, not a mask per label)
    by_i, by_j = np.argsort(code_i, kind="stable"), np.argsort(code_j, kind="stable")
    bounds_i = np.searchsorted(code_i[by_i], np.arange(len(names) + 1))
    bounds_j = np.searchsorted(code_j[by_j], np.arange(len(names) + 1))
    out: dict[str, dict[str, float]] = {}
    for code, label in enumerate(names):
        left = by_i[bounds_i[code] : bounds_i[code + 1]]
        right = by_j[bounds_j[code] : bounds_j[code + 1]]
        touches = np.concatenate([left, right[code_i[right] != code]])  # both-L pairs once
        positive = (code_i[touches] == code) & (code_j[touches] == code)
        if not positive.any() or positive.all():
            continue
        entry: dict[str, float] = dict(pair_metrics(scores[touches], positive))
        entry["n_pairs"] = int(positive.size)
        entry["n_positive_pairs"] = int(positive.sum())
        out[str(label)] = entry
    return out


def pair_text_ids(rows: list[dict[str, Any]]) -> np.ndarray:
    """``(2, n_pairs)`` ids of each pair's ``text1`` and ``text2``: equal texts share an
    id, numbered in order of first appearance (text1 before text2, row by row)."""
    ids: dict[str, int] = {}
    out = np.empty((2, len(rows)), dtype=np.int64)
    for p, row in enumerate(rows):
        for side, key in enumerate(("text1", "text2")):
            out[side, p] = ids.setdefault(row[key], len(ids))
    return out


class AllToAllPairsEvaluator(TaskEvaluator):
    facts = TASK_FACTS[ALL_TO_ALL]
    description = "cosine of every pair i<j, same label = positive; AUROC, EER, partial AUC"
    episodes = "k"
    class_column = "label"

    def texts(self, table: Table) -> list[str]:
        return labelled_texts(table, self.sampling)

    def episode_groups(self, table: Table) -> list[tuple[str, ...]]:
        return labelled_episode_groups(table, self.sampling)

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        labels, vectors, counts, details = labelled_samples(table, embed, self.sampling)
        labels = np.asarray(labels)
        scores, same = all_pairs(vectors, labels)
        require_both_kinds(
            same,
            f"no two of its {len(labels)} texts share a label",
            f"all {len(labels)} texts have the same label",
        )
        metrics = pair_metrics(scores, same)
        counts |= {"n_pairs": int(scores.size), "n_positive_pairs": int(same.sum())}
        details["ci95"] = all_pairs_influence_ci(scores, same, len(labels))
        details["items"] = text_auc_items(scores, same, len(labels))
        details["per_label"] = per_label_pair_metrics(scores, labels, len(labels))
        return metrics, counts, details


class PredefinedPairsEvaluator(TaskEvaluator):
    facts = TASK_FACTS[PREDEFINED]
    description = "cosine of each given pair; AUROC, EER, partial AUC"

    def texts(self, table: Table) -> list[str]:
        return [t for row in table.rows for t in (row["text1"], row["text2"])]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        # exact gridded cosines rounded once to float32 (as all_pairs: CPU-independent)
        left = embed(row["text1"] for row in table.rows)
        right = embed(row["text2"] for row in table.rows)
        scores = grid_row_cosines(left, right).astype(np.float32)
        labels = np.asarray([row["label"] for row in table.rows], dtype=np.int8)
        require_both_kinds(labels, "every pair is labelled 0", "every pair is labelled 1")
        text_ids = pair_text_ids(table.rows)
        counts = {"n_pairs": len(labels), "n_positive_pairs": int(labels.sum())}
        details = {
            "ci95": delong_ci(scores, labels),
            "items": make_items(
                "auc",
                "pairs",
                {
                    "scores": (scores, "f8"),
                    "labels": (labels, "i4"),
                    # per pair, its two texts (numbered by first appearance): pairs that
                    # share a text are not independent (evaluators.compare)
                    "text_1": (text_ids[0], "i4"),
                    "text_2": (text_ids[1], "i4"),
                },
            ),
        }
        return pair_metrics(scores, labels), counts, details
