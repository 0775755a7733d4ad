"""Read the runner's result JSON files (``<out>/<model>/<dataset>/<task>.json``) into
flat :class:`Score` records keyed by STEB hub id, and look up catalogue metadata.

The dataset of a result is identified by the hub id recorded in the built folder's
``stylebench_build.json`` when the result's ``dataset.ref`` is a local folder, else by
the ref itself when it is a Hub id (``steb/NAME``), else by the folder name with ``__``
read as ``/`` (the convention of ``stylebench build`` output folders).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError, StylebenchError
from dataset_scripts.core.hub_folder import read_build_info
from dataset_scripts.core.spec import DatasetSpec, hub_id_of_folder

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


def hub_id_for(name: str, ref: str | None = None) -> str:
    """The hub id of a result's dataset (see the module docstring)."""
    if ref:
        folder = Path(ref)
        hub_id = read_build_info(folder).get("hub_id")
        if hub_id:
            return str(hub_id)
        is_hub_id = ref.count("/") == 1 and "__" not in ref and not ref.startswith((".", "/"))
        if is_hub_id and not folder.exists():
            return ref
    if "/" in name:
        return name
    if "__" in name:
        return hub_id_of_folder(name)
    if f"{STEB_PREFIX}{name}" in catalogue():
        return f"{STEB_PREFIX}{name}"
    return name


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
    """One result file; DataError naming the file and the missing field otherwise."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: not a readable result JSON ({error})") from None
    try:
        model = payload["model"]["name"]
        dataset = payload["dataset"]
        task = payload["task"]
        main_name = payload["main_score_name"]
        metrics = {k: float(v) for k, v in payload["metrics"].items() if v is not None}
    except (KeyError, TypeError, ValueError) as error:
        raise DataError(f"{path}: result JSON lacks or mistypes field {error}") from None
    if main_name not in metrics:
        raise DataError(f"{path}: main score {main_name!r} is not among its metrics")
    cis, ci_units = _cis(payload.get("details"))
    return Score(
        model=str(model),
        # a release config records the STEB dataset it is ("id"); older files do not
        dataset=str(dataset.get("id") or "")
        or hub_id_for(str(dataset.get("name", "")), dataset.get("ref")),
        task=str(task),
        main_score_name=str(main_name),
        metrics=metrics,
        seed=payload.get("seed"),
        units=_units(payload.get("details")),
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
