"""Per-item data of a result: the units a task scores (pairs, queries, texts), stored
compactly in the result record so that a later step can re-derive the main score
(``stylebench results validate``) and compare two models unit by unit (paired
comparisons) without embedding anything again.

One block per result, ``record.items = {"kind": ..., "unit": ..., "n": ..., "arrays":
{name: encoded array}}``. Arrays are stored exactly (float64 / int32 / packed bits,
little-endian, zlib, base64) so re-derivation is exact, and in the dataset's unit order, which
is the same for every model on the same data (pairing).

| kind | task | arrays | main score |
|---|---|---|---|
| ``mean`` | order alignment (pairs), retrieval (queries) | one per metric whose mean it is | mean of the main metric's array |
| ``auc`` | predefined pairs (pairs) | ``scores`` (cosines), ``labels`` | AUROC of scores vs labels |
| ``text_auc`` | all-to-all pairs (texts) | ``placement`` (per text, the sum of its positive pairs' placement values), ``psi`` (per-text influence of the AUROC), ``n_positive_pairs`` | ``sum(placement) / (2 n_positive_pairs)`` |
| ``assignment`` | clustering (texts) | ``labels`` (codes), ``clusters`` | V-measure |
| ``probing`` | probing (test texts per feature) | ``correct_<feature>`` (bits) | mean over features of each feature's accuracy |

Size budget: :data:`MAX_ITEMS` units per array (1,000,000: at most about 11 MB of
base64 for a float64 array before compression); a result with more stores no items
(``items = None``) and says why in ``details.items_omitted``. Measured on the demo
(1,140 texts, function words): the four records are 3-11 KB, order alignment (60,522
pairs) included.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

MAX_ITEMS = 1_000_000
_DTYPES = {"f8": "<f8", "i4": "<i4", "bits": "u1"}


def encode_array(values: Any, dtype: str = "f8") -> dict[str, Any]:
    """A 1-d array as ``{"dtype", "n", "codec": "zlib", "b64"}``: the little-endian bytes
    (``bits``: booleans packed 8 per byte), zlib-compressed (per-unit scores repeat a
    few values: order-alignment accuracies are multiples of 1/k), base64."""
    arr = np.asarray(values)
    if dtype == "bits":
        raw = np.packbits(arr.astype(bool)).tobytes()
    else:
        raw = np.ascontiguousarray(arr, dtype=_DTYPES[dtype]).tobytes()
    packed = base64.b64encode(zlib.compress(raw, 6)).decode("ascii")
    return {"dtype": dtype, "n": int(arr.size), "codec": "zlib", "b64": packed}


def decode_array(block: Mapping[str, Any]) -> np.ndarray:
    """The array :func:`encode_array` stored; ValueError naming what is wrong."""
    try:
        dtype, n, raw = block["dtype"], int(block["n"]), base64.b64decode(block["b64"])
        if block.get("codec") == "zlib":
            raw = zlib.decompress(raw)
        elif block.get("codec") is not None:
            raise ValueError(f"unknown codec {block['codec']!r}")
    except (KeyError, TypeError, ValueError, zlib.error) as error:
        raise ValueError(f"not an encoded array ({error})") from None
    if dtype == "bits":
        out = np.unpackbits(np.frombuffer(raw, dtype=np.uint8))[:n].astype(bool)
    elif dtype in _DTYPES:
        out = np.frombuffer(raw, dtype=_DTYPES[dtype]).astype(
            np.float64 if dtype == "f8" else np.int64
        )
    else:
        raise ValueError(f"unknown array dtype {dtype!r}")
    if out.size != n:
        raise ValueError(f"array holds {out.size} values, its header says {n}")
    return out


def make_items(kind: str, unit: str, arrays: Mapping[str, tuple[Any, str]]) -> dict[str, Any]:
    """An items block; ``arrays`` maps a name to ``(values, dtype)``."""
    sizes = {np.asarray(v).size for v, _ in arrays.values()}
    n = max(sizes) if sizes else 0
    if n > MAX_ITEMS:
        return {"omitted": f"{n} {unit} exceed the budget of {MAX_ITEMS}"}
    return {
        "kind": kind,
        "unit": unit,
        "n": int(n),
        "arrays": {name: encode_array(v, dtype) for name, (v, dtype) in arrays.items()},
    }


def arrays_of(items: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every array of an items block, decoded."""
    return {name: decode_array(block) for name, block in items.get("arrays", {}).items()}


def rederive(items: Mapping[str, Any], main_score_name: str) -> float:
    """The main score recomputed from the stored units (see the module table);
    ValueError when the block cannot give it."""
    kind = items.get("kind")
    arrays = arrays_of(items)
    if kind == "mean":
        if main_score_name not in arrays:
            raise ValueError(f"items hold no per-unit {main_score_name!r}")
        values = arrays[main_score_name]
        if values.size == 0:
            raise ValueError("no units")
        return float(values.mean())
    if kind == "auc":
        from evaluators.metric_math.binary import roc_auc

        return float(roc_auc(arrays["scores"], arrays["labels"].astype(int)))
    if kind == "text_auc":
        n_pos = float(arrays["n_positive_pairs"][0])
        return float(arrays["placement"].sum() / (2.0 * n_pos))
    if kind == "assignment":
        from evaluators.metric_math.clustering import v_measure

        return float(v_measure(arrays["clusters"], arrays["labels"])[main_score_name])
    if kind == "probing":
        accuracies = [a.mean() for name, a in arrays.items() if name.startswith("correct_")]
        if not accuracies:
            raise ValueError("items hold no probing feature")
        return float(np.mean(accuracies))
    raise ValueError(f"unknown items kind {kind!r}")
