"""The Python API: Dataset.from_pandas / from_texts / from_files and evaluate() return
results without writing files, and equal what the CLI path computes."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from dataset_scripts.core.errors import DataError
from evaluators.api import Dataset, evaluate
from tests.byod.conftest import corpus_rows


def test_from_pandas_and_from_texts_evaluate_in_memory(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    frame = pd.DataFrame(corpus_rows())
    ds = Dataset.from_pandas(frame, label_column="author", doc_column="document", chunk_words=30)
    results = evaluate("function-words", ds, tasks=["clustering", "all_to_all_pairs"])
    assert [r.task for r in results] == ["clustering", "all_to_all_pairs"]
    assert os.listdir(tmp_path) == []  # nothing written
    same = Dataset.from_texts(
        frame["text"].tolist(),
        frame["author"].tolist(),
        documents=frame["document"].tolist(),
        chunk_words=30,
    )
    again = evaluate("function-words", same, tasks=["clustering", "all_to_all_pairs"])
    assert [r.main_score for r in again] == [r.main_score for r in results]
    # the same numbers through a saved folder (the `stylebench run` path)
    folder = ds.save(tmp_path / "saved")
    from_folder = evaluate("function-words", folder, tasks=["clustering", "all_to_all_pairs"])
    assert [r.main_score for r in from_folder] == pytest.approx([r.main_score for r in results])
    retrieval = Dataset.from_texts(
        frame["text"].tolist(),
        frame["author"].tolist(),
        documents=frame["document"].tolist(),
        schema="retrieval",
        chunk_words=20,
        texts_per_query=3,
    )
    (result,) = evaluate("function-words", retrieval)
    assert result.task == "retrieval" and result.counts["n_queries"] == 3


def test_api_errors_name_the_problem() -> None:
    with pytest.raises(DataError, match="3 texts but 2 labels"):
        Dataset.from_texts(["a", "b", "c"], ["x", "y"])
    ds = Dataset.from_texts(["one text", "two text"], ["x", "y"])
    with pytest.raises(DataError, match="needs a text_pairs table"):
        evaluate("function-words", ds, tasks=["predefined_pairs"])
    with pytest.raises(TypeError, match="encode"):
        evaluate(object(), ds)
