"""Turn run records into a terminal table, a Markdown/CSV summary and a PNG chart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from evaluators.runner import RunRecord

Row = tuple[str, str, str, str, float]  # model, dataset, task, main score name, value


def summary_rows(records_by_model: dict[str, Sequence[RunRecord]]) -> list[Row]:
    return [
        (model, r.result.dataset, r.result.task_type, r.result.main_score_name, r.result.main_score)
        for model, records in records_by_model.items()
        for r in records
    ]


def _columns(rows: Sequence[Row]) -> list[tuple[str, str, str]]:
    return list(dict.fromkeys((d, t, n) for _, d, t, n, _ in rows))


def render_table(rows: Sequence[Row], title: str = "stylebench results"):
    """A rich Table: one row per model, one column per (dataset, task) main score."""
    from rich.table import Table

    columns = _columns(rows)
    table = Table(title=title)
    table.add_column("model", style="bold")
    for dataset, task, name in columns:
        table.add_column(f"{task}\n{name}\n[dim]{dataset}[/dim]", justify="right")
    values = {(m, d, t): v for m, d, t, _, v in rows}
    for model in dict.fromkeys(m for m, *_ in rows):
        cells = [f"{values[(model, d, t)]:.3f}" if (model, d, t) in values else "-" for d, t, _ in columns]
        table.add_row(model, *cells)
    return table


def write_csv(rows: Sequence[Row], path: Path) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "dataset", "task", "metric", "score"])
        writer.writerows([*row[:4], f"{row[4]:.6f}"] for row in rows)
    return path


def plot_scores(rows: Sequence[Row], path: Path, title: str = "stylebench results") -> Path:
    """Grouped bar chart: tasks on the x axis, one bar per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    columns = _columns(rows)
    models = list(dict.fromkeys(m for m, *_ in rows))
    values = {(m, d, t): v for m, d, t, _, v in rows}
    x = np.arange(len(columns))
    width = 0.8 / max(len(models), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(columns) + 2), 4.2))
    for i, model in enumerate(models):
        heights = [values.get((model, d, t), np.nan) for d, t, _ in columns]
        bars = ax.bar(x + (i - (len(models) - 1) / 2) * width, heights, width, label=model)
        ax.bar_label(bars, fmt="%.2f", fontsize=7, padding=1)
    ax.set_xticks(x, [f"{t}\n({n})" for _, t, n in columns], fontsize=8)
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("main score")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
