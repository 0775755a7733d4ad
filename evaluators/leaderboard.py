"""The STEB leaderboard: a user's runs beside the 40 models of the paper, per view.

Values are shown x100 like the paper. Best and second-best per column are marked among
the rows that are comparable (the paper's rows and runs on all 96 datasets); a run on a
partial dataset set is listed, flagged "not comparable" with its coverage ("k of 96"),
and never marked best.

With the result folders given (``results``), the runs' rows also carry a **rank
interval** (:func:`evaluators.compare.api.rank_results`): each run model's rank among the
run models on the view's overall score, with its 95 % interval from the joint paired
two-level bootstrap of the datasets they all share (the same datasets and unit
resamples for every model), and "tied" where the interval overlaps the leader's.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from evaluators.steb_scores.reference import VIEW_TABLES, reference_rows
from evaluators.steb_scores.results import STEB_TOTAL_DATASETS
from evaluators.steb_scores.scores import OVERALL, VIEWS
from evaluators.steb_scores.summary import Summary
from evaluators.tasks.facts import TASK_FACTS

#: the column headers of the views' own columns (a task type's header is its
#: ``TaskFacts.column``, :mod:`evaluators.tasks.facts`)
VIEW_LABELS = {
    "steb_score": "STEB score",
    "genre": "Genre",
    "register": "Register",
    "time": "Time",
    "demographics": "Demo.",
    "dialect": "Dialect",
    "idiolect": "Idiolect",
    "object_of_study": "Obj. of Study",
    "linguistic_features": "Ling. Feat.",
    "content_independence": "Content-Ind.",
    "average": "Avg.",
    "atd": "ATD",
    "atd_adversarial": "ATD (Adv.)",
    "av_overall": "AV",
    "av_easy": "AV easy",
    "av_medium": "AV medium",
    "av_hard": "AV hard",
    "ar": "AR",
    "pair_classification": "Pair Class.",
}


def column_label(column: str) -> str:
    """The header of a leaderboard column: ``all_to_all_pairs`` -> ``All-to-All``,
    ``steb_score`` -> ``STEB score``; an unknown column as it is."""
    if column in TASK_FACTS:
        return TASK_FACTS[column].column
    return VIEW_LABELS.get(column, column)


@dataclass
class LeaderboardRow:
    model: str
    source: str  # "paper" or "run"
    values: dict[str, float | None]  # x100
    coverage: str
    comparable: bool
    group: str | None = None
    ci: dict[str, tuple[float, float]] = field(default_factory=dict)  # x100
    rank: tuple[int, int, int] | None = None  # among the runs: (rank, low, high), 95 %
    tied: bool = False  # the rank interval overlaps the leading run's


@dataclass
class Leaderboard:
    view: str
    columns: list[str]
    rows: list[LeaderboardRow]
    rank_note: str = ""  # what the rank intervals rest on (or why there are none)

    @property
    def overall(self) -> str:
        return OVERALL.get(self.view, PROTOCOL_COLUMNS[0])

    def marks(self) -> dict[tuple[int, str], str]:
        """{(row index, column): "best" | "second"} among comparable rows, on values rounded
        to the printed two decimals (ties share a mark)."""
        out: dict[tuple[int, str], str] = {}
        for column in self.columns:
            if column.endswith("_rank"):  # ranks are not scores: never marked
                continue
            ranked = sorted(
                {
                    round(r.values[column], 2)
                    for r in self.rows
                    if r.comparable and r.values.get(column) is not None
                },
                reverse=True,
            )
            for i, row in enumerate(self.rows):
                value = row.values.get(column)
                if not row.comparable or value is None:
                    continue
                if ranked and round(value, 2) == ranked[0]:
                    out[(i, column)] = "best"
                elif len(ranked) > 1 and round(value, 2) == ranked[1]:
                    out[(i, column)] = "second"
        return out


def build_leaderboard(
    view: str,
    summary: Summary | None = None,
    *,
    include_paper: bool = True,
    results: Sequence[Path] | None = None,
) -> Leaderboard:
    """Rows of the paper's full table for ``view`` plus one row per model in ``summary``,
    sorted by the view's overall score (rows without one last); with ``results`` (the
    folders ``summary`` was read from), the runs' rank intervals (module doc)."""
    if view not in VIEWS:
        raise ValueError(f"unknown view {view!r}")
    rows: list[LeaderboardRow] = []
    columns: list[str] = []
    if include_paper:
        paper = reference_rows(VIEW_TABLES[view])
        columns = list(paper[0].values)
        for r in paper:
            rows.append(
                LeaderboardRow(
                    r.model,
                    "paper",
                    dict(r.values),
                    f"{STEB_TOTAL_DATASETS} of {STEB_TOTAL_DATASETS}",
                    True,
                    r.group,
                )
            )
    for model, ms in (summary.models if summary else {}).items():
        vs = ms.views.get(view)
        if vs is None:
            continue
        if not columns:
            columns = list(vs.columns)
        rows.append(
            LeaderboardRow(
                model,
                "run",
                {c: (None if v is None else 100.0 * v) for c, v in vs.columns.items()},
                ms.coverage,
                ms.comparable and vs.complete,
                "this run",
                {c: (100.0 * lo, 100.0 * hi) for c, (lo, hi) in vs.ci.items()},
            )
        )
    overall = OVERALL[view]
    rows.sort(key=lambda r: -math.inf if r.values.get(overall) is None else r.values[overall])
    rows.reverse()
    board = Leaderboard(view, columns, rows)
    if results and summary is not None:
        board.rank_note = attach_ranks(board, results, summary)
    return board


def attach_ranks(board: Leaderboard, results: Sequence[Path], summary: Summary) -> str:
    """Set the runs' rank intervals on ``board``; returns what they rest on, or why the
    board has none (fewer than two run models, no shared per-unit data)."""
    from dataset_scripts.core.errors import StylebenchError
    from evaluators.compare.api import rank_results

    runs = [r for r in board.rows if r.source == "run" and r.values.get(board.overall) is not None]
    if len(runs) < 2:
        return ""
    try:
        ranks, info = rank_results(
            list(results),
            [r.model for r in runs],
            view=board.view,
            clusters=summary.clusters,
            n_boot=summary.n_boot,
            seed=summary.seed,
        )
    except StylebenchError as error:
        return f"no rank intervals: {error}"
    by_model = {r.model: r for r in ranks}
    for row in runs:
        if row.model in by_model:
            r = by_model[row.model]
            row.rank, row.tied = (r.rank, r.low, r.high), r.tied_with_leader
    return (
        f"rank [95% interval] among the {len(ranks)} runs on the {info['n_datasets']} "
        f"datasets they share; tied = interval overlaps the leader's ({info['method']})"
    )


def _rank_cell(row: LeaderboardRow) -> str:
    if row.rank is None:
        return "-"
    rank, low, high = row.rank
    return f"{rank} [{low}, {high}]" + (" tied" if row.tied else "")


def _has_ranks(board: Leaderboard) -> bool:
    return any(r.rank is not None for r in board.rows)


PROTOCOL_COLUMNS = ("chunk_and_pool_auc", "chunk_and_pool_rank", "truncate_auc", "truncate_rank")


def protocol_board(chunk: Summary | None, truncate: Summary | None) -> Leaderboard:
    """Appendix F / Table 14: mean AUC on the non-English PAN13-15 AV sets (the
    multilingual pair-classification column) under chunk-and-pool vs. truncation.

    ``chunk`` and ``truncate`` summarise two result folders of the same models, run with
    ``stylebench run --chunk`` and ``--truncate``. A run's rank is the place its AUC takes
    among the paper's five models of that protocol."""
    paper = reference_rows("14")
    rows = [
        LeaderboardRow(r.model, "paper", dict(r.values), "13 of 13", True, r.group) for r in paper
    ]
    models = dict.fromkeys(
        [*(chunk.models if chunk else {}), *(truncate.models if truncate else {})]
    )
    for model in models:
        values: dict[str, float | None] = dict.fromkeys(PROTOCOL_COLUMNS)
        counts = []
        for protocol, summary in (("chunk_and_pool", chunk), ("truncate", truncate)):
            ms = summary.models.get(model) if summary else None
            if ms is None:
                continue
            vs = ms.views["multilingual"]
            auc = vs.columns.get("pair_classification")
            counts.append(vs.n_datasets.get("pair_classification", 0))
            if auc is None:
                continue
            values[f"{protocol}_auc"] = 100.0 * auc
            better = sum(1 for r in paper if r.values[f"{protocol}_auc"] > 100.0 * auc)
            values[f"{protocol}_rank"] = float(better + 1)
        n = min(counts) if counts else 0
        rows.append(LeaderboardRow(model, "run", values, f"{n} of 13", n >= 13, "this run"))
    return Leaderboard("protocol", list(PROTOCOL_COLUMNS), rows)


def _cell(row: LeaderboardRow, column: str, with_ci: bool) -> str:
    value = row.values.get(column)
    if value is None:
        return "-"
    text = f"{value:.2f}"
    if with_ci and column in row.ci:
        lo, hi = row.ci[column]
        text += f" [{lo:.2f}, {hi:.2f}]"
    return text


def _name(row: LeaderboardRow) -> str:
    if row.source == "paper":
        return row.model
    flag = "" if row.comparable else " (not comparable)"
    return f"{row.model} [run, {row.coverage}]{flag}"


def render_rich(board: Leaderboard, with_ci: bool = True):
    """A rich Table; best bold, second underlined, partial runs dimmed."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=f"STEB ({board.view}) leaderboard, x100", caption=board.rank_note or None)
    table.add_column("model", no_wrap=True)
    ranked = _has_ranks(board)
    if ranked:
        table.add_column("rank (95%)", justify="right")
    for column in board.columns:
        table.add_column(column_label(column), justify="right")
    marks = board.marks()
    for i, row in enumerate(board.rows):
        cells = []
        for column in board.columns:
            text = escape(_cell(row, column, with_ci and row.source == "run"))
            mark = marks.get((i, column))
            if mark == "best":
                text = f"[bold]{text}[/bold]"
            elif mark == "second":
                text = f"[underline]{text}[/underline]"
            cells.append(text)
        style = "cyan" if row.source == "run" and row.comparable else None
        style = "dim cyan" if row.source == "run" and not row.comparable else style
        first = [escape(_name(row))] + ([escape(_rank_cell(row))] if ranked else [])
        table.add_row(*first, *cells, style=style)
    return table


def to_markdown(board: Leaderboard, with_ci: bool = True) -> str:
    """A Markdown table: **best**, <u>second</u>; runs show 95 % CIs in brackets."""
    marks = board.marks()
    ranked = _has_ranks(board)
    lead = ["Model", "Coverage", *(["Rank (95%)"] if ranked else [])]
    header = [*lead, *(column_label(c) for c in board.columns)]
    lines = [
        f"STEB ({board.view}) results, x100. Bold = best, underline = second best per column "
        "among comparable rows; runs on a partial dataset set are marked not comparable."
        + (f" Rank: {board.rank_note}." if ranked else ""),
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join(["---"] * len(lead) + ["---:"] * len(board.columns)) + "|",
    ]
    for i, row in enumerate(board.rows):
        cells = []
        for column in board.columns:
            text = _cell(row, column, with_ci and row.source == "run")
            mark = marks.get((i, column))
            if mark == "best":
                text = f"**{text}**"
            elif mark == "second":
                text = f"<u>{text}</u>"
            cells.append(text)
        first = [_name(row), row.coverage, *([_rank_cell(row)] if ranked else [])]
        lines.append("| " + " | ".join([*first, *cells]) + " |")
    return "\n".join(lines) + "\n"


def write_markdown(board: Leaderboard, path: Path) -> Path:
    path.write_text(to_markdown(board), encoding="utf-8")
    return path


def write_csv(board: Leaderboard, path: Path) -> Path:
    """One row per model: value, ci_low, ci_high per column (x100), plus mark."""
    marks = board.marks()
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        head = ["model", "source", "group", "coverage", "comparable"]
        head += ["rank", "rank_ci_low", "rank_ci_high", "rank_tied"]
        for c in board.columns:
            head += [c, f"{c}_ci_low", f"{c}_ci_high", f"{c}_mark"]
        writer.writerow(head)
        for i, row in enumerate(board.rows):
            line = [row.model, row.source, row.group or "", row.coverage, row.comparable]
            line += [*(row.rank or ("", "", "")), row.tied if row.rank else ""]
            for c in board.columns:
                v = row.values.get(c)
                lo, hi = row.ci.get(c, (None, None))
                line += [
                    "" if v is None else f"{v:.4f}",
                    "" if lo is None else f"{lo:.4f}",
                    "" if hi is None else f"{hi:.4f}",
                    marks.get((i, c), ""),
                ]
            writer.writerow(line)
    return path


def plot_leaderboard(board: Leaderboard, path: Path) -> Path:
    """Horizontal bars of the overall score; runs highlighted with 95 % CI whiskers,
    partial runs hatched."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    overall = board.overall
    rows = [r for r in board.rows if r.values.get(overall) is not None]
    rows = rows[::-1]  # best at the top
    fig, ax = plt.subplots(figsize=(8.0, max(3.0, 0.24 * len(rows) + 1.2)))
    for y, row in enumerate(rows):
        value = row.values[overall]
        run = row.source == "run"
        xerr = None
        if run and overall in row.ci:
            lo, hi = row.ci[overall]
            xerr = [[max(value - lo, 0.0)], [max(hi - value, 0.0)]]
        ax.barh(
            y,
            value,
            color="#d62728" if run else "#9ecae1",
            hatch="//" if run and not row.comparable else None,
            edgecolor="black" if run else "none",
            xerr=xerr,
            capsize=3,
        )
    ax.set_yticks(range(len(rows)), [_name(r) for r in rows], fontsize=7)
    ax.set_xlabel(f"{column_label(overall)} (x100)")
    ax.set_title(f"STEB {board.view}: runs (red, hatched = partial) vs. paper", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def export(board: Leaderboard, out_dir: Path, stem: str | None = None) -> dict[str, Path]:
    """Markdown, CSV and PNG of a leaderboard into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = stem or f"steb_{board.view}_leaderboard"
    return {
        "md": write_markdown(board, out_dir / f"{stem}.md"),
        "csv": write_csv(board, out_dir / f"{stem}.csv"),
        "png": plot_leaderboard(board, out_dir / f"{stem}.png"),
    }
