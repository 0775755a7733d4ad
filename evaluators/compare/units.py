"""The paired units of one (dataset, task) result, the paired test of two models on
them, and joint bootstrap replicates of K models on shared resamples.

Every result record keeps its per-unit data (``record.items``,
:mod:`evaluators.results.items`) in the dataset's unit order, the same for every model
on the same rows, so two records of the same dataset and task are paired unit by unit.
:func:`check_paired` refuses records whose rows (fingerprint), run settings (protocol,
sampling) or units differ.

Per kind (formulas in :mod:`evaluators.metric_math.paired`):

| kind | task | units | paired test | joint replicates (benchmark, ranks) |
|---|---|---|---|---|
| ``auc`` | predefined pairs | pairs | paired DeLong (Sun and Xu) | first-order (DeLong) expansion ``AUC + sum_p (w_p - 1) c_p`` |
| ``text_auc`` | all-to-all pairs | texts | influence z-test, ``sum_t (psi_A - psi_B)^2`` less the double-counted pair-level term | ``AUC + sum_t (w_t - 1) psi_t`` |
| ``mean`` | order alignment, retrieval | pairs, queries | paired t-test | weighted mean of the units |
| ``assignment`` | clustering | texts | Wald with the paired-bootstrap SE (both fixed assignments re-scored on each resample) | exact V-measure of each resample |
| ``probing`` | probing | test texts per feature | stratified paired z-test | per-feature resampled accuracy |

``w`` are the multiplicities of one bootstrap resample of the units (multinomial),
shared by every model in a replicate: that is what makes the replicates paired.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.metric_math.intervals import DEFAULT_SEED
from evaluators.metric_math.paired import (
    influence_difference,
    paired_delong,
    paired_t,
    stratified_mean_difference,
    wald,
)
from evaluators.results.record import ResultRecord

N_BOOT = 1000  # resamples of a clustering test and of every unit-level replicate bank
CHUNK = 100  # replicates drawn together (memory ~ CHUNK x units)

METHODS = {
    "auc": "paired DeLong test of the AUROC difference over the pairs (DeLong et al. 1988; "
    "Sun and Xu 2014 midrank algorithm), normal interval",
    "text_auc": "z-test of the AUROC difference over texts: paired influence-function "
    "variance sum_t (psi_A,t - psi_B,t)^2 less the estimated pair-level variance it "
    "double-counts (floor: half), normal interval",
    "mean": "paired t-test over the per-unit differences (Student t, n-1 df)",
    "assignment": "paired bootstrap of texts (both fixed cluster assignments re-scored on "
    "the same resamples, V-measure): Wald interval with the bootstrap standard error",
    "probing": "paired z-test over test texts per feature (fixed probes), features "
    "independent: se^2 = sum_f var(d_f)/n_f / F^2",
}


@dataclass
class Units:
    """One result's per-unit data, decoded."""

    source: str  # the file it came from
    record: ResultRecord
    kind: str
    unit: str
    n: int
    metric: str
    point: float  # the metric, as the record states it
    arrays: dict[str, np.ndarray]


def units_of(record: ResultRecord, source: str | Path, metric: str | None = None) -> Units:
    """The per-unit data of ``record`` for ``metric`` (default: its main score); DataError
    naming the file when the record keeps none."""
    from evaluators.results.items import arrays_of

    source = str(source)
    items = record.items
    if not isinstance(items, dict) or "kind" not in items:
        why = (
            record.details.get("items_omitted")
            or (items or {}).get("omitted")
            or (
                "it was written before result records kept them (schema version 1)"
                if record.migrated_from == 1
                else "it holds no items block"
            )
        )
        raise DataError(
            f"{source}: this result keeps no per-unit data to compare ({why}); "
            "re-run it with this stylebench version"
        )
    metric = metric or record.main_score_name
    kind = str(items["kind"])
    try:
        arrays = arrays_of(items)
    except ValueError as error:
        raise DataError(f"{source}: items block is unreadable ({error})") from None
    if kind == "mean":
        if metric not in arrays:
            raise DataError(f"{source}: items hold no per-unit {metric!r}")
        point = float(arrays[metric].mean())
    elif metric not in record.metrics:
        raise DataError(f"{source}: result has no metric {metric!r}")
    elif metric != record.main_score_name:
        raise DataError(
            f"{source}: per-unit data re-derive {record.main_score_name!r}, not {metric!r}"
        )
    else:
        point = float(record.metrics[metric])
    return Units(
        source, record, kind, str(items.get("unit", "")), int(items["n"]), metric, point, arrays
    )


def _describe(u: Units) -> str:
    return f"{u.record.model.name} ({u.source})"


def check_paired(a: Units, b: Units) -> None:
    """DataError unless ``a`` and ``b`` score the same units of the same rows the same way."""
    ra, rb = a.record, b.record
    where = f"{ra.dataset_id} / {ra.task}"
    if ra.task != rb.task or ra.dataset_id != rb.dataset_id:
        raise DataError(
            f"{_describe(a)} is {where}, {_describe(b)} is {rb.dataset_id} / {rb.task}: "
            "not the same dataset and task"
        )
    fa, fb = ra.dataset.fingerprint, rb.dataset.fingerprint
    if not fa or not fb:
        missing = _describe(a) if not fa else _describe(b)
        raise DataError(
            f"{where}: {missing} records no dataset fingerprint, so its rows cannot be "
            "checked to be the other model's; re-run it with this stylebench version"
        )
    if fa != fb:
        raise DataError(
            f"{where}: the two results were computed on different rows (fingerprint {fa} "
            f"in {a.source}, {fb} in {b.source}); compare runs on the same build"
        )
    for key in ("protocol", "sampling"):
        if (ra.run or {}).get(key) != (rb.run or {}).get(key):
            raise DataError(
                f"{where}: run setting {key!r} differs ({ra.run.get(key)!r} in {a.source}, "
                f"{rb.run.get(key)!r} in {b.source}): the units are not the same"
            )
    if a.kind != b.kind or a.n != b.n or a.metric != b.metric:
        raise DataError(
            f"{where}: units differ ({a.kind}, {a.n} {a.unit} of {a.metric} in {a.source}; "
            f"{b.kind}, {b.n} {b.unit} of {b.metric} in {b.source})"
        )
    same = {"auc": ("labels",), "assignment": ("labels",), "text_auc": ("n_positive_pairs",)}
    for name in same.get(a.kind, ()):
        if not np.array_equal(a.arrays[name], b.arrays[name]):
            raise DataError(f"{where}: the per-unit {name} of {a.source} and {b.source} differ")
    if a.kind == "probing":
        features_a = {k: v.size for k, v in a.arrays.items() if k.startswith("correct_")}
        features_b = {k: v.size for k, v in b.arrays.items() if k.startswith("correct_")}
        if features_a != features_b:
            raise DataError(
                f"{where}: probing features or test sets of {a.source} and {b.source} differ"
            )


def _features(u: Units) -> list[np.ndarray]:
    return [u.arrays[k].astype(np.float64) for k in sorted(u.arrays) if k.startswith("correct_")]


def pair_level_variance(u: Units) -> float | None:
    """The pair-level (second-order) part of an all-to-all AUROC's recorded variance:
    ``se^2 - sum_t psi_t^2`` from ``details.ci95.se`` (None when not recorded)."""
    se = (u.record.ci95 or {}).get("se")
    if not isinstance(se, int | float):
        return None
    return max(float(se) ** 2 - float(np.sum(u.arrays["psi"] ** 2)), 0.0)


def paired_test(
    a: Units, b: Units, n_boot: int = N_BOOT, seed: int = DEFAULT_SEED
) -> dict[str, Any]:
    """The paired test of ``A - B`` on one dataset and task: ``score_a``, ``score_b``,
    ``difference``, ``se``, ``ci`` (95 %), ``p_value``, ``method``, ``unit``, ``n_units``."""
    check_paired(a, b)
    kind = a.kind
    method = METHODS[kind]
    if kind == "mean":
        out = paired_t(a.arrays[a.metric], b.arrays[b.metric])
    elif kind == "auc":
        labels = a.arrays["labels"].astype(int)
        out = paired_delong(a.arrays["scores"], b.arrays["scores"], labels)
    elif kind == "text_auc":
        pl_a, pl_b = pair_level_variance(a), pair_level_variance(b)
        pair = 0.0
        if pl_a is None or pl_b is None:
            method += " (pair-level variance not recorded: not subtracted, conservative)"
        else:
            # the pair-level variance of the difference, var(V_A - V_B)/n_pos + var(U_A -
            # U_B)/n_neg: the per-pair placements are not stored, so the correlation of
            # the two models' pair-level residuals is taken to be that of their per-text
            # influences (1 for identical models: the term is 0)
            psi_a, psi_b = a.arrays["psi"], b.arrays["psi"]
            rho = _correlation(psi_a, psi_b)
            pair = max(pl_a + pl_b - 2.0 * rho * math.sqrt(pl_a * pl_b), 0.0)
        out = influence_difference(a.arrays["psi"], b.arrays["psi"], a.point - b.point, pair)
    elif kind == "assignment":
        from evaluators.tasks.base import bootstrap_weights
        from evaluators.tasks.clustering import weighted_v_measures

        rng = np.random.default_rng(seed)
        labels = a.arrays["labels"]
        diffs = []
        for done in range(0, n_boot, CHUNK):
            weights = bootstrap_weights(a.n, min(CHUNK, n_boot - done), rng)
            diffs.append(
                weighted_v_measures(a.arrays["clusters"], labels, weights)
                - weighted_v_measures(b.arrays["clusters"], labels, weights)
            )
        d = np.concatenate(diffs)
        out = wald(a.point - b.point, float(np.std(d, ddof=1)))
        method += f" ({n_boot} resamples, seed {seed})"
    elif kind == "probing":
        fa, fb = _features(a), _features(b)
        out = stratified_mean_difference([x - y for x, y in zip(fa, fb, strict=True)])
    else:
        raise DataError(f"{a.source}: items kind {kind!r} has no paired test")
    out.setdefault("score_a", a.point)
    out.setdefault("score_b", b.point)
    return {**out, "method": method, "unit": a.unit, "n_units": a.n}


def _correlation(x: np.ndarray, y: np.ndarray) -> float:
    sx, sy = float(np.std(x)), float(np.std(y))
    if sx == 0.0 or sy == 0.0:
        return 1.0 if np.array_equal(x, y) else 0.0
    return float(np.clip(np.corrcoef(x, y)[0, 1], -1.0, 1.0))


def _weight_chunks(n: int, n_boot: int, rng: np.random.Generator):
    from evaluators.tasks.base import bootstrap_weights

    for done in range(0, n_boot, CHUNK):
        yield bootstrap_weights(n, min(CHUNK, n_boot - done), rng).astype(np.float64)


def _resampled_sums(values: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(K, n_boot)`` sums ``sum_u w_u values[:, u]`` over bootstrap multiplicities ``w``
    of the n units, shared by the K rows. Units with the same K values are merged first:
    drawing n units with replacement is one multinomial draw over the distinct value
    tuples with their frequencies (exact; order alignment's per-pair accuracies take a
    handful of values), so a replicate costs O(distinct tuples)."""
    from evaluators.arb.stats import _multiplicities

    n = values.shape[1]
    distinct, counts = np.unique(values, axis=1, return_counts=True)
    few = distinct.shape[1] <= n // 4
    out = []
    for done in range(0, n_boot, CHUNK):
        size = min(CHUNK, n_boot - done)
        if few:
            draws = rng.multinomial(n, counts / n, size=size)
        else:  # n draws of a unit index each (cheaper than n binomials per replicate)
            draws = _multiplicities(rng.integers(0, n, size=(size, n)), n)
            distinct = values
        # einsum's own loop, not BLAS: no thread pool to wait on for these thin products
        out.append(np.einsum("kn,bn->kb", distinct, draws.astype(np.float64)))
    return np.concatenate(out, axis=1)


def _linear_terms(u: Units) -> np.ndarray:
    """Per-unit first-order terms ``c`` of an AUROC (``AUC(w) ~ AUC + (w - 1) . c``)."""
    if u.kind == "text_auc":
        return u.arrays["psi"]
    from evaluators.tasks.pairs import placement_values

    placement, positive, auc = placement_values(u.arrays["scores"], u.arrays["labels"].astype(bool))
    n_pos, n_neg = int(positive.sum()), int((~positive).sum())
    return np.where(positive, (placement - auc) / n_pos, (placement - auc) / n_neg)


def joint_replicates(
    units: list[Units], n_boot: int = N_BOOT, seed: int = DEFAULT_SEED
) -> np.ndarray:
    """``(K, n_boot)`` replicates of K models' scores on one dataset and task, every
    model re-scored on the same resample of the units in each column (module table).
    The models must be paired (:func:`check_paired` against the first)."""
    first = units[0]
    for other in units[1:]:
        check_paired(first, other)
    rng = np.random.default_rng(seed)
    kind = first.kind
    if kind == "probing":
        per_feature = [_features(u) for u in units]
        total = np.zeros((len(units), n_boot))
        for f in range(len(per_feature[0])):
            n_f = per_feature[0][f].size
            column = 0
            for weights in _weight_chunks(n_f, n_boot, rng):
                stop = column + weights.shape[0]
                for k in range(len(units)):
                    total[k, column:stop] += weights @ per_feature[k][f] / n_f
                column = stop
        return total / len(per_feature[0])
    if kind == "assignment":
        from evaluators.tasks.clustering import weighted_v_measures

        blocks = []
        for weights in _weight_chunks(first.n, n_boot, rng):
            blocks.append(
                np.stack(
                    [
                        weighted_v_measures(u.arrays["clusters"], u.arrays["labels"], weights)
                        for u in units
                    ]
                )
            )
        return np.concatenate(blocks, axis=1)
    if kind == "mean":
        values = np.stack([u.arrays[u.metric] for u in units])  # (K, n)
        return _resampled_sums(values, n_boot, rng) / first.n
    if kind in ("auc", "text_auc"):
        terms = np.stack([_linear_terms(u) for u in units])  # (K, n)
        points = np.array([u.point for u in units])[:, None]
        return points + _resampled_sums(terms, n_boot, rng) - terms.sum(axis=1, keepdims=True)
    raise DataError(f"{first.source}: items kind {kind!r} has no replicates")
