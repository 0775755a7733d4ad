"""CPU-independent similarities and sums: the same bits on every BLAS kernel, thread
count and numpy SIMD level (issue 25).

A score that takes a decision over similarities (an assignment, a ranking, a threshold)
changes when a last-bit difference reorders two near-equal values, and the last bits of
a BLAS matrix product, of ``np.sum`` and of ``np.linalg.norm`` depend on the kernel, the
number of threads and numpy's SIMD dispatch. Here every cosine is computed **exactly**
on a fixed grid, so nothing downstream can see the CPU:

1. each row is scaled to unit L2 norm, the norm being the square root of the
   correctly rounded sum (``math.fsum``) of the squared components: every step is
   correctly rounded, so any correct implementation gets the same bits; zero rows stay
   zero;
2. its components are rounded to integers on the grid ``2^-GRID_BITS`` (``GRID_BITS =
   26``): ``q = rint(2^26 * u)``;
3. the cosine of two rows is ``<q, q'> * 2^-52``. The products are integers below
   ``2^53`` and, by Cauchy-Schwarz, so is every partial sum in any order (``||q|| <=
   2^26 + sqrt(d)/2``, so ``||q|| ||q'|| < 2^53`` for any dimension below ``2^50``):
   any BLAS computes the integer dot product exactly, and the scaling by ``2^-52`` is
   exact. Identical vectors give identical cosines; ties are exact ties.

The grid moves a cosine by at most about ``sqrt(d) 2^-26`` (typically ``~1e-8``) from
the float64 value; a decision changes only where two candidates lay closer than that.

Means and sums of per-unit values (accuracies, reciprocal ranks, areas) go through
:func:`fixed_sum` / :func:`fixed_mean` for the same reason.

Where the grid's resolution is too coarse for a decision (order alignment's near-tied
assignments, issue 33), :func:`exact_row_dots` gives the cosines of the float64 unit
vectors of step 1 (:func:`unit_vectors`) correctly rounded: the float64 nearest to the
exact dot product, again the same bits on every CPU.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "GRID_BITS",
    "exact_row_dots",
    "fixed_mean",
    "fixed_sum",
    "grid_cosines",
    "grid_row_cosines",
    "grid_vectors",
    "unit_vectors",
]

GRID_BITS = 26  # components on the 2^-26 grid; cosines on the 2^-52 grid
_SCALE = float(2**GRID_BITS)
_COSINE_STEP = 2.0 ** (-2 * GRID_BITS)
_MAX_DIM = 2**50  # ||q||^2 <= (2^26 + sqrt(d)/2)^2 < 2^53 needs d below ~2^52


def fixed_sum(values: ArrayLike, axis: int = -1) -> np.ndarray:
    """Sum along ``axis`` in a fixed pairwise order, in float64: the halves of the axis
    are added element-wise until one element is left (an odd last element is carried).
    Element-wise additions round the same way on every CPU, so the result does not
    depend on numpy's SIMD level (``np.sum``'s does); accuracy is that of pairwise
    summation. A 1-D input gives a 0-d array (use ``float(...)``).

    Examples
    --------
    >>> float(fixed_sum([0.1, 0.2, 0.3]))
    0.6000000000000001
    >>> fixed_sum([[1.0, 2.0], [3.0, 4.0]], axis=0).tolist()
    [4.0, 6.0]
    """
    x = np.moveaxis(np.asarray(values, dtype=np.float64), axis, -1)
    if x.shape[-1] == 0:
        return np.zeros(x.shape[:-1])
    while x.shape[-1] > 1:
        n = x.shape[-1]
        half = n // 2
        folded = x[..., :half] + x[..., half : 2 * half]
        x = np.concatenate([folded, x[..., 2 * half :]], axis=-1) if n % 2 else folded
    return x[..., 0]


def fixed_mean(values: ArrayLike) -> float:
    """Mean of a 1-D array by :func:`fixed_sum` (the same bits on every CPU).

    Examples
    --------
    >>> fixed_mean([1.0, 0.5, 0.0])
    0.5
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        raise ValueError("fixed_mean of an empty array")
    return float(fixed_sum(x)) / x.size


def grid_vectors(matrix: ArrayLike) -> np.ndarray:
    """Rows scaled to unit norm and rounded to the ``2^-GRID_BITS`` grid, returned as
    integer-valued float64 (``rint(2^26 * row / ||row||)``); zero rows stay zero.

    Examples
    --------
    >>> grid_vectors([[3.0, 4.0], [0.0, 0.0]]).tolist()
    [[40265318.0, 53687091.0], [0.0, 0.0]]
    """
    x = np.asarray(matrix, dtype=np.float64)
    if x.ndim == 2 and x.shape[1] >= _MAX_DIM:
        raise ValueError(f"dimension {x.shape[1]} too large for exact gridded cosines")
    return np.rint(unit_vectors(x) * _SCALE) + 0.0  # + 0.0: no negative zeros


def unit_vectors(matrix: ArrayLike) -> np.ndarray:
    """Rows divided by their L2 norm ``sqrt(math.fsum(x_i^2))`` in float64 (every step
    correctly rounded: the same bits on every CPU); zero rows stay zero.

    Examples
    --------
    >>> unit_vectors([[3.0, 4.0], [0.0, 0.0]]).tolist()
    [[0.6, 0.8], [0.0, 0.0]]
    """
    x = np.asarray(matrix, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"expected a 2-D matrix of vectors; got shape {x.shape}")
    squares = (x * x).tolist()
    norms = np.sqrt(np.fromiter((math.fsum(row) for row in squares), np.float64, len(squares)))
    return x / np.where(norms > 0, norms, 1.0)[:, None]


_SPLIT = float(2**27 + 1)  # Veltkamp's splitter for float64


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp's split: ``x = hi + lo`` exactly, each half with at most 26 bits."""
    t = x * _SPLIT
    hi = t - (t - x)
    return hi, x - hi


def exact_row_dots(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """The dot product of each row of ``a`` with the same row of ``b``, correctly rounded
    to float64: each product is split exactly into ``p + e`` (Dekker's TwoProduct,
    element-wise float64 operations) and ``math.fsum`` rounds the exact sum of all the
    ``p`` and ``e`` once. No BLAS and no reduction whose order could follow the CPU: the
    same bits everywhere. Exact for entries of magnitude at most 1 (unit vectors) whose
    products do not underflow (below ~1e-290).

    Examples
    --------
    >>> exact_row_dots([[1.0, 2.0**-53, -1.0]], [[1.0, 1.0, 1.0]]).tolist()  # 2^-53
    [1.1102230246251565e-16]
    >>> (1.0 + 2.0**-53) - 1.0  # the same sum rounded left to right
    0.0
    """
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if x.ndim != 2 or x.shape != y.shape:
        raise ValueError(f"a and b must be 2-D of one shape; got {x.shape} and {y.shape}")
    if x.size and max(float(np.abs(x).max()), float(np.abs(y).max())) > 1.0:
        raise ValueError("exact_row_dots takes entries of magnitude at most 1 (unit vectors)")
    if not len(x):
        return np.zeros(0)
    p = x * y
    rows, cols = np.nonzero(p)  # zero products (sparse vectors) add nothing
    xs, ys, ps = x[rows, cols], y[rows, cols], p[rows, cols]
    xh, xl = _split(xs)
    yh, yl = _split(ys)
    es = ((xh * yh - ps) + xh * yl + xl * yh) + xl * yl  # ps + es = xs * ys exactly
    terms = np.stack([ps, es], axis=1).ravel().tolist()
    ends = (2 * np.cumsum(np.bincount(rows, minlength=len(p)))).tolist()
    starts = [0, *ends[:-1]]
    return (
        np.array([math.fsum(terms[a:b]) for a, b in zip(starts, ends, strict=True)], np.float64)
        + 0.0
    )


def grid_cosines(a: ArrayLike, b: ArrayLike | None = None) -> np.ndarray:
    """Exact cosines on the ``2^-52`` grid between every row of ``a`` and every row of
    ``b`` (default ``a``), float64, from :func:`grid_vectors`; rows that are already
    gridded may be passed as ``grid_vectors`` output via :func:`grid_row_cosines`.

    Examples
    --------
    >>> grid_cosines([[1.0, 0.0], [1.0, 1.0]]).round(6).tolist()
    [[1.0, 0.707107], [0.707107, 1.0]]
    """
    qa = grid_vectors(a)
    qb = qa if b is None else grid_vectors(b)
    if qa.shape[1] != qb.shape[1]:
        raise ValueError(f"a and b differ in dimension ({qa.shape[1]} != {qb.shape[1]})")
    cosines = qa @ qb.T  # exact integers (a @ a.T takes BLAS's symmetric product)
    cosines *= _COSINE_STEP  # exact: a power of two
    cosines += 0.0  # no negative zeros
    return cosines


def grid_row_cosines(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Exact gridded cosine of each row of ``a`` with the same row of ``b`` (float64).

    Examples
    --------
    >>> grid_row_cosines([[1.0, 0.0], [0.0, 2.0]], [[2.0, 0.0], [1.0, 0.0]]).tolist()
    [1.0, 0.0]
    """
    qa, qb = grid_vectors(a), grid_vectors(b)
    if qa.shape != qb.shape:
        raise ValueError(f"a and b differ in shape ({qa.shape} != {qb.shape})")
    # integer products, every partial sum an integer below 2^53: exact in any order
    return np.einsum("ij,ij->i", qa, qb) * _COSINE_STEP + 0.0
