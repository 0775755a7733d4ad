"""Bad input gives one-line errors that name the problem."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.core.schemas import validate_rows
from evaluators.cli import main


def _cli_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    return err


def _folder(tmp_path: Path, config: str, columns: dict) -> Path:
    folder = tmp_path / "bad"
    (folder / "data" / config).mkdir(parents=True)
    pq.write_table(pa.table(columns), folder / "data" / config / "test-00000-of-00001.parquet")
    (folder / "README.md").write_text(
        f"---\nconfigs:\n- config_name: {config}\n  data_files:\n  - split: test\n"
        f"    path: data/{config}/test-*.parquet\n---\n# bad\n"
    )
    return folder


def test_unknown_task(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _folder(
        tmp_path, "labelled_texts", {"id": ["1", "2"], "text": ["a", "b"], "label": ["x", "y"]}
    )
    err = _cli_error(
        capsys,
        ["run", "--model", "function-words", "--dataset", str(folder), "--tasks", "clusterin"],
    )
    assert "unknown task 'clusterin'" in err


def test_unknown_encoder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _folder(
        tmp_path, "labelled_texts", {"id": ["1", "2"], "text": ["a", "b"], "label": ["x", "y"]}
    )
    err = _cli_error(
        capsys, ["run", "--model", "no-such-encoder-xyz", "--dataset", str(folder), "--no-progress"]
    )
    assert "no-such-encoder-xyz" in err


def test_one_class_label_column(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _folder(
        tmp_path, "labelled_texts", {"id": ["1", "2"], "text": ["a", "b"], "label": ["x", "x"]}
    )
    err = _cli_error(
        capsys, ["run", "--model", "function-words", "--dataset", str(folder), "--no-progress"]
    )
    assert "one class ('x')" in err


def test_empty_dataset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    empty = pa.array([], pa.string())
    folder = _folder(tmp_path, "labelled_texts", {"id": empty, "text": empty, "label": empty})
    err = _cli_error(
        capsys, ["run", "--model", "function-words", "--dataset", str(folder), "--no-progress"]
    )
    assert "empty" in err


def test_text_not_a_string() -> None:
    rows = [{"id": "1", "text": "fine", "label": "a"}, {"id": "2", "text": 42, "label": "b"}]
    with pytest.raises(
        DataError, match=r"toy row 1: column 'text' holds int 42, expected a string"
    ):
        validate_rows("labelled_texts", rows, "toy")


def test_text_not_a_string_in_parquet(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = _folder(
        tmp_path, "labelled_texts", {"id": ["1", "2"], "text": ["ok", None], "label": ["x", "y"]}
    )
    err = _cli_error(
        capsys, ["run", "--model", "function-words", "--dataset", str(folder), "--no-progress"]
    )
    assert "row 1: column 'text' is empty (null)" in err  # issue 26: not "holds NoneType"


def test_missing_dataset(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = _cli_error(
        capsys, ["run", "--model", "function-words", "--dataset", str(tmp_path / "nope")]
    )
    assert "nope" in err
