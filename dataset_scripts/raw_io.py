"""Reading raw downloads: text files (gzip-aware) and JSON lines, with errors that name
the file and line.

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
from collections.abc import Iterator
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
