"""Per-group metrics, result records, the ROC plot and the files of a detection run.

Groups: the whole evaluation set (``overall``), then for each group column and value, the
machine texts with that value against the human texts with that value, or against *all*
human texts where fewer than two human texts carry it (a ``generator`` column is usually
empty for human rows, exactly as in ARB where Human is the negative of every comparison);
the record says which (``negatives``). Values with no machine text are not a group.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evaluators.detect.bootstrap import estimate

OVERALL = "overall"
MIN_GROUP_HUMANS = 2


def fpr_key(fpr: float) -> str:
    return f"tpr@{fpr:g}fpr"


def fpr_label(fpr: float) -> str:
    return f"TPR@{100 * fpr:g}%FPR"


def group_masks(
    labels: np.ndarray, groups: dict[str, list[str]]
) -> list[tuple[str, str, np.ndarray, np.ndarray, str]]:
    """(column, value, negative mask, positive mask, negatives rule) per group."""
    human = labels == 0
    machine = labels == 1
    out = [("", OVERALL, human, machine, "all human texts")]
    for column, values in groups.items():
        arr = np.asarray(values, dtype=object)
        for value in sorted(set(arr[machine].tolist())):
            pos = machine & (arr == value)
            same = human & (arr == value)
            if same.sum() >= MIN_GROUP_HUMANS:
                out.append((column, str(value), same, pos, "human texts of the same group"))
            else:
                out.append((column, str(value), human, pos, "all human texts"))
    return out


def records_for(
    detector: str,
    scores: np.ndarray,
    labels: np.ndarray,
    groups: dict[str, list[str]],
    fprs: Sequence[float],
    n_resamples: int,
    seed: int,
) -> list[dict[str, Any]]:
    """One record per group (see the module docstring) with AUROC and TPR@FPR + CIs."""
    records = []
    for column, value, neg, pos, rule in group_masks(labels, groups):
        s = np.r_[scores[neg], scores[pos]]
        y = np.r_[np.zeros(int(neg.sum()), int), np.ones(int(pos.sum()), int)]
        est = estimate(s, y, fprs, n_resamples, seed)
        record: dict[str, Any] = {
            "detector": detector,
            "group_column": column,
            "group": value,
            "n_human": est.n_neg,
            "n_machine": est.n_pos,
            "negatives": rule,
            "auroc": est.auroc,
            "auroc_ci95": list(est.auroc_ci),
        }
        for f in fprs:
            key = fpr_key(f)
            record[key] = est.tpr[f]
            record[f"{key}_ci95"] = list(est.tpr_ci[f])
            record[f"{key}_threshold"] = est.threshold[f]
            record[f"{key}_achieved_fpr"] = est.achieved_fpr[f]
        records.append(record)
    return records


def plot_roc(
    curves: dict[str, tuple[np.ndarray, np.ndarray, float]],
    fprs: Sequence[float],
    title: str,
    path: Path,
) -> Path:
    """ROC curves (linear and log-FPR panels) with the FPR budgets marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6))
    for name, (fpr, tpr, auc) in curves.items():
        for ax in axes:
            ax.step(fpr, tpr, where="post", label=f"{name} (AUROC {auc:.3f})")
    for ax in axes:
        for f in fprs:
            ax.axvline(f, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("false-positive rate (human texts flagged)")
        ax.set_ylabel("true-positive rate (machine texts flagged)")
        ax.grid(alpha=0.3)
    axes[0].plot([0, 1], [0, 1], color="grey", linewidth=0.8)
    axes[0].set_title("ROC")
    positive = [c[0][c[0] > 0] for c in curves.values()]
    low = min((p.min() for p in positive if p.size), default=1e-3)
    axes[1].set_xscale("log")
    axes[1].set_xlim(max(low / 2, 1e-4), 1)
    axes[1].set_title("ROC, log FPR (the low-FPR region)")
    axes[0].legend(loc="lower right", fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


CSV_COLUMNS = ("detector", "group_column", "group", "n_human", "n_machine", "negatives", "auroc")


def write_outputs(
    out: Path, records: list[dict[str, Any]], meta: dict[str, Any], fprs: Sequence[float]
) -> dict[str, Path]:
    """``detection.json`` (records + run metadata) and ``detection.csv`` (one row per
    detector x group)."""
    json_path = write_json(out / "detection.json", {**meta, "results": records})
    csv_path = out / "detection.csv"
    columns = list(CSV_COLUMNS)
    for f in fprs:
        columns += [fpr_key(f), f"{fpr_key(f)}_threshold", f"{fpr_key(f)}_achieved_fpr"]
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow([*columns, "auroc_ci_low", "auroc_ci_high"])
        for r in records:
            writer.writerow([csv_cell(r[c]) for c in columns] + r["auroc_ci95"])
    return {"json": json_path, "csv": csv_path}


def write_json(path: Path, payload: dict[str, Any]) -> Path:
    """Write ``payload`` atomically: a uniquely named temporary file beside ``path``, then
    ``os.replace`` (two runs into one folder never share a temporary file)."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(json.dumps(payload, indent=2, default=str))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def csv_cell(value: Any) -> Any:
    """A CSV cell a spreadsheet shows as text: a string starting with ``= + - @`` or a
    tab/carriage return (a group value such as ``=HYPERLINK(...)``) gets a leading ``'``,
    so it is never run as a formula; numbers are kept."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value
