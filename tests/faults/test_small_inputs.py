"""Issue 26, item 16 (the input parts): an empty CCAT50 article names its file, a null
text names its row and column (not "holds NoneType None"), a zero-row Parquet shard names
the file (not "ArrowInvalid: BatchSize must be greater than 0")."""

from __future__ import annotations

from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError, StylebenchError


def _built(tmp_path: Path) -> Path:
    from dataset_scripts.custom.build import build_from_source

    source = tmp_path / "d.csv"
    source.write_text("text,label\n" + "".join(f"text {i} here,{'ab'[i % 2]}\n" for i in range(20)))
    return build_from_source(source, tmp_path / "X").folder


def test_empty_ccat50_article_names_its_file(tmp_path) -> None:
    from dataset_scripts.valla.ccat50 import read_ccat50

    for part in ("C50train", "C50test"):
        for author in ("AaronPressman", "AlanCrosby"):
            folder = tmp_path / part / author
            folder.mkdir(parents=True)
            for k in range(2):
                (folder / f"{k}newsML.txt").write_text(f"article {k} by {author}")
    empty = tmp_path / "C50test" / "AlanCrosby" / "1newsML.txt"
    empty.write_text("  \n")
    with pytest.raises(DataError, match=str(empty)):
        read_ccat50(tmp_path)


def test_null_text_names_row_and_column(tmp_path) -> None:
    from dataset_scripts.core.schemas import validate_rows

    rows = [{"id": "a", "text": "x", "label": "p"}, {"id": "b", "text": None, "label": "q"}]
    with pytest.raises(DataError) as error:
        validate_rows("labelled_texts", rows, "mine")
    assert "row 1" in str(error.value) and "'text' is empty (null)" in str(error.value)
    assert "NoneType" not in str(error.value)


def test_zero_row_parquet_names_the_file(tmp_path) -> None:
    import pyarrow.parquet as pq

    from evaluators.data import load_table

    folder = _built(tmp_path)
    shard = folder / "data" / "labelled_texts" / "test-00000-of-00001.parquet"
    pq.write_table(pq.read_table(shard).slice(0, 0), shard)
    with pytest.raises(StylebenchError) as error:
        load_table(str(folder), "labelled_texts")
    assert str(shard) in str(error.value) and "0 rows" in str(error.value)
    assert "ArrowInvalid" not in str(error.value)
