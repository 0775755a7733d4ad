"""Pasted text into metric inputs, and results into JSON: what the metric Space pages
(:mod:`evaluators.metric_math.page`) and the stylebench Space's Metrics tab read and show.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

__all__ = [
    "json_safe",
    "parse_blocks",
    "parse_floats",
    "parse_ints",
    "parse_labels",
    "parse_rows",
    "parse_values",
]

_SEPARATORS = re.compile(r"[,;\s]+")


def parse_values(text: str) -> list[str]:
    """Split pasted text on commas, semicolons, spaces and newlines (empty parts dropped)."""
    return [v for v in _SEPARATORS.split(text or "") if v]


def parse_floats(text: str, name: str) -> list[float]:
    """Numbers from pasted text; a ValueError names ``name`` and the first bad token."""
    out = []
    for token in parse_values(text):
        try:
            out.append(float(token))
        except ValueError:
            raise ValueError(f"{name}: {token!r} is not a number") from None
    return out


def parse_ints(text: str, name: str) -> list[int]:
    """Integers from pasted text (``1.0`` is accepted as 1)."""
    out = []
    for value in parse_floats(text, name):
        if not value.is_integer():
            raise ValueError(f"{name}: {value!r} is not an integer")
        out.append(int(value))
    return out


def parse_labels(text: str) -> list[int] | list[str]:
    """Class labels: integers when every token is one, else the tokens as strings."""
    tokens = parse_values(text)
    try:
        return [int(t) for t in tokens]
    except ValueError:
        return tokens


def parse_rows(
    text: str, name: str, *, integers: bool = False
) -> list[list[float]] | list[list[int]]:
    """One row per non-empty line, values separated by commas or spaces."""
    lines = [line for line in (text or "").splitlines() if line.strip()]
    parse = parse_ints if integers else parse_floats
    return [parse(line, f"{name} line {i + 1}") for i, line in enumerate(lines)]


def parse_blocks(text: str, name: str) -> list[list[list[float]]]:
    """Matrices separated by blank lines, each one row per line."""
    blocks = [b for b in re.split(r"\n\s*\n", (text or "").strip()) if b.strip()]
    return [parse_rows(b, f"{name} block {i + 1}") for i, b in enumerate(blocks)]


def json_safe(value: Any) -> Any:
    """Replace non-finite floats (JSON has no ``inf``) by their text, recursively."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if isinstance(value, float) and not np.isfinite(value):
        return str(value)
    return value
