"""The paper's tables as data: provenance against the paper text, internal consistency,
and the round trip of every printed average."""

from __future__ import annotations

from pathlib import Path

import pytest

from dataset_scripts.core.errors import UnknownNameError
from evaluators.steb_scores.reference import (
    paper_models,
    recompute_averages,
    reference_rows,
    reference_value,
    table_info,
    tables,
    view_reference,
)

PAPER = Path(__file__).resolve().parents[2].parent / "shared/papers"
FULL = {"2": "6", "3": "9", "4": "7", "5": "8"}


def test_tables_and_sizes() -> None:
    assert tables() == ["6", "2", "3", "4", "5", "7", "8", "9", "14"]
    sizes = {t: len(reference_rows(t)) for t in tables()}
    assert sizes == {
        "2": 21,
        "3": 11,
        "4": 11,
        "5": 12,
        "6": 40,
        "7": 40,
        "8": 40,
        "9": 40,
        "14": 5,
    }
    assert len(set(paper_models())) == 40
    for t in ("7", "8", "9"):
        assert {r.model for r in reference_rows(t)} == set(paper_models())
    assert table_info(6)["num_datasets"] == [53, 24, 26, 11, 4, 4, 122]
    assert table_info(9)["num_datasets"] == [4, 7, 3, 3, 3, 29, 49, 7, 11, 67]


def test_spot_values_and_lookup() -> None:
    assert reference_value(6, "LUAR-MUD", "clustering") == 20.03
    assert reference_value(9, "StyleDistance", "average") == 56.06
    assert reference_value(7, "deberta-v3-large", "atd") == 36.03  # printed name
    assert reference_value(2, "TFIDF FineWeb 1-2-grams", "probing") == 55.74  # "TFIDF n-grams"
    assert reference_value(14, "MSR", "truncate_rank") == 1
    assert view_reference("operational")["STAR"]["steb_score"] == pytest.approx(0.5075)
    with pytest.raises(UnknownNameError):
        reference_value(6, "no-such-model", "clustering")
    with pytest.raises(UnknownNameError):
        reference_value(11, "STAR", "x")


@pytest.mark.parametrize("table", ["2", "3", "4", "5", "6", "7", "8", "9"])
def test_printed_averages_round_trip(table: str) -> None:
    """Every row's average column(s), recomputed from its own values, match the print
    within 0.01 (all 220 rows of Tables 2-9 do; Table 14 has no average)."""
    for row in reference_rows(table):
        recomputed = recompute_averages(row)
        assert recomputed
        for column, value in recomputed.items():
            assert abs(value - row.values[column]) <= 0.01 + 1e-9, row.provenance(column)


def test_excerpt_tables_equal_full_tables() -> None:
    for short, full in FULL.items():
        rows = {r.model: r.values for r in reference_rows(full)}
        for r in reference_rows(short):
            assert r.values == rows[r.model], r.provenance("*")


def test_cross_table_identities() -> None:
    """AR (Table 7) is the operational retrieval column (Table 6); Table 14's chunk-and-pool
    AUC is Table 8's pair classification; Table 14's ranks follow its AUCs."""
    t6 = {r.model: r.values for r in reference_rows(6)}
    for r in reference_rows(7):
        assert r.values["ar"] == t6[r.model]["retrieval"]
    t8 = {r.model: r.values for r in reference_rows(8)}
    rows14 = reference_rows(14)
    for r in rows14:
        assert r.values["chunk_and_pool_auc"] == t8[r.model]["pair_classification"]
    for protocol in ("chunk_and_pool", "truncate"):
        ordered = sorted(rows14, key=lambda r: -r.values[f"{protocol}_auc"])
        assert [r.values[f"{protocol}_rank"] for r in ordered] == [1, 2, 3, 4, 5]


def test_provenance_matches_paper_text() -> None:
    """Each row's model name sits at its recorded line and its values follow in order."""
    path = PAPER / "steb_style_text_embedding_benchmark.txt"
    if not path.is_file():
        pytest.skip("the STEB paper text is not present on this machine")
    lines = path.read_text(encoding="utf-8").split("\n")
    for table in tables():
        for row in reference_rows(table):
            assert lines[row.line - 1].strip() == row.printed
            for k, value in enumerate(row.values.values(), start=1):
                printed = lines[row.line - 1 + k].strip()
                assert float(printed) == value, row.provenance(list(row.values)[k - 1])
