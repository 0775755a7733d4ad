"""The one implementation of every stylebench metric: plain functions on arrays.

The ``evaluate`` modules in ``metrics/<name>/`` and the task evaluators both call these
functions, so a number means the same thing everywhere. Only numpy and scipy are
imported here (no ``evaluate``, no scikit-learn).

Every function validates its input and raises :class:`ValueError` with a one-line
message naming the argument (length mismatch, empty input, NaN/inf, non-binary labels,
a single class, an out-of-range ``fpr``/``max_fpr``, ...). Tie and edge-case rules are
documented on each function.

========================================  =============================================
function                                  used by
========================================  =============================================
:func:`roc_auc`, :func:`partial_auc`,     STEB pair classification, Valla AV, ARB
:func:`eer`, :func:`roc_curve`,           (``auroc`` module: :func:`roc_summary`)
:func:`roc_summary`
:func:`tpr_at_fpr`                        ARB's TPR@1%FPR (``tpr_at_fpr`` module)
:func:`fpr_threshold`                     ``detect run --protocol raid`` (per-domain
                                          thresholds on human texts only)
:func:`v_measure`                         STEB clustering (``v_measure`` module)
:func:`macro_accuracy`                    Valla AA (``macro_accuracy`` module)
:func:`order_alignment_accuracy`,         STEB order alignment
:func:`alignment_accuracy`, :func:`align`  (``order_alignment_accuracy`` module)
:func:`retrieval_scores`                  STEB retrieval (``retrieval`` module)
:func:`pan_verification`                  PAN / Valla AV (``pan_verification`` module)
========================================  =============================================
"""

from __future__ import annotations

from .alignment import (
    MAX_EXACT_ASSIGNMENTS,
    align,
    alignment_accuracy,
    alignment_cost,
    item_accuracies,
    order_alignment_accuracy,
)
from .binary import (
    eer,
    fpr_threshold,
    partial_auc,
    roc_auc,
    roc_curve,
    roc_summary,
    tpr_at_fpr,
)
from .classification import macro_accuracy
from .clustering import contingency_counts, v_measure
from .pan import pan_verification
from .retrieval import cosine_similarity_matrix, first_relevant_ranks, retrieval_scores

__all__ = [
    "MAX_EXACT_ASSIGNMENTS",
    "align",
    "alignment_accuracy",
    "alignment_cost",
    "contingency_counts",
    "cosine_similarity_matrix",
    "eer",
    "first_relevant_ranks",
    "fpr_threshold",
    "item_accuracies",
    "macro_accuracy",
    "order_alignment_accuracy",
    "pan_verification",
    "partial_auc",
    "retrieval_scores",
    "roc_auc",
    "roc_curve",
    "roc_summary",
    "tpr_at_fpr",
    "v_measure",
]
