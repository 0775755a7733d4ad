"""The named steps of :func:`evaluators.metric_math.kmeans.minibatch_kmeans_171` (#50
item 7), each checked on its own against the scikit-learn code it ports. The whole
procedure is checked against stored outputs of scikit-learn 1.7.1 in
``tests/parity/test_parity_round2.py``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.cluster import MiniBatchKMeans
from sklearn.utils.extmath import row_norms

from evaluators.metric_math.kmeans import _as_input, _EarlyStop, _initial_centers


def test_as_input_keeps_float32_and_float64_and_converts_the_rest():
    assert _as_input(np.ones((3, 2), dtype=np.float32), 2).dtype == np.float32
    assert _as_input(np.ones((3, 2)), 2).dtype == np.float64
    ints = _as_input(np.arange(6).reshape(3, 2), 3)
    assert ints.dtype == np.float64 and ints.flags["C_CONTIGUOUS"]
    assert _as_input(np.ones((4, 3))[:, ::2], 1).flags["C_CONTIGUOUS"]


@pytest.mark.parametrize(
    ("vectors", "k", "message"),
    [
        (np.ones(4), 2, r"non-empty 2-D array, got shape \(4,\)"),
        (np.ones((0, 3)), 1, r"non-empty 2-D array, got shape \(0, 3\)"),
        (np.array([[1.0, np.nan], [0.0, 1.0]]), 1, "non-finite"),
        (np.array([[1.0, np.inf]]), 1, "non-finite"),
        (np.ones((2, 3)), 3, "n_samples=2 should be >= n_clusters=3"),
    ],
)
def test_as_input_refuses_what_scikit_learn_refuses(vectors, k, message):
    with pytest.raises(ValueError, match=message):
        _as_input(vectors, k)


def _sklearn_init(X: np.ndarray, k: int, batch: int, seed: int) -> tuple[np.ndarray, tuple]:
    """scikit-learn's own initialisation, as its ``MiniBatchKMeans.fit`` runs it: the
    validation rows, then ``_init_centroids`` (k-means++ on the init subsample)."""
    model = MiniBatchKMeans(n_clusters=k, batch_size=batch, random_state=seed, n_init=1)
    model._check_params_vs_input(X)
    rng = np.random.RandomState(seed)
    rng.randint(0, X.shape[0], model._init_size)
    centers = model._init_centroids(
        X,
        x_squared_norms=row_norms(X, squared=True),
        init="k-means++",
        random_state=rng,
        init_size=model._init_size,
        sample_weight=np.ones(X.shape[0], dtype=X.dtype),
    )
    return centers, rng.get_state()


@pytest.mark.parametrize(
    ("n", "k", "batch"),
    [(200, 4, 32), (50, 3, 32), (30, 12, 5), (90, 2, 32), (500, 10, 7)],
)
def test_initial_centers_equal_scikit_learns_for_float64(n, k, batch):
    # for float64 data 1.7.1's stable_cumsum and 1.9.1's cumsum are the same sum, so the
    # locked scikit-learn's initialisation is 1.7.1's: centres and generator state agree
    # (the init subsample is drawn for n > 3 * batch, all rows used otherwise)
    X = np.random.default_rng(n + k).normal(size=(n, 5))
    rng = np.random.RandomState(42)
    ours = _initial_centers(X, k, min(batch, n), row_norms(X, squared=True), rng)
    theirs, state = _sklearn_init(X, k, batch, 42)
    assert ours.tobytes() == theirs.tobytes()
    after = rng.get_state()
    assert after[0] == state[0] and np.array_equal(after[1], state[1]) and after[2:] == state[2:]


def test_initial_centers_are_rows_of_the_data():
    X = np.random.default_rng(3).normal(size=(120, 4)).astype(np.float32)
    centers = _initial_centers(X, 6, 32, row_norms(X, squared=True), np.random.RandomState(0))
    assert centers.dtype == np.float32 and centers.shape == (6, 4)
    assert all((c == X).all(axis=1).any() for c in centers)


class _Convergence(MiniBatchKMeans):
    """scikit-learn's early-stopping helper with its state set as ``fit`` sets it."""

    def __init__(self, batch: int, patience: int) -> None:
        super().__init__(batch_size=batch, max_no_improvement=patience)
        self._batch_size, self._tol = batch, 0.0
        self._ewa_inertia = self._ewa_inertia_min = None
        self._no_improvement = 0


@settings(max_examples=60, deadline=None)
@given(
    inertias=st.lists(st.floats(0.0, 1e6, allow_nan=False), min_size=1, max_size=60),
    batch=st.integers(1, 64),
    n_samples=st.integers(1, 400),
    patience=st.integers(1, 12),
)
def test_early_stop_is_scikit_learns_rule(inertias, batch, n_samples, patience):
    # step 0's inertia is the initialisation's: scikit-learn ignores it, the loop does not
    # pass it; after that both stop at the same step with the same EWA, to the bit
    ours = _EarlyStop(batch, n_samples, patience)
    theirs = _Convergence(batch, patience)
    assert theirs._mini_batch_convergence(0, 100, n_samples, 0.0, inertias[0]) is False
    for step, inertia in enumerate(inertias[1:], start=1):
        stop = ours.update(inertia)
        assert stop == theirs._mini_batch_convergence(step, 100, n_samples, 0.0, inertia)
        assert ours.ewa == theirs._ewa_inertia
        if stop:
            break


def test_early_stop_counts_batches_without_a_new_minimum():
    stop = _EarlyStop(batch=10, n_samples=9, max_no_improvement=2)  # alpha = 1: EWA = last
    assert not stop.update(50.0) and stop.ewa == 5.0
    assert not stop.update(40.0) and stop.no_improvement == 0
    assert not stop.update(40.0) and stop.no_improvement == 1  # equal is no improvement
    assert stop.update(45.0) and stop.no_improvement == 2
    smoothed = _EarlyStop(batch=1, n_samples=3, max_no_improvement=5)  # alpha = 1/2
    smoothed.update(4.0)
    smoothed.update(0.0)
    assert smoothed.ewa == 2.0
