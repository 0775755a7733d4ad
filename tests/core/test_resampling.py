"""The one home of bootstrap draws (evaluators.metric_math.resampling): reproducible
draws, intervals against numpy and scipy.stats.bootstrap, the block bootstrap keeping
each block's rows to itself, and the draws' invariants as hypothesis properties."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from evaluators.metric_math.grid import fixed_sum
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    block_indices,
    block_mean_interval,
    generator,
    histogram_counts,
    index_draws,
    multinomial_counts,
    multiplicities,
    percentile_interval,
    resampled_means,
)


def test_draws_are_reproducible_from_the_seed() -> None:
    assert np.array_equal(index_draws(50, generator(7), 20), index_draws(50, generator(7), 20))
    assert not np.array_equal(index_draws(50, generator(7), 20), index_draws(50, generator(8), 20))
    assert np.array_equal(
        multinomial_counts(30, 5, generator()), multinomial_counts(30, 5, generator(DEFAULT_SEED))
    )
    # the stream is numpy's default_rng(seed): the documented draws, nothing added
    expected = np.random.default_rng(3).integers(0, 9, size=(4, 9))
    assert np.array_equal(index_draws(9, generator(3), 4), expected)
    one = index_draws(9, generator(3))
    assert one.shape == (9,) and one.dtype == np.int64
    assert np.array_equal(one, np.random.default_rng(3).integers(0, 9, size=9))


def test_multiplicities_count_each_unit() -> None:
    idx = np.array([[0, 0, 2, 3], [3, 3, 3, 1]])
    assert multiplicities(idx, 5).tolist() == [[2, 0, 1, 1, 0], [0, 1, 0, 3, 0]]


def test_histogram_counts_is_the_index_bootstrap_of_the_mean() -> None:
    values = np.array([0.0, 0.25, 1.0])
    counts = np.array([50, 30, 20])
    units = np.repeat(values, counts)
    hist_means = histogram_counts(counts, 20000, generator(1)) @ values / 100
    index_means = units[index_draws(100, generator(2), 20000)].mean(axis=1)
    # same distribution: mean and spread agree to Monte Carlo error (sd of the mean of
    # the replicates ~ 0.036 / sqrt(20000) ~ 2.5e-4)
    assert hist_means.mean() == pytest.approx(units.mean(), abs=2e-3)
    assert hist_means.std() == pytest.approx(index_means.std(), rel=0.03)
    assert hist_means.std() == pytest.approx(units.std() / 10, rel=0.03)


def test_percentile_interval_matches_scipy_bootstrap() -> None:
    x = np.random.default_rng(11).exponential(size=60)
    ours = percentile_interval(x[index_draws(60, generator(5), 2000)].mean(axis=1))
    theirs = stats.bootstrap(
        (x,), np.mean, n_resamples=2000, method="percentile", rng=generator(5), vectorized=True
    ).confidence_interval
    # scipy draws the same (n_resamples, n) index matrix from the generator
    assert ours == pytest.approx([theirs.low, theirs.high], rel=1e-12, abs=0)
    reps = np.random.default_rng(2).normal(size=999)
    assert np.array_equal(percentile_interval(reps, 0.9), np.percentile(reps, [5.0, 95.0]))
    with pytest.raises(ValueError, match="level"):
        percentile_interval(reps, 1.0)


def test_block_bootstrap_keeps_blocks_whole() -> None:
    sizes = {"b": 7, "a": 3, "c": 12}
    drawn = block_indices(sizes, 40, seed=9)
    assert list(drawn) == ["a", "b", "c"]  # one stream, sorted block order
    for block, idx in drawn.items():
        assert idx.shape == (40, sizes[block])
        assert idx.min() >= 0 and idx.max() < sizes[block]
    rng = np.random.default_rng(9)
    for block in ("a", "b", "c"):
        assert np.array_equal(drawn[block], rng.integers(0, sizes[block], size=(40, sizes[block])))
    # the mapping's order does not matter
    again = block_indices(dict(reversed(list(sizes.items()))), 40, seed=9)
    assert all(np.array_equal(drawn[b], again[b]) for b in sizes)
    with pytest.raises(ValueError, match="n_resamples"):
        block_indices(sizes, 0)


def test_block_mean_interval_against_a_plain_loop() -> None:
    rng = np.random.default_rng(4)
    values = {"x": rng.random(15), "y": rng.random(8) + 2.0, "z": rng.random(21) - 1.0}
    point, (low, high) = block_mean_interval(values, 300, seed=5)
    assert point == pytest.approx(np.mean([v.mean() for v in values.values()]))
    idx = block_indices({b: v.size for b, v in values.items()}, 300, seed=5)
    reps = [np.mean([values[b][idx[b][r]].mean() for b in sorted(values)]) for r in range(300)]
    assert [low, high] == pytest.approx(list(np.percentile(reps, [2.5, 97.5])), abs=1e-12)
    assert low < point < high
    # a block of equal values has no spread; rows never leave their block
    flat = {"p": np.full(5, 1.0), "q": np.full(9, 3.0)}
    assert block_mean_interval(flat, 50) == (2.0, (2.0, 2.0))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 40),
    size=st.integers(1, 30),
    seed=st.integers(0, 2**32 - 1),
    counts=st.lists(st.integers(0, 9), min_size=1, max_size=12).filter(lambda c: sum(c) > 0),
)
def test_draw_invariants(n: int, size: int, seed: int, counts: list[int]) -> None:
    idx = index_draws(n, generator(seed), size)
    assert idx.shape == (size, n) and idx.min() >= 0 and idx.max() < n
    c = multiplicities(idx, n)
    assert c.shape == (size, n) and (c >= 0).all() and (c.sum(axis=1) == n).all()
    w = multinomial_counts(n, size, generator(seed))
    assert (w.sum(axis=1) == n).all()
    h = histogram_counts(np.array(counts), size, generator(seed))
    assert (h.sum(axis=1) == sum(counts)).all()
    assert (h[:, np.array(counts) == 0] == 0).all()  # absent values are never drawn
    reps = c @ np.linspace(0.0, 1.0, n)
    low, high = percentile_interval(reps)
    assert reps.min() <= low <= high <= reps.max()


def test_resampled_means_sum_in_a_fixed_order() -> None:
    values, counts = np.unique(
        np.round(np.random.default_rng(0).random(211), 2), return_counts=True
    )
    means = resampled_means(values, counts, 500, generator(8))
    draws = histogram_counts(counts, 500, generator(8))
    assert np.array_equal(means, fixed_sum(draws * values, axis=1) / 211)
    assert means == pytest.approx(draws @ values / 211, rel=1e-14)


@pytest.mark.skipif(platform.machine().lower() not in {"x86_64", "amd64"}, reason="x86 kernels")
def test_resampled_means_are_the_same_bits_under_another_blas_kernel() -> None:
    # a BLAS product of these draws differs in its last bits between OpenBLAS's default
    # kernel and Prescott (20 of 20 such inputs on the machine this was written on)
    code = (
        "import sys, numpy as np\n"
        "from evaluators.metric_math.resampling import generator, resampled_means\n"
        "v, c = np.unique(np.round(np.random.default_rng(0).random(211), 2), return_counts=True)\n"
        "sys.stdout.write(resampled_means(v, c, 500, generator(8)).tobytes().hex())\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "OPENBLAS_CORETYPE": "Prescott", "PYTHONPATH": str(root)}
    other = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    values, counts = np.unique(
        np.round(np.random.default_rng(0).random(211), 2), return_counts=True
    )
    assert other == resampled_means(values, counts, 500, generator(8)).tobytes().hex()
