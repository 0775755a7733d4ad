"""The paired units of one (dataset, task) result, the paired test of two models on
them, and joint bootstrap replicates of K models on shared resamples.

Every result record keeps its per-unit data (``record.items``,
:mod:`evaluators.records.items`) in the dataset's unit order, the same for every model
on the same rows, so two records of the same dataset and task are paired unit by unit.
:func:`check_paired` refuses records whose rows (fingerprint), run settings (protocol,
sampling) or units differ.

Per kind (formulas in :mod:`evaluators.metric_math.paired`). The *independent unit* is
what the variance is computed over; the stored units (pairs, queries) share them:

| kind | task | stored units | independent units | paired test | joint replicates (benchmark, ranks) |
|---|---|---|---|---|---|
| ``mean`` (pairs) | order alignment | sequence pairs (i < j) | sequences | t-test with the dyadic jackknife variance: delete-one-sequence less delete-one-pair (df = sequences - 1) | normal, the same covariance of the K models |
| ``mean`` (queries) | retrieval | queries | authors (an author's query and targets; every target enters every query's rank), authors sharing a text merged (``author_group``) | MRR: t-test with the exact delete-one-group jackknife variance (the group's queries and targets left out, the others re-ranked; df = groups - 1); other metrics: queries clustered by group, targets fixed | normal, the jackknife (cluster) covariance |
| ``auc`` | predefined pairs | pairs | texts (pairs share texts) | t-test with the dyadic jackknife variance: delete-one-text less delete-one-pair, AUROCs recomputed exactly (df = texts - 1) | normal, the same covariance |
| ``text_auc`` | all-to-all pairs | texts | texts | influence z-test, ``sum_t (psi_A - psi_B)^2`` less the double-counted pair-level term | ``AUC + sum_t (w_t - 1) psi_t`` |
| ``assignment`` | clustering | texts | texts and k-means seeds | mean V-measure over the recorded seeds; paired text bootstrap of it plus the seed variance (Satterthwaite df) | text bootstrap of each model's seed mean plus normal seed noise |
| ``probing`` | probing | test texts per feature | test texts (fixed probes) | stratified paired z-test | per-feature resampled accuracy |

No variance is allowed below the one that treats the stored units as independent
(:func:`~evaluators.metric_math.paired.clustered_difference`). ``w`` are the multiplicities
of one bootstrap resample (multinomial), shared by every model in a replicate; the
normal replicates draw one standard normal vector per replicate for all K models through
the Cholesky-like factor of their K x K covariance (eigenvalues clipped at 0).

Records without the arrays a kind needs (version-2 records written before this, e.g.
order alignment without ``sequence_i``/``sequence_j``) are refused with the file named;
so is a record whose stored main score is not the one its items re-derive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError
from evaluators.metric_math.paired import (
    cluster_covariance,
    clustered_difference,
    dyadic_jackknife_covariance,
    edge_codes,
    edge_jackknife_means,
    influence_difference,
    jackknife_covariance,
    node_jackknife_aucs,
    node_jackknife_means,
    stratified_mean_difference,
    wald,
)
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    generator,
    histogram_counts,
    index_draws,
    multinomial_counts,
    multiplicities,
)
from evaluators.records.record import ResultRecord
from evaluators.tasks.facts import TASK_FACTS

N_BOOT = 1000  # resamples of a clustering test and of every unit-level replicate bank
CHUNK = 100  # replicates drawn together (memory ~ CHUNK x units)

METHODS = {
    "auc": "paired DeLong test of the AUROC difference over the pairs (DeLong et al. 1988; "
    "Sun and Xu 2014 midrank algorithm), normal interval",
    "text_auc": "z-test of the AUROC difference over texts: paired influence-function "
    "variance sum_t (psi_A,t - psi_B,t)^2 less the estimated pair-level variance it "
    "double-counts (floor: half), normal interval",
    "auc_pairs": "AUROC difference with the dyadic jackknife variance: delete-one-text "
    "(every pair through the deleted text left out, both AUROCs recomputed exactly: pairs "
    "sharing a text are dependent) less delete-one-pair (the pair-level variance the "
    "text deletions count twice, once per text), Student t interval (texts - 1 df)",
    "mean_pairs": "mean per-pair difference with the dyadic jackknife variance: "
    "delete-one-sequence (every pair through the deleted sequence left out: each sequence "
    "sits in many pairs) less delete-one-pair (the pair-level variance the sequence "
    "deletions count twice), Student t interval (sequences - 1 df)",
    "mean_queries": "MRR difference with the delete-one-author jackknife variance (each "
    "author's queries and targets left out in turn, authors sharing a text together, "
    "every other query re-ranked without its targets, exactly), Student t interval "
    "(author groups - 1 df)",
    "mean": "paired t-test over the per-unit differences (Student t, n-1 df)",
    "assignment": "difference of the mean V-measure over the recorded k-means seeds: paired "
    "bootstrap of texts (every seed's fixed assignment of both models re-scored on the "
    "same resamples) plus the between-seed variance of the difference, Student t "
    "(Satterthwaite df)",
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
    from evaluators.records.items import arrays_of

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
    unit = str(items.get("unit", ""))
    missing = [a for a in _required(kind, unit) if a not in arrays]
    if missing:
        omitted = record.details.get("items_units_omitted")
        if omitted:  # written by this version, but over the size budget
            raise DataError(
                f"{source}: the record keeps no {', '.join(missing)} ({omitted}); without "
                f"them the variance over {_INDEPENDENT.get((kind, unit), unit)} cannot be "
                "computed, so this result cannot be compared"
            )
        raise DataError(
            f"{source}: the record keeps no {', '.join(missing)} (per-unit data written "
            f"before comparisons used the independent units of {record.task}: "
            f"{_INDEPENDENT.get((kind, unit), unit)}); without them no honest p-value can be "
            "computed; re-run it with this stylebench version"
        )
    _check_main_score(record, items, source)
    if kind == "mean":
        if metric not in arrays:
            raise DataError(f"{source}: items hold no per-unit {metric!r}")
        point = float(arrays[metric].mean())
    elif kind == "assignment":
        if metric != record.main_score_name:
            raise DataError(
                f"{source}: per-unit data re-derive {record.main_score_name!r}, not {metric!r}"
            )
        point = float(seed_v_measures(arrays).mean())
    elif metric not in record.metrics:
        raise DataError(f"{source}: result has no metric {metric!r}")
    elif metric != record.main_score_name:
        raise DataError(
            f"{source}: per-unit data re-derive {record.main_score_name!r}, not {metric!r}"
        )
    else:
        point = float(record.metrics[metric])
    return Units(source, record, kind, unit, int(items["n"]), metric, point, arrays)


SCORE_TOLERANCE = 1e-9  # stored main score vs the one re-derived from the items

# arrays each kind needs to know its independent units
_REQUIRED = {
    ("mean", "pairs"): ("sequence_i", "sequence_j"),
    ("mean", "queries"): (
        "query_author",
        "target_author",
        "match_query",
        "match_rank",
        "ahead_by_author",
    ),
    ("auc", "pairs"): ("scores", "labels", "text_1", "text_2"),
    ("assignment", "texts"): ("labels", "clusters", "seeds", "clusters_seeds"),
    ("text_auc", "texts"): ("psi", "placement", "n_positive_pairs"),
}
# the independent units each items kind is compared over: the task's facts say them
_TASK_OF_ITEMS = {
    ("mean", "pairs"): "order_alignment",
    ("mean", "queries"): "retrieval",
    ("auc", "pairs"): "predefined_pairs",
    ("assignment", "texts"): "clustering",
    ("text_auc", "texts"): "all_to_all_pairs",
}
_INDEPENDENT = {key: TASK_FACTS[task].unit for key, task in _TASK_OF_ITEMS.items()}


def _required(kind: str, unit: str) -> tuple[str, ...]:
    return _REQUIRED.get((kind, unit), ())


class ScoreMismatchError(DataError):
    """A record whose stored main score is not the one its own items re-derive."""


def _check_main_score(record: ResultRecord, items: dict, source: str) -> None:
    from evaluators.records.items import rederive

    try:
        derived = rederive(items, record.main_score_name)
    except (ValueError, KeyError, IndexError) as error:
        raise DataError(f"{source}: the main score cannot be re-derived ({error})") from None
    stored = float(record.main_score)
    if not abs(derived - stored) <= SCORE_TOLERANCE * max(1.0, abs(stored)):
        raise ScoreMismatchError(
            f"{source}: the stored main score {record.main_score_name} = {stored!r} is not "
            f"the one its per-unit data re-derive ({derived!r}); the record was edited or "
            "is corrupt, and compare will not test a score its units do not support"
        )


def seed_assignments(arrays: dict[str, np.ndarray]) -> np.ndarray:
    """``(S, n)`` cluster assignments: the main seed's, then each recorded extra seed's."""
    clusters = arrays["clusters"]
    extra = arrays["clusters_seeds"].reshape(arrays["seeds"].size, clusters.size)
    return np.concatenate([clusters[None, :], extra])


def seed_v_measures(arrays: dict[str, np.ndarray], weights: np.ndarray | None = None) -> np.ndarray:
    """V-measure of every seed's assignment, ``(S,)``, or ``(S, B)`` under text weights."""
    from evaluators.tasks.clustering import weighted_v_measures

    labels = arrays["labels"]
    w = np.ones((1, labels.size)) if weights is None else weights
    out = np.stack([weighted_v_measures(c, labels, w) for c in seed_assignments(arrays)])
    return out[:, 0] if weights is None else out


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
    same = {
        "auc": ("labels", "text_1", "text_2"),
        "assignment": ("labels", "seeds"),
        "text_auc": ("n_positive_pairs",),
        "mean": ("sequence_i", "sequence_j", "query_author", "target_author", "author_group"),
    }
    if a.unit != b.unit:
        raise DataError(f"{where}: units differ ({a.unit} in {a.source}, {b.unit} in {b.source})")
    for name in same.get(a.kind, ()):
        if name not in a.arrays and name not in b.arrays:
            continue
        if name not in a.arrays or name not in b.arrays:
            missing = a.source if name not in a.arrays else b.source
            raise DataError(
                f"{where}: {missing} keeps no per-unit {name} and the other record does "
                "(written by different stylebench versions); re-run the older one"
            )
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


def clustered_covariance(units: list[Units]) -> tuple[np.ndarray, np.ndarray, int]:
    """Point scores ``(K,)``, the ``(K, K)`` covariance of K paired models' scores over
    the independent units (module table), and the number of independent units G (the
    t distribution's df is G - 1), for the kinds ``mean`` and ``auc``. Pairs of sequences
    or texts: the delete-one-node jackknife (every pair through the deleted sequence or
    text left out, the score recomputed exactly) less the delete-one-pair one, which it
    counts twice (:func:`~evaluators.metric_math.paired.dyadic_jackknife_covariance`);
    retrieval MRR: the exact delete-one-author jackknife; other retrieval metrics:
    cluster-robust over the queries' authors."""
    first = units[0]
    points = np.array([u.point for u in units])
    if first.kind == "auc":
        scores = np.stack([u.arrays["scores"] for u in units])
        labels = first.arrays["labels"].astype(int)
        one, two = first.arrays["text_1"], first.arrays["text_2"]
        edge, loop = edge_codes(one, two)
        by_node = node_jackknife_aucs(scores, labels, one, two)
        by_edge = node_jackknife_aucs(scores, labels, edge, edge)
        return points, dyadic_jackknife_covariance(by_node, by_edge, loop), by_node.shape[1]
    values = np.stack([u.arrays[u.metric] for u in units])
    n = values.shape[1]
    if first.unit == "pairs":
        one, two = first.arrays["sequence_i"], first.arrays["sequence_j"]
        edge, loop = edge_codes(one, two)
        by_node, _ = node_jackknife_means(values, one, two)
        by_edge = edge_jackknife_means(values, edge)
        return points, dyadic_jackknife_covariance(by_node, by_edge, loop), by_node.shape[1]
    terms = (values - values.mean(axis=1, keepdims=True)) / n
    if first.unit == "queries":
        n_authors = int(first.arrays["target_author"].max()) + 1
        # authors sharing a text are one unit (records from before author_group: each
        # author its own)
        group = first.arrays.get("author_group", np.arange(n_authors))
        clusters = group[first.arrays["query_author"]]
        if first.metric == "mrr":
            from evaluators.metric_math.retrieval_jackknife import (
                delete_one_author_mrr,
                group_columns,
            )

            left_out = np.stack(
                [
                    delete_one_author_mrr(
                        u.arrays["match_query"],
                        u.arrays["match_rank"],
                        group_columns(u.arrays["ahead_by_author"].reshape(-1, n_authors), group),
                        clusters,
                    )
                    for u in units
                ]
            )
            return points, jackknife_covariance(left_out), left_out.shape[1]
        cov = cluster_covariance(terms, clusters)
        return points, cov, int(np.unique(clusters).size)
    cov = terms @ terms.T * (n / (n - 1.0))
    return points, cov, n


def _independent_variance(a: Units, b: Units) -> float:
    """The variance of ``A - B`` that treats the stored units as independent (DeLong over
    pairs, the plain paired t over pairs or queries): the floor of the clustered one."""
    if a.kind == "auc":
        from evaluators.metric_math.paired import paired_delong

        labels = a.arrays["labels"].astype(int)
        return paired_delong(a.arrays["scores"], b.arrays["scores"], labels)["se"] ** 2
    d = a.arrays[a.metric] - b.arrays[b.metric]
    return float(np.var(d, ddof=1) / d.size)


def paired_test(
    a: Units, b: Units, n_boot: int = N_BOOT, seed: int = DEFAULT_SEED
) -> dict[str, Any]:
    """The paired test of ``A - B`` on one dataset and task: ``score_a``, ``score_b``,
    ``difference``, ``se``, ``ci`` (95 %), ``p_value``, ``method``, ``unit``, ``n_units``,
    ``independent_units`` (what the variance is computed over) and ``n_independent``."""
    check_paired(a, b)
    kind = a.kind
    method = METHODS.get(f"{kind}_{a.unit}", METHODS.get(kind, ""))
    independent, n_independent = _INDEPENDENT.get((kind, a.unit), a.unit), a.n
    if kind in ("mean", "auc"):
        try:
            points, cov, g = clustered_covariance([a, b])
        except ValueError as error:
            raise DataError(f"{a.source}: no variance over {independent} ({error})") from None
        var = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
        if a.kind == "mean" and a.unit == "queries" and a.metric != "mrr":
            method += f" ({a.metric}: queries clustered by author, the targets held fixed)"
        out = clustered_difference(
            float(points[0] - points[1]), var, _independent_variance(a, b), df=g - 1
        )
        out["df"] = g - 1
        n_independent = g
        if a.unit == "queries" and g < int(a.arrays["target_author"].max()) + 1:
            independent = "groups of authors sharing a text (their queries and targets)"
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
        out = _clustering_test(a, b, n_boot, seed)
        n_seeds = 1 + a.arrays["seeds"].size
        method += f" ({n_seeds} seeds, {n_boot} resamples, seed {seed})"
    elif kind == "probing":
        fa, fb = _features(a), _features(b)
        out = stratified_mean_difference([x - y for x, y in zip(fa, fb, strict=True)])
    else:
        raise DataError(f"{a.source}: items kind {kind!r} has no paired test")
    out.setdefault("score_a", a.point)
    out.setdefault("score_b", b.point)
    return {
        **out,
        "method": method,
        "unit": a.unit,
        "n_units": a.n,
        "independent_units": independent,
        "n_independent": int(n_independent),
    }


def _clustering_test(a: Units, b: Units, n_boot: int, seed: int) -> dict[str, Any]:
    """Mean V-measure over seeds, A - B: text-bootstrap variance of the seed mean (fixed
    assignments) plus the between-seed variance of the per-seed differences over S
    (Satterthwaite df from the seed part's S - 1). ``seed_sd`` is the per-seed standard
    deviation of the difference; ``decidable`` is False when the difference is smaller
    than it (one k-means run could have flipped the sign)."""
    rng = generator(seed)
    per_seed = seed_v_measures(a.arrays) - seed_v_measures(b.arrays)
    n_seeds = per_seed.size
    diffs = []
    for weights in _weight_chunks(a.n, n_boot, rng):
        diffs.append(
            seed_v_measures(a.arrays, weights).mean(axis=0)
            - seed_v_measures(b.arrays, weights).mean(axis=0)
        )
    var_texts = float(np.var(np.concatenate(diffs), ddof=1))
    seed_var = float(np.var(per_seed, ddof=1)) if n_seeds > 1 else 0.0
    var_seeds = seed_var / n_seeds
    total = var_texts + var_seeds
    df = total**2 / (var_seeds**2 / (n_seeds - 1)) if var_seeds > 0 else None
    out = wald(float(per_seed.mean()), math.sqrt(total), df=df)
    out["seed_sd"] = math.sqrt(seed_var)
    out["decidable"] = bool(abs(out["difference"]) > math.sqrt(seed_var))
    out["df"] = df
    return out


def _correlation(x: np.ndarray, y: np.ndarray) -> float:
    sx, sy = float(np.std(x)), float(np.std(y))
    if sx == 0.0 or sy == 0.0:
        return 1.0 if np.array_equal(x, y) else 0.0
    return float(np.clip(np.corrcoef(x, y)[0, 1], -1.0, 1.0))


def _weight_chunks(n: int, n_boot: int, rng: np.random.Generator):
    for done in range(0, n_boot, CHUNK):
        yield multinomial_counts(n, min(CHUNK, n_boot - done), rng).astype(np.float64)


def _resampled_sums(values: np.ndarray, n_boot: int, rng: np.random.Generator) -> np.ndarray:
    """``(K, n_boot)`` sums ``sum_u w_u values[:, u]`` over bootstrap multiplicities ``w``
    of the n units, shared by the K rows. Units with the same K values are merged first:
    drawing n units with replacement is one multinomial draw over the distinct value
    tuples with their frequencies (exact; order alignment's per-pair accuracies take a
    handful of values), so a replicate costs O(distinct tuples)."""
    n = values.shape[1]
    distinct, counts = np.unique(values, axis=1, return_counts=True)
    few = distinct.shape[1] <= n // 4
    out = []
    for done in range(0, n_boot, CHUNK):
        size = min(CHUNK, n_boot - done)
        if few:
            draws = histogram_counts(counts, size, rng)
        else:  # n draws of a unit index each (cheaper than n binomials per replicate)
            draws = multiplicities(index_draws(n, rng, size), n)
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
    rng = generator(seed)
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
        # each model's mean V-measure over its seeds on the shared text resample, plus
        # its own seed noise (independent between models): normal, var = seed var / S
        sd = np.array(
            [
                np.std(seed_v_measures(u.arrays), ddof=1) / math.sqrt(1 + u.arrays["seeds"].size)
                for u in units
            ]
        )
        blocks = []
        for weights in _weight_chunks(first.n, n_boot, rng):
            blocks.append(
                np.stack([seed_v_measures(u.arrays, weights).mean(axis=0) for u in units])
            )
        boot = np.concatenate(blocks, axis=1)
        return boot + sd[:, None] * rng.standard_normal(boot.shape)
    if kind == "auc" or (kind == "mean" and first.unit in ("pairs", "queries")):
        points, cov, _ = clustered_covariance(units)
        # models with the same point and covariance row are the same model (the
        # difference has variance 0): one draw serves them all, so ties stay exact
        keys = [(float(points[k]), cov[k].tobytes()) for k in range(len(units))]
        first_of = {key: k for k, key in reversed(list(enumerate(keys)))}
        distinct = sorted(set(first_of.values()))
        sub = cov[np.ix_(distinct, distinct)]
        values, vectors = np.linalg.eigh(sub)
        factor = vectors * np.sqrt(np.clip(values, 0.0, None))[None, :]
        draws = points[distinct][:, None] + factor @ rng.standard_normal((len(distinct), n_boot))
        row = {k: i for i, k in enumerate(distinct)}
        return draws[[row[first_of[key]] for key in keys]]
    if kind == "mean":
        values = np.stack([u.arrays[u.metric] for u in units])  # (K, n)
        return _resampled_sums(values, n_boot, rng) / first.n
    if kind == "text_auc":
        terms = np.stack([_linear_terms(u) for u in units])  # (K, n)
        points = np.array([u.point for u in units])[:, None]
        return points + _resampled_sums(terms, n_boot, rng) - terms.sum(axis=1, keepdims=True)
    raise DataError(f"{first.source}: items kind {kind!r} has no replicates")
