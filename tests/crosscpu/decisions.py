"""The decisions the cross-CPU check compares: a handful of golden and parity
computations on real built data, run in one process (``python -m tests.crosscpu.decisions
TABLES OUT``) under one BLAS kernel / thread count / numpy SIMD level.

``TABLES`` is a pickle of ``{name: Table}`` written by the test; ``OUT`` receives a JSON
object ``{"values": {key: float.hex}, "authors_literal": {...}, "runtime": {...}}``.
Every value under ``values`` must be bit-equal across the variants; ``authors_literal``
holds the STEB authors' own arithmetic (float32 BLAS cosines, ``np.argsort``'s default
sort), which is not expected to be, and is reported only.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import pickle
import sys
from pathlib import Path
from typing import Any

import numpy as np


def _hex(value: Any) -> str:
    return float(value).hex()


def _digest(array: Any) -> str:
    data = np.ascontiguousarray(np.asarray(array, dtype=np.float64))
    return hashlib.sha256(data.tobytes()).hexdigest()[:16]


def _result_values(prefix: str, result: Any, out: dict[str, str]) -> None:
    for name, value in sorted(result.metrics.items()):
        out[f"{prefix}/{name}"] = _hex(value)
    from evaluators.steb_scores.bootstrap import dataset_ci

    for name, hist in sorted(result.details.get("units", {}).items()):
        out[f"{prefix}/units/{name}"] = _digest(hist["values"] + hist["counts"])
        # STEB's dataset CI from those units (bootstrap means summed in a fixed order)
        low, high = dataset_ci((hist["values"], hist["counts"]))
        out[f"{prefix}/units/{name}/ci95"] = f"{_hex(low)} {_hex(high)}"
    for label, entry in sorted(result.details.get("per_label", {}).items()):
        out[f"{prefix}/per_label/{label}/auc"] = _hex(entry["auc"])


def runtime() -> dict[str, Any]:
    """Which BLAS kernel, thread count and numpy SIMD targets this process runs."""
    import threadpoolctl
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    blas = [
        {
            "file": Path(i["filepath"]).name,
            "kernel": i.get("architecture"),
            "threads": i["num_threads"],
        }
        for i in threadpoolctl.threadpool_info()
        if i.get("user_api") == "blas"
    ]
    simd = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    return {"blas": blas, "numpy_dispatch_enabled": simd}


def compute(tables: dict[str, Any]) -> dict[str, Any]:
    from evaluators.encoders import get_encoder
    from evaluators.encoders.function_words import FunctionWordEncoder
    from evaluators.tasks import EmbeddingLookup, Sampling, get_evaluator
    from tests.parity import steb_reference as ref

    values: dict[str, str] = {}
    literal: dict[str, str] = {}
    words = FunctionWordEncoder()

    # order alignment goldens (tests/steb_datasets/order_alignment/test_real_corpora.py)
    for name in ("OneStopEnglishCorpus", "twitter_aave_sae"):
        table = tables[name]
        evaluator = get_evaluator("order_alignment")
        texts = evaluator.texts(table)
        encoder = get_encoder("tfidf-ngrams", components=("char", "word"))
        encoder.fit(list(dict.fromkeys(texts)))
        lookup = EmbeddingLookup.from_encoder(encoder, texts)
        _result_values(f"tfidf/{name}", evaluator.evaluate(table, lookup), values)

    # order alignment parity (STEL, function words), rows and episodes of 2
    stel = tables["STEL_feature"]
    for sampling in (None, Sampling(2, "auto")):
        evaluator = get_evaluator("order_alignment", sampling=sampling)
        lookup = EmbeddingLookup.from_encoder(words, evaluator.texts(stel))
        tag = "rows" if sampling is None else "episodes2"
        _result_values(f"stel/{tag}", evaluator.evaluate(stel, lookup), values)
    sequences = [lookup(row["texts"]) for row in stel.rows]
    theirs = ref.order_alignment(sequences, [row["group"] for row in stel.rows])
    values |= {f"stel/reference/{k}": _hex(v) for k, v in theirs.items()}

    # retrieval (PAN18 English: repeated texts, exact ties), rows and episode size -1
    pan18 = tables["pan18_english"]
    for sampling in (Sampling(1), Sampling(-1)):  # rows as built; -1 (the default, #33)
        evaluator = get_evaluator("retrieval", sampling=sampling)
        lookup = EmbeddingLookup.from_encoder(words, evaluator.texts(pan18))
        tag = "rows" if sampling.episode_size == 1 else "all"
        _result_values(f"pan18/{tag}", evaluator.evaluate(pan18, lookup), values)
    groups: dict[tuple[str, str], list[str]] = {}
    for row in pan18.rows:
        groups.setdefault((row["role"], row["author"]), []).extend(row["texts"])
    sides = {
        role: (
            np.stack([lookup(t).mean(axis=0) for (r, _), t in groups.items() if r == role]),
            [a for r, a in groups if r == role],
        )
        for role in ("query", "target")
    }
    (q, q_lab), (t, t_lab) = sides["query"], sides["target"]
    values |= {
        f"pan18/reference/{k}": _hex(v) for k, v in ref.retrieval(q, t, q_lab, t_lab).items()
    }
    if "literal" in inspect.signature(ref.retrieval).parameters:
        theirs = ref.retrieval(q, t, q_lab, t_lab, literal=True)
        literal |= {f"pan18/all/{k}": _hex(v) for k, v in theirs.items()}

    # all-to-all pairs and clustering (Bible versions, function words)
    bible = tables["bible_versions"]
    lookup = EmbeddingLookup.from_encoder(words, [row["text"] for row in bible.rows])
    vectors = lookup(row["text"] for row in bible.rows)
    labels = [row["label"] for row in bible.rows]
    for task in ("all_to_all_pairs", "clustering"):
        _result_values(f"bible/{task}", get_evaluator(task).evaluate(bible, lookup), values)
    # scikit-learn's v_measure_score takes numpy's log, whose last bit follows the SIMD level
    literal["bible/reference/v_measure"] = _hex(ref.clustering(vectors, labels))

    # predefined pairs (PAN23 easy style change)
    pan23 = tables["pan23_easy"]
    evaluator = get_evaluator("predefined_pairs")
    lookup = EmbeddingLookup.from_encoder(words, evaluator.texts(pan23))
    _result_values("pan23/predefined", evaluator.evaluate(pan23, lookup), values)
    return {"values": values, "authors_literal": literal, "runtime": runtime()}


def main(argv: list[str]) -> int:
    tables = pickle.loads(Path(argv[1]).read_bytes())
    Path(argv[2]).write_text(json.dumps(compute(tables), indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
