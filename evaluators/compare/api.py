"""From result folders to a comparison: what ``stylebench compare``, the leaderboard's
rank column and :func:`evaluators.api.compare` call."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evaluators.compare.benchmark import (
    ALPHA,
    Comparison,
    RankInterval,
    compare_records,
    rank_models,
    view_aggregate,
)
from evaluators.compare.records import read_records
from evaluators.compare.units import N_BOOT
from evaluators.metric_math.resampling import DEFAULT_SEED

Roots = Path | str | Sequence[Path | str]


def _roots(results: Roots) -> list[Path]:
    if isinstance(results, str | Path):
        return [Path(results)]
    return [Path(r) for r in results]


def benchmark_units(benchmark: str | None) -> tuple[str | None, set[tuple[str, str]] | None]:
    """``(key, units)`` of a benchmark version (:func:`evaluators.benchmarks.get_benchmark`:
    a key such as ``STEB(v1)``, a name or an alias), or ``(None, None)``: every unit."""
    if benchmark is None:
        return None, None
    from evaluators.benchmarks import get_benchmark

    found = get_benchmark(benchmark)
    return found.key, set(found.units)


def compare_results(
    results: Roots,
    model_a: str,
    model_b: str,
    *,
    benchmark: str | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
    alpha: float = ALPHA,
) -> Comparison:
    """Model A against model B on every dataset and task both have under ``results`` (a
    run-output folder or a results repository, or several), restricted to the units of
    ``benchmark`` (a key, name or alias of :mod:`evaluators.benchmarks`) when given."""
    found = read_records(_roots(results))
    key, units = benchmark_units(benchmark)
    return compare_records(
        found.of(model_a),
        found.of(model_b),
        model_a,
        model_b,
        units=units,
        benchmark=key,
        n_boot=n_boot,
        seed=seed,
        alpha=alpha,
    )


def rank_results(
    results: Roots,
    models: Sequence[str] | None = None,
    *,
    benchmark: str | None = None,
    view: str | None = None,
    clusters: dict[str, list[list[str]]] | None = None,
    n_boot: int = N_BOOT,
    seed: int = DEFAULT_SEED,
) -> tuple[list[RankInterval], dict]:
    """Rank intervals of ``models`` (default: every model under ``results``) on the
    datasets they share (``benchmark``'s only, when given), scored by ``view``'s STEB
    score when given (operational clusters from ``clusters``), else the plain aggregate."""
    found = read_records(_roots(results))
    names = list(models) if models else found.models
    records = {m: found.of(m) for m in names}
    aggregate = None
    if view is not None:
        first = records[names[0]]
        shared = set.intersection(*(set(r) for r in records.values()))
        aggregate = view_aggregate(view, [first[k][1] for k in sorted(shared)], clusters)
    return rank_models(
        records, aggregate=aggregate, units=benchmark_units(benchmark)[1], n_boot=n_boot, seed=seed
    )
