"""Input validation shared by every metric in :mod:`evaluators.metric_math`.

Every helper raises :class:`ValueError` whose message is one line that names the
argument and the problem, e.g. ``"scores contains NaN or infinite values (first at
index 3)"``.  The helpers avoid copies of large arrays where they can: checks for
finiteness use ``min``/``max`` reductions (NaN propagates through both) instead of an
``isfinite`` mask, and float32 inputs stay float32.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "as_1d",
    "as_binary_labels",
    "as_finite_matrix",
    "as_labels",
    "as_scores",
    "check_fpr_bound",
    "check_ks",
    "check_open_unit_interval",
    "check_same_length",
    "check_two_classes",
    "check_unit_interval",
]


def _preview(values: np.ndarray, limit: int = 3) -> str:
    """Short text for the first few offending values of an error message."""
    items = [repr(v.item() if isinstance(v, np.generic) else v) for v in values[:limit]]
    more = ", ..." if len(values) > limit else ""
    return "[" + ", ".join(items) + more + "]"


def as_1d(values: Any, name: str) -> np.ndarray:
    """Return ``values`` as a non-empty 1-D array (no copy when it already is one)."""
    try:
        arr = np.asarray(values)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(f"{name} must be a 1-D sequence ({exc})") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty")
    return arr


def check_same_length(name_a: str, a: Any, name_b: str, b: Any) -> None:
    """Raise when two inputs that are compared element-wise differ in length."""
    if len(a) != len(b):
        raise ValueError(f"{name_a} and {name_b} differ in length ({len(a)} != {len(b)})")


def _check_finite(arr: np.ndarray, name: str) -> None:
    if arr.size == 0:
        return
    lo, hi = arr.min(), arr.max()  # NaN propagates; +-inf would be the min or max
    if not (np.isfinite(lo) and np.isfinite(hi)):
        flat = arr.reshape(-1)
        first = int(np.flatnonzero(~np.isfinite(flat))[0])
        where = f"index {first}" if arr.ndim == 1 else f"index {np.unravel_index(first, arr.shape)}"
        raise ValueError(f"{name} contains NaN or infinite values (first at {where})")


def as_scores(values: Any, name: str = "scores") -> np.ndarray:
    """Return finite real-valued scores as a 1-D float array.

    float32 and float64 arrays are returned as they are (no upcast, no copy); integer
    and boolean arrays are converted to float64.
    """
    arr = as_1d(values, name)
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    elif arr.dtype.kind != "f":
        raise ValueError(f"{name} must be real numbers; got dtype {arr.dtype}")
    _check_finite(arr, name)
    return arr


def as_binary_labels(values: Any, name: str = "labels") -> np.ndarray:
    """Return binary labels as a boolean array (``True`` = positive class ``1``).

    Accepts booleans and numbers whose values are exactly 0 or 1; anything else (2, -1,
    0.5, strings) raises.
    """
    arr = as_1d(values, name)
    kind = arr.dtype.kind
    if kind == "b":
        return arr
    if kind in "iu":
        if arr.min() >= 0 and arr.max() <= 1:
            return arr.astype(bool)
    elif kind == "f":
        ok = (arr == 0) | (arr == 1)
        if ok.all():
            return arr.astype(bool)
    else:
        raise ValueError(f"{name} must be 0 or 1; got dtype {arr.dtype}")
    bad = arr[(arr != 0) & (arr != 1)]
    raise ValueError(f"{name} must be 0 or 1 (binary); got {_preview(np.unique(bad))}")


def check_two_classes(positive: np.ndarray, name: str = "labels") -> tuple[int, int]:
    """Return ``(n_pos, n_neg)`` and raise when one of the two classes is absent."""
    n_pos = int(np.count_nonzero(positive))
    n_neg = int(positive.size - n_pos)
    if n_pos == 0 or n_neg == 0:
        only = 1 if n_pos else 0
        raise ValueError(f"{name} contains a single class (all {only}); both 0 and 1 are needed")
    return n_pos, n_neg


def as_labels(values: Any, name: str) -> np.ndarray:
    """Return class or cluster labels (integers, strings or booleans) as a 1-D array.

    Text labels mixed with numbers (``[0, "a", 1]``) are refused: numpy would turn them
    all into text (``"0"``, ``"a"``, ``"1"``), a cast the caller never asked for."""
    if not isinstance(values, np.ndarray) and isinstance(values, Sequence | tuple):
        _check_one_label_kind(values, name)
    arr = as_1d(values, name)
    kind = arr.dtype.kind
    if kind == "f":
        _check_finite(arr, name)
    elif kind == "O":
        if any(v is None for v in arr):
            raise ValueError(f"{name} contains None")
        _check_one_label_kind(arr, name)
        try:  # labels of one kind that still cannot be ordered by np.unique
            np.unique(arr)
        except TypeError as exc:
            raise ValueError(f"{name} mixes label types that cannot be compared ({exc})") from None
    elif kind not in "biuUS":
        raise ValueError(f"{name} must be integers, strings or booleans; got dtype {arr.dtype}")
    return arr


def _check_one_label_kind(values: Any, name: str) -> None:
    """Raise when ``values`` mixes text labels with non-text ones (numbers, booleans)."""
    first_text = first_other = None
    for index, value in enumerate(values):
        if isinstance(value, str | np.str_ | bytes):
            first_text = index if first_text is None else first_text
        elif first_other is None:
            first_other = index
        if first_text is not None and first_other is not None:
            raise ValueError(
                f"{name} mixes text and non-text labels ({values[first_other]!r} at index "
                f"{first_other}, {values[first_text]!r} at index {first_text}); labels are "
                "never cast: give all as text or all as integers"
            )


def _real_number(value: Any, name: str, interval: str) -> float:
    """``value`` as a float when it is a real number (not text, not a boolean)."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        raise ValueError(f"{name} must be a number in {interval}; got {value!r}")
    return float(value)


def check_open_unit_interval(value: Any, name: str) -> float:
    """Return ``value`` as a float after checking ``0 < value < 1`` (a real number:
    text such as ``"0.01"`` and booleans are refused)."""
    v = _real_number(value, name, "(0, 1)")
    if not (0.0 < v < 1.0):  # also rejects NaN
        raise ValueError(f"{name} must be in the open interval (0, 1); got {value!r}")
    return v


def check_fpr_bound(value: Any, name: str) -> float:
    """Return an upper FPR bound as a float after checking ``0 < value <= 1`` (1 = the
    whole ROC curve, as in scikit-learn's ``roc_auc_score(max_fpr=1)``)."""
    v = _real_number(value, name, "(0, 1]")
    if not (0.0 < v <= 1.0):
        raise ValueError(f"{name} must be in (0, 1]; got {value!r}")
    return v


def check_unit_interval(arr: np.ndarray, name: str) -> None:
    """Raise unless every value of an (already finite) array lies in ``[0, 1]``."""
    if arr.min() < 0 or arr.max() > 1:
        bad = arr[(arr < 0) | (arr > 1)]
        raise ValueError(f"{name} must lie in [0, 1]; got {_preview(bad)}")


def as_finite_matrix(values: Any, name: str, *, min_cols: int = 1) -> np.ndarray:
    """Return a non-empty, finite, real 2-D array (float32/float64 kept as they are)."""
    try:
        arr = np.asarray(values)
    except ValueError as exc:
        raise ValueError(f"{name} must be a 2-D array ({exc})") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D; got an array of shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape})")
    if arr.dtype.kind in "biu":
        arr = arr.astype(np.float64)
    elif arr.dtype.kind != "f":
        raise ValueError(f"{name} must be real numbers; got dtype {arr.dtype}")
    if arr.shape[1] < min_cols:
        raise ValueError(f"{name} needs at least {min_cols} columns; got shape {arr.shape}")
    _check_finite(arr, name)
    return arr


def check_ks(ks: Sequence[int] | int, name: str = "ks") -> tuple[int, ...]:
    """Return cut-offs as a tuple of positive ints (a single int is accepted)."""
    items = (ks,) if isinstance(ks, int | np.integer) else tuple(ks)
    if not items:
        raise ValueError(f"{name} is empty")
    out = []
    for k in items:
        if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
            raise ValueError(f"{name} must hold positive integers; got {k!r}")
        out.append(int(k))
    return tuple(out)
