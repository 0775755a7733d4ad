"""Rows of strings out in the layout the reader needs: a rich table in a terminal, plain
tab-separated lines when piped (full ids, unbroken URLs), or Markdown / CSV / JSON."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Sequence

FORMATS = ("auto", "table", "tsv", "md", "csv", "json")


def plural(n: int, noun: str, nouns: str | None = None) -> str:
    """``1 row``, ``2 rows``, ``0 rows`` (``nouns`` for irregular plurals).

    >>> plural(1, "row"), plural(3, "row"), plural(2, "query", "queries")
    ('1 row', '3 rows', '2 queries')
    """
    return f"{n:,} {noun if n == 1 else (nouns or noun + 's')}"


def resolve_format(fmt: str, stream=None) -> str:
    """``auto`` is a table in a terminal and TSV otherwise (pipes, files, CI logs)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if fmt != "auto":
        return fmt
    stream = stream or sys.stdout
    return "table" if getattr(stream, "isatty", lambda: False)() else "tsv"


def render(
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    fmt: str,
    caption: str | None = None,
) -> str:
    """The rows as text in ``fmt`` (not ``table``/``auto``; see :func:`print_rows`).

    >>> print(render(["id", "n"], [["a/b", "1"]], "md"))
    | id | n |
    |---|---|
    | a/b | 1 |
    """
    if fmt == "tsv":
        lines = ["\t".join(columns), *("\t".join(_flat(c) for c in row) for row in rows)]
        return "\n".join(lines + ([f"# {caption}"] if caption else []))
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(rows)
        return buffer.getvalue().rstrip("\n")
    if fmt == "md":
        lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
        lines += [
            "| " + " | ".join(_flat(c).replace("|", "\\|") for c in row) + " |" for row in rows
        ]
        return "\n".join(lines + ([f"\n{caption}"] if caption else []))
    if fmt == "json":
        return json.dumps([dict(zip(columns, row, strict=True)) for row in rows], indent=2)
    raise ValueError(f"render() takes tsv, csv, md or json, not {fmt!r}")


def _flat(cell: str) -> str:
    return " ".join(str(cell).split())


def print_rows(
    console,
    columns: Sequence[str],
    rows: Sequence[Sequence[str]],
    fmt: str = "auto",
    caption: str | None = None,
) -> None:
    """Print the rows. ``auto``: a rich table in a terminal wide enough to show every cell
    unbroken (full ids, whole URLs), TSV otherwise; or the ``fmt`` asked for."""
    asked = fmt
    fmt = resolve_format(fmt)
    if fmt == "table":
        from rich.table import Table

        table = Table(caption=caption)
        for column in columns:
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(*row)
        if asked == "table" or console.measure(table).maximum <= console.width:
            console.print(table)
            return
        fmt = "tsv"  # a narrow terminal would fold ids and URLs mid-word
    print(render(columns, rows, fmt, caption), flush=True)
