"""Turn run records into a terminal table, a Markdown/CSV summary and a PNG chart."""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from evaluators.records.record import ResultRecord
from evaluators.tasks.facts import TASK_FACTS

Row = tuple[str, str, str, str, float]  # model, dataset, task, main score name, value


def summary_rows(
    records_by_model: dict[str, Sequence[ResultRecord]],
    also: dict[str, Sequence[str]] | None = None,
) -> list[Row]:
    """One row per (model, dataset, task) main score, plus the metrics named in
    ``also`` per task type (e.g. ``{"order_alignment": ["accuracy"]}``)."""
    rows = []
    for model, records in records_by_model.items():
        for r in records:
            names = [r.main_score_name, *(also or {}).get(r.task, ())]
            for name in dict.fromkeys(names):
                rows.append((model, r.dataset.name, r.task, name, r.metrics[name]))
    return rows


#: how people write the metric names (charts, tables); a task type's label is its
#: ``TaskFacts.label`` (:mod:`evaluators.tasks.facts`)
METRIC_LABELS = {
    "v_measure": "V-measure",
    "auc": "AUROC",
    "accuracy": "accuracy",
    "distractor_accuracy": "distractor accuracy",
    "mrr": "MRR",
    "mean_accuracy": "mean accuracy",
}


def readable(name: str) -> str:
    """``all_to_all_pairs`` -> ``all-to-all pairs``, ``auc`` -> ``AUROC``, ..."""
    if name in TASK_FACTS:
        return TASK_FACTS[name].label
    return METRIC_LABELS.get(name, name.replace("_", " "))


def chance_levels(records_by_model: dict[str, Sequence[ResultRecord]]) -> dict[tuple, float]:
    """The score a random encoder gets, per (dataset, task, metric) where it is known
    from the result's counts: AUROC 0.5; V-measure 0; order-alignment accuracy 1/k for
    sequences of k positions (a random assignment has one fixed point on average); MRR
    H(n)/n for n targets with one relevant each.

    >>> round(_mrr_chance(16), 4)
    0.2113
    """
    chance: dict[tuple, float] = {}
    for records in records_by_model.values():
        for r in records:
            task, counts = r.task, r.counts
            key = (r.dataset.name, task)
            if task in ("all_to_all_pairs", "predefined_pairs"):
                chance[(*key, "auc")] = 0.5
            elif task == "clustering":
                chance[(*key, "v_measure")] = 0.0
            elif task == "order_alignment" and counts.get("n_positions"):
                chance[(*key, "accuracy")] = 1.0 / counts["n_positions"]
            elif task == "retrieval" and counts.get("n_queries") == counts.get(
                "n_targets", -1
            ):  # one target per author
                chance[(*key, "mrr")] = _mrr_chance(counts["n_targets"])
    return chance


def _mrr_chance(n: int) -> float:
    return sum(1.0 / k for k in range(1, n + 1)) / n


def _columns(rows: Sequence[Row]) -> list[tuple[str, str, str]]:
    return list(dict.fromkeys((d, t, n) for _, d, t, n, _ in rows))


def _label(dataset: str, task: str, name: str, one_dataset: bool) -> str:
    return f"{task}\n{name}" + ("" if one_dataset else f"\n{dataset}")


def render_table(rows: Sequence[Row], title: str = "stylebench results"):
    """A rich Table: one row per model, one column per (dataset, task) main score."""
    from rich.table import Table

    columns = _columns(rows)
    datasets = {d for d, _, _ in columns}
    one = len(datasets) == 1
    table = Table(title=f"{title} on {next(iter(datasets))}" if one else title, pad_edge=False)
    table.add_column("model", style="bold", no_wrap=True)
    for dataset, task, name in columns:
        label = _label(dataset, readable(task), readable(name), one)
        # never cut a word of the header (a pipe gets an 80-column table)
        table.add_column(label, justify="right", min_width=max(map(len, label.split())))
    values = {(m, d, t, n): v for m, d, t, n, v in rows}
    for model in dict.fromkeys(m for m, *_ in rows):
        cells = [f"{values[(model, *c)]:.3f}" if (model, *c) in values else "-" for c in columns]
        table.add_row(model, *cells)
    return table


def write_csv(rows: Sequence[Row], path: Path) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "dataset", "task", "metric", "score"])
        writer.writerows([*row[:4], f"{row[4]:.6f}"] for row in rows)
    return path


def plot_scores(
    rows: Sequence[Row],
    path: Path,
    title: str = "stylebench results",
    chance: dict[tuple, float] | None = None,
    note: str | None = None,
) -> Path:
    """Grouped bar chart: tasks on the x axis, one bar per model; a dashed line per
    column at the score of a random encoder where ``chance`` knows it; ``note`` under
    the title (e.g. that the demo is a pipeline smoke test)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    columns = _columns(rows)
    models = list(dict.fromkeys(m for m, *_ in rows))
    values = {(m, d, t, n): v for m, d, t, n, v in rows}
    one = len({d for d, _, _ in columns}) == 1
    x = np.arange(len(columns))
    width = 0.8 / max(len(models), 1)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(columns) + 2), 4.2))
    for i, model in enumerate(models):
        heights = [values.get((model, *c), np.nan) for c in columns]
        bars = ax.bar(x + (i - (len(models) - 1) / 2) * width, heights, width, label=model)
        ax.bar_label(bars, fmt="%.2f", fontsize=7, padding=1)
    marked = False
    for i, column in enumerate(columns):
        level = (chance or {}).get(column)
        if level is not None:
            ax.hlines(
                level,
                i - 0.45,
                i + 0.45,
                colors="black",
                linestyles="dashed",
                linewidth=1,
                label=None if marked else "chance (random encoder)",
            )
            marked = True
    labels = [_label(d, readable(t), readable(n), one) for d, t, n in columns]
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_ylim(0, 1.08)
    ax.set_ylabel("score")
    ax.set_title(title if not note else f"{title}\n{note}", fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path
