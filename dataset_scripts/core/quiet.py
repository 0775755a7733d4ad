"""Quiet ``datasets``: its per-split progress bars are noise for small local tables."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def quiet_datasets() -> Iterator[None]:
    """Silence ``datasets``' per-split progress bars (noise for small local tables)."""
    import datasets

    was_enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if was_enabled:
            datasets.enable_progress_bars()
