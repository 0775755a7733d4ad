"""The shared raw-file readers."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import iter_jsonl


def test_iter_jsonl_plain_gz_bom_and_blank_lines(tmp_path: Path) -> None:
    text = '\ufeff{"a": 1}\n\n{"a": 2}\n'
    plain = tmp_path / "x.jsonl"
    plain.write_text(text, encoding="utf-8")
    packed = tmp_path / "x.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    for path in (plain, packed):
        assert list(iter_jsonl(path)) == [(1, {"a": 1}), (3, {"a": 2})]


def test_iter_jsonl_errors_name_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"a": 1}\n{"a": \n')
    with pytest.raises(DataError, match=r"bad.jsonl line 2: invalid JSON"):
        list(iter_jsonl(path))
    path.write_text('{"a": 1}\n[1, 2]\n')
    with pytest.raises(DataError, match=r"bad.jsonl line 2: expected a JSON object, got list"):
        list(iter_jsonl(path))
    assert list(iter_jsonl(path, objects=False))[1] == (2, [1, 2])
    path.write_bytes(b'{"a": "\xff"}\n')
    with pytest.raises(DataError, match="not UTF-8"):
        list(iter_jsonl(path))
