"""Reading raw downloads: text files (gzip-aware) and JSON lines, with errors that name
the file and line."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from evaluators.errors import DataError


def open_text(path: Path) -> io.TextIOBase:
    """Open a UTF-8 text file (a leading byte-order mark is dropped), transparently
    gunzipping ``*.gz``."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline="")
    return path.open(encoding="utf-8-sig", newline="")


def iter_jsonl(path: Path, *, objects: bool = True) -> Iterator[tuple[int, Any]]:
    """Yield ``(line number, record)`` of a JSON-lines file (``*.gz`` too), skipping
    blank lines. A line that is not JSON (or, with ``objects``, not a JSON object)
    raises :class:`DataError` naming the file and line."""
    with open_text(path) as handle:
        lines = enumerate(handle, start=1)
        while True:
            try:
                line_no, line = next(lines)
            except StopIteration:
                return
            except UnicodeDecodeError as error:
                raise DataError(f"{path}: not UTF-8 at byte {error.start} of a line") from None
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
