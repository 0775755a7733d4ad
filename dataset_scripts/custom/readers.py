"""Read a user's data into plain rows: ``(where, {column: value})`` in source order.

``where`` names the file and line (or row) of each record so that every later error can
point at it. Supported inputs are listed in :mod:`dataset_scripts.custom`; the format is
chosen from the path (file suffix; for a folder, what it holds), never guessed from the
content.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataset_scripts.core.errors import DataError
from dataset_scripts.raw_io import csv_header, iter_jsonl, open_text, read_csv

TEXT_SUFFIXES = (".txt", ".txt.gz")
TABLE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".ndjson", ".json", ".parquet")
HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*$")
# columns a folder of text files provides
FILE_TEXT, FILE_LABEL, FILE_DOCUMENT = "text", "label", "document"


@dataclass(frozen=True)
class Source:
    """What was read: the format in words and the rows with their locations."""

    path: str
    kind: str
    rows: list[tuple[str, dict[str, Any]]]

    @property
    def columns(self) -> list[str]:
        seen: dict[str, None] = {}
        for _, row in self.rows[:1000]:
            seen.update(dict.fromkeys(row))
        return list(seen)


def _suffix(path: Path) -> str:
    name = path.name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    return Path(name).suffix


def is_text_file(path: Path) -> bool:
    return path.name.lower().endswith(TEXT_SUFFIXES)


def _read_csv(path: Path, delimiter: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for line, row in read_csv(path, delimiter=delimiter):
        yield f"{path} line {line}", dict(row)


def _read_json(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    with open_text(path) as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as error:
            raise DataError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None
        except UnicodeDecodeError as error:
            raise DataError(f"{path}: not UTF-8 at byte {error.start}") from None
    if isinstance(data, dict):
        lists = {k: v for k, v in data.items() if isinstance(v, list)}
        if len(lists) == 1:  # {"data": [...]}
            data = next(iter(lists.values()))
    if not isinstance(data, list):
        raise DataError(
            f"{path}: expected a JSON list of objects (one per text), got {type(data).__name__}"
        )
    for index, record in enumerate(data):
        if not isinstance(record, dict):
            raise DataError(
                f"{path} item {index}: expected a JSON object, got {type(record).__name__}"
            )
        yield f"{path} item {index}", record


def _read_parquet(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as error:  # pyarrow raises several types for a broken file
        raise DataError(f"{path}: not a readable Parquet file ({error})") from None
    for index, record in enumerate(table.to_pylist()):
        yield f"{path} row {index}", record


def read_table_file(path: Path) -> Source:
    """Rows of one CSV / TSV / JSON lines / JSON / Parquet file."""
    suffix = _suffix(path)
    if suffix == ".csv":
        rows = list(_read_csv(path, ","))
    elif suffix == ".tsv":
        rows = list(_read_csv(path, "\t"))
    elif suffix in (".jsonl", ".ndjson"):
        rows = [(f"{path} line {n}", r) for n, r in iter_jsonl(path)]
    elif suffix == ".json":
        rows = list(_read_json(path))
    elif suffix == ".parquet":
        rows = list(_read_parquet(path))
    else:
        raise DataError(
            f"{path}: unsupported file type {suffix or '(none)'!r}; give a "
            f"{', '.join(TABLE_SUFFIXES)} file, a folder of .txt files or a Hugging Face dataset"
        )
    return Source(str(path), suffix.lstrip(".").upper(), rows)


def peek_columns(path: Path) -> list[str]:
    """Column names of a table file without reading all of it (header line, first JSON
    line, Parquet schema; a JSON list is read whole)."""
    suffix = _suffix(path)
    if suffix in (".csv", ".tsv"):
        return csv_header(path, delimiter="\t" if suffix == ".tsv" else ",")
    if suffix in (".jsonl", ".ndjson"):
        for _, record in iter_jsonl(path):
            return list(record)
        return []
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        return list(pq.read_schema(path).names)
    return read_table_file(path).columns


def read_text_folder(
    folder: Path,
    *,
    label_from: str = "folder",
    file_pattern: str | None = None,
    dropped: Counter[str] | None = None,
) -> Source:
    """One row per text file under ``folder`` (recursive, sorted by path): ``text``,
    ``document`` (the relative path) and ``label``.

    ``label_from="folder"``: the label is the first sub-folder of the file's relative path
    (files directly in ``folder`` have none and are counted in ``dropped``).
    ``label_from="pattern"``: ``file_pattern`` is a regular expression searched in the
    relative path (POSIX separators); its named group ``label`` gives the label and an
    optional group ``document`` the document id; files it does not match are counted.
    ``label_from="none"``: no label (for probing).
    """
    dropped = Counter() if dropped is None else dropped
    pattern = None
    if label_from == "pattern":
        if not file_pattern:
            raise DataError("--label-from pattern needs --file-pattern with a (?P<label>...) group")
        try:
            pattern = re.compile(file_pattern)
        except re.error as error:
            raise DataError(
                f"--file-pattern {file_pattern!r} is not a regular expression: {error}"
            ) from None
        if "label" not in pattern.groupindex:
            raise DataError(f"--file-pattern {file_pattern!r} has no (?P<label>...) group")
    elif label_from not in ("folder", "none"):
        raise DataError(f"--label-from must be folder, pattern or none, got {label_from!r}")
    files = sorted(p for p in folder.rglob("*") if p.is_file() and is_text_file(p))
    if not files:
        raise DataError(f"{folder}: no .txt files found (recursively)")
    rows = []
    for path in files:
        relative = path.relative_to(folder).as_posix()
        row: dict[str, Any] = {FILE_DOCUMENT: relative}
        if pattern is not None:
            match = pattern.search(relative)
            if match is None:
                dropped["files whose path does not match --file-pattern"] += 1
                continue
            row[FILE_LABEL] = match.group("label")
            if "document" in pattern.groupindex and match.group("document"):
                row[FILE_DOCUMENT] = match.group("document")
        elif label_from == "folder":
            parts = relative.split("/")
            if len(parts) < 2:
                dropped["files directly in the folder (no sub-folder to label them)"] += 1
                continue
            row[FILE_LABEL] = parts[0]
        try:
            with open_text(path) as handle:
                row[FILE_TEXT] = handle.read()
        except UnicodeDecodeError as error:
            raise DataError(f"{path}: not UTF-8 at byte {error.start}") from None
        rows.append((str(path), row))
    return Source(str(folder), "folder of text files", rows)


def _hf_rows(dataset: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{where} row {i}", dict(r)) for i, r in enumerate(dataset.to_list())]


def _pick_split(dataset_dict: Any, split: str | None, where: str) -> Any:
    splits = list(dataset_dict)
    if split is None:
        if len(splits) > 1:
            raise DataError(f"{where} has splits {splits}; choose one with --split")
        split = splits[0]
    if split not in dataset_dict:
        raise DataError(f"{where} has no split {split!r} (has {splits})")
    return dataset_dict[split]


def read_hf(ref: str, *, split: str | None = None, config: str | None = None) -> Source:
    """Rows of a Hugging Face dataset: a ``save_to_disk`` folder, a folder of data files,
    or a Hub id (one split: ``split``, or the only one)."""
    import datasets

    from dataset_scripts.core.quiet import quiet_datasets

    path = Path(ref)
    try:
        with quiet_datasets():
            if path.is_dir() and (
                (path / "dataset_info.json").is_file() or (path / "dataset_dict.json").is_file()
            ):
                loaded = datasets.load_from_disk(str(path))
                kind = "Hugging Face dataset (save_to_disk)"
            else:
                loaded = datasets.load_dataset(ref, config)
                kind = (
                    "Hugging Face dataset folder" if path.is_dir() else "Hugging Face Hub dataset"
                )
    except Exception as error:  # the datasets library raises many kinds
        first = str(error).splitlines()[0] if str(error) else ""
        raise DataError(
            f"cannot read Hugging Face dataset {ref!r}: {type(error).__name__}: {first}"
        ) from None
    if isinstance(loaded, datasets.DatasetDict):
        loaded = _pick_split(loaded, split, ref)
    return Source(ref, kind, _hf_rows(loaded, ref))


def read_source(
    source: str | Path,
    *,
    label_from: str = "folder",
    file_pattern: str | None = None,
    split: str | None = None,
    config: str | None = None,
    dropped: Counter[str] | None = None,
) -> Source:
    """Read any supported input (see :mod:`dataset_scripts.custom`)."""
    ref = str(source)
    path = Path(ref)
    if path.is_file():
        return read_table_file(path)
    if path.is_dir():
        if any(is_text_file(p) for p in path.rglob("*") if p.is_file()) and not (
            (path / "dataset_info.json").is_file() or (path / "dataset_dict.json").is_file()
        ):
            return read_text_folder(
                path, label_from=label_from, file_pattern=file_pattern, dropped=dropped
            )
        return read_hf(ref, split=split, config=config)
    if HUB_ID.match(ref) and not ref.startswith((".", "/")):
        return read_hf(ref, split=split, config=config)
    raise DataError(f"{ref}: no such file or folder (nor a Hub dataset id like 'org/name')")
