"""The glue every bundled ``evaluate`` module mixes in: strict input checks against the
declared features (:func:`input_error`) and :class:`DirectComputeMixin` (a one-shot
``compute`` on arrays skips ``evaluate``'s Arrow round trip, which costs 1-2 s per million
scalar rows of Python-level encoding; a failed call leaves no state behind).

It lives beside the formulas so that a metric module (``metrics/<name>/<name>.py``)
needs nothing of stylebench but :mod:`evaluators.metric_math`. ``evaluate`` itself is
not imported here: the mixin calls the ``evaluate.Metric`` methods it is mixed into.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["DirectComputeMixin", "input_error"]


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


_LEAF_KINDS = {"float": "numbers", "int": "integers", "bool": "booleans", "string": "text"}


def _leaf_kind(dtype: str) -> str | None:
    if dtype.startswith("float"):
        return "float"
    if dtype.startswith(("int", "uint")):
        return "int"
    if dtype == "bool":
        return "bool"
    if dtype in ("string", "large_string"):
        return "string"
    return None


def _bad_scalar(value: Any, kind: str) -> bool:
    """True when one Python/numpy scalar does not fit a leaf of ``kind`` (no casting)."""
    if kind == "string":
        return not isinstance(value, str)
    if isinstance(value, str | bytes) or value is None:
        return True
    if kind == "bool":
        return not isinstance(value, bool | np.bool_)
    if not isinstance(value, int | float | np.number | np.bool_):
        return True
    if kind == "int" and isinstance(value, float | np.floating):
        return not (np.isfinite(value) and float(value).is_integer())
    return False


def _describe(value: Any) -> str:
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= 40 else text[:37] + "..."


def _walk(values: Any, depth: int, kind: str, name: str, where: str) -> str | None:
    """Error of the first value of a (ragged) nested input that does not fit, or None."""
    if depth:
        if not isinstance(values, list | tuple | np.ndarray):
            return f"{name}{where} must be a list; got {_describe(values)}"
        for index, item in enumerate(values):
            error = _walk(item, depth - 1, kind, name, f"{where}[{index}]")
            if error:
                return error
        return None
    if isinstance(values, list | tuple | np.ndarray):
        return f"{name}{where} must be one value, not a list"
    if _bad_scalar(values, kind):
        return f"{name}{where} must hold {_LEAF_KINDS[kind]}; got {_describe(values)}"
    return None


def input_error(feature: Any, values: Any, name: str) -> str | None:
    """Why ``values`` (a whole column: one entry per example) does not fit ``feature``
    exactly, or None when it does.

    Nothing is cast: a float label such as ``0.9`` does not fit an integer feature (``1.0``
    does), text does not fit a number feature and numbers do not fit a text feature. This
    is the check every path of a bundled module applies (``compute``, ``add``,
    ``add_batch``), so ``evaluate``'s Arrow encoding can never truncate or convert a value.
    """
    leaf, depth = _leaf(feature)
    dtype = getattr(leaf, "dtype", None)
    kind = _leaf_kind(dtype) if isinstance(dtype, str) else None
    if kind is None:
        return None  # a feature type we do not check: evaluate decides
    if values is None:
        return f"{name} is missing"
    if isinstance(values, str | bytes) or not hasattr(values, "__len__"):
        return f"{name} must be a list of values; got {_describe(values)}"
    if len(values) == 0:
        return f"{name} is empty"
    if kind == "string" and depth == 0 and isinstance(values, list | tuple):
        # numpy turns [0, "a"] into text ("0", "a"): a cast, refused here
        bad = next((v for v in values if _bad_scalar(v, "string")), None)
        if bad is not None and any(isinstance(v, str) for v in values):
            return f"{name} mixes text labels with {_describe(bad)}; give every label as text"
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError):  # ragged nesting: walk it
        arr = None
    if arr is not None and arr.dtype.kind != "O" and arr.ndim == depth + 1:
        ok = {
            "float": "biuf",
            "int": "biuf",
            "bool": "b",
            "string": "U",
        }[kind]
        if arr.dtype.kind not in ok:
            first = arr.reshape(-1)[0]
            if arr.dtype.kind == "U" and depth == 0 and isinstance(values, list | tuple):
                # numpy made [0, "a"] text: name the value that was text, not "0"
                first = next((v for v in values if isinstance(v, str)), first)
            return f"{name} must hold {_LEAF_KINDS[kind]}; got {_describe(first)}"
        if kind == "int" and arr.dtype.kind == "f":
            bad = ~(np.isfinite(arr) & (arr == np.round(arr)))
            if bad.any():
                first = arr[bad].reshape(-1)[0]
                return f"{name} must hold integers; got {_describe(first)}"
        return None
    return _walk(values, depth + 1, kind, name, "")


def _describe_feature(feature: Any) -> str:
    """What a feature holds, in words: "integers", "text", "lists of numbers"..."""
    leaf, depth = _leaf(feature)
    dtype = getattr(leaf, "dtype", None)
    kind = _leaf_kind(dtype) if isinstance(dtype, str) else None
    return "lists of " * depth + (_LEAF_KINDS[kind] if kind else str(dtype))


def _feature_options(module: Any) -> list[Any]:
    options = module.features
    return list(options) if isinstance(options, list) else [options]


class DirectComputeMixin:
    """Mixin for ``evaluate.Metric`` subclasses: strict inputs on every path, a fast path
    for one-shot ``compute``, and no state left behind by a failed call.

    * Validation: ``compute``, ``add`` and ``add_batch`` check their inputs against the
      declared features with :func:`input_error` before ``evaluate`` sees them (with
      alternatives, every input must fit the same one). A value that would be cast (a
      float label such as 0.9, numbers given as text, text labels mixed with integers) is
      a ``ValueError`` naming the input and the value.
    * Fast path: ``evaluate`` normally encodes every value in Python, writes an Arrow file
      and reads it back (1-2 s per million scalar rows). When ``compute`` is called once
      with all inputs as arrays or rectangular lists, nothing is pending from
      ``add``/``add_batch`` and the module runs in a single process, the checked inputs
      go to ``_compute`` directly, keeping their dtype (float32 stays float32). Anything
      else (incremental ``add_batch``, distributed runs, ragged lists) takes ``evaluate``'s
      normal path, which gives the same numbers.
    * Calls that add up: ``evaluate`` fixes the input types of everything added before a
      ``compute`` from the first ``add``/``add_batch`` call. That choice is ours (the
      option the whole first call fits, by the same strict rule; ``evaluate`` alone looks
      at the first value and would read text ``"1"`` as the integer 1), and every later
      call must fit it: a batch of text after integer labels is a ``ValueError`` naming
      the input, the first value added and the first one that differs, with their
      indices counted over every call since the last ``compute`` (``evaluate`` itself
      would fail inside its Arrow cast with "invalid literal for int()"). The refused
      call adds nothing; what was added before stays pending.
    * Failure: when ``compute`` fails (bad inputs or options, a metric error), everything
      pending from ``add``/``add_batch`` is discarded (writer, Arrow buffer or cache file,
      lock), so the next call starts clean instead of inheriting a half-written state.
    """

    def fresh(self) -> Any:
        """A new instance of this module for one request: its Arrow data kept in memory
        under its own experiment id, so it shares no file, lock or pending state with any
        other instance (what a server answering concurrent requests needs)."""
        import uuid

        return type(self)(
            config_name=getattr(self, "config_name", None),
            experiment_id=f"request-{uuid.uuid4().hex}",
            keep_in_memory=True,
        )

    def _select_features(self, given: dict[str, Any]) -> Any:
        """The first declared feature option every given input fits, or ValueError."""
        names = [n for n in self._feature_names() if given.get(n) is not None]  # type: ignore[attr-defined]
        options = _feature_options(self)
        problems = []
        for features in options:
            errors = [e for n in names if (e := input_error(features[n], given[n], n))]
            if not errors:
                lengths = {n: len(given[n]) for n in names}
                if len(set(lengths.values())) > 1:
                    sizes = ", ".join(f"{n}={k}" for n, k in lengths.items())
                    raise ValueError(f"inputs differ in length ({sizes})")
                return features
            problems.append(errors[0])
        if len(options) == 1 or len(set(problems)) == 1:
            raise ValueError(problems[0])
        raise ValueError(
            f"{' and '.join(names)} fit none of the accepted input types: "
            + "; ".join(dict.fromkeys(problems))
        )

    def add_batch(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> None:
        """Add a batch after checking it (see the class docstring)."""
        given = {"predictions": predictions, "references": references, **kwargs}
        missing = [n for n in self._feature_names() if given.get(n) is None]  # type: ignore[attr-defined]
        if missing:
            raise ValueError(f"add_batch needs {', '.join(missing)}")
        self._add_checked(
            given,
            lambda: super(DirectComputeMixin, self).add_batch(  # type: ignore[misc]
                predictions=predictions, references=references, **kwargs
            ),
        )

    def add(self, *, prediction: Any = None, reference: Any = None, **kwargs: Any) -> None:
        """Add one example after checking it (see the class docstring)."""
        given = {"predictions": prediction, "references": reference, **kwargs}
        missing = [n for n in self._feature_names() if given.get(n) is None]  # type: ignore[attr-defined]
        if missing:
            raise ValueError(f"add needs {', '.join(missing)}")
        batch = {k: [v] for k, v in given.items()}
        self._add_checked(
            batch,
            lambda: super(DirectComputeMixin, self).add(  # type: ignore[misc]
                prediction=prediction, reference=reference, **kwargs
            ),
        )

    def _add_checked(self, batch: dict[str, Any], add: Callable[[], None]) -> None:
        """Check ``batch`` (each input a column) against the declared features and against
        what is pending, then ``add()`` it; a failed first call leaves nothing pending."""
        features = self._select_features(batch)
        fresh = getattr(self, "writer", None) is None
        if not fresh:
            self._check_pending_kinds(batch)
        self._first_features = features  # what _infer_feature_from_* hands evaluate
        try:
            add()
        except BaseException:
            if fresh:
                self.discard_pending()
            raise
        finally:
            self._first_features = None
        names = list(self._feature_names())  # type: ignore[attr-defined]
        if fresh:
            self._pending_first = {n: batch[n][0] for n in names}
            self._pending_rows = 0
        self._pending_rows += len(batch[names[0]])

    # evaluate's hooks for the types of a first add/add_batch: our strict choice
    def _infer_feature_from_batch(self, batch: dict[str, Any]) -> Any:
        return getattr(self, "_first_features", None) or self._select_features(batch)

    def _infer_feature_from_example(self, example: dict[str, Any]) -> Any:
        return getattr(self, "_first_features", None) or self._select_features(
            {k: [v] for k, v in example.items()}
        )

    def _check_pending_kinds(self, batch: dict[str, Any]) -> None:
        """Raise when ``batch`` does not fit the types fixed by what is pending (a
        ValueError naming the first value added and the first one of another kind)."""
        selected = self.selected_feature_format  # type: ignore[attr-defined]
        for name in self._feature_names():  # type: ignore[attr-defined]
            feature, values = selected[name], batch[name]
            if input_error(feature, values, name) is None:
                continue
            index = next(i for i, v in enumerate(values) if input_error(feature, [v], name))
            kind = _describe_feature(feature)
            first = self._pending_first[name]
            raise ValueError(
                f"{name} mixes kinds over the add/add_batch calls since the last compute: "
                f"{_describe(first)} at index 0 ({kind}), {_describe(values[index])} at index "
                f"{self._pending_rows + index}; nothing is cast: give every {name} value "
                f"as {kind}, or compute before changing kind"
            )

    def compute(self, *, predictions: Any = None, references: Any = None, **kwargs: Any) -> Any:
        """Compute the metric (one-shot array inputs skip the Arrow round trip)."""
        try:
            direct = self._direct_inputs(predictions, references, kwargs)
            if direct is None:
                return super().compute(  # type: ignore[misc]
                    predictions=predictions, references=references, **kwargs
                )
            inputs, compute_kwargs = direct
            return self._compute(**inputs, **compute_kwargs)  # type: ignore[attr-defined]
        except BaseException:
            self.discard_pending()
            raise

    def discard_pending(self) -> None:
        """Drop everything ``add``/``add_batch`` left pending (writer, buffer, cache files,
        locks), as a successful ``compute`` would."""
        writer = getattr(self, "writer", None)
        if writer is not None:
            with contextlib.suppress(Exception):  # a half-written stream: nothing to keep
                writer.finalize()
        paths = list(getattr(self, "file_paths", None) or [])
        locks = list(getattr(self, "filelocks", None) or [])
        own = getattr(self, "cache_file_name", None)
        if own and own not in paths:
            paths.append(own)
        if getattr(self, "filelock", None) is not None and self.filelock not in locks:
            locks.append(self.filelock)
        self.writer = None
        self.data = None
        self.buf_writer = None
        self.selected_feature_format = None
        self.cache_file_name = None
        self.filelock = None
        self.file_paths = None
        self.filelocks = None
        for path in paths:
            with contextlib.suppress(OSError):
                os.remove(path)
        for lock in locks:
            with contextlib.suppress(Exception):
                lock.release()

    def _direct_inputs(
        self, predictions: Any, references: Any, kwargs: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        names = list(self._feature_names())  # type: ignore[attr-defined]
        given = {"predictions": predictions, "references": references, **kwargs}
        if all(given.get(n) is None for n in names):
            return None  # compute over what add/add_batch stored
        missing = [n for n in names if given.get(n) is None]
        if missing:
            raise ValueError(f"compute needs {', '.join(missing)} (or none, after add_batch)")
        features = self._select_features(given)
        if getattr(self, "writer", None) is not None or getattr(self, "num_process", 1) != 1:
            return None
        inputs = {}
        for n in names:
            col = _column(features[n], given[n], n)
            if col is None:
                return None
            inputs[n] = col
        return inputs, {k: v for k, v in kwargs.items() if k not in names}
