"""Two detectors on the same held-out texts (``stylebench detect run``'s ``scores.csv``):
paired stratified bootstrap of the AUROC and TPR@FPR differences.

Each replicate resamples the human and the machine texts with replacement, separately
(class sizes fixed, as :mod:`evaluators.detect.bootstrap` does for one detector), and
scores *both* detectors on that same resample; the difference's 95 % CI is the
percentile interval of the replicate differences and its p-value the percentile
bootstrap's (:func:`evaluators.metric_math.paired.percentile_p_value`), so the interval
excludes 0 exactly when p < 0.05. The scores of one run share their rows; two runs are
paired by text id (their ids and labels must agree).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dataset_scripts.core.errors import DataError, UnknownNameError
from evaluators.metric_math.paired import percentile_p_value
from evaluators.metric_math.resampling import DEFAULT_SEED, percentile_interval

SCORE_PREFIX = "score:"
METHOD = (
    "paired stratified percentile bootstrap over the held-out texts (human and machine "
    "texts resampled separately, both detectors scored on the same resample)"
)


def read_scores(path: Path) -> tuple[list[str], np.ndarray, dict[str, np.ndarray]]:
    """``(ids, labels, {detector: oriented scores})`` of a detection run's ``scores.csv``
    (or the run folder holding it)."""
    path = Path(path)
    if path.is_dir():
        path = path / "scores.csv"
    if not path.is_file():
        raise DataError(f"{path}: no scores.csv of `stylebench detect run` here")
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        names = [c for c in reader.fieldnames or () if c.startswith(SCORE_PREFIX)]
        if "id" not in (reader.fieldnames or ()) or "label" not in (reader.fieldnames or ()):
            raise DataError(f"{path}: scores.csv needs columns id, label and score:<detector>")
        ids, labels, columns = [], [], {n: [] for n in names}
        for line, row in enumerate(reader, start=2):
            ids.append(row["id"])
            try:
                labels.append(int(row["label"]))
                for n in names:
                    columns[n].append(float(row[n]))
            except (TypeError, ValueError):
                raise DataError(f"{path}, line {line}: label or score is not a number") from None
    return (
        ids,
        np.asarray(labels),
        {n[len(SCORE_PREFIX) :]: np.asarray(v, dtype=np.float64) for n, v in columns.items()},
    )


def paired_detector_scores(
    runs: Sequence[Path], detector_a: str, detector_b: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(scores_a, scores_b, labels)`` aligned row by row: both detectors from one run,
    or A from ``runs[0]`` and B from ``runs[1]`` matched by text id."""
    if len(runs) not in (1, 2):
        raise DataError("give one detection run (both detectors) or two (A's, then B's)")
    ids_a, labels_a, scores_a = read_scores(runs[0])
    ids_b, labels_b, scores_b = read_scores(runs[-1])
    for name, found, run in ((detector_a, scores_a, runs[0]), (detector_b, scores_b, runs[-1])):
        if name not in found:
            raise UnknownNameError(
                f"{run}: no scores of detector {name!r}; it has: {', '.join(found)}"
            )
    a = scores_a[detector_a]
    if len(runs) == 1:
        return a, scores_b[detector_b], labels_a
    position = {i: k for k, i in enumerate(ids_b)}
    missing = [i for i in ids_a if i not in position]
    if missing or len(ids_a) != len(ids_b):
        raise DataError(
            f"{runs[0]} and {runs[1]} hold different held-out texts ({len(ids_a)} and "
            f"{len(ids_b)} rows; e.g. id {missing[0] if missing else '?'!r} only in the first)"
        )
    order = np.array([position[i] for i in ids_a])
    if not np.array_equal(labels_a, labels_b[order]):
        raise DataError(f"{runs[0]} and {runs[1]} label the same text ids differently")
    return a, scores_b[detector_b][order], labels_a


def compare_detectors(
    scores_a: np.ndarray,
    scores_b: np.ndarray,
    labels: np.ndarray,
    fprs: Sequence[float] = (0.01,),
    n_boot: int = 1000,
    seed: int = DEFAULT_SEED,
) -> list[dict[str, Any]]:
    """One row per metric (``auroc``, ``tpr@<fpr>fpr``): scores, difference, 95 % CI,
    p-value, method; higher is better for both."""
    from evaluators.detect.bootstrap import replicates, stratified_indices
    from evaluators.detect.report import fpr_key
    from evaluators.metric_math import roc_auc, tpr_at_fpr

    y = np.asarray(labels).astype(bool)
    a, b = np.asarray(scores_a, dtype=np.float64), np.asarray(scores_b, dtype=np.float64)
    if a.shape != y.shape or b.shape != y.shape:
        raise DataError(f"{a.size} and {b.size} scores for {y.size} labels")
    idx_neg, idx_pos = stratified_indices(int((~y).sum()), int(y.sum()), n_boot, seed)
    auc_a, tpr_a = replicates(a[~y], a[y], fprs, idx_neg, idx_pos)
    auc_b, tpr_b = replicates(b[~y], b[y], fprs, idx_neg, idx_pos)
    rows = [("auroc", roc_auc(a, y), roc_auc(b, y), auc_a - auc_b)]
    for j, fpr in enumerate(fprs):
        point_a, point_b = tpr_at_fpr(a, y, fpr)["tpr"], tpr_at_fpr(b, y, fpr)["tpr"]
        rows.append((fpr_key(fpr), point_a, point_b, tpr_a[:, j] - tpr_b[:, j]))
    out = []
    for metric, point_a, point_b, diff in rows:
        low, high = percentile_interval(diff)
        out.append(
            {
                "metric": metric,
                "score_a": float(point_a),
                "score_b": float(point_b),
                "difference": float(point_a - point_b),
                "ci95": [float(low), float(high)],
                "p_value": percentile_p_value(diff),
                "n_human": int((~y).sum()),
                "n_machine": int(y.sum()),
                "method": f"{METHOD}; {n_boot} replicates, seed {seed}",
            }
        )
    return out
