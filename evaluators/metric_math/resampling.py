"""Bootstrap resampling: how every bootstrap of stylebench draws its resamples and
states its interval (task CIs, STEB aggregates, ``compare``, ARB's block bootstrap,
detector reports, style discrimination), with one default seed and level.

* One generator per bootstrap: ``numpy.random.default_rng(seed)`` (:func:`generator`;
  the seed defaults to :data:`DEFAULT_SEED`, every CLI's ``--seed`` default).
* A resample of ``n`` units is ``n`` unit indices drawn with replacement
  (:func:`index_draws`) or, equally distributed and cheaper when only sums are needed,
  their multiplicities: one multinomial draw over the units (:func:`multinomial_counts`)
  or over the distinct values of a histogram (:func:`histogram_counts`);
  :func:`multiplicities` turns index draws into counts. :func:`resampled_means` is the
  bootstrap of a mean from a histogram, summed in grid.py's fixed order (a BLAS product's
  last bits depend on the CPU kernel).
* The block (stratified) bootstrap resamples rows *within* each block, never across:
  one index matrix per block, drawn in sorted block order (:func:`block_indices`);
  :func:`block_mean_interval` is its percentile interval of a macro mean over blocks.

* Intervals of the replicates: :func:`percentile_interval` (linear interpolation
  between order statistics, numpy's default).

The draws are made in the order and with the shapes listed here: a call draws exactly
what the inline code it replaced drew (issue 43), so every number stays the same bits.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from evaluators.metric_math.grid import fixed_sum

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_SEED",
    "block_indices",
    "block_mean_interval",
    "generator",
    "histogram_counts",
    "index_draws",
    "multinomial_counts",
    "multiplicities",
    "percentile_interval",
    "resampled_means",
]

DEFAULT_SEED = 42  # STEB's and ARB's seed; every bootstrap of stylebench defaults to it
DEFAULT_LEVEL = 0.95


def percentile_interval(
    replicates: Sequence[float] | np.ndarray, level: float = DEFAULT_LEVEL, axis: int | None = None
) -> np.ndarray:
    """``[low, high]`` percentile interval of bootstrap ``replicates`` at ``level``
    (linear interpolation between order statistics, numpy's default); along ``axis`` the
    result has shape ``(2, ...)``."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level}")
    tail = (1.0 - level) / 2.0
    return np.quantile(np.asarray(replicates, dtype=float), [tail, 1.0 - tail], axis=axis)


def generator(seed: int = DEFAULT_SEED) -> np.random.Generator:
    """The random stream of one bootstrap: ``numpy.random.default_rng(seed)``."""
    return np.random.default_rng(seed)


def index_draws(n: int, rng: np.random.Generator, size: int | None = None) -> np.ndarray:
    """Unit indices drawn with replacement: one resample ``(n,)``, or ``size``
    resamples ``(size, n)`` drawn in one call (int64)."""
    shape = n if size is None else (size, n)
    return rng.integers(0, n, size=shape, dtype=np.int64)


def multinomial_counts(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` resamples of ``n`` units as multiplicity counts ``(size, n)``: drawing
    n units with replacement is one multinomial draw over the units."""
    return rng.multinomial(n, np.full(n, 1.0 / n), size=size)


def histogram_counts(counts: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` resamples of units tallied as a histogram (``counts[k]`` units hold
    distinct value ``k``), as counts per distinct value ``(size, len(counts))``: the
    resample of all ``n = counts.sum()`` units is one multinomial draw with
    probabilities ``counts / n``, at O(distinct values) per resample."""
    n = int(np.sum(counts))
    return rng.multinomial(n, np.asarray(counts) / n, size=size)


def resampled_means(
    values: np.ndarray, counts: np.ndarray, size: int, rng: np.random.Generator
) -> np.ndarray:
    """``size`` bootstrap means of the units tallied as ``counts`` of distinct ``values``
    (:func:`histogram_counts`), each summed in :func:`~evaluators.metric_math.grid.fixed_sum`'s
    order: the same bits on every CPU."""
    n = int(np.sum(counts))
    return fixed_sum(histogram_counts(counts, size, rng) * values, axis=1) / n


def multiplicities(idx: np.ndarray, n: int) -> np.ndarray:
    """``C[b, i]`` = how often unit ``i`` occurs in resample ``b`` of ``idx``
    (``(B, m)`` indices below ``n``) as a ``(B, n)`` int64 array."""
    b = idx.shape[0]
    flat = (idx + (np.arange(b, dtype=np.int64) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=b * n).reshape(b, n)


def block_indices(
    block_sizes: Mapping[str, int], n_resamples: int, seed: int = DEFAULT_SEED
) -> dict[str, np.ndarray]:
    """One ``(n_resamples, n_block)`` index matrix per block, rows of a block drawn only
    from that block, from one :func:`generator` stream in sorted block order."""
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be >= 1, got {n_resamples}")
    rng = generator(seed)
    return {b: index_draws(block_sizes[b], rng, n_resamples) for b in sorted(block_sizes)}


def block_mean_interval(
    values: Mapping[str, Sequence[float] | np.ndarray],
    n_resamples: int,
    seed: int = DEFAULT_SEED,
    level: float = DEFAULT_LEVEL,
    indices: Mapping[str, np.ndarray] | None = None,
) -> tuple[float, tuple[float, float]]:
    """Macro mean over blocks of per-row ``values`` and its block-bootstrap percentile
    interval (rows resampled within their block; ``indices`` as :func:`block_indices`
    gives, drawn here when not given)."""
    arrs = {b: np.asarray(v, dtype=np.float64) for b, v in values.items()}
    sizes = {b: a.size for b, a in arrs.items()}
    idx = dict(indices) if indices is not None else block_indices(sizes, n_resamples, seed)
    point = float(np.mean([arrs[b].mean() for b in sorted(arrs)]))
    reps = np.mean(
        [multiplicities(idx[b], sizes[b]) @ arrs[b] / sizes[b] for b in sorted(arrs)], axis=0
    )
    low, high = percentile_interval(reps, level, axis=0)
    return point, (float(low), float(high))
