"""The :class:`Schema` type: one kind of table (a dataset config), its features, the task
types it serves and its family-specific checks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Features


def to_features(columns: Mapping[str, str]) -> Features:
    """``datasets.Features`` of ``{column: type}``; a type is a ``datasets.Value`` dtype
    (``"string"``, ``"int8"``, ``"bool"``, ...) or ``"list<dtype>"`` for a sequence."""
    from datasets import Features, Value
    from datasets import Sequence as HFSequence

    def feature(dtype: str):
        if dtype.startswith("list<") and dtype.endswith(">"):
            return HFSequence(Value(dtype[5:-1]))
        return Value(dtype)

    return Features({column: feature(dtype) for column, dtype in columns.items()})


@dataclass(frozen=True)
class Schema:
    name: str
    columns: Mapping[str, str]  # column -> dtype (see :func:`to_features`)
    task_types: tuple[str, ...]
    description: str
    text_columns: tuple[str, ...]  # columns holding a text (str) or texts (list[str])
    # family-specific table checks run after the generic ones: (rows, source) -> None
    validator: Callable[[Sequence[Mapping[str, Any]], str], None] | None = None

    @cached_property
    def features(self) -> Features:
        """The Hugging Face features of this schema's columns, built on first use (only
        then is ``datasets`` imported, so that listing and start-up stay light)."""
        return to_features(self.columns)
