"""Read the runner's result JSON files (``<out>/<model>/<dataset>/<task>.json``) into
flat :class:`Score` records keyed by STEB hub id, and look up catalogue metadata.

The dataset of a result is the id its record holds (``dataset.id``, resolved once when
the run wrote it, or when a version-1 file is migrated: :mod:`evaluators.records.ids`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import StylebenchError
from dataset_scripts.core.spec import DatasetSpec

UnitScores = tuple[list[float], list[int]]
STEB_TOTAL_DATASETS = 96  # paper Sec. 3 / Table 15
STEB_PREFIX = "steb/"


@dataclass(frozen=True)
class Score:
    """One (model, dataset, task) result."""

    model: str
    dataset: str  # hub id, e.g. steb/STEL_feature
    task: str
    main_score_name: str
    metrics: dict[str, float]
    seed: int | None = None
    # metric -> per-unit scores as (distinct values, counts)
    units: dict[str, UnitScores] = field(default_factory=dict)
    path: Path | None = None
    # metric -> (low, high): a CI the task evaluator recorded in ``details["ci95"]``
    cis: dict[str, tuple[float, float]] = field(default_factory=dict)
    ci_units: int = 0  # how many units that recorded CI resampled (``n_units``)

    def value(self, metric: str | None = None) -> float | None:
        """The named metric (default: the main score); None when the result lacks it."""
        name = metric or self.main_score_name
        return self.metrics.get(name)


@cache
def catalogue() -> dict[str, DatasetSpec]:
    """STEB's 96 datasets by hub id: their declarations (task types, language, and in
    ``spec.steb`` the Table 10 bucket and Table 13 clusters)."""
    from dataset_scripts.steb.catalog import steb_datasets

    return {spec.hub_id: spec for spec in steb_datasets()}


def _units(details: Any) -> dict[str, UnitScores]:
    """``details["units"][metric]``: a list of per-unit scores, or the compact histogram
    ``{"values": [...], "counts": [...]}``; anything else is ignored."""
    if not isinstance(details, dict) or not isinstance(details.get("units"), dict):
        return {}
    out: dict[str, UnitScores] = {}
    for metric, raw in details["units"].items():
        if isinstance(raw, list) and raw and all(isinstance(v, int | float) for v in raw):
            values, counts = np.unique(np.asarray(raw, dtype=float), return_counts=True)
            out[str(metric)] = (values.tolist(), counts.tolist())
        elif isinstance(raw, dict) and isinstance(raw.get("values"), list):
            values, counts = raw["values"], raw.get("counts")
            if isinstance(counts, list) and len(counts) == len(values) and sum(counts) > 0:
                out[str(metric)] = ([float(v) for v in values], [int(c) for c in counts])
    return out


def _cis(details: Any) -> tuple[dict[str, tuple[float, float]], int]:
    """``details["ci95"]``: ``{metric: [low, high], "n_units": n, ...}`` as recorded by the
    task evaluators (pairs, clustering, probing); anything malformed is ignored."""
    if not isinstance(details, dict) or not isinstance(details.get("ci95"), dict):
        return {}, 0
    record = details["ci95"]
    out: dict[str, tuple[float, float]] = {}
    for metric, raw in record.items():
        if (
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) for v in raw)
        ):
            out[str(metric)] = (float(raw[0]), float(raw[1]))
    n_units = record.get("n_units")
    return out, int(n_units) if isinstance(n_units, int) else 0


def read_result(path: Path) -> Score:
    """One result file (any record version, :mod:`evaluators.records.record`); DataError
    naming the file and the missing field otherwise."""
    from evaluators.records.record import load_record

    return score_of(load_record(path), path)


def score_of(record: Any, path: Path | None = None) -> Score:
    """The :class:`Score` view of a :class:`~evaluators.records.record.ResultRecord`."""
    cis, ci_units = _cis(record.details)
    return Score(
        model=record.model.name,
        dataset=record.dataset_id,
        task=record.task,
        main_score_name=record.main_score_name,
        metrics=record.metrics,
        seed=record.seed,
        units=_units(record.details),
        path=path,
        cis=cis,
        ci_units=ci_units,
    )


def load_results(roots: Iterable[Path]) -> list[Score]:
    """Every ``<model>/<dataset>/<task>.json`` under the given results folders; a
    later file for the same (model, dataset, task) replaces an earlier one."""
    found: dict[tuple[str, str, str], Score] = {}
    for root in roots:
        root = Path(root)
        if not root.is_dir():
            raise StylebenchError(f"results folder {root} does not exist")
        for path in sorted(root.glob("*/*/*.json")):
            score = read_result(path)
            found[(score.model, score.dataset, score.task)] = score
    return list(found.values())


def by_model(scores: Iterable[Score]) -> dict[str, list[Score]]:
    grouped: dict[str, list[Score]] = {}
    for s in scores:
        grouped.setdefault(s.model, []).append(s)
    return grouped


def coverage(scores: Iterable[Score], exclude: Iterable[str] = ()) -> int:
    """How many distinct STEB datasets of Table 15 the scores cover: hub ids ``steb/...``,
    minus ``exclude`` (the non-English datasets, which Table 15 and the 96 do not count)."""
    skip = set(exclude)
    return len({s.dataset for s in scores if s.dataset.startswith(STEB_PREFIX)} - skip)
