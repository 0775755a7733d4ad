"""The RAID evaluation protocol (``stylebench detect run --protocol raid``) and its API.

RAID (Dugan et al., ACL 2024; ``raid-bench``, ``raid/evaluate.py``) evaluates a detector
like this, and so do we:

* **Calibration on human texts only, per domain.** For each value of the domain column
  and each target FPR, a threshold is set on that domain's human scores alone
  (:func:`evaluators.metric_math.fpr_threshold`: flag iff ``score > v``, ``v`` the
  ``(c+1)``-th largest human score, ``c`` the most false positives with
  ``c / n_human <= target``). Without a domain column the whole set is one domain.
* **TPR per group.** For every combination of the group columns (domain, generator,
  decoding, attack, ... each either one value or ``"all"``) that holds machine texts,
  each machine text is flagged with *its own domain's* threshold and TPR = flagged /
  machine texts. Human texts are never part of a group's TPR.
* **Null where the target cannot be met.** A domain whose human texts cannot reach the
  target (the largest FPR within it is 0: ``target * n_human < 1`` or tied top scores, or
  no human text at all) has no threshold; the TPR of every group with machine texts from
  that domain is ``None`` (RAID: ``remove_failed_fpr_scores``).
* **AUROC per group**: the group's machine texts against the human texts of its domain
  (all human texts when the domain is ``"all"``), :func:`evaluators.metric_math.roc_auc`.

Where we differ from RAID's code, on purpose: RAID finds its threshold by an iterative
step search that stops within ``epsilon = 0.0005`` of the target, so it may accept an FPR up
to ``target + 0.0005``, and it calibrates only on human texts whose ``attack`` is
``"none"``; we take the exact largest FPR not above the target on every human text of the
domain (drop attacked human rows first to match RAID there). RAID nulls every ``"all"``
domain record when any domain fails; we null exactly the groups holding machine texts of a
failing domain (for ``domain = "all"`` that is every group unless a filter leaves that
domain out). :func:`run_detection` / :func:`evaluate_detection` mirror RAID's
``run_detection(f, df)`` / ``run_evaluation(results, df, target_fpr=...)``.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError, StylebenchError

ALL = "all"
RAID_FPRS = (0.05, 0.01)
#: Columns :func:`evaluate_detection` groups by when they are present (RAID's, plus ours).
GROUP_COLUMNS = ("domain", "model", "generator", "decoding", "repetition_penalty", "attack")


def tpr_key(fpr: float) -> str:
    return f"tpr@{fpr:g}fpr"


def calibrate(
    scores: np.ndarray, labels: np.ndarray, domains: Sequence[str], fprs: Sequence[float]
) -> dict[float, dict[str, dict[str, Any]]]:
    """``{fpr: {domain: fpr_threshold(...) of that domain's human scores}}``; a domain
    without human texts gets ``{"reachable": False, "n_neg": 0}``."""
    from evaluators.metric_math import fpr_threshold

    dom = np.asarray(domains, dtype=object)
    out: dict[float, dict[str, dict[str, Any]]] = {}
    for f in fprs:
        per: dict[str, dict[str, Any]] = {}
        for d in dict.fromkeys(dom.tolist()):
            human = scores[(dom == d) & (labels == 0)]
            if human.size == 0:
                per[d] = {"threshold": None, "achieved_fpr": None, "reachable": False, "n_neg": 0}
            else:
                per[d] = fpr_threshold(human, f)
        out[f] = per
    return out


def raid_records(
    scores: np.ndarray,
    labels: np.ndarray,
    groups: dict[str, Sequence[str]],
    domain_column: str | None,
    fprs: Sequence[float] = RAID_FPRS,
) -> tuple[list[dict[str, Any]], dict[float, dict[str, dict[str, Any]]]]:
    """One record per combination of ``groups`` values (or ``"all"``) with machine texts,
    and the per-domain calibration (see the module docstring)."""
    from evaluators.metric_math import roc_auc

    scores = np.asarray(scores, dtype=np.float64)
    labels = np.asarray(labels).astype(int)
    if domain_column is not None and domain_column not in groups:
        raise DataError(f"domain column {domain_column!r} is not among the group columns")
    columns = list(groups)
    domains = [str(v) for v in groups[domain_column]] if domain_column else [ALL] * scores.size
    dom = np.asarray(domains, dtype=object)
    calibration = calibrate(scores, labels, domains, fprs)
    machine = np.flatnonzero(labels == 1)
    human_scores = {d: scores[(dom == d) & (labels == 0)] for d in dict.fromkeys(domains)}
    all_human = scores[labels == 0]
    flagged: dict[float, np.ndarray] = {}
    failed: dict[float, np.ndarray] = {}
    for f in fprs:
        bound = np.array(
            [
                calibration[f][d]["bound"] if calibration[f][d]["reachable"] else np.inf
                for d in domains
            ]
        )
        flagged[f] = scores > bound
        failed[f] = ~np.array([calibration[f][d]["reachable"] for d in domains])
    values = {c: np.asarray([str(v) for v in groups[c]], dtype=object) for c in columns}
    combos: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for keep in itertools.product((False, True), repeat=len(columns)):
        for i in machine:
            key = tuple(values[c][i] if k else ALL for c, k in zip(columns, keep, strict=True))
            combos[key].append(int(i))
    records = []
    for key in sorted(combos, key=lambda k: tuple((v != ALL, v) for v in k)):
        rows = np.asarray(sorted(set(combos[key])))
        record: dict[str, Any] = dict(zip(columns, key, strict=True))
        d = record.get(domain_column, ALL) if domain_column else ALL
        human = all_human if d == ALL else human_scores[d]
        record["n_machine"] = int(rows.size)
        record["n_human"] = int(human.size)
        s = np.r_[human, scores[rows]]
        y = np.r_[np.zeros(human.size, int), np.ones(rows.size, int)]
        record["auroc"] = float(roc_auc(s, y)) if human.size else None
        for f in fprs:
            if failed[f][rows].any():
                record[tpr_key(f)] = None
                record[f"tp@{f:g}fpr"] = None
            else:
                tp = int(flagged[f][rows].sum())
                record[tpr_key(f)] = tp / rows.size
                record[f"tp@{f:g}fpr"] = tp
        records.append(record)
    return records, calibration


def calibration_summary(
    calibration: dict[float, dict[str, dict[str, Any]]],
) -> dict[str, dict[str, dict[str, Any]]]:
    """The calibration as JSON-ready ``{tpr key: {domain: threshold, achieved FPR, ...}}``."""
    return {
        tpr_key(f): {
            d: {
                "threshold": c.get("threshold") if c["reachable"] else None,
                "achieved_fpr": c.get("achieved_fpr"),
                "reachable": bool(c["reachable"]),
                "n_human": int(c["n_neg"]),
            }
            for d, c in per.items()
        }
        for f, per in calibration.items()
    }


# ---------------------------------------------------------------- RAID-shaped Python API


def _rows(df: Any) -> list[dict[str, Any]]:
    if hasattr(df, "to_dict"):
        return list(df.to_dict(orient="records"))
    return [dict(r) for r in df]


def run_detection(
    detector: Any,
    df: Any,
    *,
    text_column: str = "generation",
    id_column: str = "id",
    batch_size: int = 16,
    progress: bool = False,
    **detector_options: Any,
) -> list[dict[str, Any]]:
    """Score every text of ``df`` (a DataFrame or a list of dicts): ``[{"id", "score"}]``
    in row order, as RAID's ``run_detection(f, df)`` returns. ``detector``: a name for
    :func:`evaluators.arb.detectors.get_detector` (``detector_options`` go to it), a
    detector object (its ``score``), or a function from a list of texts to scores (RAID's
    convention). ``text_column`` defaults to RAID's ``generation``; ``text`` is used when
    the frame has no ``generation`` column. Scores are higher = more machine-like."""
    rows = _rows(df)
    if not rows:
        raise DataError("run_detection: the frame has no rows")
    if text_column not in rows[0] and "text" in rows[0]:
        text_column = "text"
    for column in (text_column, id_column):
        if column not in rows[0]:
            raise DataError(f"run_detection: no column {column!r}; columns: {', '.join(rows[0])}")
    if isinstance(detector, str):
        from evaluators.arb.detectors import get_detector

        detector = get_detector(detector, **detector_options)
    score: Callable[[list[str]], Any] = getattr(detector, "score", detector)
    texts = [str(r[text_column]) for r in rows]
    out: list[float] = []
    from tqdm.auto import tqdm

    for start in tqdm(range(0, len(texts), batch_size), disable=not progress, desc="score"):
        batch = texts[start : start + batch_size]
        part = np.asarray(score(batch), dtype=np.float64).reshape(-1)
        if part.shape != (len(batch),):
            raise StylebenchError(
                f"the detector returned {part.size} scores for {len(batch)} texts"
            )
        out.extend(part.tolist())
    if not np.all(np.isfinite(out)):
        raise StylebenchError("the detector returned NaN or infinite scores")
    return [{"id": r[id_column], "score": s} for r, s in zip(rows, out, strict=True)]


@dataclass(frozen=True)
class FrameColumns:
    """How :func:`evaluate_detection` reads RAID's frame: the group columns (None: every
    column of :data:`GROUP_COLUMNS` present), the domain column (its values get their own
    thresholds; ignored when it is not a group), the label column (None: ``label``, else
    ``regime``, else RAID's ``model``) with the two values of another label convention
    (``machine_label``/``human_label``), and the id column the results join on."""

    group_columns: Sequence[str] | None = None
    domain_column: str | None = "domain"
    label_column: str | None = None
    machine_label: object | None = None
    human_label: object | None = None
    id_column: str = "id"


def frame_labels(rows: list[dict[str, Any]], columns: FrameColumns) -> np.ndarray:
    """0/1 labels (1 = machine) of the frame's rows: the label column's values (the
    default vocabulary or the two named values), else RAID's ``model`` (``human`` = 0)."""
    from evaluators.detect.data import label_mapping, parse_label

    mapping = label_mapping(columns.machine_label, columns.human_label)
    label_column = columns.label_column
    if label_column is None:
        label_column = next((c for c in ("label", "regime") if c in rows[0]), None)
    if label_column is None:
        if "model" not in rows[0]:
            raise DataError(
                "evaluate_detection: no 'label' column and no RAID 'model' column (human rows "
                "have model 'human'); name the label column with label_column="
            )
        return np.array([0 if str(r["model"]) == "human" else 1 for r in rows])
    if label_column not in rows[0]:
        raise DataError(f"evaluate_detection: no column {label_column!r}")
    return np.array(
        [
            parse_label(r[label_column], f"row {i}", label_column, mapping)
            for i, r in enumerate(rows)
        ]
    )


def frame_scores(
    results: Sequence[dict[str, Any]] | Sequence[float] | np.ndarray,
    rows: list[dict[str, Any]],
    id_column: str,
) -> np.ndarray:
    """The score of each row: ``results`` joined on ``id_column`` (one score per id, one
    for every row) or plain scores in row order (one per row)."""
    if not (len(results) and isinstance(results[0], dict)):  # type: ignore[index]
        scores = np.asarray(results, dtype=np.float64)
        if scores.shape != (len(rows),):
            raise DataError(f"evaluate_detection: {scores.size} scores for {len(rows)} rows")
        return scores
    by_id: dict[Any, float] = {}
    for r in results:  # type: ignore[union-attr]
        if r["id"] in by_id:
            raise DataError(f"evaluate_detection: id {r['id']!r} has two scores")
        by_id[r["id"]] = float(r["score"])
    missing = [r[id_column] for r in rows if r[id_column] not in by_id]
    if missing:
        raise DataError(
            f"evaluate_detection: {len(missing)} rows have no score (first id {missing[0]!r})"
        )
    return np.array([by_id[r[id_column]] for r in rows])


def evaluate_detection(
    results: Sequence[dict[str, Any]] | Sequence[float] | np.ndarray,
    df: Any,
    target_fpr: float | Sequence[float] = RAID_FPRS,
    columns: FrameColumns | None = None,
    **options: Any,
) -> dict[str, Any]:
    """RAID's ``run_evaluation(results, df, target_fpr=...)`` with this module's rule.

    ``results`` is :func:`run_detection`'s ``[{"id", "score"}]`` (joined to ``df`` on
    ``id_column``, one to one) or plain scores in row order. How the frame is read is
    ``columns`` (:class:`FrameColumns`; its fields may also be given as keywords,
    ``options``, which override it). Labels: ``label_column`` (default ``label``, else
    ``regime``; ``human``/``machine``, 0/1, or the two values named by
    ``machine_label``/``human_label``), else RAID's ``model`` column (``human`` = human).
    Groups: ``group_columns``, default every column of :data:`GROUP_COLUMNS` present.

    Returns ``{"scores": records, "thresholds": {tpr key: {domain: ...}}, "target_fpr":
    [...]}``; each record names its group values (``"all"`` for any), ``n_machine``,
    ``n_human``, ``auroc`` and ``tpr@<f>fpr`` (``None`` where the target is unreachable).
    """
    columns = dataclasses.replace(columns or FrameColumns(), **options)
    rows = _rows(df)
    if not rows:
        raise DataError("evaluate_detection: the frame has no rows")
    fprs = [float(target_fpr)] if np.isscalar(target_fpr) else [float(f) for f in target_fpr]  # type: ignore[arg-type]
    scores = frame_scores(results, rows, columns.id_column)
    labels = frame_labels(rows, columns)
    group_columns = columns.group_columns
    if group_columns is None:
        group_columns = [c for c in GROUP_COLUMNS if c in rows[0]]
    groups = {c: [str(r[c]) for r in rows] for c in group_columns}
    domain_column = columns.domain_column if columns.domain_column in groups else None
    records, calibration = raid_records(scores, labels, groups, domain_column, fprs)
    return {
        "scores": records,
        "thresholds": calibration_summary(calibration),
        "target_fpr": fprs,
        "domain_column": domain_column,
    }


def write_raid_outputs(
    out: Path, records: list[dict[str, Any]], meta: dict[str, Any], fprs: Sequence[float]
) -> dict[str, Path]:
    """``detection.json`` (records + run metadata) and ``detection.csv`` (one row per
    detector x combination; an empty cell where the TPR is null)."""
    import csv

    from evaluators.detect.report import csv_cell, write_json

    json_path = write_json(out / "detection.json", {**meta, "results": records})
    columns = list(dict.fromkeys(k for r in records for k in r))
    csv_path = out / "detection.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        for r in records:
            writer.writerow(["" if r.get(c) is None else csv_cell(r.get(c)) for c in columns])
    return {"json": json_path, "csv": csv_path}
