"""CCAT50 from the real Reuter_50_50 corpus (../shared/corpora/ccat50): the split counts,
byte-identical rebuilds, and golden numbers of Ngram_A and PPM_A on a seeded subset.

The full reproduction of Table 3 is the documented command
``stylebench valla run --method ngram --dataset valla/ccat50`` (minutes), not a unit test.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.hub_folder import write_hub_folder
from dataset_scripts.registry import get_dataset
from evaluators.metric_math import macro_accuracy


@pytest.fixture(scope="module")
def ccat50(corpora: Path) -> dict:
    raw = corpora / "ccat50"
    if not raw.is_dir():
        pytest.skip("ccat50 is not in the shared corpora")
    tables, dropped = get_dataset("valla/ccat50").builder(raw)
    assert dropped == {}
    return tables


def test_split_counts(ccat50: dict) -> None:
    aa, av = ccat50["labelled_texts"], ccat50["text_pairs"]
    assert {k: len(v) for k, v in aa.items()} == {"train": 2000, "validation": 500, "test": 2500}
    assert {k: len(v) for k, v in av.items()} == {"train": 4000, "validation": 1000, "test": 5000}
    assert set(Counter(r["label"] for r in aa["validation"]).values()) == {10}
    assert all(r["id"].startswith("C50test/") for r in aa["test"])
    assert sum(p["label"] for p in av["test"]) == 2500
    train_ids = {r["id"] for r in aa["train"]}
    assert not train_ids & {r["id"] for r in aa["validation"]}
    # pinned: the seeded 80/20 split of C50train (scikit-learn, random_state=0)
    assert aa["validation"][0]["id"] == "C50train/AaronPressman/106247newsML.txt"


def test_rebuild_byte_identical(ccat50: dict, tmp_path: Path, corpora: Path) -> None:
    spec = get_dataset("valla/ccat50")
    first = write_hub_folder(spec, ccat50, tmp_path / "a")
    tables, _ = spec.builder(corpora / "ccat50")
    second = write_hub_folder(spec, tables, tmp_path / "b")
    for path in sorted(first.rglob("*.parquet")):
        assert path.read_bytes() == (second / path.relative_to(first)).read_bytes(), path


def _subset(ccat50: dict, n_authors: int = 10, test_step: int = 5) -> tuple[list, list]:
    aa = ccat50["labelled_texts"]
    authors = sorted({r["label"] for r in aa["train"]})[:n_authors]
    train = [r for r in aa["train"] + aa["validation"] if r["label"] in authors]
    test = [r for r in aa["test"] if r["label"] in authors][::test_step]
    return train, test


def test_golden_ngram_char_subset(ccat50: dict) -> None:
    from evaluators.valla.ngram import NgramAA, NgramConfig

    train, test = _subset(ccat50)
    model = NgramAA(NgramConfig(families=("char",), char_range=(2, 4), max_features=5_000)).fit(
        [r["text"] for r in train], [r["label"] for r in train]
    )
    score = macro_accuracy(model.predict([r["text"] for r in test]), [r["label"] for r in test])
    assert score["macro_accuracy"] == pytest.approx(GOLDEN_NGRAM, abs=1e-9)


def test_golden_ppm_subset(ccat50: dict) -> None:
    from evaluators.valla.ppm import PPMAA

    train, test = _subset(ccat50)
    model = PPMAA().fit([r["text"] for r in train], [r["label"] for r in train])
    score = macro_accuracy(model.predict([r["text"] for r in test]), [r["label"] for r in test])
    assert score["macro_accuracy"] == pytest.approx(GOLDEN_PPM, abs=1e-9)


# 10 authors (first in name order), train + validation texts, every 5th test text (100)
GOLDEN_NGRAM = 0.93
GOLDEN_PPM = 0.91
