"""Tab 3, metrics playground: compute any bundled metric module on pasted or uploaded values.

Modules come from ``evaluators.metric_loading`` (``list_metrics``/``load_metric``). Inputs are
the module's declared features (``predictions``, ``references``): scalar features are pasted as
values separated by commas, spaces or newlines; list features one row per line (a JSON list or
comma-separated numbers). A CSV upload needs a ``predictions`` and a ``references`` column
(list cells as JSON). Extra keyword arguments (``fpr``, ``max_fpr``, ``beta``, ``ks``...) are a
JSON object checked against the module's ``_compute`` signature.

No metric state is shared between requests: the module loaded once per process only gives
its class, features and documentation; every request computes on a fresh instance of that
class that keeps its Arrow data in memory under its own experiment id (:func:`fresh_metric`),
so concurrent requests never meet in a cache file and a failed request leaves nothing
behind for the next visitor.
"""

from __future__ import annotations

import inspect
import json
import threading
from pathlib import Path
from typing import Any

from stylebench_space.safety import (
    MAX_TEXTS,
    UserError,
    clean_message,
    parse_csv_text,
    read_csv_upload,
)

MAX_OPTION_CHARS = 10_000
MAX_VALUES = 200_000
MAX_PASTE_CHARS = 1_000_000
_modules: dict[str, Any] = {}
_lock = threading.Lock()


def metric_choices() -> list[str]:
    from evaluators.metric_loading import list_metrics

    return list_metrics()


def get_metric(name: str) -> Any:
    """A bundled metric module, loaded once per process."""
    from evaluators.metric_loading import load_metric

    if name not in metric_choices():
        raise UserError(
            f"unknown metric {str(name)[:80]!r}; bundled: {', '.join(metric_choices())}"
        )
    with _lock:
        if name not in _modules:
            _modules[name] = load_metric(name)
        return _modules[name]


def fresh_metric(name: str) -> Any:
    """A new instance of metric ``name`` for one request: Arrow data kept in memory, its own
    experiment id (no file, no lock shared with any other request)."""
    return get_metric(name).fresh()


def metric_info(name: str) -> str:
    """The module's description and input documentation, as Markdown (first 2,000 chars)."""
    module = get_metric(name)
    parts = [str(getattr(module, "description", "") or "").strip()]
    inputs = str(getattr(module, "inputs_description", "") or "").strip()
    if inputs:
        parts.append("```text\n" + inputs[:1500] + "\n```")
    return "\n\n".join(p for p in parts if p)[:2500]


def _features(module: Any) -> dict[str, Any]:
    features = module.features
    return features[0] if isinstance(features, list) else features


def _is_list(feature: Any) -> bool:
    return hasattr(feature, "feature") and not hasattr(feature, "dtype")


def _number(token: str) -> int | float | str:
    try:
        value = float(token)
    except ValueError:
        return token
    return (
        int(value)
        if value.is_integer() and "." not in token and "e" not in token.lower()
        else value
    )


def _scalars(tokens: list[str]) -> list[Any]:
    values = [_number(t) for t in tokens]
    if any(isinstance(v, str) for v in values):
        return [str(t) for t in tokens]  # labels stay text when any token is not a number
    return values


def _cell(text: str, name: str, where: str) -> Any:
    text = text.strip()
    if text.startswith("["):
        try:
            return json.loads(text)
        except ValueError:
            raise UserError(f"{name}: {where} is not a valid JSON list") from None
    from evaluators.metric_math.text_inputs import parse_values

    return _scalars(parse_values(text))


def parse_pasted(text: str, feature: Any, name: str) -> list[Any]:
    """Values of one input pasted as text (see the module docstring)."""
    from evaluators.metric_math.text_inputs import parse_values

    if len(text or "") > MAX_PASTE_CHARS:
        raise UserError(f"{name}: more than {MAX_PASTE_CHARS:,} characters pasted")
    if _is_list(feature):
        lines = [line for line in (text or "").splitlines() if line.strip()]
        return [_cell(line, name, f"line {i + 1}") for i, line in enumerate(lines)]
    return _scalars(parse_values(text or ""))


def parse_options(text: str, module: Any) -> dict[str, Any]:
    """Keyword arguments from a JSON object, restricted to the module's ``_compute`` options."""
    text = (text or "").strip()
    if not text:
        return {}
    if len(text) > MAX_OPTION_CHARS:
        raise UserError(f"options: more than {MAX_OPTION_CHARS:,} characters")
    try:
        options = json.loads(text)
    except ValueError as error:
        raise UserError(f"options: not valid JSON ({error.msg} at column {error.colno})") from None
    if not isinstance(options, dict):
        raise UserError('options must be a JSON object such as {"fpr": 0.01}')
    allowed = [
        p
        for p in inspect.signature(module._compute).parameters
        if p not in ("self", "predictions", "references")
    ]
    unknown = [k for k in options if k not in allowed]
    if unknown:
        raise UserError(f"options: unknown {unknown}; this metric takes {allowed or 'none'}")
    return options


def _count(values: Any) -> int:
    if isinstance(values, list):
        return (
            sum(_count(v) for v in values)
            if values and isinstance(values[0], list)
            else len(values)
        )
    return 1


def compute_metric(
    name: str,
    predictions: str = "",
    references: str = "",
    options: str = "",
    upload: str | Path | None = None,
) -> dict[str, Any]:
    """Run metric ``name`` on pasted values or an uploaded CSV; returns JSON-safe results."""
    from evaluators.metric_math.text_inputs import json_safe

    module = get_metric(name)
    features = _features(module)
    if upload:
        rows = read_csv_upload(
            upload, required=("predictions", "references"), max_rows=MAX_TEXTS * 50, what="CSV"
        )
        inputs = {
            column: [
                _single(
                    _cell(row[column], column, f"line {i + 2}"), features[column], column, i + 2
                )
                for i, row in enumerate(rows)
            ]
            for column in ("predictions", "references")
        }
    else:
        inputs = {
            "predictions": parse_pasted(predictions, features["predictions"], "predictions"),
            "references": parse_pasted(references, features["references"], "references"),
        }
    for column, values in inputs.items():
        if not values:
            raise UserError(f"{column}: no values given")
        if _count(values) > MAX_VALUES:
            raise UserError(f"{column}: more than {MAX_VALUES:,} values")
    kwargs = parse_options(options, module)
    try:
        result = fresh_metric(name).compute(**inputs, **kwargs)
    except UserError:
        raise
    except Exception as error:
        raise UserError(f"{name}: {clean_message(error)}") from None
    return json_safe(_plain(result))


def _single(value: list[Any] | Any, feature: Any, column: str, line: int) -> Any:
    """A CSV cell: a list for list features, one scalar otherwise."""
    if _is_list(feature):
        return value
    if isinstance(value, list) and len(value) == 1:
        return value[0]
    raise UserError(f"CSV: line {line}, column {column!r} must hold one value")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "tolist"):
        return value.tolist()
    return value


__all__ = [
    "compute_metric",
    "fresh_metric",
    "get_metric",
    "metric_choices",
    "metric_info",
    "parse_csv_text",
    "parse_pasted",
]
