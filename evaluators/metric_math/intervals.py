"""Percentile bootstrap intervals: the one formula every family's CIs use (STEB task and
aggregate CIs, ARB's block bootstrap, detector reports, style discrimination), with one
default seed and level."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

DEFAULT_SEED = 42  # STEB's and ARB's seed; every bootstrap of stylebench defaults to it
DEFAULT_LEVEL = 0.95


def percentile_interval(
    replicates: Sequence[float] | np.ndarray, level: float = DEFAULT_LEVEL, axis: int | None = None
) -> np.ndarray:
    """``[low, high]`` percentile interval of bootstrap ``replicates`` at ``level``
    (linear interpolation between order statistics, numpy's default); along ``axis`` the
    result has shape ``(2, ...)``."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie in (0, 1), got {level}")
    tail = (1.0 - level) / 2.0
    return np.quantile(np.asarray(replicates, dtype=float), [tail, 1.0 - tail], axis=axis)
