"""Multi-class classification: macro-accuracy (mean per-class recall), as in Valla.

References
----------
.. [1] Tyo, J., Dhingra, B. and Lipton, Z. C. (2022). On the State of the Art in
   Authorship Attribution and Authorship Verification. arXiv:2209.06869 (Valla).
.. [2] Brodersen, K. H., Ong, C. S., Stephan, K. E. and Buhmann, J. M. (2010). The balanced
   accuracy and its posterior distribution. ICPR 2010, 3121-3124.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._checks import as_labels, check_same_length

__all__ = ["macro_accuracy"]


def _common_kind(pred: np.ndarray, ref: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Make predictions and references comparable (both numeric or both text)."""
    text_p, text_r = pred.dtype.kind in "US", ref.dtype.kind in "US"
    if text_p != text_r:
        raise ValueError(
            f"predictions ({pred.dtype}) and references ({ref.dtype}) must both be "
            "numbers or both be strings"
        )
    return pred, ref


def macro_accuracy(predictions: ArrayLike, references: ArrayLike) -> dict[str, Any]:
    """Macro-accuracy: the unweighted mean over classes of each class's recall.

    For every class ``k`` present in ``references``, recall_k = #(prediction == k among
    items whose reference is k) / #(reference == k); macro-accuracy is their mean, so a
    prolific author weighs as much as a rare one [1]_. This equals scikit-learn's
    ``balanced_accuracy_score`` [2]_. Predicted labels that never occur in
    ``references`` only count as errors; they get no recall entry of their own.

    Parameters
    ----------
    predictions : array-like of shape (n,)
        Predicted class per item (ints, strings or booleans).
    references : array-like of shape (n,)
        Gold class per item, same label type as ``predictions``.

    Returns
    -------
    dict
        ``macro_accuracy`` (float), ``accuracy`` (plain fraction correct) and
        ``per_class_recall`` (``{class: recall}``, classes as Python ``int``/``str``
        in sorted order).

    Raises
    ------
    ValueError
        Empty input, length mismatch, None/NaN labels, or numbers mixed with strings.

    Examples
    --------
    >>> r = macro_accuracy([0, 0, 0, 1], [0, 0, 0, 1])
    >>> r["macro_accuracy"], r["accuracy"]
    (1.0, 1.0)
    >>> r = macro_accuracy(["a", "a", "a", "a"], ["a", "a", "a", "b"])
    >>> r["macro_accuracy"], r["accuracy"], r["per_class_recall"]
    (0.5, 0.75, {'a': 1.0, 'b': 0.0})
    """
    pred = as_labels(predictions, "predictions")
    ref = as_labels(references, "references")
    check_same_length("predictions", pred, "references", ref)
    pred, ref = _common_kind(pred, ref)
    correct = pred == ref
    classes, inverse = np.unique(ref, return_inverse=True)
    support = np.bincount(inverse)
    hits = np.bincount(inverse, weights=correct)
    recall = hits / support
    return {
        "macro_accuracy": float(recall.mean()),
        "accuracy": float(np.count_nonzero(correct) / correct.size),
        "per_class_recall": {
            label: float(r) for label, r in zip(classes.tolist(), recall, strict=True)
        },
    }
