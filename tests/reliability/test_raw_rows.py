"""Issue 15, item 5: builders read raw rows strictly. A malformed STEL row is an error
naming file and line (it used to be dropped as "style type '<empty>'", shrinking every
group through the per-class cap); decoding errors name the file and line."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pytest

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import RawDecodeError, iter_jsonl, open_text
from dataset_scripts.steb.stel import build_feature
from tests.reliability.stel_fixture import stel_file, write_stel


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def _rewrite(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines), encoding="utf-8")


@pytest.fixture
def raw(tmp_path: Path) -> Path:
    return write_stel(tmp_path / "STEL", rows_per_file=30)


def test_fixture_builds_with_full_groups(raw: Path) -> None:
    tables, dropped = build_feature(raw)
    rows = tables["style_sequences"]["test"]
    assert len(rows) == 3 * 60  # 30 quadruples -> 60 pairs per style, all under the cap
    assert not any("<empty>" in reason for reason in dropped)


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda line: line[: len(line) // 2], r"fields, the header has 9"),  # truncated
        (lambda line: line.rsplit("\t", 1)[0], r"8 tab-separated fields, the header has 9"),
        (lambda line: line + "\textra", r"10 tab-separated fields, the header has 9"),
    ],
    ids=["truncated", "short", "over-long"],
)
def test_malformed_row_is_a_file_line_error(raw: Path, damage, message: str) -> None:
    path = stel_file(raw, "emotives")
    lines = _lines(path)
    lines[7] = damage(lines[7])  # the 7th data row, on line 8
    _rewrite(path, lines)
    with pytest.raises(DataError, match=rf"{path.name} line 8: .*{message}"):
        build_feature(raw)


@pytest.mark.parametrize("closed_later", [True, False], ids=["closed-later", "never-closed"])
def test_stray_quote_does_not_merge_rows(raw: Path, closed_later: bool) -> None:
    path = stel_file(raw, "contraction")
    lines = _lines(path)
    fields = lines[5].split("\t")
    fields[1] = '"' + fields[1]  # line 6: an opening quote that is not closed on its line
    lines[5] = "\t".join(fields)
    if closed_later:  # a quote ending a field four rows on closes it: rows 6-10 would merge
        fields = lines[9].split("\t")
        fields[2] = fields[2] + '"'
        lines[9] = "\t".join(fields)
    _rewrite(path, lines)
    expected = "unbalanced double quote" if closed_later else "malformed TSV"
    with pytest.raises(DataError, match=rf"{path.name} line 6: .*{expected}"):
        build_feature(raw)


def test_unterminated_quote_at_end_of_file(raw: Path) -> None:
    path = stel_file(raw, "contraction")
    lines = _lines(path)
    fields = lines[-2].split("\t")
    fields[1] = '"' + fields[1]
    lines[-2] = "\t".join(fields)
    _rewrite(path, lines)
    with pytest.raises(DataError, match=rf"{path.name} line \d+: "):
        build_feature(raw)


def test_header_only_file_is_an_error(raw: Path) -> None:
    path = stel_file(raw, "nbr_substitution")
    _rewrite(path, [*_lines(path)[:1], ""])
    with pytest.raises(DataError, match=rf"{path.name}: a header but no data rows"):
        build_feature(raw)


def test_missing_style_group_is_an_error(raw: Path) -> None:
    stel_file(raw, "nbr_substitution").unlink()
    with pytest.raises(DataError, match="no nbr_substitution pairs"):
        build_feature(raw)


def test_empty_style_type_is_an_error_not_a_drop(raw: Path) -> None:
    path = stel_file(raw, "emotives")
    lines = _lines(path)
    lines[3] = lines[3].rsplit("\t", 1)[0] + "\t"
    _rewrite(path, lines)
    with pytest.raises(DataError, match=rf"{path.name} line 4: column 'style type' is empty"):
        build_feature(raw)


def test_invalid_utf8_names_file_and_line(raw: Path) -> None:
    path = stel_file(raw, "emotives")
    data = path.read_bytes().split(b"\n")
    data[12] = data[12].replace(b"anchor", b"anch\xffor", 1)
    path.write_bytes(b"\n".join(data))
    with pytest.raises(
        DataError, match=rf"{path.name} line 13, column \d+: not UTF-8 text \(byte 0xff\)"
    ):
        build_feature(raw)


def test_quoted_multiline_field_is_still_read(raw: Path) -> None:
    """The em-subj-pronoun file of the real STEL has quoted texts spanning lines: legal."""
    path = raw / "Data" / "STEL" / "characteristics" / "quad_questions_em-subj-pronoun_100.tsv"
    lines = _lines(stel_file(raw, "contraction"))[:1]
    lines.append('0\t"first line\nsecond line"\tb\tc\td\t1\tQQ_x\t\tem-subj-pronoun')
    _rewrite(path, [*lines, ""])
    _tables, dropped = build_feature(raw)
    assert dropped["style type 'em-subj-pronoun' is not used by STEB"] == 1


@pytest.mark.parametrize("suffix", ["", ".gz"])
def test_open_text_decoding_errors_name_file_and_line(tmp_path: Path, suffix: str) -> None:
    body = b"".join(f"row {i}\tvalue\n".encode() for i in range(5000))
    body = body.replace(b"row 4321\t", b"row 4321\xc3\x28\t")
    path = tmp_path / f"data.tsv{suffix}"
    path.write_bytes(gzip.compress(body) if suffix else body)
    for reader in (list, lambda h: h.read(), lambda h: list(csv.reader(h, delimiter="\t"))):
        with open_text(path) as handle, pytest.raises(RawDecodeError) as info:
            reader(handle)
        assert str(info.value).startswith(f"{path} line 4322, column 9: not UTF-8 text")
    jsonl = tmp_path / "x.jsonl"
    jsonl.write_bytes(b'{"a": 1}\n{"a": "\xff"}\n')
    with pytest.raises(DataError, match=r"x.jsonl line 2, column 8: not UTF-8"):
        list(iter_jsonl(jsonl))


@pytest.mark.corpora
def test_real_stel_reads_strictly_and_unchanged(corpora: Path) -> None:
    """The strict reader accepts the real STEL download and builds Table 15's counts."""
    tables, dropped = build_feature(corpora / "STEL")
    rows = tables["style_sequences"]["test"]
    assert len(rows) == 300  # 3 x 100 (Table 15)
    assert dropped["style type 'em-subj-pronoun' is not used by STEB"] == 100
