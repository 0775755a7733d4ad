"""STEB order alignment: assign candidates to reference positions, score the assignment.

One *item* is a cost matrix ``cost[i, j]`` = distance between reference position ``i``
(rows; an ordered set of texts, most to least of a style) and candidate ``j`` (columns;
the set to re-order). The alignment is the minimum-cost assignment of rows to distinct
columns (Hungarian algorithm); an item's accuracy is the fraction of rows placed on
their expected column. In the *distractor* variant there is one more column than rows:
a candidate that shares the topic but none of the styles and must stay unassigned.

STEB builds the cost as ``1 - max(cos, 0)`` (:func:`alignment_cost`) and reports the mean
over items of the per-item fraction (``acc_mean``, ``distractor_acc_mean``).

Tie rule (where we deliberately differ from STEB's code)
--------------------------------------------------------
When several assignments reach the minimum total cost (within a relative tolerance of
1e-9 plus an absolute 1e-12 per row, see :data:`TIE_RTOL` and :data:`TIE_ATOL`), the accuracy is the *expected* accuracy under a uniform
random choice among the optimal assignments. A constant encoder (all costs equal) thus
scores chance, ``1/m`` per row, instead of 100% from the Hungarian solver's deterministic
preference for the identity. This is exact while the number of injective assignments
``m! / (m - k)!`` is at most :data:`MAX_EXACT_ASSIGNMENTS` (every ``k x k`` and
``k x (k+1)`` item with ``k <= 7``, and ``8 x 8``); larger items use the single Hungarian
solution (scipy's tie-breaking). Without ties both rules give STEB's number.

References
----------
.. [1] Kuhn, H. W. (1955). The Hungarian method for the assignment problem. Naval
   Research Logistics Quarterly 2(1-2), 83-97.
.. [2] Wegmann, A. and Nguyen, D. (2021). Does It Capture STEL? A Modular, Similarity-based
   Linguistic Style Evaluation Framework. EMNLP 2021.
.. [3] Wegmann, A., Schraagen, M. and Nguyen, D. (2022). Same Author or Just Same Topic?
   Towards Content-Independent Style Representations. RepL4NLP 2022 (STEL-or-Content).
.. [4] STEB: the Style Text Embedding Benchmark (2026), Sec. 3.1 "Order alignment".
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ._checks import as_finite_matrix
from .grid import fixed_sum
from .retrieval import cosine_similarity_matrix

__all__ = [
    "MAX_EXACT_ASSIGNMENTS",
    "TIE_ATOL",
    "TIE_RTOL",
    "align",
    "alignment_accuracy",
    "alignment_cost",
    "item_accuracies",
    "order_alignment_accuracy",
    "solver_item_accuracies",
    "tie_aware_item_accuracies",
]

#: Largest number of injective assignments enumerated for the exact tie-aware accuracy.
MAX_EXACT_ASSIGNMENTS = 40_320  # 8! = P(8, 7)
#: Assignments whose total cost exceeds the minimum by at most
#: ``TIE_RTOL * max(|minimum|, max |cost entry|)`` count as optimal (tied).
TIE_RTOL = 1e-9
#: ... plus this absolute slack per row: cosines of identical vectors come out as 1 +- 1 ulp,
#: so costs that are 0 in exact arithmetic can be -2.2e-16, where a relative bound is 0.
TIE_ATOL = 1e-12
_CHUNK_ELEMENTS = 4_000_000  # bound on the (items x assignments x rows) work array


def _n_injections(m: int, k: int) -> int:
    return math.perm(m, k)


@lru_cache(maxsize=64)
def _injections(m: int, k: int) -> np.ndarray:
    """All injective maps rows -> columns as an (m!/(m-k)!, k) int array."""
    arr = np.array(list(itertools.permutations(range(m), k)), dtype=np.intp)
    arr.setflags(write=False)
    return arr


def _check_cost(cost: ArrayLike, name: str = "cost") -> np.ndarray:
    c = as_finite_matrix(cost, name, min_cols=2)
    if c.shape[0] > c.shape[1]:
        raise ValueError(
            f"{name} has more rows (reference positions) than columns (candidates): {c.shape}"
        )
    return c


def _check_expected(expected: ArrayLike, k: int, m: int | None, name: str) -> np.ndarray:
    e = np.asarray(expected)
    if e.ndim != 1 or e.size != k:
        raise ValueError(f"{name} must list one column per row ({k}); got shape {e.shape}")
    if e.dtype.kind not in "iu":
        if e.dtype.kind == "f" and np.all(np.isfinite(e)) and np.all(e == np.round(e)):
            e = e.astype(np.intp)
        else:
            raise ValueError(f"{name} must hold integer column indices; got {e.tolist()}")
    if e.min() < 0 or (m is not None and e.max() >= m):
        bound = f"[0, {m})" if m is not None else ">= 0"
        raise ValueError(f"{name} holds column indices outside {bound}: {e.tolist()}")
    if np.unique(e).size != k:
        raise ValueError(f"{name} repeats a column: {e.tolist()}")
    return e.astype(np.intp)


def align(cost: ArrayLike) -> np.ndarray:
    """Minimum-cost assignment of rows (reference positions) to distinct columns.

    Parameters
    ----------
    cost : array-like of shape (k, m), k <= m
        ``cost[i, j]`` = distance between reference position ``i`` and candidate ``j``.

    Returns
    -------
    ndarray of shape (k,)
        ``out[i]`` = column assigned to row ``i`` (scipy's ``linear_sum_assignment``;
        with tied optima its deterministic choice).

    Examples
    --------
    >>> align([[0.9, 0.1], [0.2, 0.8]]).tolist()
    [1, 0]
    >>> align([[0.1, 0.5, 0.0], [0.9, 0.2, 0.8]]).tolist()  # 2 rows, 3 candidates
    [2, 1]
    """
    from scipy.optimize import linear_sum_assignment  # here: scipy.optimize costs ~0.5 s

    c = _check_cost(cost)
    rows, cols = linear_sum_assignment(c)
    out = np.empty(c.shape[0], dtype=np.intp)
    out[rows] = cols
    return out


def _tie_aware_batch(
    costs: np.ndarray, expected: np.ndarray, n_optimal: np.ndarray | None = None
) -> np.ndarray:
    """Exact tie-aware accuracy of a stack of same-shaped items: (B, k, m) -> (B,).
    When ``n_optimal`` (int array of shape (B,)) is given it receives the number of
    optimal assignments of each item (> 1 = the item is tied)."""
    b_total, k, m = costs.shape
    inj = _injections(m, k)
    rows = np.arange(k)
    out = np.empty(b_total, dtype=np.float64)
    step = max(1, _CHUNK_ELEMENTS // (inj.shape[0] * k))
    for start in range(0, b_total, step):
        c = costs[start : start + step]
        e = expected[start : start + step]
        totals = fixed_sum(c[:, rows, inj], axis=-1)  # (b, n_inj), the same bits on any CPU
        best = totals.min(axis=1, keepdims=True)
        scale = np.maximum(np.abs(best), np.abs(c).max(axis=(1, 2))[:, None])
        optimal = totals <= best + TIE_RTOL * scale + TIE_ATOL * k
        n_correct = (inj[None, :, :] == e[:, None, :]).sum(axis=-1)  # (b, n_inj)
        n_best = optimal.sum(axis=1)
        out[start : start + step] = (optimal * n_correct).sum(axis=1) / (k * n_best)
        if n_optimal is not None:
            n_optimal[start : start + step] = n_best
    return out


def _hungarian_batch(costs: np.ndarray, expected: np.ndarray) -> np.ndarray:
    from scipy.optimize import linear_sum_assignment

    out = np.empty(costs.shape[0], dtype=np.float64)
    for i, (c, e) in enumerate(zip(costs, expected, strict=True)):
        rows, cols = linear_sum_assignment(c)
        out[i] = np.mean(cols[np.argsort(rows)] == e)
    return out


def solver_item_accuracies(costs: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Per-item accuracy of the Hungarian solver's own assignment (scipy's
    ``linear_sum_assignment``, whose choice among tied optima the STEB authors' code
    keeps), for a stack of items ``(B, k, m)`` with expected columns ``(B, k)``. The
    costs are used as given (pass them in the precision the protocol computes them)."""
    c = np.asarray(costs)
    if c.ndim != 3 or c.shape[0] == 0:
        raise ValueError(f"costs must be a non-empty (items, rows, cols) stack; got {c.shape}")
    e = np.broadcast_to(np.asarray(expected), c.shape[:2])
    return _hungarian_batch(c, e)


def tie_aware_item_accuracies(
    costs: np.ndarray, expected: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per-item tie-aware accuracies (as :func:`item_accuracies`) and whether each item
    is tied (more than one optimal assignment), for a stack ``(B, k, m)``. Items too
    large to enumerate (see :data:`MAX_EXACT_ASSIGNMENTS`) are scored by the solver
    and reported as not tied."""
    c = np.asarray(costs, dtype=np.float64)
    if c.ndim != 3 or c.shape[0] == 0:
        raise ValueError(f"costs must be a non-empty (items, rows, cols) stack; got {c.shape}")
    _, k, m = c.shape
    e = np.ascontiguousarray(np.broadcast_to(np.asarray(expected, dtype=np.intp), c.shape[:2]))
    if _n_injections(m, k) > MAX_EXACT_ASSIGNMENTS:
        return _hungarian_batch(c, e), np.zeros(c.shape[0], dtype=bool)
    n_optimal = np.empty(c.shape[0], dtype=np.int64)
    accuracies = _tie_aware_batch(c, e, n_optimal)
    return accuracies, n_optimal > 1


def _accuracy_batch(costs: np.ndarray, expected: np.ndarray) -> np.ndarray:
    _, k, m = costs.shape
    if _n_injections(m, k) <= MAX_EXACT_ASSIGNMENTS:
        return _tie_aware_batch(costs, expected)
    return _hungarian_batch(costs, expected)


def alignment_accuracy(cost: ArrayLike, expected: ArrayLike) -> float:
    """Tie-aware fraction of rows aligned to their expected column.

    Parameters
    ----------
    cost : array-like of shape (k, m), 2 <= m, k <= m
        Finite distances, lower = better match (see :func:`alignment_cost`).
    expected : array-like of shape (k,)
        Correct column of each row (distinct, in ``[0, m)``).

    Returns
    -------
    float
        Mean over the optimal assignments (uniform weights) of the fraction of correctly
        placed rows; see the module notes for the tie rule and its size limit.

    Raises
    ------
    ValueError
        Non-2-D, empty or non-finite ``cost``, fewer than 2 columns, more rows than
        columns, or ``expected`` of the wrong length, out of range or with repeats.

    Examples
    --------
    >>> alignment_accuracy([[0.1, 0.9], [0.8, 0.2]], [0, 1])
    1.0
    >>> alignment_accuracy([[0.5, 0.5], [0.5, 0.5]], [0, 1])  # constant encoder: chance
    0.5
    >>> round(alignment_accuracy([[0.3, 0.3, 0.3]] * 2, [0, 1]), 4)  # with a distractor
    0.3333
    """
    c = _check_cost(cost)
    k, m = c.shape
    e = _check_expected(expected, k, m, "expected")
    return float(_accuracy_batch(c[None], e[None])[0])


def alignment_cost(reference: ArrayLike, candidates: ArrayLike) -> np.ndarray:
    """STEB's alignment cost ``1 - max(cos(reference_i, candidate_j), 0)``.

    Negative similarities are clipped to 0, so costs lie in [0, 1]; a zero vector has
    similarity 0 (cost 1) with everything.

    Parameters
    ----------
    reference : array-like of shape (k, d)
        Embeddings of the ordered reference set.
    candidates : array-like of shape (m, d)
        Embeddings of the set to align.

    Returns
    -------
    ndarray of shape (k, m), float32

    Examples
    --------
    >>> alignment_cost([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]).tolist()
    [[0.0, 1.0, 1.0]]
    """
    sim = cosine_similarity_matrix(reference, candidates)
    return (1.0 - np.maximum(sim, 0.0)).astype(np.float32)


def _score_items(
    costs: Sequence[ArrayLike] | np.ndarray,
    expected: Sequence[ArrayLike] | np.ndarray,
    name: str,
    exp_name: str,
) -> np.ndarray:
    """Per-item accuracies; items grouped by shape and scored in vectorised batches."""
    if isinstance(costs, np.ndarray) and costs.ndim == 3 and costs.dtype.kind in "biuf":
        groups = {costs.shape[1:]: list(range(costs.shape[0]))}
        items: Any = costs
        n = costs.shape[0]
        if len(expected) != n:
            raise ValueError(f"{name} and {exp_name} differ in length ({n} != {len(expected)})")
        if n == 0:
            raise ValueError(f"{name} is empty")
    else:
        if len(costs) == 0:
            raise ValueError(f"{name} is empty")
        if len(costs) != len(expected):
            raise ValueError(
                f"{name} and {exp_name} differ in length ({len(costs)} != {len(expected)})"
            )
        items = []
        groups = {}
        for i, item in enumerate(costs):
            try:
                arr = np.asarray(item)
            except ValueError:
                raise ValueError(f"{name}[{i}] is not a rectangular matrix") from None
            items.append(arr)
            groups.setdefault(arr.shape, []).append(i)
        n = len(items)
    out = np.empty(n, dtype=np.float64)
    for shape, idx in groups.items():
        first = idx[0]
        stack = items if isinstance(items, np.ndarray) else np.stack([items[i] for i in idx])
        if len(shape) == 1:  # already-computed alignments: columns chosen per row
            out[idx] = _assignment_batch(stack, expected, idx, name, exp_name)
            continue
        if len(shape) != 2:
            raise ValueError(
                f"{name}[{first}] must be a 2-D cost matrix or a 1-D alignment; got shape {shape}"
            )
        k, m = shape
        if stack.dtype.kind not in "biuf":
            raise ValueError(f"{name}[{first}] must hold real numbers; got dtype {stack.dtype}")
        if stack.dtype.kind != "f":
            stack = stack.astype(np.float64)
        if stack.size and not (np.isfinite(stack.min()) and np.isfinite(stack.max())):
            finite = np.isfinite(stack.reshape(len(idx), -1)).all(axis=1)
            bad = idx[int(np.argmin(finite))]
            raise ValueError(f"{name}[{bad}] contains NaN or infinite values")
        if m < 2:
            raise ValueError(f"{name}[{first}] needs at least 2 columns (candidates); got {shape}")
        if k == 0 or k > m:
            raise ValueError(
                f"{name}[{first}] needs 1 to {m} rows (reference positions); got shape {shape}"
            )
        exp = _stack_expected(expected, idx, k, m, exp_name)
        out[idx] = _accuracy_batch(stack, exp)
    return out


def _stack_expected(
    expected: Sequence[ArrayLike] | np.ndarray, idx: list[int], k: int, m: int | None, name: str
) -> np.ndarray:
    if isinstance(expected, np.ndarray) and expected.ndim == 2:
        exp = expected[idx]
    else:
        try:
            exp = np.asarray([np.asarray(expected[i]) for i in idx])
        except ValueError:
            exp = np.empty((0,))
    if exp.ndim != 2 or exp.shape[1] != k:
        for i in idx:  # find the culprit for a precise message
            _check_expected(expected[i], k, m, f"{name}[{i}]")
    if exp.dtype.kind not in "iu":
        for i in idx:
            _check_expected(expected[i], k, m, f"{name}[{i}]")
        exp = exp.astype(np.intp)
    out_of_range = (exp.min(axis=1) < 0) | (
        (exp.max(axis=1) >= m) if m is not None else np.zeros(len(idx), bool)
    )
    srt = np.sort(exp, axis=1)
    repeats = (srt[:, 1:] == srt[:, :-1]).any(axis=1) if k > 1 else np.zeros(len(idx), bool)
    bad = np.flatnonzero(out_of_range | repeats)
    if bad.size:
        i = idx[int(bad[0])]
        _check_expected(expected[i], k, m, f"{name}[{i}]")
    return exp.astype(np.intp)


def _assignment_batch(
    stack: np.ndarray, expected: Sequence[ArrayLike], idx: list[int], name: str, exp_name: str
) -> np.ndarray:
    k = stack.shape[1]
    if k == 0:
        raise ValueError(f"{name}[{idx[0]}] is empty")
    if stack.dtype.kind not in "iu":
        if not (stack.dtype.kind == "f" and np.all(stack == np.round(stack))):
            raise ValueError(f"{name}[{idx[0]}] must hold integer column indices")
        stack = stack.astype(np.intp)
    if stack.min() < 0:
        bad = idx[int(np.argmax(stack.min(axis=1) < 0))]
        raise ValueError(f"{name}[{bad}] holds a negative column index")
    exp = _stack_expected(expected, idx, k, None, exp_name)
    return (stack == exp).mean(axis=1)


def item_accuracies(
    costs: Sequence[ArrayLike] | np.ndarray, expected: Sequence[ArrayLike] | np.ndarray
) -> np.ndarray:
    """Tie-aware accuracy of each item (the per-item values that
    :func:`order_alignment_accuracy` averages), e.g. for bootstrap resampling.

    Examples
    --------
    >>> item_accuracies([[[0.1, 0.9], [0.8, 0.2]], [[0.5, 0.5], [0.5, 0.5]]], [[0, 1], [0, 1]]).tolist()
    [1.0, 0.5]
    """
    return _score_items(costs, expected, "costs", "expected")


def order_alignment_accuracy(
    costs: Sequence[ArrayLike] | np.ndarray,
    expected: Sequence[ArrayLike] | np.ndarray,
    distractor_costs: Sequence[ArrayLike] | np.ndarray | None = None,
    distractor_expected: Sequence[ArrayLike] | np.ndarray | None = None,
) -> dict[str, float | int]:
    """STEB order-alignment accuracy (and distractor accuracy) over many items.

    Parameters
    ----------
    costs : sequence of array-like, or ndarray of shape (n_items, k, m)
        One item each: a 2-D cost matrix (rows = reference positions, columns =
        candidates, scored tie-aware by :func:`alignment_accuracy`) or, when the
        alignment was computed elsewhere, a 1-D vector of the column chosen for each row
        (scored as is, no tie handling). Items may differ in shape; same-shaped items are
        stacked and scored in one vectorised batch.
    expected : sequence of array-like
        The correct column of each row, per item (``expected[i]`` has ``k_i`` entries).
    distractor_costs, distractor_expected : optional
        The distractor-variant items (one more candidate than reference positions),
        same formats. Give both or neither.

    Returns
    -------
    dict
        ``accuracy`` (mean over items of the per-item fraction, STEB's ``acc_mean``) and
        ``n_items``; with distractor items also ``distractor_accuracy`` (STEB's
        ``distractor_acc_mean``) and ``n_distractor_items``.

    Raises
    ------
    ValueError
        Empty or mismatched inputs, or a bad item (the message names its index).

    Examples
    --------
    >>> order_alignment_accuracy(
    ...     [[[0.1, 0.9], [0.8, 0.2]], [[0.9, 0.1], [0.2, 0.8]]], [[0, 1], [0, 1]],
    ...     distractor_costs=[[[0.1, 0.5, 0.9]]], distractor_expected=[[0]],
    ... )
    {'accuracy': 0.5, 'n_items': 2, 'distractor_accuracy': 1.0, 'n_distractor_items': 1}
    >>> order_alignment_accuracy([[1, 0], [0, 1]], [[0, 1], [0, 1]])  # given alignments
    {'accuracy': 0.5, 'n_items': 2}
    """
    if (distractor_costs is None) != (distractor_expected is None):
        raise ValueError("distractor_costs and distractor_expected must be given together")
    main = _score_items(costs, expected, "costs", "expected")
    result: dict[str, float | int] = {"accuracy": float(main.mean()), "n_items": int(main.size)}
    if distractor_costs is not None:
        dis = _score_items(
            distractor_costs, distractor_expected, "distractor_costs", "distractor_expected"
        )
        result["distractor_accuracy"] = float(dis.mean())
        result["n_distractor_items"] = int(dis.size)
    return result
