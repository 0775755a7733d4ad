"""``steb/endive``: parallel sentences of the EnDive benchmark (Gupta et al. 2025): NLU
task inputs in Standard American English and rewritten into five dialects, labelled by
dialect (STEB App. C.2).

Raw format: the EnDive dataset files from ``https://huggingface.co/datasets/abhaygupta1266/``
for STEB's 12 tasks (logic_bench_yn, logic_bench_mcq, svamp, mbpp, humaneval, gsm8k, folio,
boolq, copa, multirc, sst-2, wsc), downloaded into one folder (any depth) as ``*.parquet``,
``*.jsonl`` or ``*.csv``. Every table may be

* wide: one text column per variety, named after it (case-insensitive, ``_``/``-`` read as
  spaces): ``sae``/``standard american english``/``original``, ``jamaican english``/
  ``jamaican``/``jame``, ``african american english``/``aave``/``aae``, ``colloquial
  singaporean english``/``singlish``/``colsge``, ``indian english``/``indian``/``inde``,
  ``chicano english``/``chicano``/``chice``; every non-empty cell is one text;
* long: a ``dialect`` column naming the variety (same names) and the text in ``text``,
  ``sentence``, ``translated_text``, ``translation``, ``dialect_text`` or ``input``;
* one variety per file: the variety named by a folder or file name component (e.g.
  ``boolq/jamaican_english.jsonl``), text column as in the long layout.

Uncertain: the per-task repositories were not reachable when this builder was written, so
the column and file names above are the accepted variants rather than one verified
layout; a table matching none of them fails with its file name. Texts equal to an earlier
text (e.g. the same SAE original shipped with every dialect file) are dropped and counted.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import iter_jsonl
from dataset_scripts.steb.catalog import clustering_counts, steb_dataset
from dataset_scripts.steb.labelled import CAP_PROTOCOL, labelled_builder, read_delimited

URL = "https://huggingface.co/datasets/abhaygupta1266/"
VARIETIES: dict[str, tuple[str, ...]] = {
    "Standard American English": ("standard american english", "sae", "original", "sae text"),
    "Jamaican English": ("jamaican english", "jamaican", "jame"),
    "African American English": ("african american english", "aave", "aae"),
    "Colloquial Singaporean English": ("colloquial singaporean english", "singlish", "colsge"),
    "Indian English": ("indian english", "indian", "inde"),
    "Chicano English": ("chicano english", "chicano", "chice"),
}
ALIASES = {alias: label for label, names in VARIETIES.items() for alias in names}
TEXT_COLUMNS = ("text", "sentence", "translated_text", "translation", "dialect_text", "input")
SUFFIXES = (".parquet", ".jsonl", ".csv")


def variety(name: str) -> str | None:
    """The EnDive label a column, file or folder name stands for, if any."""
    key = re.sub(r"[\s_\-]+", " ", name.strip().lower())
    return ALIASES.get(key)


def endive_files(raw: Path) -> list[Path]:
    """Every data file under ``raw`` (or ``raw`` itself), sorted by path."""
    if raw.is_file():
        return [raw]
    files = sorted(p for p in raw.rglob("*") if p.is_file() and p.suffix in SUFFIXES)
    if not files:
        raise DataError(
            f"missing EnDive files: expected {raw}/**/*.parquet, *.jsonl or *.csv (download: {URL})"
        )
    return files


def read_table(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``(where, record)`` of one file; ``where`` is ``"<file> line|row <n>"``."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as error:  # pyarrow raises several types for a corrupt file
            raise DataError(f"{path}: not a readable parquet file ({error})") from None
        for number, record in enumerate(table.to_pylist(), start=1):
            yield f"{path} row {number}", record
    elif path.suffix == ".jsonl":
        for line_no, record in iter_jsonl(path):
            yield f"{path} line {line_no}", record
    else:
        for line_no, record in read_delimited(path, ()):
            yield f"{path} line {line_no}", record


def _path_variety(path: Path) -> str | None:
    for part in (path.stem, *reversed(path.parent.parts)):
        found = variety(part)
        if found:
            return found
    return None


def _text(value: Any, where: str, column: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DataError(f"{where}: column {column!r} is not a string: {json.dumps(value)[:60]}")
    return value


def read_file(path: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    """``(id, text, label)`` records of one EnDive file, in row and column order."""
    file_variety = _path_variety(path)
    for where, record in read_table(path):
        number = where.rsplit(" ", 1)[1]
        wide = [(column, variety(column)) for column in record]
        wide = [(column, label) for column, label in wide if label]
        if wide:
            for column, label in wide:
                text = _text(record[column], where, column)
                if not text.strip():
                    dropped[f"empty {label} cell"] += 1
                    continue
                yield f"{path.stem}-{number}-{column}", text, label
            continue
        text_column = next((c for c in TEXT_COLUMNS if c in record), None)
        if text_column is None:
            raise DataError(
                f"{where}: no variety column and no text column "
                f"({', '.join(TEXT_COLUMNS)}); columns: {sorted(record)}"
            )
        label = file_variety
        if "dialect" in record:
            label = variety(str(record["dialect"] or ""))
            if label is None:
                raise DataError(
                    f"{where}: column 'dialect' value {record['dialect']!r} is not one of "
                    f"STEB's 6 varieties"
                )
        if label is None:
            raise DataError(
                f"{where}: no 'dialect' column and no variety in the file path; expected "
                f"e.g. <task>/jamaican_english.jsonl"
            )
        yield f"{path.stem}-{number}", _text(record[text_column], where, text_column), label


def read_records(raw: Path, dropped: Counter[str]) -> Iterator[tuple[str, str, str]]:
    for path in endive_files(raw):
        yield from read_file(path, dropped)


build_endive = labelled_builder(read_records, dedupe=True)


DATASETS = (
    steb_dataset(
        name="endive",
        summary="EnDive: NLU benchmark sentences rewritten into five English dialects "
        "(Jamaican, African American, Colloquial Singaporean, Indian, Chicano) plus Standard "
        "American English.",
        bucket="dialect",
        definitional=("dialect",),
        counts=clustering_counts(6, 200),
        source_url="https://huggingface.co/datasets/abhaygupta1266/",
        license="not stated by the source (STEB assumes permissive: public benchmark on the Hub)",
        raw_format="EnDive task CSV/JSONL files with one text column per dialect",
        citation="""@misc{gupta2025endive,
  title  = {EnDive: A Cross-Dialect Benchmark for Fairness and Performance in Large Language
            Models},
  author = {Gupta, Abhay and others},
  year   = {2025}
}""",
        builder=build_endive,
        protocol="Every Standard American English input and each of its five dialect rewrites "
        "(Jamaican, African American, Colloquial Singaporean, Indian, Chicano English) across "
        "STEB's 12 EnDive tasks is one text, labelled with its variety; repeated texts are "
        "dropped. " + CAP_PROTOCOL + " STEB reports 6 x 200 = 1,200 (Table 15).",
    ),
)
