"""Reading raw downloads: text files (gzip-aware), JSON lines and CSV (read strictly:
:func:`csv_records`, :func:`read_csv`; unquoted TSV: :func:`tsv_records`), with errors
that name the file and line.

:func:`open_text` is the one opener for raw text: whatever reads from it (iteration,
``readline``, ``read``, a ``csv`` reader), a byte sequence that is not UTF-8 raises
:class:`RawDecodeError` (a :class:`~dataset_scripts.core.errors.DataError`) naming the file, the
line, the column and the bytes, instead of Python's bare ``'utf-8' codec can't decode
byte 0xff in position 2756``.
"""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from dataset_scripts.core.errors import DataError


class RawDecodeError(DataError):
    """A raw file that is not valid UTF-8; the message names file, line and column."""


def _binary(path: Path) -> IO[bytes]:
    return gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")


def locate_decode_error(path: Path) -> tuple[int, int, bytes] | None:
    """``(line, column, bad bytes)`` (1-based, column in bytes) of the first byte sequence
    of ``path`` that is not UTF-8, or None when the whole file decodes."""
    with _binary(path) as handle:
        for line_no, raw in enumerate(handle, start=1):
            if line_no == 1 and raw.startswith(b"\xef\xbb\xbf"):
                raw = raw[3:]
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return line_no, error.start + 1, raw[error.start : error.end]
    return None


def decode_error(path: Path, error: UnicodeDecodeError | None = None) -> RawDecodeError:
    """The :class:`RawDecodeError` for ``path`` (located by re-reading the file)."""
    where = locate_decode_error(path)
    if where is None:  # e.g. a multi-byte sequence cut by the end of the file
        detail = f" ({error.reason})" if error is not None else ""
        return RawDecodeError(f"{path}: not UTF-8 text{detail}; save it as UTF-8")
    line, column, bad = where
    shown = " ".join(f"0x{b:02x}" for b in bad[:4])
    return RawDecodeError(
        f"{path} line {line}, column {column}: not UTF-8 text (byte {shown}); save it as UTF-8"
    )


class _NamedText(io.TextIOWrapper):
    """A UTF-8 text stream whose decoding errors name the file and line."""

    def __init__(self, buffer: IO[bytes], path: Path) -> None:
        super().__init__(buffer, encoding="utf-8-sig", newline="")  # type: ignore[arg-type]
        self.path = path

    def _fail(self, error: UnicodeDecodeError) -> RawDecodeError:
        return decode_error(self.path, error)

    def read(self, size: int | None = -1) -> str:
        try:
            return super().read(size)
        except UnicodeDecodeError as error:
            raise self._fail(error) from None

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        try:
            return super().readline(size)  # type: ignore[arg-type]
        except UnicodeDecodeError as error:
            raise self._fail(error) from None

    def readlines(self, hint: int | None = -1) -> list[str]:  # type: ignore[override]
        try:
            return super().readlines(hint)  # type: ignore[arg-type]
        except UnicodeDecodeError as error:
            raise self._fail(error) from None

    def __next__(self) -> str:
        try:
            return super().__next__()
        except UnicodeDecodeError as error:
            raise self._fail(error) from None

    def __iter__(self) -> _NamedText:
        return self


def open_text(path: Path) -> io.TextIOBase:
    """Open a UTF-8 text file (a leading byte-order mark is dropped), transparently
    gunzipping ``*.gz``; bytes that are not UTF-8 raise :class:`RawDecodeError` naming
    the file and line."""
    path = Path(path)
    return _NamedText(_binary(path), path)


def read_text(path: Path) -> str:
    """The whole text of a raw file (see :func:`open_text`)."""
    with open_text(path) as handle:
        return handle.read()


def iter_jsonl(path: Path, *, objects: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, record)`` of a JSON-lines file (``*.gz`` too), skipping
    blank lines. A line that is not JSON (or, with ``objects``, not a JSON object)
    raises :class:`DataError` naming the file and line."""
    with open_text(path) as handle:
        for line_no, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as error:
                raise DataError(f"{path} line {line_no}: invalid JSON ({error.msg})") from None
            if objects and not isinstance(record, dict):
                raise DataError(
                    f"{path} line {line_no}: expected a JSON object, got {type(record).__name__}"
                )
            yield line_no, record


def _csv_problem(path: Path, start: int, error: Exception) -> DataError:
    """The one-line error for a CSV record that does not parse (``start``: its first line)."""
    message = str(error)
    if "unexpected end of data" in message or "EOF" in message:
        detail = (
            "a quoted field that starts here is never closed: it runs to the end of the "
            "file (an unbalanced quote)"
        )
    elif "expected after" in message:
        detail = (
            "a quote closes a field in the middle of the text (an unbalanced quote opened "
            "a field here, or a quote inside a field is not doubled)"
        )
    else:  # not about quoting (a field over the size limit)
        return DataError(f"{path} line {start}: malformed CSV: {message}")
    return DataError(
        f"{path} line {start}: malformed CSV: {detail}; a quote inside a quoted field is "
        'written twice ("")'
    )


def _records(
    path: Path, delimiter: str, quoting: int | None
) -> Iterator[tuple[int, int, list[str]]]:
    import csv

    csv.field_size_limit(1 << 30)
    kwargs: dict[str, Any] = {"delimiter": delimiter, "strict": True}
    if quoting is not None:
        kwargs["quoting"] = quoting
    with open_text(path) as handle:
        reader = csv.reader(handle, **kwargs)
        start = 1
        while True:
            try:
                record = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                raise _csv_problem(path, start, error) from None
            yield start, reader.line_num, record
            start = reader.line_num + 1


def csv_records(
    path: Path, *, delimiter: str = ",", quoting: int | None = None
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(first line, fields)`` of each record of a delimited file (``*.gz`` too),
    read strictly: the one CSV reader of the project.

    A newline inside a properly quoted field is part of the field. A quote that is never
    closed (the field would swallow the rest of the file), a closing quote followed by
    more text or a field over 1 GiB raise :class:`DataError` naming the file
    and the line where the record starts; Python's lenient reader would instead merge the
    following rows into one field silently.
    """
    for start, _, record in _records(path, delimiter, quoting):
        yield start, record


def read_csv(
    path: Path, required: Iterable[str] = (), *, delimiter: str = ","
) -> Iterator[tuple[int, dict[str, str]]]:
    """Yield ``(line number, row)`` of a CSV/TSV with a header row, read strictly (see
    :func:`csv_records`); missing columns and rows with too many or too few fields raise
    :class:`DataError` naming the file and the line where the record starts. Blank lines
    are skipped. The line number yielded is the one the record ends on (Python's
    ``csv`` count, which row ids of built datasets are made from)."""
    header: list[str] | None = None
    for start, end, record in _records(path, delimiter, None):
        if header is None:
            header = record
            missing = [c for c in required if c not in header]
            if missing:
                raise DataError(
                    f"{path} line {start}: missing column(s) {', '.join(map(repr, missing))} "
                    f"(header: {header})"
                )
            continue
        if not record:
            continue
        if len(record) != len(header):
            raise DataError(
                f"{path} line {start}: expected {len(header)} fields (the header's), got "
                f"{len(record)}"
                + (
                    "; a quoted field spans several lines here: check it for an unbalanced quote"
                    if any("\n" in v for v in record)
                    else ""
                )
            )
        yield end, dict(zip(header, record, strict=True))
    if header is None and required:
        raise DataError(f"{path}: empty file (expected a header with {', '.join(required)})")


def tsv_records(path: Path, columns: Sequence[str]) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line, fields)`` of an unquoted, headerless TSV (``*.gz`` too): the strict
    TSV mode of :func:`csv_records`. Nothing is quoted, so a ``"`` is part of the text;
    one line is one record, blank lines are skipped, and a record with a field count other
    than ``len(columns)`` (a tab inside a text, a truncated line) raises
    :class:`DataError` naming the file, the line and the columns expected."""
    import csv

    for start, record in csv_records(path, delimiter="\t", quoting=csv.QUOTE_NONE):
        if not record:
            continue
        if len(record) != len(columns):
            raise DataError(
                f"{path} line {start}: expected {len(columns)} tab-separated fields "
                f"({', '.join(columns)}), got {len(record)}"
            )
        yield start, record


def csv_header(path: Path, *, delimiter: str = ",") -> list[str]:
    """The header row of a delimited file (``[]`` for an empty file)."""
    for _, record in csv_records(path, delimiter=delimiter):
        return record
    return []
