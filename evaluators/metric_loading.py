"""Load the bundled ``evaluate`` metric modules by bare name, and share their glue code.

``evaluate.load("tpr_at_fpr")`` would look for a Hub Space of the ``evaluate-metric``
organisation, which is not ours. :func:`load_metric` resolves a bare bundled name to the
module folder shipped with stylebench (``metrics/<name>/`` in a checkout,
``evaluators/_bundled/metrics/<name>/`` in an installed wheel)::

    >>> from evaluators.metric_loading import load_metric
    >>> tpr = load_metric("tpr_at_fpr")                      # doctest: +SKIP
    >>> tpr = evaluate.load("metrics/tpr_at_fpr")            # the same, by path  # doctest: +SKIP
    >>> tpr = load_metric("stylebench/tpr_at_fpr")           # a Hub Space id    # doctest: +SKIP

:class:`DirectComputeMixin` is mixed into every bundled module: a one-shot
``compute(predictions=..., references=...)`` on arrays skips ``evaluate``'s Arrow round
trip, which costs 1-2 s per million scalar rows (Python-level encoding of every value). The
``parse_*`` helpers and :func:`json_safe` turn pasted text into inputs and results into
JSON for the metric Space apps.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import UnknownNameError
from .paths import metrics_dir

if TYPE_CHECKING:  # pragma: no cover
    import evaluate

__all__ = [
    "DirectComputeMixin",
    "json_safe",
    "list_metrics",
    "load_metric",
    "parse_blocks",
    "parse_floats",
    "parse_ints",
    "parse_labels",
    "parse_rows",
    "parse_values",
]


def list_metrics() -> list[str]:
    """Names of the bundled metric modules (folders ``<name>/<name>.py``), sorted."""
    root = metrics_dir()
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / f"{p.name}.py").is_file())


def load_metric(name: str, **kwargs: Any) -> evaluate.EvaluationModule:
    """Load a metric module: a bundled name, a local folder or a Hub Space id.

    Parameters
    ----------
    name : str
        A bundled name such as ``"tpr_at_fpr"`` (see :func:`list_metrics`), a path to a
        module folder or script, or a Hub id with a namespace (``"org/name"``), which
        is passed to ``evaluate.load`` unchanged.
    **kwargs
        Passed to ``evaluate.load`` (e.g. ``experiment_id``, ``keep_in_memory``).

    Raises
    ------
    UnknownNameError
        (a ``KeyError``) for a bare name that is not bundled; the message lists the
        bundled names.
    """
    import evaluate

    known = list_metrics()
    if name in known:
        return evaluate.load(str(metrics_dir() / name), **kwargs)
    if "/" in name or os.sep in name or Path(name).exists():
        return evaluate.load(name, **kwargs)
    raise UnknownNameError(
        f"unknown metric {name!r}; bundled metrics: {', '.join(known)} "
        "(or pass a folder path or a Hub id 'org/name')"
    )


# --------------------------------------------------------------------------------------
# One-shot compute without the Arrow round trip
# --------------------------------------------------------------------------------------


def _leaf(feature: Any) -> tuple[Any, int]:
    """The scalar ``Value`` inside (nested) list features and the nesting depth."""
    depth = 0
    while hasattr(feature, "feature") and not hasattr(feature, "dtype"):
        feature = feature.feature
        depth += 1
    return feature, depth


def _column(feature: Any, values: Any, name: str) -> np.ndarray | None:
    """``values`` as an array matching ``feature``, or None when only evaluate can tell."""
    leaf, depth = _leaf(feature)
    dtype = getattr(leaf, "dtype", None)
    if not isinstance(dtype, str):
        return None
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError):  # ragged nesting
        return None
    if arr.ndim != depth + 1 or arr.dtype.kind == "O":
        return None
    kind = arr.dtype.kind
    if dtype.startswith("float"):
        if kind == "f":
            return arr
        return arr.astype(np.float64) if kind in "biu" else None
    if dtype.startswith(("int", "uint")):
        if kind in "iu":
            return arr
        if kind == "b":
            return arr.astype(np.int64)
        if kind == "f":
            if arr.size and not np.all(np.isfinite(arr) & (arr == np.round(arr))):
                bad = arr[~(np.isfinite(arr) & (arr == np.round(arr)))].reshape(-1)[0].item()
                raise ValueError(f"{name} must hold integers; got {bad!r}")
            return arr.astype(np.int64)
        return None
    if dtype == "bool":
        return arr if kind == "b" else None
    if dtype in ("string", "large_string"):
        return arr if kind in "US" else None
    return None


class DirectComputeMixin:
    """Mixin for ``evaluate.Metric`` subclasses: a fast path for one-shot ``compute``.

    ``evaluate`` normally encodes every value in Python, writes an Arrow file and reads it
    back (1-2 s per million scalar rows). When ``compute`` is called once with all
    inputs as arrays or rectangular lists, nothing is pending from ``add``/``add_batch``
    and the module runs in a single process, the inputs are checked against the declared
    features (same nesting depth; a compatible dtype: numbers for float features,
    integers for int features, text for string features; with alternatives, the first
    that fits) and handed to ``_compute`` directly, keeping their dtype (float32 stays
    float32). Anything else (incremental ``add_batch``, distributed runs, ragged lists,
    Python objects) takes ``evaluate``'s normal path, which gives the same numbers.
    """

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric (one-shot array inputs skip the Arrow round trip)."""
        direct = self._direct_inputs(predictions, references, kwargs)
        if direct is None:
            return super().compute(  # type: ignore[misc]
                predictions=predictions, references=references, **kwargs
            )
        inputs, compute_kwargs = direct
        return self._compute(**inputs, **compute_kwargs)  # type: ignore[attr-defined]

    def _direct_inputs(
        self, predictions: Any, references: Any, kwargs: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        if getattr(self, "writer", None) is not None or getattr(self, "num_process", 1) != 1:
            return None
        names = list(self._feature_names())  # type: ignore[attr-defined]
        given = {"predictions": predictions, "references": references, **kwargs}
        if any(given.get(n) is None for n in names):
            return None
        options = self.features  # type: ignore[attr-defined]
        for features in options if isinstance(options, list) else [options]:
            inputs = {}
            for n in names:
                col = _column(features[n], given[n], n)
                if col is None:
                    break
                inputs[n] = col
            else:
                lengths = {len(v) for v in inputs.values()}
                if len(lengths) > 1:
                    sizes = ", ".join(f"{n}={len(v)}" for n, v in inputs.items())
                    raise ValueError(f"inputs differ in length ({sizes})")
                return inputs, {k: v for k, v in kwargs.items() if k not in names}
        return None


# --------------------------------------------------------------------------------------
# Text parsing shared by the metric Space apps (metrics/<name>/app.py)
# --------------------------------------------------------------------------------------

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
