"""Issue 26, item 3: one unbalanced quote must not merge rows silently. Every CSV reader of
the project (``build --from``, ``detect run``'s reader, the STEB builders such as
``hate_speech_and_offensive_language``) goes through ``raw_io.read_csv``, which reads
strictly and names the file and the line where the broken record starts; a newline
inside a properly quoted field stays fine."""

from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.steb.labelled import read_delimited

BROKEN_LINE = 11  # the record that opens a quote it never closes


def rows(n: int = 60) -> list[list[str]]:
    out = [["text", "label"]]
    for i in range(n):
        text = f'text {i} says "hello" to you' if i % 7 == 3 else f"plain text {i}"
        out.append([text, "ab"[i % 2]])
    return out


def write(path: Path, table: list[list[str]], broken: bool) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(table)
    if broken:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        lines[BROKEN_LINE - 1] = '"an unbalanced quote opens here,a\r\n'
        path.write_text("".join(lines), encoding="utf-8")
    return path


def test_lenient_csv_would_merge_rows_here(tmp_path) -> None:
    """The input really is the issue's trap: Python's default reader loses rows on it."""
    path = write(tmp_path / "d.csv", rows(), broken=True)
    with path.open(newline="", encoding="utf-8") as handle:
        lenient = list(csv.reader(handle))
    assert len(lenient) < 61


def test_strict_reader_names_file_and_line(tmp_path) -> None:
    path = write(tmp_path / "d.csv", rows(), broken=True)
    with pytest.raises(DataError) as error:
        list(read_delimited(path, ()))
    message = str(error.value)
    assert f"{path} line {BROKEN_LINE}:" in message and "unbalanced quote" in message
    assert "\n" not in message


def test_quoted_newlines_and_doubled_quotes_are_fine(tmp_path) -> None:
    table = rows()
    table[5][0] = 'a text\nover two lines, with "quotes"'
    path = write(tmp_path / "d.csv", table, broken=False)
    read = list(read_delimited(path, ("text", "label")))
    assert [r["text"] for _, r in read] == [t for t, _ in table[1:]]
    assert read[5][0] == 8  # the line the record ends on (what row ids are made from)


def test_quote_never_closed_to_the_end_of_the_file(tmp_path) -> None:
    path = tmp_path / "d.csv"
    path.write_text('text,label\nfine,a\n"runs away,b\nmore,a\nand more,b\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"d.csv line 3: .*never closed"):
        list(read_delimited(path, ()))


def test_build_from_refuses_the_broken_csv(tmp_path, capsys) -> None:
    from evaluators.cli import main

    path = write(tmp_path / "d.csv", rows(), broken=True)
    with pytest.raises(SystemExit) as done:
        main(["build", "--from", str(path), "--out", str(tmp_path / "X")])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert f"line {BROKEN_LINE}" in err and "Traceback" not in err
    assert not (tmp_path / "X").exists()


def test_build_from_a_good_csv_keeps_every_row(tmp_path) -> None:
    from dataset_scripts.custom.build import build_from_source

    path = write(tmp_path / "d.csv", rows(), broken=False)
    assert build_from_source(path, tmp_path / "X").counts == {"labelled_texts": 60}


def test_detect_reader_refuses_the_broken_csv(tmp_path) -> None:
    from evaluators.detect.data import load_detection_set

    table = [["text", "label"]] + [
        [f"text {i}", "human" if i % 2 else "machine"] for i in range(80)
    ]
    path = write(tmp_path / "scores.csv", table, broken=True)
    with pytest.raises(DataError, match=f"line {BROKEN_LINE}"):
        load_detection_set(path)


def test_hate_speech_builder_refuses_the_broken_csv(tmp_path) -> None:
    from dataset_scripts.steb.hate_speech import read_davidson

    header = ["", "count", "hate_speech", "offensive_language", "neither", "class", "tweet"]
    table = [header] + [[str(i), "3", "0", "0", "3", str(i % 3), f"tweet {i}"] for i in range(20)]
    path = tmp_path / "data" / "labeled_data.csv"
    path.parent.mkdir()
    write(path, table, broken=False)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[4] = '4,3,0,0,3,1,"an unbalanced tweet\r\n'
    lines[11] = '11,3,0,0,3,2,"quoted tweet, with a comma"\r\n'
    path.write_text("".join(lines), encoding="utf-8")
    with path.open(newline="", encoding="utf-8") as handle:
        assert len(list(csv.reader(handle))) < 21  # the lenient reader merges tweets
    with pytest.raises(DataError, match=r"labeled_data.csv line 5:"):
        list(read_davidson(tmp_path, Counter()))
