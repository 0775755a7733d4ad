"""The :class:`Schema` type: one kind of table (a dataset config), its features, the task
types it serves and its family-specific checks."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from datasets import Features

# ``datasets`` is imported only when a schema's :class:`~datasets.Features` are needed
# (writing or type-checking a table), so that listing and start-up stay light.
_FEATURES: dict[int, Features] = {}


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

    @property
    def features(self) -> Features:
        """The Hugging Face features of this schema's columns (built once)."""
        key = id(self)
        if key not in _FEATURES:
            _FEATURES[key] = to_features(self.columns)
        return _FEATURES[key]
