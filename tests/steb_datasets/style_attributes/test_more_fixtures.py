"""``steb/ceeces``, ``steb/masc_text_genre`` and ``steb/endive`` built from small fixtures
written in each source's raw format (the raw data is not on this machine); expected rows,
labels and drop counts were worked out by hand from the fixture files."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dataset_scripts.build import build_dataset
from dataset_scripts.core.errors import DataError
from dataset_scripts.registry import get_dataset
from dataset_scripts.steb.ceeces import period
from dataset_scripts.steb.endive import variety
from evaluators.data import load_table

FIXTURES = Path(__file__).parent / "fixtures"


def _build(name: str, raw: Path) -> tuple[list[dict], dict[str, int]]:
    tables, dropped = get_dataset(f"steb/{name}").builder(raw)
    return tables["labelled_texts"]["test"], dropped


def _capped(label: str, n: int = 25) -> str:
    return f"label {label!r} capped at {n} rows (STEB per-class cap)"


def test_period_bins() -> None:
    assert [period(y) for y in (1680, 1699, 1700, 1779, 1780, 1799, 1800)] == [
        "1680-1699",
        "1680-1699",
        "1700-1719",
        "1760-1779",
        "1780-1800",
        "1780-1800",
        "1780-1800",
    ]


def test_ceeces_fixture() -> None:
    rows, dropped = _build("ceeces", FIXTURES / "ceeces")
    assert Counter(r["label"] for r in rows) == {"1680-1699": 25, "1700-1719": 25, "1780-1800": 25}
    assert dropped == {
        "text line outside a <Q> letter": 2,
        "paragraph of a letter dated outside 1680-1800": 2,
        _capped("1680-1699"): 1,
        "label '1740-1759' has 3 < 25 rows (class dropped)": 3,
    }
    # braces (editorial comments) removed, lines of a paragraph joined, whitespace collapsed
    assert rows[0] == {
        "id": "ceeces_part1-5-p1",
        "text": "My dear, I received yours of the 3d and am glad you are well.",
        "label": "1680-1699",
    }
    assert rows[1]["text"] == "Your most affectionate husband."
    by_text = {r["text"]: r["label"] for r in rows}
    assert by_text["A paragraph dated by its D line."] == "1700-1719"  # <D 1702> wins
    assert by_text["Written in the year 1800."] == "1780-1800"


def test_masc_fixture() -> None:
    rows, dropped = _build("masc_text_genre", FIXTURES / "masc")
    assert Counter(r["label"] for r in rows) == {"email": 25, "jokes": 25, "telephone": 25}
    assert dropped == {
        "duplicate text": 1,
        "label 'blog' has 2 < 25 rows (class dropped)": 2,
        _capped("email"): 2,
        _capped("telephone"): 1,
    }
    email = [r for r in rows if r["label"] == "email"]
    assert email[0] == {"id": "email/enron-1-1", "text": "Subject: meeting moved", "label": "email"}
    assert email[14] == {"id": "email/enron-2-1", "text": "Email two, line 0.", "label": "email"}
    assert [r["label"] for r in rows][-25:] == ["telephone"] * 25  # spoken after written


def test_endive_fixture() -> None:
    rows, dropped = _build("endive", FIXTURES / "endive")
    labels = Counter(r["label"] for r in rows)
    assert labels == {
        name: 25
        for name in (
            "Standard American English",
            "Jamaican English",
            "African American English",
            "Colloquial Singaporean English",
            "Indian English",
            "Chicano English",
        )
    }
    assert dropped == {
        "empty Chicano English cell": 1,
        "duplicate text": 1,
        _capped("Jamaican English"): 6,
        _capped("African American English"): 1,
        _capped("Colloquial Singaporean English"): 1,
        _capped("Indian English"): 1,
    }
    assert rows[:2] == [
        {
            "id": "boolq_endive-1-sae",
            "text": "Is the sky blue on day 0?",
            "label": "Standard American English",
        },
        {
            "id": "boolq_endive-1-jamaican_english",
            "text": "Di sky blue pon day 0?",
            "label": "Jamaican English",
        },
    ]
    texts = {r["text"] for r in rows}
    assert "Is the sky blue on day 3, ese?" not in texts  # that cell is blank
    assert "Standard American English copa premise 4." in texts  # long layout
    assert variety("Colloquial_Singaporean-English") == "Colloquial Singaporean English"
    assert variety("answer") is None


def test_endive_per_variety_file(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "endive" / "sst-2", tmp_path / "sst-2")
    tables, dropped = get_dataset("steb/endive").builder(tmp_path)
    assert tables["labelled_texts"]["test"] == []  # the variety comes from the file name
    assert dropped == {"label 'Jamaican English' has 5 < 25 rows (class dropped)": 5}


def test_fixture_folder_loads(tmp_path: Path) -> None:
    spec = get_dataset("steb/masc_text_genre")
    folder, _ = build_dataset(spec, FIXTURES / "masc", tmp_path / "masc")
    table = load_table(str(folder), "labelled_texts", "test")
    assert len(table.rows) == 75
    assert table.rows[0]["text"] == "Subject: meeting moved"


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "relative", "content", "message"),
    [
        ("ceeces", "p1/a.txt", "<B X>\n<Q A 1690 X>\nText.\n\n<Q B X>\n", r"a\.txt line 5: <Q>"),
        ("ceeces", "a.txt", "<Q A 1690 X>\n<D undated>\nText.\n", r"a\.txt line 2: <D>"),
        (
            "masc_text_genre",
            "data/written/email/e.txt",
            b"fine\nbad \xff byte\n",
            r"e\.txt line 2: not UTF-8",
        ),
        (
            "endive",
            "copa/copa.jsonl",
            '{"dialect": "SAE", "text": "x"}\n{oops\n',
            r"line 2: invalid",
        ),
        (
            "endive",
            "copa/copa.jsonl",
            '\n{"dialect": "Klingon", "text": "x"}\n',
            r"copa\.jsonl line 2: column 'dialect' value 'Klingon'",
        ),
        ("endive", "x/data.jsonl", '{"text": "x"}\n', r"data\.jsonl line 1: no 'dialect' column"),
        ("endive", "x/sae.jsonl", '{"label": 1}\n', r"sae\.jsonl line 1: no variety column"),
        ("endive", "x/sae.jsonl", '{"text": 5}\n', r"line 1: column 'text' is not a string"),
        ("endive", "x/sae.csv", "text,label\nhello\n", r"sae\.csv line 2: expected 2 fields"),
        ("endive", "x/sae.parquet", "not parquet", r"sae\.parquet: not a readable parquet"),
    ],
)
def test_malformed_record_names_file_and_line(
    tmp_path: Path, name: str, relative: str, content: str | bytes, message: str
) -> None:
    _write(tmp_path / relative, content)
    with pytest.raises(DataError, match=message):
        get_dataset(f"steb/{name}").builder(tmp_path)


def test_parquet_row_numbers(tmp_path: Path) -> None:
    pq.write_table(pa.table({"sae": ["fine", None], "aave": [2, 3]}), tmp_path / "t.parquet")
    with pytest.raises(DataError, match=r"t\.parquet row 1: column 'aave' is not a string: 2"):
        get_dataset("steb/endive").builder(tmp_path)


@pytest.mark.parametrize(
    ("name", "expected", "url"),
    [
        ("ceeces", r"\*\*/\*\.txt", "zenodo.org/records/6411789"),
        ("masc_text_genre", r"data/written/<genre>/<doc>\.txt", "anc.org/data/masc/downloads"),
        ("endive", r"\*\*/\*\.parquet", "huggingface.co/datasets/abhaygupta1266/"),
    ],
)
def test_missing_raw_names_path_and_url(tmp_path: Path, name: str, expected: str, url: str) -> None:
    _write(tmp_path / "README.md", "not data\n")
    with pytest.raises(DataError, match=expected) as error:
        get_dataset(f"steb/{name}").builder(tmp_path)
    assert str(tmp_path) in str(error.value) and url in str(error.value)


def test_no_raw_path() -> None:
    with pytest.raises(DataError, match="--raw"):
        get_dataset("steb/ceeces").builder(None)


def test_jsonl_fixture_is_valid_json() -> None:
    lines = (FIXTURES / "endive" / "copa" / "copa.jsonl").read_text(encoding="utf-8").splitlines()
    assert sum(bool(json.loads(line)) for line in lines if line) == 36
