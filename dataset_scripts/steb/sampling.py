"""STEB's per-class sample cap (Table 15 counts follow it).

The STEB authors' loader keeps, for every class (label, style group, ...), the first
``n`` records in source order, where ``n = clamp(min class size, 25, 200)`` ("auto"
episodes of size 1); classes with fewer than ``n`` records are dropped. Sampling is by
source order, not random, so a rebuild is identical by construction.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

Row = TypeVar("Row")

MIN_PER_CLASS = 25
MAX_PER_CLASS = 200


def per_class_cap(
    counts: Sequence[int], low: int = MIN_PER_CLASS, high: int = MAX_PER_CLASS
) -> int:
    """STEB's "auto" number of records kept per class."""
    return max(low, min(min(counts), high))


def cap_per_class(
    rows: Sequence[Row],
    key: Callable[[Row], Hashable],
    dropped: Counter[str] | None = None,
    what: str = "class",
    low: int = MIN_PER_CLASS,
    high: int = MAX_PER_CLASS,
) -> list[Row]:
    """Keep the first ``n`` rows of every class (source order); drop smaller classes.

    Every removed row is counted in ``dropped`` under a reason naming the class.
    """
    groups: dict[Hashable, list[Row]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    if not groups:
        return []
    n = per_class_cap([len(g) for g in groups.values()], low, high)
    kept: list[Row] = []
    for label, members in groups.items():
        if len(members) < n:
            if dropped is not None:
                dropped[f"{what} {label!r} has {len(members)} < {n} rows (class dropped)"] += len(
                    members
                )
            continue
        kept.extend(members[:n])
        if dropped is not None and len(members) > n:
            dropped[f"{what} {label!r} capped at {n} rows (STEB per-class cap)"] += len(members) - n
    kept_ids = {id(r) for r in kept}
    return [r for r in rows if id(r) in kept_ids]
