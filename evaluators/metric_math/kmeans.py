"""Mini-batch k-means as scikit-learn 1.7.1 runs it: the STEB reference algorithm.

The STEB authors' clustering task (``steb/metrics.py``, ``calculate_clustering_metrics``)
fits ``MiniBatchKMeans(n_clusters=k, batch_size=32, random_state=42, n_init="auto")``
under scikit-learn 1.7.1, the version the paper's 40 reference rows were computed with.
Between 1.7.1 and the 1.9.1 this project pins, two lines of that path changed (read in
both versions' ``sklearn/cluster/_kmeans.py``; the compiled kernels
``_k_means_minibatch.pyx``, ``_k_means_lloyd.pyx``, ``_k_means_common.pyx`` and
``metrics.pairwise._euclidean_distances`` are unchanged apart from import paths):

1. **the mini-batches**: 1.7.1 draws each batch as ``random_state.randint(0, n, batch)``;
   1.9.1 draws it as ``random_state.choice(n, batch, p=weights / weights.sum())`` (made
   sample-weight aware), a different use of the same generator, so every batch after
   the initialisation differs and k-means converges elsewhere;
2. **k-means++ seeding**: 1.7.1 samples candidates from ``stable_cumsum`` (a float64
   cumulative sum) of the weighted squared distances, 1.9.1 from ``np.cumsum`` in the
   data's dtype (float32 for our vectors), which can move a candidate at a boundary.

:func:`minibatch_kmeans_171` is that 1.7.1 procedure written out here (validation draw,
init subsample, k-means++ with the float64 cumulative sum, ``randint`` batches, the
random reassignment schedule, the exponentially weighted inertia and its
``max_no_improvement`` stop, final labels over all rows), driving the locked version's
compiled steps (``_mini_batch_step``: one batch's assignment, centre update and
reassignment; ``_labels_inertia``: the chunked assignment; ``_euclidean_distances``),
which are the very kernels 1.7.1 runs, so the arithmetic is theirs to the bit. It covers
what STEB uses: dense input, ``init="k-means++"`` (``n_init="auto"`` = one init),
``tol=0``, unit sample weights. ``tests/parity/test_parity_round2.py`` checks labels and
step counts against outputs of scikit-learn 1.7.1 stored as fixtures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

REFERENCE_SKLEARN = "1.7.1"  # the scikit-learn version the STEB reference rows used


@dataclass(frozen=True)
class KMeansFit:
    """A fitted clustering: ``labels`` (int32 per row), ``centers``, ``n_steps`` (mini-batch
    steps run), ``inertia`` (of the final labels over all rows)."""

    labels: np.ndarray
    centers: np.ndarray
    n_steps: int
    inertia: float


def _kmeans_plusplus_171(
    X: np.ndarray,
    n_clusters: int,
    x_squared_norms: np.ndarray,
    sample_weight: np.ndarray,
    random_state: np.random.RandomState,
) -> np.ndarray:
    """Greedy k-means++ seeding (2 + log k local trials per centre) as in 1.7.1: the
    candidates are searched in the float64 cumulative sum of the weighted distances."""
    from sklearn.metrics.pairwise import _euclidean_distances

    n_samples, n_features = X.shape
    centers = np.empty((n_clusters, n_features), dtype=X.dtype)
    n_local_trials = 2 + int(np.log(n_clusters))
    first = random_state.choice(n_samples, p=sample_weight / sample_weight.sum())
    centers[0] = X[first]
    closest = _euclidean_distances(
        centers[0, np.newaxis], X, Y_norm_squared=x_squared_norms, squared=True
    )
    potential = closest @ sample_weight
    for c in range(1, n_clusters):
        targets = random_state.uniform(size=n_local_trials) * potential
        cumulative = np.cumsum(sample_weight * closest, dtype=np.float64)  # 1.7.1's rule
        candidates = np.searchsorted(cumulative, targets)
        np.clip(candidates, None, closest.size - 1, out=candidates)
        distances = _euclidean_distances(
            X[candidates], X, Y_norm_squared=x_squared_norms, squared=True
        )
        np.minimum(closest, distances, out=distances)
        potentials = distances @ sample_weight.reshape(-1, 1)
        best = int(np.argmin(potentials))
        potential = potentials[best]
        closest = distances[best]
        centers[c] = X[candidates[best]]
    return centers


def _as_input(vectors: Any, n_clusters: int) -> np.ndarray:
    """scikit-learn's validation of the input: a non-empty, finite 2-D array, kept in
    float32/float64 (others become float64), C-contiguous, with at least ``n_clusters``
    rows."""
    X = np.asarray(vectors)
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"k-means needs a non-empty 2-D array, got shape {X.shape}")
    dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.float64
    X = np.ascontiguousarray(X, dtype=dtype)
    if not np.isfinite(X).all():
        raise ValueError("k-means input has non-finite values")
    if X.shape[0] < n_clusters:
        raise ValueError(f"n_samples={X.shape[0]} should be >= n_clusters={n_clusters}.")
    return X


def _initial_centers(
    X: np.ndarray,
    n_clusters: int,
    batch: int,
    x_squared_norms: np.ndarray,
    random_state: np.random.RandomState,
) -> np.ndarray:
    """1.7.1's initialisation (unit weights): the validation rows are drawn (they rank
    inits; there is one here), then the init subsample of ``3 * batch`` rows (at least
    ``3 * n_clusters``, at most all rows; all rows are used as they are when it covers
    them), then k-means++ on it. The draws from ``random_state`` are 1.7.1's, in order."""
    n_samples = X.shape[0]
    init_size = 3 * batch if 3 * batch >= n_clusters else 3 * n_clusters
    init_size = min(init_size, n_samples)
    weights = np.ones(n_samples, dtype=X.dtype)
    random_state.randint(0, n_samples, init_size)  # the validation rows
    if init_size < n_samples:
        rows = random_state.randint(0, n_samples, init_size)
        X, x_squared_norms, weights = X[rows], x_squared_norms[rows], weights[rows]
    return _kmeans_plusplus_171(X, n_clusters, x_squared_norms, weights, random_state)


@dataclass
class _EarlyStop:
    """1.7.1's stopping rule: the exponentially weighted average (EWA) of the mean batch
    inertia, ``alpha = min(2 * batch / (n_samples + 1), 1)``; fitting stops once the EWA
    has not reached a new minimum for ``max_no_improvement`` consecutive batches."""

    batch: int
    n_samples: int
    max_no_improvement: int
    ewa: float | None = None
    ewa_min: float | None = None
    no_improvement: int = 0

    def update(self, batch_inertia: float) -> bool:
        """Take one batch's inertia (not the first batch's); True when fitting stops."""
        mean_inertia = batch_inertia / self.batch
        if self.ewa is None:
            self.ewa = mean_inertia
        else:
            alpha = min(self.batch * 2.0 / (self.n_samples + 1), 1)
            self.ewa = self.ewa * (1 - alpha) + mean_inertia * alpha
        if self.ewa_min is None or self.ewa < self.ewa_min:
            self.no_improvement, self.ewa_min = 0, self.ewa
        else:
            self.no_improvement += 1
        return self.no_improvement >= self.max_no_improvement


def minibatch_kmeans_171(
    vectors: Any,
    n_clusters: int,
    *,
    batch_size: int = 32,
    random_state: int = 42,
    max_iter: int = 100,
    max_no_improvement: int = 10,
    reassignment_ratio: float = 0.01,
) -> KMeansFit:
    """``MiniBatchKMeans(n_clusters, batch_size=..., random_state=..., n_init="auto")
    .fit(vectors)`` as scikit-learn 1.7.1 computes it (module doc), under the installed
    scikit-learn. ``vectors``: a dense 2-D array, kept in float32/float64 (others become
    float64, as scikit-learn's validation does). The steps: :func:`_as_input`,
    :func:`_initial_centers`, the mini-batch steps with 1.7.1's reassignment schedule and
    :class:`_EarlyStop`, the final labels over all rows."""
    from sklearn.cluster._kmeans import _labels_inertia, _mini_batch_step
    from sklearn.utils._openmp_helpers import _openmp_effective_n_threads
    from sklearn.utils.extmath import row_norms
    from sklearn.utils.parallel import _get_threadpool_controller

    X = _as_input(vectors, n_clusters)
    n_samples = X.shape[0]
    batch = min(batch_size, n_samples)
    rng = np.random.RandomState(random_state)
    weights = np.ones(n_samples, dtype=X.dtype)
    n_threads = _openmp_effective_n_threads()
    x_squared_norms = row_norms(X, squared=True)
    centers = _initial_centers(X, n_clusters, batch, x_squared_norms, rng)
    centers_new = np.empty_like(centers)
    counts = np.zeros(n_clusters, dtype=X.dtype)
    stop = _EarlyStop(batch, n_samples, max_no_improvement)
    since_reassign = 0
    step = 0
    with _get_threadpool_controller().limit(limits=1, user_api="blas"):
        for step in range((max_iter * n_samples) // batch):
            rows = rng.randint(0, n_samples, batch)  # 1.7.1 (1.9.1: choice with p=...)
            since_reassign += batch
            reassign = bool((counts == 0).any()) or since_reassign >= 10 * n_clusters
            if reassign:
                since_reassign = 0
            batch_inertia = _mini_batch_step(
                X=X[rows],
                sample_weight=weights[rows],
                centers=centers,
                centers_new=centers_new,
                weight_sums=counts,
                random_state=rng,
                random_reassign=reassign,
                reassignment_ratio=reassignment_ratio,
                verbose=False,
                n_threads=n_threads,
            )
            centers, centers_new = centers_new, centers
            # the first batch's inertia is the initialisation's: not counted
            if step > 0 and stop.update(batch_inertia):
                break
        labels, inertia = _labels_inertia(X, weights, centers, n_threads=n_threads)
    return KMeansFit(labels, centers, step + 1, float(inertia))
