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
| ``mean`` | order alignment (pairs), retrieval (queries) | one per metric whose mean it is; order alignment: ``sequence_i``, ``sequence_j`` (each pair's two sequences); retrieval: ``query_author``, ``target_author`` (author codes), ``author_group`` (per author: its group of authors sharing a text, the unit a comparison leaves out), ``match_query``, ``match_rank``, ``ahead_by_author`` (per relevant (query, target) row: its query, its rank, and each author's targets ranked ahead of it, row-major ``rows x authors``; left out, with ``details.items_units_omitted``, when that exceeds :data:`MAX_ITEMS`) for the exact delete-one-author jackknife of the MRR (:mod:`evaluators.metric_math.retrieval_jackknife`) | mean of the main metric's array |
| ``auc`` | predefined pairs (pairs) | ``scores`` (cosines), ``labels``, ``text_1``, ``text_2`` (each pair's text ids) | AUROC of scores vs labels |
| ``text_auc`` | all-to-all pairs (texts) | ``placement`` (per text, the sum of its positive pairs' placement values), ``psi`` (per-text influence of the AUROC), ``n_positive_pairs`` | ``sum(placement) / (2 n_positive_pairs)`` |
| ``assignment`` | clustering (texts) | ``labels`` (codes), ``clusters`` (seed 42), ``seeds``, ``clusters_seeds`` (the assignments of the extra k-means seeds, concatenated) | V-measure |
| ``probing`` | probing (test texts per feature) | ``correct_<feature>`` (bits) | mean over features of each feature's accuracy |

Size budgets (what a results repository accepts; ``stylebench results validate`` and the
Space's Submissions tab check them before inflating anything):

* :data:`MAX_ITEMS` units per array (1,000,000): a result with more stores no items
  (``items = None``, the reason in ``details.items_omitted``), and such a record cannot enter
  a results repository (its main score cannot be re-derived);
* :data:`INLINE_ITEMS_BYTES` (1,000,000 bytes of JSON): a larger items block is written to a
  sidecar file beside the record (:mod:`evaluators.records.record`: ``<task>.items.zlib``,
  zlib-compressed, its SHA-256 and sizes in the record), not left out;
* :data:`RECORD_INFLATE_BYTES` (64 MiB): what one record's arrays (and sidecar) may inflate
  to, checked against the sizes they declare (``n`` and the dtype) before any
  decompression, and each stream decompressed with that declared length as its limit;
* :data:`SUBMISSION_INFLATE_BYTES` (1 GiB): what all the records one ``validate`` reads
  may inflate to together;
* :data:`RECORD_FILE_BYTES` (32 MiB): the largest record file ``validate`` reads.

Measured on the demo (1,140 texts, function words): the four records are 3-11 KB, order
alignment (60,522 pairs) included.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

MAX_ITEMS = 1_000_000
INLINE_ITEMS_BYTES = 1_000_000
RECORD_INFLATE_BYTES = 64 * 2**20
SUBMISSION_INFLATE_BYTES = 2**30
RECORD_FILE_BYTES = 32 * 2**20
_DTYPES = {"f8": "<f8", "i4": "<i4", "bits": "u1"}
_WIDTH = {"f8": 8, "i4": 4}
#: the arrays each kind's main score is re-derived from (``mean`` and ``probing``: see
#: :func:`rederive`)
REQUIRED_ARRAYS = {
    "auc": ("scores", "labels"),
    "text_auc": ("placement", "n_positive_pairs"),
    "assignment": ("labels", "clusters"),
}


def declared_bytes(block: Mapping[str, Any]) -> int:
    """The bytes an encoded array inflates to by its own header (``n`` and ``dtype``);
    ValueError when the header is not one :func:`encode_array` writes or ``n`` is over
    :data:`MAX_ITEMS`."""
    if not isinstance(block, Mapping):
        raise ValueError(f"not an encoded array (a {type(block).__name__})")
    dtype, n = block.get("dtype"), block.get("n")
    if dtype not in _DTYPES:
        raise ValueError(f"unknown array dtype {dtype!r}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise ValueError(f"array size n {n!r} is not a count")
    if n > MAX_ITEMS:
        raise ValueError(f"array declares {n:,} units, over the budget of {MAX_ITEMS:,}")
    return (n + 7) // 8 if dtype == "bits" else n * _WIDTH[dtype]


def items_bytes(items: Mapping[str, Any]) -> int:
    """What an items block's arrays inflate to, by their headers (:func:`declared_bytes`);
    ValueError naming the array when one is malformed."""
    arrays = items.get("arrays")
    if not isinstance(arrays, Mapping):
        raise ValueError("items hold no 'arrays' object")
    total = 0
    for name, block in arrays.items():
        try:
            total += declared_bytes(block)
        except ValueError as error:
            raise ValueError(f"array {name!r}: {error}") from None
    return total


def inflate(data: bytes, limit: int, what: str = "stream") -> bytes:
    """``data`` zlib-decompressed to at most ``limit`` bytes: ValueError when it holds more
    (a stream larger than declared is refused after ``limit`` bytes, never inflated whole)
    or is not a complete zlib stream."""
    engine = zlib.decompressobj()
    try:
        out = engine.decompress(data, limit + 1)
    except zlib.error as error:
        raise ValueError(f"{what} is not a zlib stream ({error})") from None
    if len(out) > limit:
        raise ValueError(f"{what} inflates past its declared {limit:,} bytes")
    if not engine.eof:
        raise ValueError(f"{what} is a truncated zlib stream")
    if engine.unused_data:
        raise ValueError(f"{what} has {len(engine.unused_data)} bytes after its end")
    return out


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
    """The array :func:`encode_array` stored; ValueError naming what is wrong. The size
    its header declares is checked against :data:`MAX_ITEMS` first, and the stream is
    inflated to at most that size (a stream that would give more is refused)."""
    expected = declared_bytes(block)
    dtype, n = block["dtype"], block["n"]
    try:
        text = block["b64"]
        if not isinstance(text, str | bytes) or len(text) > 4 * (expected // 3 + 1) + 2**16:
            raise ValueError("its base64 is longer than its declared size allows")
        raw = base64.b64decode(text, validate=True)
        if block.get("codec") == "zlib":
            raw = inflate(raw, expected, "its zlib stream")
        elif block.get("codec") is not None:
            raise ValueError(f"unknown codec {block['codec']!r}")
    except (KeyError, TypeError, ValueError, binascii.Error) as error:
        raise ValueError(f"not an encoded array ({error})") from None
    if len(raw) != expected:
        held = (
            f"{len(raw)} bytes of bits"
            if dtype == "bits"
            else f"{len(raw) // _WIDTH[dtype]} values"
        )
        raise ValueError(f"array holds {held}, its header says {n}")
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


def make_items(
    kind: str, unit: str, arrays: Mapping[str, tuple[Any, str]], n: int | None = None
) -> dict[str, Any]:
    """An items block; ``arrays`` maps a name to ``(values, dtype)``; ``n`` (the number
    of units) defaults to the longest array's size."""
    sizes = {np.asarray(v).size for v, _ in arrays.values()}
    n = (max(sizes) if sizes else 0) if n is None else n
    if max(sizes, default=0) > MAX_ITEMS:
        n = max(sizes)
    if n > MAX_ITEMS:
        return {"omitted": f"{n} {unit} exceed the budget of {MAX_ITEMS}"}
    return {
        "kind": kind,
        "unit": unit,
        "n": int(n),
        "arrays": {name: encode_array(v, dtype) for name, (v, dtype) in arrays.items()},
    }


def arrays_of(items: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """Every array of an items block, decoded; ValueError naming the array otherwise."""
    blocks = items.get("arrays", {})
    if not isinstance(blocks, Mapping):
        raise ValueError("items hold no 'arrays' object")
    if items_bytes(items) > RECORD_INFLATE_BYTES:
        raise ValueError(
            f"items declare {items_bytes(items):,} bytes, over the budget of "
            f"{RECORD_INFLATE_BYTES:,} per record"
        )
    out = {}
    for name, block in blocks.items():
        try:
            out[name] = decode_array(block)
        except ValueError as error:
            raise ValueError(f"array {name!r}: {error}") from None
    return out


def rederive(items: Mapping[str, Any], main_score_name: str) -> float:
    """The main score recomputed from the stored units (see the module table);
    ValueError when the block cannot give it."""
    if not isinstance(items, Mapping):
        raise ValueError(f"items are a {type(items).__name__}, not an object")
    kind = items.get("kind")
    if "omitted" in items:
        raise ValueError(f"per-item data left out ({items['omitted']})")
    if kind not in ("mean", "auc", "text_auc", "assignment", "probing"):
        raise ValueError(f"unknown items kind {kind!r}")
    arrays = arrays_of(items)
    for name in REQUIRED_ARRAYS.get(kind, ()):
        if name not in arrays:
            raise ValueError(f"items of kind {kind!r} lack the array {name!r}")
    if kind in ("auc", "assignment"):
        first, second = REQUIRED_ARRAYS[kind]
        if arrays[first].size != arrays[second].size or arrays[first].size == 0:
            raise ValueError(
                f"arrays {first!r} ({arrays[first].size}) and {second!r} "
                f"({arrays[second].size}) differ in length or are empty"
            )
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
        if arrays["n_positive_pairs"].size != 1 or arrays["n_positive_pairs"][0] <= 0:
            raise ValueError("array 'n_positive_pairs' is not one positive count")
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
    raise AssertionError(kind)  # every kind is handled above
