"""``stylebench valla report``: the paper's Tables 3-8 beside the user's runs.

Each paper cell is shown as ``paper`` or ``paper / ours`` where a run of the same model on
the same dataset/split exists (ours in the paper's unit: percent or AUC). Runs that no
paper cell covers (e.g. AV on CCAT50-derived pairs) are listed in a table of their own.
Writes ``valla_report.md`` and ``valla_report.csv`` (long format, one row per cell).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluators.valla.reference import TABLES, cells_for, reference_value


def _ours_in_paper_unit(record: dict[str, Any], table: int, column: str) -> float:
    metric = TABLES[table].metric_of(column)
    return record["score"] * 100 if metric in {"macro_accuracy", "accuracy"} else record["score"]


def _fmt(value: float | None, metric: str) -> str:
    if value is None:
        return "—"
    return f"{value:.4f}" if metric == "auc" else f"{value:.2f}"


def placed_runs(records: Sequence[dict[str, Any]]) -> tuple[dict, list[dict[str, Any]]]:
    """{(table, model, column): latest record} and the records no paper cell covers."""
    placed: dict[tuple[int, str, str], dict[str, Any]] = {}
    loose = []
    for record in sorted(records, key=lambda r: r.get("created", "")):
        cells = cells_for(
            record["table_name"], record["split"], record["formulation"], record["model"]
        )
        for table, column in cells:
            placed[(table, record["model"], column)] = record
        if not cells:
            loose.append(record)
    return placed, loose


def long_rows(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per paper cell (and per loose run): table, model, column, paper, ours."""
    placed, loose = placed_runs(records)
    rows = []
    for number, ref in TABLES.items():
        for model in ref.rows:
            for column in ref.columns:
                record = placed.get((number, model, column))
                paper = reference_value(number, model, column)
                ours = _ours_in_paper_unit(record, number, column) if record else None
                rows.append(
                    {
                        "table": number,
                        "model": model,
                        "column": column,
                        "metric": ref.metric_of(column),
                        "paper": paper,
                        "ours": ours,
                        "difference": None if ours is None or paper is None else ours - paper,
                        "n_eval": record["n_eval"] if record else None,
                        "runtime_s": record["runtime_s"] if record else None,
                        "run": record.get("path") if record else None,
                        "provenance": ref.provenance,
                    }
                )
    for record in loose:
        percent = record["metric"] in {"macro_accuracy", "accuracy"}
        rows.append(
            {
                "table": "",
                "model": record["model"],
                "column": f"{record['table_name']} {record['split']} ({record['formulation'].upper()})",
                "metric": record["metric"],
                "paper": None,
                "ours": record["score"] * 100 if percent else record["score"],
                "difference": None,
                "n_eval": record["n_eval"],
                "runtime_s": record["runtime_s"],
                "run": record.get("path"),
                "provenance": "not in the paper",
            }
        )
    return rows


def _cell(row: dict[str, Any]) -> str:
    paper = _fmt(row["paper"], row["metric"])
    if row["ours"] is None:
        return paper
    return f"{paper} / **{_fmt(row['ours'], row['metric'])}**"


def render_markdown(records: Sequence[dict[str, Any]]) -> str:
    rows = long_rows(records)
    lines = [
        "# Valla: the paper's tables beside your runs",
        "",
        "Cells: `paper` or `paper / **ours**` (ours: the latest run of that model on that "
        "dataset split). Macro-accuracy and accuracy in %, AUC in [0, 1].",
        "",
    ]
    for number, ref in TABLES.items():
        lines += [f"## Table {number}: {ref.caption}", "", f"Source: {ref.provenance}.", ""]
        lines.append("| model | " + " | ".join(ref.columns) + " |")
        lines.append("|---|" + "---|" * len(ref.columns))
        for model in ref.rows:
            cells = [_cell(r) for r in rows if r["table"] == number and r["model"] == model]
            lines.append(f"| {model} | " + " | ".join(cells) + " |")
        lines.append("")
    loose = [r for r in rows if r["table"] == ""]
    if loose:
        lines += [
            "## Runs not in the paper's tables",
            "",
            "| model | data | metric | ours | n | runtime (s) |",
            "|---|---|---|---|---|---|",
        ]
        for r in loose:
            lines.append(
                f"| {r['model']} | {r['column']} | {r['metric']} | {_fmt(r['ours'], r['metric'])} "
                f"| {r['n_eval']} | {r['runtime_s']} |"
            )
        lines.append("")
    return "\n".join(lines)


def write_report(records: Sequence[dict[str, Any]], out_dir: Path) -> tuple[Path, Path]:
    """Write ``valla_report.md`` and ``valla_report.csv`` under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    markdown = out_dir / "valla_report.md"
    markdown.write_text(render_markdown(records))
    table = out_dir / "valla_report.csv"
    rows = long_rows(records)
    with table.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return markdown, table


def rich_tables(records: Sequence[dict[str, Any]]) -> list[Any]:
    """One rich table per paper table (and one for loose runs), for the terminal."""
    from rich.table import Table

    rows = long_rows(records)
    out = []
    for number, ref in TABLES.items():
        table = Table(title=f"Table {number}: {ref.caption}", caption="paper / ours")
        table.add_column("model")
        for column in ref.columns:
            table.add_column(column, justify="right")
        for model in ref.rows:
            cells = [
                _cell(r).replace("**", "")
                for r in rows
                if r["table"] == number and r["model"] == model
            ]
            table.add_row(model, *cells)
        out.append(table)
    loose = [r for r in rows if r["table"] == ""]
    if loose:
        table = Table(title="Runs not in the paper's tables")
        for name in ("model", "data", "metric", "ours", "n", "runtime (s)"):
            table.add_column(name)
        for r in loose:
            table.add_row(
                r["model"],
                r["column"],
                r["metric"],
                _fmt(r["ours"], r["metric"]),
                str(r["n_eval"]),
                str(r["runtime_s"]),
            )
        out.append(table)
    return out
