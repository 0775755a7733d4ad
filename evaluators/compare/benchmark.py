"""Model A against model B per dataset and across a benchmark; rank intervals of K models.

* **Per dataset and task**: the paired test of :func:`evaluators.compare.units.paired_test`
  (difference, 95 % CI, p-value, method).
* **Across a benchmark**: the difference of the aggregate scores: the mean over task
  types of the mean main score over that type's (dataset, task) units, the rule of
  :meth:`evaluators.benchmarks.Benchmark.aggregate` (:func:`evaluators.views.by_task_type`;
  ``--benchmark`` picks the units of a benchmark version; the leaderboard's rank column
  uses the view's own STEB score, :func:`view_aggregate`), over the units both models
  have; a view is an :class:`evaluators.views.ViewSpec`, evaluated by
  :func:`evaluators.views.evaluate_spec`. Its 95 % CI comes from a
  two-level paired bootstrap: in each replicate the datasets are resampled with
  replacement inside each task type (the fixed strata; a view's groups as its own
  bootstrap resamples them), and each drawn dataset contributes one unit-level paired
  replicate (units resampled, both models re-scored on the same resample:
  :func:`evaluators.compare.units.joint_replicates`); the p-value is the percentile
  bootstrap's. The per-dataset p-values are Holm-adjusted: a dataset is a win (loss)
  for A when its adjusted p-value is below alpha and A's score is higher (lower),
  otherwise a tie; the family-wise error rate of the wins and losses is at most alpha.
* **Rank intervals**: the same two-level bootstrap scores K models jointly (the same
  datasets and the same unit resamples for all in each replicate); a model's rank in a
  replicate is one plus the number of models scoring higher, its 95 % interval the
  2.5 and 97.5 % quantiles of those ranks
  (:func:`evaluators.metric_math.paired.rank_intervals`). Models whose interval
  overlaps the leader's (rank 1 at the point estimates) are tied with it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError, StylebenchError
from evaluators.compare.records import Entry, Key
from evaluators.compare.units import (
    N_BOOT,
    ScoreMismatchError,
    Units,
    joint_replicates,
    paired_test,
    units_of,
)
from evaluators.metric_math.paired import holm, percentile_p_value, rank_intervals
from evaluators.metric_math.resampling import (
    DEFAULT_SEED,
    generator,
    index_draws,
    percentile_interval,
)
from evaluators.views import Unit, ViewSpec, by_task_type, evaluate_spec, mean, pruned

ALPHA = 0.05
PLAIN = "mean over task types of the mean main score over the datasets of each"


def plain_aggregate(keys: Sequence[Key], metric_of: Mapping[Key, str], name: str) -> ViewSpec:
    """Mean over task types of the mean score over that type's datasets (the view
    :func:`evaluators.views.by_task_type` over the sorted keys; groups resampled)."""
    units = [(dataset, task, metric_of[(dataset, task)]) for dataset, task in sorted(keys)]
    return replace(by_task_type(units, name), note=PLAIN, resample_groups=True)


def view_aggregate(view: str, records: Sequence[Any], clusters: Any = None) -> ViewSpec:
    """The STEB view ``view`` over the datasets of ``records`` (one model's)."""
    from evaluators.steb_scores.results import score_of
    from evaluators.steb_scores.scores import OVERALL, build_spec

    spec = build_spec(view, [score_of(r) for r in records], clusters)
    note = f"the STEB {view} score ({OVERALL[view]}; evaluators.steb_scores.scores)"
    return pruned(replace(spec, note=note))


def aggregate_replicates(
    aggregate: ViewSpec,
    banks: Mapping[Unit, np.ndarray],
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    resample_datasets: bool = True,
) -> np.ndarray:
    """``(n_boot, K)`` two-level bootstrap replicates of the aggregate's overall score:
    groups (if the aggregate resamples them) and the units inside each group drawn with
    replacement, each drawn unit taking a random column of its paired bank
    (``banks[unit]``: ``(K, B)`` joint unit-level replicates)."""
    rng = generator(seed)
    layout = [[us for us in groups.values() if us] for groups in aggregate.columns.values()]
    names = list(aggregate.columns)
    out = []
    for _ in range(n_boot):
        cols: dict[str, Any] = {}
        for name, groups in zip(names, layout, strict=True):
            if not groups:
                continue
            drawn = groups
            if resample_datasets and aggregate.resample_groups:
                drawn = [groups[i] for i in index_draws(len(groups), rng)]
            means = []
            for us in drawn:
                picks = index_draws(len(us), rng) if resample_datasets else range(len(us))
                vals = []
                for i in picks:
                    bank = banks[us[i]]
                    vals.append(bank[:, rng.integers(0, bank.shape[1])])
                means.append(mean(vals))
            cols[name] = mean(means)
        out.append(aggregate.combine(cols)[aggregate.overall])
    return np.asarray(out)


# ----------------------------------------------------------------------------- A vs B


@dataclass
class DatasetComparison:
    dataset: str
    task: str
    metric: str
    score_a: float
    score_b: float
    difference: float
    ci: tuple[float, float]
    p_value: float
    method: str
    unit: str
    n_units: int
    se: float
    p_holm: float | None = None
    outcome: str = ""  # "win" (A better), "loss", "tie" after Holm
    independent_units: str = ""  # what the variance is computed over
    n_independent: int = 0
    decidable: bool = True  # clustering: False when |A - B| < one k-means seed's spread

    def to_dict(self) -> dict[str, Any]:
        return {
            "dataset": self.dataset,
            "task": self.task,
            "metric": self.metric,
            "score_a": self.score_a,
            "score_b": self.score_b,
            "difference": self.difference,
            "ci95": list(self.ci),
            "se": self.se,
            "p_value": self.p_value,
            "p_holm": self.p_holm,
            "outcome": self.outcome,
            "unit": self.unit,
            "n_units": self.n_units,
            "independent_units": self.independent_units,
            "n_independent": self.n_independent,
            "decidable": self.decidable,
            "method": self.method,
        }


@dataclass
class Comparison:
    model_a: str
    model_b: str
    datasets: list[DatasetComparison]
    benchmark: dict[str, Any] | None
    skipped: list[dict[str, str]] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def tally(self) -> dict[str, int]:
        return {k: sum(1 for d in self.datasets if d.outcome == k) for k in ("win", "tie", "loss")}

    def to_dict(self) -> dict[str, Any]:
        return {
            "model_a": self.model_a,
            "model_b": self.model_b,
            "difference": "score of model_a minus score of model_b (higher is better)",
            "settings": self.settings,
            "datasets": [d.to_dict() for d in self.datasets],
            "holm": {
                "alpha": self.settings.get("alpha", ALPHA),
                **self.tally,
                "method": "Holm (1979) step-down adjustment of the per-dataset p-values; "
                "win/loss = adjusted p < alpha with A higher/lower, else tie",
            },
            "benchmark": self.benchmark,
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class ComparisonSettings:
    """How :func:`compare_records` tests: ``n_boot`` bootstrap replicates from ``seed``,
    Holm's level ``alpha``, and whether the benchmark line's bootstrap also resamples the
    datasets (``resample_datasets``; else only the units inside each dataset)."""

    n_boot: int = N_BOOT
    seed: int = DEFAULT_SEED
    alpha: float = ALPHA
    resample_datasets: bool = True


def paired_rows(
    keys: Sequence[Key],
    records_a: Mapping[Key, Entry],
    records_b: Mapping[Key, Entry],
    settings: ComparisonSettings,
) -> tuple[list[DatasetComparison], dict[Key, tuple[Units, Units]], list[dict[str, str]]]:
    """The paired test of each shared (dataset, task): its row, the two models' units, and
    the results without per-unit data (skipped, with the reason); rows that differ between
    the two records (fingerprints) are an error."""
    rows: list[DatasetComparison] = []
    paired: dict[Key, tuple[Units, Units]] = {}
    skipped = []
    for key in keys:
        (path_a, rec_a), (path_b, rec_b) = records_a[key], records_b[key]
        try:
            ua, ub = units_of(rec_a, path_a), units_of(rec_b, path_b)
        except ScoreMismatchError:
            raise
        except DataError as error:
            skipped.append({"dataset": key[0], "task": key[1], "reason": str(error)})
            continue
        test = paired_test(ua, ub, settings.n_boot, settings.seed)
        paired[key] = (ua, ub)
        rows.append(
            DatasetComparison(
                key[0],
                key[1],
                ua.metric,
                test["score_a"],
                test["score_b"],
                test["difference"],
                (float(test["ci"][0]), float(test["ci"][1])),
                test["p_value"],
                test["method"],
                test["unit"],
                test["n_units"],
                test["se"],
                independent_units=test["independent_units"],
                n_independent=test["n_independent"],
                decidable=bool(test.get("decidable", True)),
            )
        )
    return rows, paired, skipped


def holm_outcomes(rows: Sequence[DatasetComparison], alpha: float) -> None:
    """Set each row's Holm-adjusted p-value and outcome: a win (loss) for A when the
    adjusted p-value is below ``alpha`` and A's score is higher (lower), else a tie."""
    for row, adjusted in zip(rows, holm([r.p_value for r in rows]), strict=True):
        row.p_holm = float(adjusted)
        row.outcome = "tie" if adjusted >= alpha else ("win" if row.difference > 0 else "loss")


def compare_records(
    records_a: Mapping[Key, Entry],
    records_b: Mapping[Key, Entry],
    model_a: str,
    model_b: str,
    *,
    units: Collection[Key] | None = None,
    benchmark: str | None = None,
    settings: ComparisonSettings | None = None,
    **options: Any,
) -> Comparison:
    """Compare two models' stored records on every (dataset, task) both have (only
    those in ``units`` when given: a benchmark's, named ``benchmark``), as ``settings``
    say (:class:`ComparisonSettings`; its fields may also be given as keywords,
    ``options``, which override it). Results without per-unit data are listed in
    ``skipped``; rows that differ between the two (fingerprints) are an error. The steps:
    :func:`paired_rows`, :func:`holm_outcomes`, the benchmark line."""
    settings = replace(settings or ComparisonSettings(), **options)
    wanted = None if units is None else set(units)
    keys = sorted(k for k in records_a if k in records_b and (wanted is None or k in wanted))
    if not keys:
        raise StylebenchError(
            f"models {model_a!r} and {model_b!r} share no (dataset, task) result"
            + (f" in benchmark {benchmark!r}" if benchmark else "")
        )
    rows, paired, skipped = paired_rows(keys, records_a, records_b, settings)
    if not rows:
        raise StylebenchError(
            f"no shared result of {model_a!r} and {model_b!r} keeps per-unit data: "
            + "; ".join(s["reason"] for s in skipped[:3])
        )
    holm_outcomes(rows, settings.alpha)
    metric_of = {k: us[0].metric for k, us in paired.items()}
    aggregate = plain_aggregate(list(paired), metric_of, benchmark or "shared datasets")
    summary = _benchmark_line(
        aggregate, paired, settings.n_boot, settings.seed, settings.resample_datasets
    )
    recorded = {
        "n_boot": settings.n_boot,
        "seed": settings.seed,
        "alpha": settings.alpha,
        "benchmark": benchmark,
        "resample_datasets": settings.resample_datasets,
    }
    return Comparison(model_a, model_b, rows, summary, skipped, recorded)


def _banks(
    aggregate: ViewSpec,
    units: Mapping[Key, Sequence[Units]],
    n_boot: int,
    seed: int,
) -> tuple[dict[Unit, np.ndarray], dict[Unit, np.ndarray]]:
    """Per aggregate unit, the K models' point scores and paired replicate bank."""
    banks, points = {}, {}
    for i, unit in enumerate(aggregate.units):
        per_model = units[(unit[0], unit[1])]
        if unit[2] != per_model[0].metric:
            per_model = [units_of(u.record, u.source, unit[2]) for u in per_model]
        points[unit] = np.array([u.point for u in per_model])
        banks[unit] = joint_replicates(list(per_model), n_boot, seed + i)
    return points, banks


def _benchmark_line(
    aggregate: ViewSpec,
    units: Mapping[Key, tuple[Units, Units]],
    n_boot: int,
    seed: int,
    resample_datasets: bool,
) -> dict[str, Any]:
    points, banks = _banks(aggregate, units, n_boot, seed)
    point = evaluate_spec(aggregate, points)[aggregate.overall]
    reps = aggregate_replicates(aggregate, banks, n_boot, seed, resample_datasets)
    diff = reps[:, 0] - reps[:, 1]
    low, high = percentile_interval(diff)
    n_datasets = len({u[0] for u in aggregate.units})
    return {
        "name": aggregate.name,
        "aggregate": aggregate.note,
        "score_name": aggregate.overall,
        "score_a": float(point[0]),
        "score_b": float(point[1]),
        "difference": float(point[0] - point[1]),
        "ci95": [float(low), float(high)],
        "p_value": percentile_p_value(diff),
        "n_datasets": n_datasets,
        "n_results": len(aggregate.units),
        "method": (
            "two-level paired percentile bootstrap: datasets resampled within each "
            "task type (group), units resampled inside each drawn dataset with both models "
            f"re-scored on the same resample; {n_boot} replicates, seed {seed}"
            if resample_datasets
            else "paired percentile bootstrap of the units inside each dataset (datasets "
            f"fixed); {n_boot} replicates, seed {seed}"
        ),
    }


# ----------------------------------------------------------------------------- ranks


@dataclass
class RankInterval:
    model: str
    score: float
    rank: int
    low: int
    high: int
    tied_with_leader: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "score": self.score,
            "rank": self.rank,
            "rank_ci95": [self.low, self.high],
            "tied_with_leader": self.tied_with_leader,
        }


def rank_models(
    records: Mapping[str, Mapping[Key, Entry]],
    *,
    aggregate: ViewSpec | None = None,
    units: Collection[Key] | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    resample_datasets: bool = True,
) -> tuple[list[RankInterval], dict[str, Any]]:
    """Rank intervals of the models in ``records`` (model -> its records) on the (dataset,
    task) results they all have with per-unit data (only ``datasets`` when given), and
    what they rest on (``{"aggregate", "n_datasets", "skipped", "method"}``)."""
    names = list(records)
    if len(names) < 2:
        raise StylebenchError("rank intervals need at least two models")
    wanted = None if units is None else set(units)
    shared = set.intersection(*(set(records[m]) for m in names))
    keys = sorted(k for k in shared if wanted is None or k in wanted)
    paired: dict[Key, list[Units]] = {}
    skipped = []
    for key in keys:
        try:
            paired[key] = [units_of(records[m][key][1], records[m][key][0]) for m in names]
        except ScoreMismatchError:
            raise
        except DataError as error:
            skipped.append({"dataset": key[0], "task": key[1], "reason": str(error)})
    if not paired:
        raise StylebenchError(
            f"models {', '.join(names)} share no result with per-unit data to rank them on"
        )
    if aggregate is None:
        metric_of = {k: us[0].metric for k, us in paired.items()}
        aggregate = plain_aggregate(list(paired), metric_of, "shared datasets")
    else:
        kept = {
            c: {g: [u for u in us if (u[0], u[1]) in paired] for g, us in groups.items()}
            for c, groups in aggregate.columns.items()
        }
        aggregate = replace(aggregate, columns=kept)
    if not aggregate.units:
        raise StylebenchError(
            f"models {', '.join(names)} share no result that {aggregate.name!r} scores"
        )
    points, banks = _banks(aggregate, paired, n_boot, seed)
    point = np.asarray(evaluate_spec(aggregate, points)[aggregate.overall], dtype=np.float64)
    reps = aggregate_replicates(aggregate, banks, n_boot, seed, resample_datasets)
    rank, low, high = rank_intervals(reps, point)
    leader = int(np.argmin(rank))
    out = [
        RankInterval(
            m,
            float(point[k]),
            int(rank[k]),
            int(low[k]),
            int(high[k]),
            bool(low[k] <= high[leader] and low[leader] <= high[k]),
        )
        for k, m in enumerate(names)
    ]
    out.sort(key=lambda r: (r.rank, r.model))
    info = {
        "aggregate": aggregate.note,
        "score_name": aggregate.overall,
        "n_datasets": len({u[0] for u in aggregate.units}),
        "skipped": skipped,
        "method": (
            "ranks in each replicate of the joint two-level paired bootstrap (the same "
            "datasets and unit resamples for every model); 95 % interval = 2.5 / 97.5 % "
            f"quantiles; tied = interval overlaps the leader's; {n_boot} replicates, seed {seed}"
        ),
    }
    return out, info
