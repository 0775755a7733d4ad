"""Per-item data of the result record (evaluators.records.items) and its writer: arrays
survive encoding exactly, every kind re-derives its main score as scikit-learn computes
it, and concurrent writers of one result never collide (issue 26, item 10)."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from evaluators.records.items import decode_array, encode_array, make_items, rederive
from evaluators.records.record import (
    DatasetInfo,
    ModelInfo,
    ResultRecord,
    load_record,
    write_record,
)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(0, 300), elements=st.floats(allow_nan=False, width=64)))
def test_float_arrays_round_trip_exactly(values: np.ndarray) -> None:
    block = json.loads(json.dumps(encode_array(values)))
    assert np.array_equal(decode_array(block), values)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.booleans(), max_size=200), st.lists(st.integers(-(2**31), 2**31 - 1), max_size=200)
)
def test_bits_and_ints_round_trip(bits: list[bool], ints: list[int]) -> None:
    assert decode_array(encode_array(bits, "bits")).tolist() == bits
    assert decode_array(encode_array(ints, "i4")).tolist() == ints


def test_damaged_array_is_named() -> None:
    block = encode_array([1.0, 2.0])
    with pytest.raises(ValueError, match="header says 3"):
        decode_array({**block, "n": 3})
    with pytest.raises(ValueError, match="not an encoded array"):
        decode_array({"dtype": "f8", "n": 1, "codec": "zlib", "b64": "AAAA"})


def test_kinds_rederive_as_scikit_learn() -> None:
    from sklearn.metrics import roc_auc_score, v_measure_score

    rng = np.random.default_rng(0)
    scores, labels = rng.normal(size=200), rng.integers(0, 2, 200)
    auc = make_items("auc", "pairs", {"scores": (scores, "f8"), "labels": (labels, "i4")})
    assert rederive(auc, "auc") == pytest.approx(roc_auc_score(labels, scores), abs=1e-12)

    classes, clusters = rng.integers(0, 5, 300), rng.integers(0, 4, 300)
    block = make_items(
        "assignment", "texts", {"labels": (classes, "i4"), "clusters": (clusters, "i4")}
    )
    assert rederive(block, "v_measure") == pytest.approx(
        v_measure_score(classes, clusters), abs=1e-12
    )

    rr = rng.random(50)
    assert rederive(make_items("mean", "queries", {"mrr": (rr, "f8")}), "mrr") == rr.mean()
    hits = {f"correct_f{i}": (rng.random(40) > 0.3, "bits") for i in range(3)}
    expected = np.mean([h.mean() for h, _ in hits.values()])
    assert rederive(make_items("probing", "test texts", hits), "accuracy") == expected


def test_text_auc_items_rederive_the_all_pairs_auroc() -> None:
    """kind text_auc (all-to-all pairs): per-text placement sums give the AUROC of every
    pair i<j, same label = positive, as scikit-learn computes it."""
    from sklearn.metrics import roc_auc_score

    from evaluators.tasks.pairs import text_auc_items

    rng = np.random.default_rng(1)
    n = 40
    labels = rng.integers(0, 4, n)
    vectors = rng.normal(size=(n, 8))
    first, second = np.triu_indices(n, k=1)
    scores = np.einsum("ij,ij->i", vectors[first], vectors[second])
    same = labels[first] == labels[second]
    block = text_auc_items(scores, same, n)
    assert rederive(block, "auc") == pytest.approx(roc_auc_score(same, scores), abs=1e-12)


def test_budget_omits_items() -> None:
    import evaluators.records.items as items

    old, items.MAX_ITEMS = items.MAX_ITEMS, 10
    try:
        assert "omitted" in make_items("mean", "queries", {"mrr": (np.zeros(11), "f8")})
    finally:
        items.MAX_ITEMS = old


def _record(score: float) -> ResultRecord:
    return ResultRecord(
        task="retrieval",
        dataset=DatasetInfo(name="d"),
        model=ModelInfo(name="m"),
        main_score_name="mrr",
        main_score=score,
        metrics={"mrr": score},
        seed=42,
    )


def test_concurrent_writers_of_one_result(tmp_path: Path) -> None:
    """Two runs writing the same result: every write lands whole (unique temporary
    names, atomic replace), no temporary file is left, and the file is 0644-like."""
    path = tmp_path / "m" / "d" / "retrieval.json"
    errors: list[BaseException] = []

    def write(offset: int) -> None:
        try:
            for i in range(40):
                write_record(_record((offset + i) / 100), path)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=write, args=(k,)) for k in (0, 50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert load_record(path).main_score in {i / 100 for i in range(90)}
    assert [p.name for p in path.parent.iterdir()] == ["retrieval.json"]
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask
