"""Constants shared by the metric tests."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
METRIC_NAMES = (
    "auroc",
    "macro_accuracy",
    "order_alignment_accuracy",
    "pan_verification",
    "retrieval",
    "tpr_at_fpr",
    "v_measure",
)
