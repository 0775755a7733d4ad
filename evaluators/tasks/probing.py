"""Probing (STEB Sec. 3.1): which linguistic features a frozen embedding encodes.

Each feature is quantile-binned into (up to) 5 classes and split into balanced
train/validation/test sets (:func:`make_probing_columns`, used by the dataset builders).
A logistic-regression probe is trained per feature with its L2 strength chosen on the
validation set from {1e-5, 1e-4, 1e-3, 1e-2}; the main score is the mean test accuracy
over features.

The STEB authors train a linear layer with Adam where the L2 strength is a weight decay
λ on the mean loss; scikit-learn's ``LogisticRegression`` minimises
``C·Σ loss + ½‖w‖²``, so the equivalent is ``C = 1 / (λ · n_train)`` (our mapping).

``details["ci95"]`` records a 95 % percentile bootstrap CI of the mean accuracy (1,000
resamples, the evaluator's seed): in each replicate the test texts of every feature are
resampled with replacement (independently per feature), the feature's accuracy of the
*fixed* trained probe is recomputed, and the accuracies are averaged over features. The
probes are not retrained, so the interval covers the test sample only.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from dataset_scripts.core.schemas import probing_features
from evaluators.data import Table
from evaluators.tasks.base import (
    CI_N_BOOT,
    DEFAULT_SEED,
    EmbeddingLookup,
    TaskEvaluator,
    bootstrap_weights,
    ci_record,
)

L2_STRENGTHS = (1e-5, 1e-4, 1e-3, 1e-2)
N_BINS = 5
SPLIT_FRACTIONS = (0.8, 0.1, 0.1)


def quantile_bins(values: Sequence[float], n_bins: int = N_BINS) -> np.ndarray:
    """Bin continuous values into quantile classes 0..k-1 (k <= n_bins: bins whose
    edges coincide are merged, as pandas ``qcut(duplicates="drop")``)."""
    array = np.asarray(values, dtype=np.float64)
    edges = np.unique(np.quantile(array, np.linspace(0, 1, n_bins + 1)))
    if len(edges) < 2:
        return np.zeros(len(array), dtype=np.int64)
    # right-closed bins with the lowest edge included, like qcut(include_lowest=True)
    return np.clip(np.searchsorted(edges, array, side="left") - 1, 0, len(edges) - 2)


def make_probing_columns(
    values: Sequence[float], seed: int = DEFAULT_SEED, max_per_bin: int | None = None
) -> tuple[list[int | None], list[str | None]]:
    """Labels and balanced 80/10/10 splits for one feature.

    Every bin keeps the same number of texts (the smallest bin's size, optionally capped),
    drawn with a seeded generator; texts left out get ``None``.
    """
    bins = quantile_bins(values)
    rng = np.random.default_rng(seed)
    per_bin = min(np.bincount(bins).min(), max_per_bin or np.inf)
    labels: list[int | None] = [None] * len(bins)
    splits: list[str | None] = [None] * len(bins)
    for label in np.unique(bins):
        members = rng.permutation(np.flatnonzero(bins == label))[: int(per_bin)]
        n_train = int(len(members) * SPLIT_FRACTIONS[0])
        n_val = int(len(members) * SPLIT_FRACTIONS[1])
        for rank, index in enumerate(members):
            labels[index] = int(label)
            splits[index] = (
                "train" if rank < n_train else "validation" if rank < n_train + n_val else "test"
            )
    return labels, splits


def probing_ci(
    correct: dict[str, np.ndarray], seed: int = DEFAULT_SEED, n_boot: int = CI_N_BOOT
) -> dict[str, Any]:
    """``details["ci95"]`` of the mean probing accuracy from each feature's per-test-text
    correctness (resample test texts per feature, mean over features)."""
    rng = np.random.default_rng(seed)
    per_feature = []
    for hits in correct.values():
        hits = np.asarray(hits, dtype=np.float64)
        per_feature.append(bootstrap_weights(len(hits), n_boot, rng) @ hits / len(hits))
    replicates = np.mean(per_feature, axis=0)
    method = "percentile bootstrap over test texts per feature (fixed probes), mean over features"
    n_units = sum(len(hits) for hits in correct.values())
    return ci_record("accuracy", replicates, "test texts", n_units, method, seed)


class ProbingEvaluator(TaskEvaluator):
    task_type = "probing"
    schema = "probing"
    main_score_name = "accuracy"
    description = (
        "logistic-regression probe per binned feature (L2 chosen on validation); mean test accuracy"
    )

    def texts(self, table: Table) -> list[str]:
        return [row["text"] for row in table.rows]

    def probe(
        self, vectors: np.ndarray, labels: np.ndarray, splits: np.ndarray
    ) -> tuple[float, float]:
        """Test accuracy and the chosen L2 strength for one feature."""
        correct, strength = self.probe_predictions(vectors, labels, splits)
        return float(correct.mean()), strength

    def probe_predictions(
        self, vectors: np.ndarray, labels: np.ndarray, splits: np.ndarray
    ) -> tuple[np.ndarray, float]:
        """Whether the probe classifies each test text correctly, and the chosen L2."""
        from sklearn.exceptions import ConvergenceWarning  # here: costs start-up time
        from sklearn.linear_model import LogisticRegression

        train, val, test = (splits == s for s in ("train", "validation", "test"))
        if len(np.unique(labels[train])) < 2 or not val.any() or not test.any():
            raise ValueError(
                "a probing feature needs two classes in train and non-empty validation/test"
            )
        best = (-1.0, L2_STRENGTHS[0], None)
        for strength in L2_STRENGTHS:
            model = LogisticRegression(
                C=1.0 / (strength * train.sum()), max_iter=2000, random_state=self.seed
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                model.fit(vectors[train], labels[train])
            score = float((model.predict(vectors[val]) == labels[val]).mean())
            if score > best[0]:
                best = (score, strength, model)
        model = best[2]
        assert model is not None
        return model.predict(vectors[test]) == labels[test], best[1]

    def compute(
        self, table: Table, embed: EmbeddingLookup
    ) -> tuple[dict[str, float], dict[str, int], dict[str, Any]]:
        features = probing_features(list(table.rows[0]))
        if not features:
            raise ValueError(f"{table.source}: no label_<feature> columns to probe")
        vectors = embed(self.texts(table)).astype(np.float64)
        accuracies: dict[str, float] = {}
        chosen: dict[str, float] = {}
        correct: dict[str, np.ndarray] = {}
        for feature in features:
            keep = np.asarray([row[f"label_{feature}"] is not None for row in table.rows])
            labels = np.asarray([row[f"label_{feature}"] for row in table.rows], dtype=object)[
                keep
            ].astype(int)
            splits = np.asarray([row[f"split_{feature}"] for row in table.rows], dtype=object)[keep]
            correct[feature], chosen[feature] = self.probe_predictions(
                vectors[keep], labels, splits
            )
            accuracies[feature] = float(correct[feature].mean())
        metrics = {"accuracy": float(np.mean(list(accuracies.values())))}
        metrics.update({f"accuracy_{name}": value for name, value in accuracies.items()})
        counts = {"n_texts": len(table.rows), "n_features": len(features)}
        details = {"l2_strength": chosen, "ci95": probing_ci(correct, self.seed)}
        return metrics, counts, details
