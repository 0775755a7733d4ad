"""Calibration by simulation: two models drawn from the same score distribution are
rejected at 5 % about 5 % of the time, a model compared with itself never, and the 95 %
CI of a known difference covers it about 95 % of the time.

500 simulated datasets per case. The band is the central 99.9 % binomial interval for
500 trials at the nominal rate (scipy.stats.binom.interval): 11-42 rejections at 5 %
(2.2-8.4 %), 458-489 covering intervals at 95 % (91.6-97.8 %). A correctly calibrated
test leaves it once in a thousand runs; the seeds are fixed, so the test is
deterministic. Measured with these seeds: rejections predefined pairs 15, all-to-all
25, order alignment 31, clustering 33 (200 resamples), probing 25; coverage paired
DeLong 478, paired t 477, probing 474. What each case simulates: the units the task
stores (pairs, texts, queries, test texts) drawn afresh for every dataset, a shared
per-unit difficulty that makes the two models' scores correlated (what pairing
exploits), and independent model noise on top.

Predefined pairs and order alignment here have every text (sequence) in one pair only,
so their dyadic variance must reduce to the independent-pairs one: the plain
delete-one-node jackknife counted each pair's variance once per endpoint (twice) and
rejected 1 and 2 of 500 (covering 498 of 500); the method now subtracts the
delete-one-pair jackknife it double counts (:mod:`evaluators.metric_math.paired`).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from evaluators.compare.units import paired_test
from tests.compare import helpers as h

N_SIM = 500
REJECT_BAND = tuple(int(x) for x in stats.binom.interval(0.999, N_SIM, 0.05))
COVER_BAND = tuple(int(x) for x in stats.binom.interval(0.999, N_SIM, 0.95))


def _predefined(rng: np.random.Generator, noise_a: float, noise_b: float, mu: float = 1.0):
    labels = np.repeat([0, 1], 100)
    latent = rng.normal(size=200) + mu * labels
    a = latent + rng.normal(scale=noise_a, size=200)
    b = latent + rng.normal(scale=noise_b, size=200)
    return h.predefined("A", "d", a, labels), h.predefined("B", "d", b, labels)


def _auc_truth(noise: float, mu: float = 1.0) -> float:
    return float(stats.norm.cdf(mu / math.sqrt(2 * (1 + noise**2))))


def _all_to_all(rng: np.random.Generator):
    labels = np.repeat(np.arange(10), 8)
    centroids = rng.normal(size=(10, 16)) * 0.5
    shared = centroids[labels] + rng.normal(size=(80, 16)) * 0.5
    return tuple(
        h.all_to_all(m, "d", shared + rng.normal(size=(80, 16)), labels) for m in ("A", "B")
    )


def _mean(rng: np.random.Generator, shift: float = 0.0):
    p = rng.uniform(0.2, 0.8, 300)
    a = (rng.random(300) < p).astype(float)
    b = (rng.random(300) < p - shift).astype(float)
    return h.mean_units("A", "d", "order_alignment", a), h.mean_units(
        "B", "d", "order_alignment", b
    )


def _clustering(rng: np.random.Generator):
    labels = np.repeat(np.arange(4), 40)

    def assign() -> np.ndarray:
        keep = rng.random(labels.size) < 0.6
        return np.where(keep, labels, rng.integers(0, 4, labels.size))

    return h.clustering("A", "d", assign(), labels), h.clustering("B", "d", assign(), labels)


def _probing(rng: np.random.Generator, shift: float = 0.0):
    ease = {f: rng.uniform(0.3, 0.9, 120) for f in ("f1", "f2", "f3")}
    a = {f: rng.random(120) < p for f, p in ease.items()}
    b = {f: rng.random(120) < p - shift for f, p in ease.items()}
    return h.probing("A", "d", a), h.probing("B", "d", b)


CASES = {
    "predefined_pairs": lambda rng: _predefined(rng, 1.0, 1.0),
    "all_to_all_pairs": _all_to_all,
    "order_alignment": _mean,
    "clustering": _clustering,
    "probing": _probing,
}


def _p(pair, n_boot: int = 1000, seed: int = 42) -> dict:
    a, b = pair
    return paired_test(h.units(a), h.units(b), n_boot=n_boot, seed=seed)


SLOW = {"all_to_all_pairs", "clustering"}  # ~8-10 s each on 2 cores


@pytest.mark.parametrize(
    "task", [pytest.param(t, marks=pytest.mark.slow) if t in SLOW else t for t in CASES]
)
def test_same_distribution_rejects_at_the_nominal_rate(task: str) -> None:
    rng = np.random.default_rng(2024)
    n_boot = 200 if task == "clustering" else 1000
    rejected = sum(_p(CASES[task](rng), n_boot, seed)["p_value"] < 0.05 for seed in range(N_SIM))
    low, high = REJECT_BAND
    assert low <= rejected <= high, f"{task}: {rejected} of {N_SIM} rejected at 5 %"


@pytest.mark.parametrize("task", list(CASES))
def test_a_model_against_itself_is_never_rejected(task: str) -> None:
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, _b = CASES[task](rng)
        test = paired_test(h.units(a), h.units(a), n_boot=100)
        assert test["difference"] == 0.0 and test["p_value"] == 1.0


@pytest.mark.parametrize(
    ("name", "make", "truth"),
    [
        (
            "paired DeLong",
            lambda rng: _predefined(rng, 0.5, 1.5),
            _auc_truth(0.5) - _auc_truth(1.5),
        ),
        ("paired t", lambda rng: _mean(rng, 0.05), 0.05),
        ("probing", lambda rng: _probing(rng, 0.05), 0.05),
    ],
)
def test_ci_of_a_known_difference_covers_it(name: str, make, truth: float) -> None:
    rng = np.random.default_rng(99)
    covered = 0
    for _ in range(N_SIM):
        low, high = _p(make(rng))["ci"]
        covered += low <= truth <= high
    assert COVER_BAND[0] <= covered <= COVER_BAND[1], f"{name}: {covered} of {N_SIM} covered"
