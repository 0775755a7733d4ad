"""Counting the calls of functions while a block runs (``with counted(f, g) as calls``)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


@contextmanager
def counted(*functions: Callable[..., Any]) -> Iterator[Counter[str]]:
    """Calls of ``functions`` (by name) in this thread while the block runs, matched by
    their code object, so a call through any name a module imported them under counts."""
    codes = {f.__code__: f.__name__ for f in functions}
    calls: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in codes:
            calls[codes[frame.f_code]] += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        yield calls
    finally:
        sys.setprofile(previous)
