"""Labels and splits of a probing table: quantile bins, balanced per-bin samples, 80/10/10.

The rules are those of the STEB authors' ``scripts/probing/split_probing_datasets.py``
(GitHub ``rrivera1849/STEB``), read for facts only:

* the rows are shuffled once with ``numpy.random.RandomState(seed).permutation`` (what
  ``DataFrame.sample(frac=1, random_state=42)`` draws), and the table keeps that order;
* each feature is cut into (up to) 5 quantile bins like ``pandas.qcut(q=5,
  duplicates="drop")`` (edges from ``np.percentile`` at ``100 * linspace(0, 1, 6)``, equal
  edges merged, right-closed, lowest edge included);
* every bin keeps ``min(smallest bin, 38_400 // n_bins)`` texts (7,680 at 5 bins): per bin,
  in ``value_counts`` order (largest bin first, ties by label), ``choice(members,
  replace=False)`` then ``shuffle`` from one legacy ``RandomState`` that runs on from
  feature to feature; the first ``int(0.8 n)`` are train, the next ``int(0.1 n)``
  validation, the rest test.

Their script draws from numpy's *unseeded* global generator; we seed one
``RandomState(seed)`` (42) before the first feature, so our samples are reproducible but
cannot equal theirs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

SEED = 42
N_BINS = 5
TOTAL_CAP = 38_400  # texts per feature, over all bins
SPLIT_FRACTIONS = (0.8, 0.1, 0.1)


def quantile_bins(values: Sequence[float], n_bins: int = N_BINS) -> np.ndarray:
    """Quantile classes 0..k-1 (k <= n_bins), as ``pandas.qcut(q=n_bins, labels=False,
    duplicates="drop")``: edges are ``np.percentile`` at ``100 * linspace(0, 1, n+1)``
    (pandas' own computation), bins with equal edges merged, right-closed with the lowest
    edge included. All values equal: one class (pandas would give none)."""
    array = np.asarray(values, dtype=np.float64)
    edges = _edges(array, n_bins)
    if len(edges) < 2:
        return np.zeros(len(array), dtype=np.int64)
    return np.clip(np.searchsorted(edges, array, side="left") - 1, 0, len(edges) - 2)


def _edges(values: Sequence[float] | np.ndarray, n_bins: int) -> np.ndarray:
    """The distinct quantile edges pandas' ``qcut`` computes."""
    array = np.asarray(values, dtype=np.float64)
    return np.unique(np.percentile(array, np.linspace(0, 1, n_bins + 1) * 100.0))


def shuffle_order(n: int, seed: int = SEED) -> np.ndarray:
    """The row order of a probing table: ``RandomState(seed).permutation(n)``."""
    return np.random.RandomState(seed).permutation(n)


def make_probing_columns(
    values: Sequence[float],
    seed: np.random.RandomState | int = SEED,
    total_cap: int = TOTAL_CAP,
    n_bins: int = N_BINS,
) -> tuple[list[int | None], list[str | None]]:
    """Labels and balanced 80/10/10 splits of one feature over rows already in table order.

    ``seed``: the run's legacy generator (shared by every feature, in feature order) or a
    seed for a fresh one. Texts left out of the balanced sample get ``None``."""
    rng = seed if isinstance(seed, np.random.RandomState) else np.random.RandomState(seed)
    bins = quantile_bins(values, n_bins)
    labels: list[int | None] = [None] * len(bins)
    splits: list[str | None] = [None] * len(bins)
    if len(bins) == 0:
        return labels, splits
    # every bin between merged edges counts, an empty one too (an interpolated edge can
    # leave a bin empty): then nothing is sampled, as in their script (min count 0)
    counts = np.bincount(bins, minlength=max(len(_edges(values, n_bins)) - 1, 1))
    per_bin = int(min(counts.min(), total_cap // len(counts)))
    # pandas value_counts order: by count descending, ties in label order
    order = np.argsort(-counts, kind="stable")
    n_train = int(SPLIT_FRACTIONS[0] * per_bin)
    n_val = int(SPLIT_FRACTIONS[1] * per_bin)
    for label in order:
        members = np.flatnonzero(bins == label)
        kept = members[rng.permutation(len(members))[:per_bin]]  # choice(replace=False)
        rng.shuffle(kept)
        for rank, index in enumerate(kept):
            labels[index] = int(label)
            splits[index] = (
                "train" if rank < n_train else "validation" if rank < n_train + n_val else "test"
            )
    return labels, splits


def probing_columns(
    features: Mapping[str, Sequence[float]], seed: int = SEED, total_cap: int = TOTAL_CAP
) -> dict[str, tuple[list[int | None], list[str | None]]]:
    """:func:`make_probing_columns` of every feature (in mapping order) from one
    ``RandomState(seed)``, over rows already in table order."""
    rng = np.random.RandomState(seed)
    return {name: make_probing_columns(values, rng, total_cap) for name, values in features.items()}
